"""The built-in workloads' model profiles against a trace of their code (selftest=profiles).

    workloads, problems = collect(records, elf)   # records: pmu_records.Record objects
    text = report_text(records, elf)              # the table pmu-report prints

The kernel traces each workload three times with the trap flag (tests/profiles/profiles.h): n
units in one chunk, 2n in one chunk, 2n in two chunks of n, each from the workload's entry to the
time check after its last chunk, and writes a `trace` record per run: the model's counts for
what the workload's ledger says it did, and the edges (from, to, count) the trace took. Here each
edge's `from` is decoded in the kernel's ELF by pmu-bench's decode table (pmu_bench_decode, with
capstone: the implicit memory accesses of PUSH, POP, CALL, RET included), and counted as
tests/owncode/trace.c counts a bundle's trace: an instruction per step, a conditional branch
taken where `to` is not the instruction after it, the reads and writes of each step.

One step the trace cannot see: ring 3 comes back from a system call with TF set through IRETQ,
and a trap comes after the instruction following one that set TF (SDM vol. 3B, 17.3.1.4), so the
instruction after SYSCALL runs without a #DB of its own: an edge from a SYSCALL to anywhere but
the instruction after it counts that instruction too (idle's halts).

From the three runs, per event: a unit is (2n in one chunk - n in one chunk) / n; a chunk's own
work is (2n in two chunks - 2n in one chunk); what is left of the first run is the run's entry
(set-up, the first claim of a ledger slot). The same differences of the model's counts say what
the profiles count for each. docs/model.md, "Traced and fitted", says what is compared.
"""

import struct
import zlib
from fractions import Fraction

# What a trace gives (tests/owncode/trace.c: bench_trace_events), as the records' "0xUUEE".
EVENTS = (
    ("0x00c0", "instructions", "INST_RETIRED.ANY_P"),
    ("0x00c4", "branches", "BR_INST_RETIRED.ALL_BRANCHES"),
    ("0x01c4", "conditional", "BR_INST_RETIRED.CONDITIONAL"),
    ("0x02c4", "calls", "BR_INST_RETIRED.NEAR_CALL"),
    ("0x08c4", "returns", "BR_INST_RETIRED.NEAR_RETURN"),
    ("0x10c4", "not taken", "BR_INST_RETIRED.NOT_TAKEN"),
    ("0x20c4", "taken", "BR_INST_RETIRED.NEAR_TAKEN"),
    ("0x40c4", "far", "BR_INST_RETIRED.FAR_BRANCH"),
    ("0x81d0", "loads", "MEM_UOPS_RETIRED.ALL_LOADS"),
    ("0x82d0", "stores", "MEM_UOPS_RETIRED.ALL_STORES"),
)
CODES = tuple(code for code, _, _ in EVENTS)
PARTS = ("unit", "chunk", "entry")


class TraceError(Exception):
    """The traces cannot be decoded: no ELF, another kernel's ELF, no capstone."""


class Image:
    """The loadable segments of an ELF64 file, by virtual address."""

    def __init__(self, path):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise TraceError("cannot read the kernel's ELF %s: %s" % (path, e.strerror or e))
        if data[:4] != b"\x7fELF" or data[4] != 2:
            raise TraceError("%s is not an ELF64 file" % path)
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
        self.segments = []
        for i in range(phnum):
            kind, _, offset, vaddr, _, filesz = struct.unpack_from(
                "<IIQQQQ", data, phoff + i * phentsize)
            if kind == 1:  # PT_LOAD
                self.segments.append((vaddr, data[offset:offset + filesz]))

    def read(self, address, size):
        """Up to size bytes at address (fewer at the end of a segment); b"" outside them."""
        for vaddr, data in self.segments:
            if vaddr <= address < vaddr + len(data):
                return data[address - vaddr:address - vaddr + size]
        return b""


class Decoder:
    """Instructions at addresses of the image, decoded once each."""

    def __init__(self, image):
        try:
            import pmu_bench_decode
        except ImportError:
            raise TraceError("python3-capstone is not installed (Debian: apt-get install "
                             "python3-capstone): the traces cannot be decoded")
        self.decode = pmu_bench_decode
        self.image = image
        self.cache = {}

    def at(self, address):
        insn = self.cache.get(address)
        if insn is None:
            code = self.image.read(address, 16)
            table = self.decode.decode(code) if code else []
            if not table or table[0].flags & self.decode.FLAG_UNDECODED:
                raise TraceError("no instruction at 0x%x in the kernel's ELF" % address)
            insn = self.cache[address] = table[0]
        return insn


def edges_of(record):
    """The record's edges as (from, to, count): docs/records.md, `trace`."""
    flat = record["edges"]
    if len(flat) % 3:
        raise TraceError("a trace record's edges are not triples")
    address, out = int(record["base"], 16), []
    for i in range(0, len(flat), 3):
        address += flat[i]
        out.append((address, address + flat[i + 1], flat[i + 2]))
    return out


def _count(decoder, counts, address, to, n):
    insn = decoder.at(address)
    after = address + insn.length
    if insn.text == "syscall" and to != after:
        # The instruction after SYSCALL ran without a #DB (this module's docstring).
        _count(decoder, counts, after, to, n)
        to = after
    counts["0x81d0"] += insn.reads * n
    counts["0x82d0"] += insn.writes * n
    if insn.flags & decoder.decode.FLAG_REP and to == address:
        return  # one more iteration of a REP string instruction: it retires once
    counts["0x00c0"] += n
    kind, taken = insn.kind, to != after
    d = decoder.decode
    if kind in (d.KIND_JCC, d.KIND_JMP, d.KIND_CALL, d.KIND_RET, d.KIND_FAR):
        counts["0x00c4"] += n
    if kind == d.KIND_JCC:
        counts["0x01c4"] += n
        counts["0x20c4" if taken else "0x10c4"] += n
    elif kind in (d.KIND_JMP, d.KIND_CALL, d.KIND_RET):
        counts["0x20c4"] += n
        counts["0x02c4"] += n if kind == d.KIND_CALL else 0
        counts["0x08c4"] += n if kind == d.KIND_RET else 0
    elif kind == d.KIND_FAR:
        counts["0x40c4"] += n


def trace_counts(decoder, record):
    """{event code: count} of what the record's trace executed."""
    counts = dict.fromkeys(CODES, 0)
    for address, to, n in edges_of(record):
        _count(decoder, counts, address, to, n)
    return counts


class Workload:
    """One workload's three runs, and what a unit, a chunk and the entry count in each."""

    def __init__(self, name):
        self.name = name
        self.runs = {}  # (units, chunks): record

    def shape(self):
        """n, and the three runs' records (A: n in 1 chunk, B: 2n in 1, C: 2n in 2)."""
        ones = sorted(units for units, chunks in self.runs if chunks == 1)
        if len(ones) != 2 or ones[1] != 2 * ones[0] or (ones[1], 2) not in self.runs:
            return None
        n = ones[0]
        return n, self.runs[(n, 1)], self.runs[(2 * n, 1)], self.runs[(2 * n, 2)]

    def parts(self, counts_of):
        """{part: {code: Fraction}} from counts_of(record) of the three runs."""
        n, a, b, c = self.shape()
        ca, cb, cc = counts_of(a), counts_of(b), counts_of(c)
        out = {part: {} for part in PARTS}
        for code in CODES:
            unit = Fraction(cb[code] - ca[code], n)
            chunk = Fraction(cc[code] - cb[code])
            out["unit"][code] = unit
            out["chunk"][code] = chunk
            out["entry"][code] = ca[code] - n * unit - chunk
        return out


def collect(records, elf):
    """({name: Workload} in the records' order, problems) of the `trace` records, the traces
    decoded in the ELF at elf. Raises TraceError when they cannot be."""
    workloads, problems = {}, []
    for record in records:
        if record.type != "trace":
            continue
        obj = record.obj
        if obj.get("error"):
            problems.append("%s: the kernel's trace is not whole: %s" % (
                obj.get("workload"), obj["error"]))
            continue
        w = workloads.setdefault(obj["workload"], Workload(obj["workload"]))
        w.runs[(obj["units"], obj["chunks"])] = obj
    if not workloads:
        return workloads, problems
    decoder = Decoder(Image(elf))
    _check_code(decoder.image, next(iter(workloads.values())).runs, elf)
    for w in list(workloads.values()):
        if w.shape() is None:
            problems.append("%s: not the three runs of a trace (n, 2n in one chunk, 2n in two)"
                            % w.name)
            del workloads[w.name]
            continue
        w.traced = w.parts(lambda r: trace_counts(decoder, r))
        w.model = w.parts(lambda r: {code: r["model"].get(code, 0) for code in CODES})
    return workloads, problems


def _check_code(image, runs, elf):
    code = next(iter(runs.values()))["code"]
    start, end = int(code["start"], 16), int(code["end"], 16)
    crc = zlib.crc32(image.read(start, end - start)) if end > start else None
    if crc != int(code["crc32"], 16):
        raise TraceError("%s is not the kernel that wrote these traces (its ring-3 code's "
                         "CRC-32 differs): give the ELF of that build" % elf)


# Workloads whose branches per unit include coin tosses (tests/ring3/branchy.c: one branch on
# each of 64 random bits a word): the profile counts half of them taken, the trace what the traced
# words did. A fall-through runs one more instruction (the ADD it skips otherwise), so the three
# figures move together: instructions and not taken by d, taken by -d.
COIN_TOSSES = {"branchy": 64}
COIN_CODES = ("0x00c0", "0x10c4", "0x20c4")
# How far d may go: four standard deviations of the mean of n * tosses fair coins, per unit.
COIN_SIGMAS = 4


def coin_bound(tosses, n):
    """The largest |d| per unit that n units of `tosses` fair coins each explain."""
    return COIN_SIGMAS * (tosses * n) ** 0.5 / 2 / n


def disagreements(w):
    """Sentences, one per figure where the workload's profile and its trace disagree beyond what
    the comparison allows: the unit's and the chunk's figures must be equal, but for the coin
    tosses of COIN_TOSSES; the run's entry is not modelled and not compared."""
    out, n = [], w.shape()[0]
    tosses = COIN_TOSSES.get(w.name)
    if tosses:
        d = {code: w.traced["unit"][code] - w.model["unit"][code] for code in COIN_CODES}
        if not (d["0x00c0"] == d["0x10c4"] == -d["0x20c4"]):
            out.append("%s: per unit, instructions, not taken and taken differ from the profile "
                       "by %s, %s and %s: not as %d coin tosses make them differ" % (
                           w.name, _figure(d["0x00c0"]), _figure(d["0x10c4"]),
                           _figure(d["0x20c4"]), tosses))
        elif abs(d["0x00c0"]) > coin_bound(tosses, n):
            out.append("%s: per unit, the traced words fell through %s times more than half of "
                       "%d coin tosses, more than %.2f" % (
                           w.name, _figure(d["0x10c4"]), tosses, coin_bound(tosses, n)))
    for part in ("unit", "chunk"):
        for code, name, _ in EVENTS:
            if part == "unit" and tosses and code in COIN_CODES:
                continue
            m, t = w.model[part][code], w.traced[part][code]
            if m != t:
                out.append("%s: per %s, %s: the profile counts %s, the trace %s" % (
                    w.name, part, name, _figure(m), _figure(t)))
    return out


def _figure(value):
    if value.denominator == 1:
        return "%d" % value
    return "%.2f" % float(value)


def render_workload(w):
    """Lines: per event, the profile's and the trace's unit and chunk side by side, and the
    run's entry (traced, not modelled)."""
    n = w.shape()[0]
    lines = ["  %s (n = %d)" % (w.name, n),
             "    %-13s %20s %20s %10s" % ("", "a unit", "a chunk", "a run's entry"),
             "    %-13s %9s %10s%9s %10s%10s" % (
                 "event", "profile", "trace ", "profile", "trace ", "trace ")]
    for code, name, _ in EVENTS:
        cells = []
        for part in ("unit", "chunk"):
            m, t = w.model[part][code], w.traced[part][code]
            cells += [_figure(m), _figure(t) + ("*" if m != t else " ")]
        # A coin-tossing workload's entry also holds how the first run's words differ from the
        # unit's: not a figure of the code.
        coins = w.name in COIN_TOSSES and code in COIN_CODES
        cells.append("-" if coins else _figure(w.traced["entry"][code]) + " ")
        lines.append("    %-13s %9s %10s%9s %10s%10s" % ((name,) + tuple(cells)))
    wrong = disagreements(w)
    lines += ["    " + line for line in wrong] or ["    the profile agrees with the trace"]
    return lines


def report_text(records, elf):
    """The comparison as pmu-report prints it; "" when the log has no `trace` record."""
    if not any(r.type == "trace" for r in records):
        return ""
    out = ["", "Profiles against traces (selftest=profiles, docs/model.md; * where they differ)"]
    try:
        workloads, problems = collect(records, elf)
    except TraceError as e:
        return "\n".join(out + ["  " + str(e)]) + "\n"
    for w in workloads.values():
        out += render_workload(w)
    out += ["  " + p for p in problems]
    return "\n".join(out) + "\n"
