"""The decode table of a part: what each instruction of the machine code is, for the model PMU.

    table = decode(code)     # [Insn(offset, length, kind, flags, reads, writes), ...]

Under QEMU the kernel traces one pass of each part with the trap flag (one #DB per instruction)
and takes from this table what each executed instruction did: whether it is a branch, a call or a
return, and how many memory reads and writes it makes (docs/own-code.md, "The decode table").

The bytes are decoded with capstone 4 (Debian's python3-capstone) in one linear sweep from offset
0: consecutive entries, the first at 0, the last ending at the end of the part. A byte capstone
cannot decode gets an entry of length 1 with the flag UNDECODED, and the sweep goes on behind it.

Memory accesses are counted by rules, one access per memory operand however wide, because
capstone 4 gets them wrong in two ways: it lists no operand for the implicit stack accesses
(PUSH, POP, CALL, RET, ...) and its read/write flags of an explicit operand are wrong for many
stores (`vmovdqu [m], ymm`, `movnti`, `fstp`, `pextrb`, `stmxcsr` are marked as reads) and some
read-modify-writes (`rol [m], 3` and `cmpxchg [m], r` as reads). The rules:

- An explicit memory operand that is not the first operand (Intel order) is read.
- A memory first operand is the destination: read and written by the read-modify-write
  instructions (RMW below, or where capstone itself says read and write; XSAVE and XSAVEOPT
  too, which update the header of their area), only read by those that
  merely look at it (READ_FIRST: compares, tests, jumps, calls and pushes through memory, loads of
  x87, control and descriptor state), and otherwise only written (every store).
- LEA, NOP and the cache-line instructions (CLFLUSH, CLFLUSHOPT, CLWB, INVLPG) access nothing:
  their operand is an address, not data. Software prefetches count as one read (they occupy a
  load port as a load does).
- String instructions: MOVS one read and one write, CMPS two reads, SCAS, LODS and OUTS one read,
  STOS and INS one write, each per iteration; with a REP prefix the flag REP says that the CPU
  repeats them RCX times, so that the trace can count the iterations rather than the one entry.
- The stack, one access per value moved: PUSH, PUSHF and CALL write one (a far CALL two), POP,
  POPF, RET and LEAVE read one (a far RET two, IRETQ five: RIP, CS, RFLAGS, RSP, SS), ENTER with
  nesting level L writes L + 1 and reads L - 1 (L = 0: one write). INT, SYSCALL and their kin
  switch to the kernel's stack and count nothing here.
- XLAT reads one byte, MASKMOVQ/MASKMOVDQU write one (at RDI).

tests/host/test_decode_zydis.c holds these rules against Zydis 4 (Debian's libzydis), which lists
implicit operands, on tests/owncode/decode_corpus.s. They agree but where the rules choose
otherwise on purpose: Zydis reads the address operand of NOP, CLFLUSH(OPT), CLWB and INVLPG, and
gives ENTER one write whatever its level, IRETQ and a far RET one read each.
"""

import capstone
import capstone.x86_const as x86

# Kinds of control transfer (bundle.h: enum bundle_insn_kind).
KIND_NONE, KIND_JCC, KIND_JMP, KIND_CALL, KIND_RET, KIND_FAR = range(6)
KIND_NAMES = ("none", "jcc", "jmp", "call", "ret", "far")
# Flags (bundle.h: BUNDLE_INSN_*).
FLAG_INDIRECT = 0x1    # a JMP or CALL through a register or memory
FLAG_UNDECODED = 0x2   # a byte capstone could not decode
FLAG_REP = 0x4         # a string instruction with a REP/REPE/REPNE prefix


def _ids(*names):
    return frozenset(getattr(x86, "X86_INS_" + n.upper()) for n in names)


JCC = _ids("ja", "jae", "jb", "jbe", "jcxz", "jecxz", "jrcxz", "je", "jg", "jge", "jl", "jle",
           "jne", "jno", "jnp", "jns", "jo", "jp", "js", "loop", "loope", "loopne")
FAR = _ids("ljmp", "lcall", "retf", "retfq", "iret", "iretd", "iretq", "int", "int1", "int3",
           "into", "syscall", "sysenter", "sysexit", "sysret")

RMW = _ids("add", "adc", "sub", "sbb", "and", "or", "xor", "inc", "dec", "neg", "not", "rol",
           "ror", "rcl", "rcr", "shl", "sal", "shr", "sar", "shld", "shrd", "bts", "btr", "btc",
           "xchg", "xadd", "cmpxchg", "cmpxchg8b", "cmpxchg16b",
           # They update XSTATE_BV in the header of the area they save into (SDM vol. 1, 13.7).
           "xsave", "xsave64", "xsaveopt", "xsaveopt64")
READ_FIRST = _ids(
    "cmp", "test", "bt", "jmp", "ljmp", "call", "lcall", "push", "mul", "imul", "div", "idiv",
    "lgdt", "lidt", "lldt", "ltr", "lmsw", "verr", "verw", "ldmxcsr", "vldmxcsr", "fxrstor",
    "fxrstor64", "xrstor", "xrstor64", "xrstors", "xrstors64", "fldcw", "fldenv", "frstor",
    "fld", "fild", "fbld", "fadd", "fiadd", "fsub", "fisub", "fsubr", "fisubr", "fmul", "fimul",
    "fdiv", "fidiv", "fdivr", "fidivr", "fcom", "fcomp", "ficom", "ficomp",
    "prefetch", "prefetchw", "prefetchnta", "prefetcht0", "prefetcht1",
    "prefetcht2")
NO_ACCESS = _ids("lea", "nop", "clflush", "clflushopt", "clwb", "invlpg")

# String instructions: (reads, writes) of one iteration.
STRING = {}
for _names, _rw in ((("movsb", "movsw", "movsd", "movsq"), (1, 1)),
                    (("cmpsb", "cmpsw", "cmpsd", "cmpsq"), (2, 0)),
                    (("scasb", "scasw", "scasd", "scasq"), (1, 0)),
                    (("lodsb", "lodsw", "lodsd", "lodsq"), (1, 0)),
                    (("outsb", "outsw", "outsd"), (1, 0)),
                    (("stosb", "stosw", "stosd", "stosq"), (0, 1)),
                    (("insb", "insw", "insd"), (0, 1))):
    for _id in _ids(*_names):
        STRING[_id] = _rw
# SSE's MOVSD and CMPSD (scalar double) share their names with the string forms: capstone tells
# them apart by operands (a string form has no register operand but RAX-family or DX).
REP_PREFIXES = (x86.X86_PREFIX_REP, x86.X86_PREFIX_REPNE)

# Implicit stack accesses: (reads, writes).
STACK = {}
for _names, _rw in ((("push", "pushf", "pushfd", "pushfq", "call"), (0, 1)),
                    (("pop", "popf", "popfd", "popfq", "ret", "leave"), (1, 0)),
                    (("lcall",), (0, 2)), (("retf", "retfq"), (2, 0)),
                    (("iret", "iretd", "iretq"), (5, 0)),
                    (("xlatb",), (1, 0)),
                    (("maskmovq", "maskmovdqu", "vmaskmovdqu"), (0, 1))):
    for _id in _ids(*_names):
        STACK[_id] = _rw


class Insn:
    """One entry of the table (bundle.h: struct bundle_insn)."""

    def __init__(self, offset, length, kind=KIND_NONE, flags=0, reads=0, writes=0, text=""):
        self.offset = offset
        self.length = length
        self.kind = kind
        self.flags = flags
        self.reads = reads
        self.writes = writes
        self.text = text      # the disassembly, for people (not in the bundle)

    def fields(self):
        return (self.offset, self.length, self.kind, self.flags, self.reads, self.writes)

    def __eq__(self, other):
        return isinstance(other, Insn) and self.fields() == other.fields()

    def __repr__(self):
        return "Insn(%d, %d, %s, flags=%d, r=%d, w=%d%s)" % (
            self.offset, self.length, KIND_NAMES[self.kind], self.flags, self.reads,
            self.writes, ", " + repr(self.text) if self.text else "")


def _disassembler():
    md = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
    md.detail = True
    md.skipdata = True
    return md


def decode(code):
    """The decode table of the bytes, one linear sweep from offset 0."""
    md = _disassembler()
    table = []
    for i in md.disasm(code, 0):
        if i.id == 0:
            # skipdata: capstone could not decode this byte.
            table.append(Insn(i.address, i.size, flags=FLAG_UNDECODED, text=i.mnemonic + " " +
                              i.op_str))
            continue
        kind, flags = transfer(i)
        reads, writes = accesses(i)
        if i.id in STRING and _is_string_form(i) and i.prefix[0] in REP_PREFIXES:
            flags |= FLAG_REP
        table.append(Insn(i.address, i.size, kind, flags, reads, writes,
                          (i.mnemonic + " " + i.op_str).strip()))
    return table


def transfer(i):
    """(kind, flags) of the instruction's control transfer."""
    if i.id in JCC:
        return KIND_JCC, 0
    if i.id in FAR:
        return KIND_FAR, 0
    if i.id in (x86.X86_INS_JMP, x86.X86_INS_CALL):
        direct = len(i.operands) == 1 and i.operands[0].type == x86.X86_OP_IMM
        kind = KIND_JMP if i.id == x86.X86_INS_JMP else KIND_CALL
        return kind, 0 if direct else FLAG_INDIRECT
    if i.id == x86.X86_INS_RET:
        return KIND_RET, 0
    return KIND_NONE, 0


def _is_string_form(i):
    """MOVSD/CMPSD are also SSE2 instructions on XMM registers; the string forms have only memory
    operands besides the accumulator or DX."""
    return not any(op.type == x86.X86_OP_REG and i.reg_name(op.reg).startswith(("xmm", "ymm"))
                   for op in i.operands)


def accesses(i):
    """(reads, writes) of the instruction, by the rules of this module's docstring."""
    if i.id in STRING and _is_string_form(i):
        return STRING[i.id]
    reads, writes = STACK.get(i.id, (0, 0))
    if i.id == x86.X86_INS_ENTER:
        level = (i.operands[1].imm & 31) if len(i.operands) > 1 else 0
        return (level - 1 if level > 1 else 0), level + 1
    if i.id in NO_ACCESS:
        return reads, writes
    for position, op in enumerate(i.operands):
        if op.type != x86.X86_OP_MEM:
            continue
        r, w = _explicit(i, op, position)
        reads += r
        writes += w
    return reads, writes


def _explicit(i, op, position):
    """(reads, writes) of one explicit memory operand."""
    if position > 0:
        return 1, 0
    if i.id in RMW or op.access == capstone.CS_AC_READ | capstone.CS_AC_WRITE:
        return 1, 1
    if i.id in READ_FIRST:
        return 1, 0
    return 0, 1


def describe(table):
    """The table as text, one instruction a line, for --show."""
    lines = []
    for e in table:
        what = [KIND_NAMES[e.kind]] if e.kind else []
        what += [name for bit, name in ((FLAG_INDIRECT, "indirect"), (FLAG_UNDECODED,
                                                                        "undecoded"),
                                        (FLAG_REP, "rep")) if e.flags & bit]
        lines.append("  %5d  %2d  %-40s reads %d, writes %d%s" % (
            e.offset, e.length, e.text, e.reads, e.writes,
            " (" + ", ".join(what) + ")" if what else ""))
    return lines
