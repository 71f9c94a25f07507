"""The workloads' profiles against their traces (tools/pmu_trace.py, selftest=profiles): the edges
of a `trace` record decoded in an ELF and counted as tests/owncode/trace.c counts a bundle's trace
(implicit stack accesses, taken branches, the instruction after SYSCALL that has no #DB of its
own), the three runs split into a unit, a chunk and the entry, and every figure where a profile
and its trace disagree named. The code is assembled here (GNU as, pmu_bench_asm) into a small
ELF; the records are what the kernel would write for it."""

import os
import struct
import tempfile
import unittest
import zlib
from fractions import Fraction

from reporttest import TempDirCase
import pmu_trace

try:
    import capstone  # noqa: F401  (pmu_bench_decode needs it)
    import pmu_bench_asm
    import pmu_bench_decode
    HAVE_CAPSTONE = True
except ImportError:
    HAVE_CAPSTONE = False

BASE = 0x401000
# A workload as the kernel's are shaped: the entry, then per chunk the time check (RDTSC), n units
# of a loop (a load, a store, the count, the branch back) and the chunk's own work (PUSH, POP:
# a store and a load; the jump back to the time check). Then code for the other cases.
SOURCE = """
    xor ecx, ecx
    jmp 2f
2:  rdtsc
3:  mov rax, [rdi]
    mov [rsi], rax
    dec rcx
    jnz 3b
    push rbx
    pop rbx
    jmp 2b
    syscall
    add rax, 1
    call 4f
    rep movsb
4:  ret
"""
# What a unit and a chunk of that code do, by the SDM: the loop's four instructions, one load,
# one store, its JNZ taken but at the chunk's end; a chunk's RDTSC, PUSH, POP and JMP, the loop's
# exit (one JNZ not taken instead of taken), a store and a load; the entry's XOR and JMP.
UNIT = {"0x00c0": 4, "0x00c4": 1, "0x01c4": 1, "0x20c4": 1, "0x81d0": 1, "0x82d0": 1}
CHUNK = {"0x00c0": 4, "0x00c4": 1, "0x10c4": 1, "0x81d0": 1, "0x82d0": 1}
ENTRY = {"0x00c0": 2, "0x00c4": 1, "0x20c4": 1}


class Record:
    def __init__(self, obj):
        self.type, self.obj = "trace", obj


def elf_file(path, code):
    """An ELF64 executable with one loadable segment: code at BASE."""
    header = struct.pack("<4sBBBBB7sHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 0, b"", 2, 0x3e, 1,
                         BASE, 64, 0, 0, 64, 56, 1, 0, 0, 0)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 120, BASE, BASE, len(code), len(code), 0x1000)
    with open(path, "wb") as f:
        f.write(header + phdr + code)


@unittest.skipUnless(HAVE_CAPSTONE, "python3-capstone is not installed")
class Traces(TempDirCase):
    def setUp(self):
        super().setUp()
        self.code = pmu_bench_asm.assemble(SOURCE, "-asm")
        # (text, address) of each instruction; the decode table's jump targets are offsets.
        self.at = [(insn.text, BASE + insn.offset)
                   for insn in pmu_bench_decode.decode(self.code)]
        self.elf = os.path.join(self.tmp, "kernel.elf")
        elf_file(self.elf, self.code)

    def addr(self, text, occurrence=0):
        return [address for t, address in self.at if t == text][occurrence]

    def run_edges(self, units, chunks):
        """The edges of a traced run: the entry, then chunks of units / chunks units each, up to
        the time check after the last (where the kernel stops the trace)."""
        a = self.addr
        loop = [a("mov rax, qword ptr [rdi]"), a("mov qword ptr [rsi], rax"), a("dec rcx"),
                a("jne 6")]
        path = [a("xor ecx, ecx"), a("jmp 4"), a("rdtsc")]
        for _ in range(chunks):
            path += loop * (units // chunks)
            path += [a("push rbx"), a("pop rbx"), a("jmp 4", 1), a("rdtsc")]
        path.pop()  # the time check after the last chunk does not run
        edges = {}
        for frm, to in zip(path, path[1:] + [a("rdtsc")]):
            edges[(frm, to)] = edges.get((frm, to), 0) + 1
        return sorted((f, t, n) for (f, t), n in edges.items())

    def record(self, units, chunks, edges, unit=UNIT, chunk=CHUNK, name="loop"):
        flat, prev = [], edges[0][0]
        for frm, to, n in edges:
            flat += [frm - prev, to - frm, n]
            prev = frm
        model = {code: unit.get(code, 0) * units + chunk.get(code, 0) * chunks
                 for code in pmu_trace.CODES}
        return Record(dict(workload=name, units=units, chunk_units=units // chunks,
                           chunks=chunks, steps=sum(e[2] for e in edges), error=None,
                           code=dict(start=hex(BASE), end=hex(BASE + len(self.code)),
                                     crc32=hex(zlib.crc32(self.code))),
                           ledger=[], model=model, base=hex(edges[0][0]), edges=flat))

    def runs(self, **profile):
        return [self.record(u, c, self.run_edges(u, c), **profile)
                for u, c in ((16, 1), (32, 1), (32, 2))]

    def test_a_unit_a_chunk_and_the_entry(self):
        workloads, problems = pmu_trace.collect(self.runs(), self.elf)
        self.assertEqual(problems, [])
        w = workloads["loop"]
        for part, want in (("unit", UNIT), ("chunk", CHUNK), ("entry", ENTRY)):
            self.assertEqual(w.traced[part], {c: want.get(c, 0) for c in pmu_trace.CODES}, part)
        self.assertEqual(pmu_trace.disagreements(w), [])
        text = pmu_trace.report_text(self.runs(), self.elf)
        self.assertIn("loop (n = 16)", text)
        self.assertIn("the profile agrees with the trace", text)

    def test_a_wrong_profile_is_named(self):
        wrong_unit = dict(UNIT, **{"0x00c0": 5})      # five instructions a unit
        wrong_chunk = dict(CHUNK, **{"0x82d0": 0})    # the PUSH's store forgotten
        workloads, _ = pmu_trace.collect(self.runs(unit=wrong_unit, chunk=wrong_chunk),
                                         self.elf)
        self.assertEqual(pmu_trace.disagreements(workloads["loop"]), [
            "loop: per unit, instructions: the profile counts 5, the trace 4",
            "loop: per chunk, stores: the profile counts 0, the trace 1"])
        self.assertIn("*", pmu_trace.report_text(
            self.runs(unit=wrong_unit, chunk=wrong_chunk), self.elf))

    def test_edges_counted_as_a_bundles_trace(self):
        a = self.addr
        syscall, add = a("syscall"), a("add rax, 1")
        call, rep, ret = a("call 0x22"), a("rep movsb byte ptr [rdi], byte ptr [rsi]"), \
            a("ret")
        record = self.record(1, 1, [
            # The ADD after SYSCALL runs without a #DB: the trace goes from SYSCALL to the CALL.
            (syscall, call, 3),
            (call, ret, 3),           # a near call: taken, one store
            (rep, rep, 4), (rep, ret, 1),  # five iterations of a REP MOVSB, one instruction
            (ret, rep, 2)])           # a return: taken, one load
        counts = pmu_trace.trace_counts(pmu_trace.Decoder(pmu_trace.Image(self.elf)),
                                        record.obj)
        self.assertEqual(counts, {
            "0x00c0": 3 + 3 + 3 + 1 + 2, "0x00c4": 3 + 3 + 2, "0x01c4": 0, "0x02c4": 3,
            "0x08c4": 2, "0x10c4": 0, "0x20c4": 3 + 2, "0x40c4": 3,
            "0x81d0": 5 + 2, "0x82d0": 3 + 5})
        self.assertNotEqual(add, call)

    def test_another_kernels_elf_is_refused(self):
        runs = self.runs()
        for r in runs:
            r.obj["code"]["crc32"] = "0x1234"
        with self.assertRaisesRegex(pmu_trace.TraceError, "not the kernel that wrote"):
            pmu_trace.collect(runs, self.elf)
        self.assertIn("not the kernel that wrote", pmu_trace.report_text(runs, self.elf))
        self.assertIn("cannot read the kernel's ELF", pmu_trace.report_text(
            runs, os.path.join(self.tmp, "none.elf")))

    def test_an_unwhole_trace_or_a_missing_run_is_named(self):
        runs = self.runs()
        runs[0].obj["error"] = "the trace ran past its limit of steps"
        workloads, problems = pmu_trace.collect(runs, self.elf)
        self.assertEqual(workloads, {})
        self.assertEqual(problems, [
            "loop: the kernel's trace is not whole: the trace ran past its limit of steps",
            "loop: not the three runs of a trace (n, 2n in one chunk, 2n in two)"])


class CoinTosses(unittest.TestCase):
    """branchy's branches on random bits: the profile counts half of them taken."""

    def workload(self, d_instructions, d_not_taken, d_taken, n=64):
        w = pmu_trace.Workload("branchy")
        w.runs = {(n, 1): None, (2 * n, 1): None, (2 * n, 2): None}
        zero = {c: Fraction(0) for c in pmu_trace.CODES}
        w.model = {p: dict(zero) for p in pmu_trace.PARTS}
        w.model["unit"].update({"0x00c0": 164, "0x10c4": 32, "0x20c4": 33})
        w.traced = {p: dict(v) for p, v in w.model.items()}
        w.traced["unit"]["0x00c0"] += Fraction(d_instructions)
        w.traced["unit"]["0x10c4"] += Fraction(d_not_taken)
        w.traced["unit"]["0x20c4"] += Fraction(d_taken)
        return w

    def test_the_data_moves_three_figures_together(self):
        self.assertEqual(pmu_trace.disagreements(self.workload("-1/3", "-1/3", "1/3")), [])

    def test_beyond_what_coins_explain(self):
        self.assertEqual(pmu_trace.coin_bound(64, 64), 2)
        self.assertEqual(pmu_trace.disagreements(self.workload(3, 3, -3)), [
            "branchy: per unit, the traced words fell through 3 times more than half of 64 "
            "coin tosses, more than 2.00"])

    def test_figures_that_do_not_move_together(self):
        self.assertEqual(pmu_trace.disagreements(self.workload(1, 0, 0)), [
            "branchy: per unit, instructions, not taken and taken differ from the profile by "
            "1, 0 and 0: not as 64 coin tosses make them differ"])


if __name__ == "__main__":
    unittest.main()
