"""The parts of a bundle as machine code: Intel-syntax assembly through GNU as, or raw files.

    code = assemble(text, option)     # option names the -asm... option in errors
    code = read_code(path, option)

Assembly is as nanoBench takes it: statements separated by `;` or new lines, Intel syntax with
bare register names (`as --64 -msyntax=intel -mnaked-reg`), plus nanoBench's `|n` statement for an
n-byte NOP (1 <= n <= 15) and its `n*|x|`, which repeats the statements x n times (no nesting,
as in nanoBench). A label `1:` follows the code, as in nanoBench, so that `jmp 1f` leaves
it. Each statement goes on its own line of the source given to `as`, so that an error names the
statement it is about.

The kernel copies a part to an address of its choosing, so the code must not need a relocation
(an absolute address of one of its labels, a symbol outside it): `as` leaves those to a linker,
and here they are refused, naming the symbol. Only `.text` is loaded: data in another section is
refused too.
"""

import os
import re
import shutil
import subprocess
import tempfile

AS = "as"
OBJCOPY = "objcopy"
READELF = "readelf"
AS_FLAGS = ["--64", "-msyntax=intel", "-mnaked-reg"]

# A part the kernel copies (and unrolls, for the code) is at most this long (bundle.h:
# BUNDLE_MAX_PART).
MAX_PART = 1 << 20

# `|n` with an optional label before it: nanoBench's n-byte NOP.
NOP_RE = re.compile(r"^((?:\s*[A-Za-z0-9_.$]+:)*)\s*\|\s*(\S*)\s*$")

# The recommended multi-byte NOP forms of the SDM (vol. 2B, NOP, table 4-12) for 1 to 9 bytes:
# 0F 1F /0 with a ModRM (and SIB, displacement) of the needed length, 66 where one byte is
# missing.
_NOP_BODY = {
    1: "90", 2: "6690", 3: "0f1f00", 4: "0f1f4000", 5: "0f1f440000", 6: "660f1f440000",
    7: "0f1f8000000000", 8: "0f1f840000000000", 9: "660f1f840000000000",
}


class AsmError(Exception):
    """Code that cannot become a part; the message names the option and what is wrong."""


def nop(n):
    """The n-byte NOP of `|n`. From 10 bytes on: the 8-byte form behind a CS segment override
    (2E) and n - 9 operand-size prefixes (66), as GNU as pads with long NOPs; an instruction
    holds at most 15 bytes (SDM vol. 2A, 2.3.11)."""
    if not 1 <= n <= 15:
        raise ValueError("an n-byte NOP takes n from 1 to 15")
    if n in _NOP_BODY:
        return bytes.fromhex(_NOP_BODY[n])
    return b"\x66" * (n - 9) + b"\x2e" + bytes.fromhex(_NOP_BODY[8])


# nanoBench's n*|x|: x repeated n times; x may hold `|n` NOPs, no other bar.
REPEAT_RE = re.compile(r"(\d*)\*\|((?:\|\s*\d+|[^|])+?)\|")
MAX_REPEAT = 1000000


def repeat(text, option):
    """The text with every n*|x| written out (n copies of x, each ending with `;`); AsmError
    for a count out of range, or a repetition inside another."""
    def one(m):
        if not m.group(1) or not 1 <= int(m.group(1)) <= MAX_REPEAT:
            raise AsmError("%s: %s: n*|x| repeats x n times, n from 1 to %d" % (
                option, m.group(0), MAX_REPEAT))
        if "*|" in m.group(2) or re.search(r"\d\*\s*$", m.group(2)):
            raise AsmError("%s: %s: n*|x| does not nest (nor does nanoBench's)" % (
                option, m.group(0)))
        return (m.group(2) + ";") * int(m.group(1))
    out = REPEAT_RE.sub(one, text)
    if re.search(r"\d*\*\|", out):
        raise AsmError("%s: an n*|x| without its closing bar, or nested: %s" % (
            option, re.search(r"\d*\*\|.{0,40}", out).group(0)))
    return out


def statements(text):
    """The statements of the text: split at `;` and new lines outside quotes, blanks dropped."""
    out, current, quote = [], [], None
    for ch in text:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            current.append(ch)
        elif ch in ";\n\r":
            out.append("".join(current))
            current = []
        else:
            current.append(ch)
    out.append("".join(current))
    return [s.strip() for s in out if s.strip()]


def expand(statement, option):
    """The statement with `|n` turned into its NOP's bytes."""
    m = NOP_RE.match(statement)
    if not m:
        return statement
    labels, count = m.groups()
    try:
        n = int(count) if count.isdigit() else 0
        body = nop(n)
    except ValueError as e:
        raise AsmError("%s: |%s: %s" % (option, count, e))
    return (labels.strip() + " " if labels.strip() else "") + ".byte " + ",".join(
        "0x%02x" % b for b in body)


def source(text, option):
    """The assembler source: one statement a line (line k + 1 is statement k), then `1:`."""
    return "".join(expand(s, option) + "\n" for s in statements(text)) + "1:\n"


def assemble(text, option):
    """The machine code of an Intel-syntax text; AsmError naming `option` on any problem."""
    text = repeat(text, option)
    if not text.strip():
        return b""
    if shutil.which(AS) is None:
        raise AsmError("%s: GNU as is not installed (Debian: binutils; tools/deps.sh installs "
                       "it)" % option)
    stmts = statements(text)
    with tempfile.TemporaryDirectory(prefix="pmu-bench-as-") as tmp:
        src, obj, raw = (os.path.join(tmp, n) for n in ("code.s", "code.o", "code.bin"))
        with open(src, "w") as f:
            f.write(source(text, option))
        proc = subprocess.run([AS] + AS_FLAGS + ["-o", obj, src], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            raise AsmError("%s: the assembler refused it:\n%s" % (
                option, explain(proc.stderr, src, stmts)))
        check_object(obj, option)
        subprocess.run([OBJCOPY, "-O", "binary", "-j", ".text", obj, raw], check=True,
                       capture_output=True)
        with open(raw, "rb") as f:
            code = f.read()
    return check_size(code, option)


def explain(stderr, src, stmts):
    """as's messages with each line number replaced by the statement it is about."""
    lines = []
    for line in stderr.splitlines():
        if line.endswith("Assembler messages:"):
            continue
        m = re.match(re.escape(src) + r":(\d+): (.*)", line)
        if m:
            k = int(m.group(1)) - 1
            what = "statement %d `%s`" % (k + 1, stmts[k]) if k < len(stmts) else "the end"
            lines.append("  %s: %s" % (what, m.group(2)))
        elif line.strip():
            lines.append("  " + line.replace(src, "the code"))
    return "\n".join(lines) or "  (no message)"


def check_object(obj, option):
    """Refuses an object that needs relocations or has data outside .text."""
    relocs = subprocess.run([READELF, "-rW", obj], capture_output=True, text=True).stdout
    for line in relocs.splitlines():
        fields = line.split()
        if len(fields) >= 5 and re.fullmatch(r"[0-9a-f]{8,16}", fields[0]) and \
                fields[2].startswith("R_X86_64"):
            raise AsmError(
                "%s: the code needs a relocation (%s against %s at offset 0x%x): the kernel "
                "places it at an address of its own, so refer to labels RIP-relative "
                "(lea rax, [rip+label]) and to nothing outside the code" % (
                    option, fields[2], fields[4], int(fields[0], 16)))
    sections = subprocess.run([READELF, "-SW", obj], capture_output=True, text=True).stdout
    for m in re.finditer(r"\]\s+(\S+)\s+(PROGBITS|NOBITS)\s+\S+\s+\S+\s+([0-9a-f]+)\s+\S+\s+"
                         r"(\S*A\S*)", sections):
        name, size = m.group(1), int(m.group(3), 16)
        if name != ".text" and size:
            raise AsmError("%s: the code puts %d bytes into section %s: only .text is loaded"
                           % (option, size, name))


def check_size(code, option):
    if len(code) > MAX_PART:
        raise AsmError("%s: %d bytes of code, at most %d" % (option, len(code), MAX_PART))
    return code


def read_code(path, option):
    """The bytes of a raw machine-code file; AsmError naming `option` when it cannot be read."""
    try:
        with open(path, "rb") as f:
            code = f.read(MAX_PART + 1)
    except OSError as e:
        raise AsmError("%s %s: cannot read it: %s" % (option, path, e.strerror or e))
    return check_size(code, option)
