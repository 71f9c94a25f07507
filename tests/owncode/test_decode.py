"""The decode table (tools/pmu_bench_decode.py): for every instruction its offset, length, kind of
control transfer and memory reads and writes, implicit ones included, by the rules of its
docstring (docs/own-code.md, "The decode table"), on code assembled here. Each expected count is
the instruction's definition in the SDM (vol. 2): PUSH stores, POP loads, a load-op form loads
once, a read-modify-write form loads and stores, and so on."""

import unittest

import pmu_bench_asm as asm
import pmu_bench_decode as d

# (statement, kind, flags, reads, writes)
EXPECTED = [
    ("add rax, rbx", d.KIND_NONE, 0, 0, 0),
    ("mov rax, [rax]", d.KIND_NONE, 0, 1, 0),               # a load
    ("mov [rax], rbx", d.KIND_NONE, 0, 0, 1),               # a store
    ("add rax, [rbx]", d.KIND_NONE, 0, 1, 0),               # load-op
    ("imul rax, [rbx], 3", d.KIND_NONE, 0, 1, 0),
    ("add [rbx], rax", d.KIND_NONE, 0, 1, 1),               # read-modify-write
    ("lock xadd [rbx], rax", d.KIND_NONE, 0, 1, 1),
    ("inc qword ptr [rbx]", d.KIND_NONE, 0, 1, 1),
    ("rol qword ptr [rbx], 3", d.KIND_NONE, 0, 1, 1),       # capstone 4 says: a read
    ("bts qword ptr [rbx], 3", d.KIND_NONE, 0, 1, 1),
    ("xchg [rbx], rax", d.KIND_NONE, 0, 1, 1),
    ("cmpxchg [rbx], rcx", d.KIND_NONE, 0, 1, 1),           # written even when unequal
    ("cmpxchg16b [rbx]", d.KIND_NONE, 0, 1, 1),
    ("cmp [rbx], rax", d.KIND_NONE, 0, 1, 0),               # only looks
    ("test [rbx], rax", d.KIND_NONE, 0, 1, 0),
    ("bt qword ptr [rbx], 3", d.KIND_NONE, 0, 1, 0),
    ("vmovdqu [rbx], ymm0", d.KIND_NONE, 0, 0, 1),          # capstone 4 says: a read
    ("movnti [rbx], rax", d.KIND_NONE, 0, 0, 1),
    ("pextrb byte ptr [rbx], xmm0, 1", d.KIND_NONE, 0, 0, 1),
    ("fstp qword ptr [rbx]", d.KIND_NONE, 0, 0, 1),
    ("fld qword ptr [rbx]", d.KIND_NONE, 0, 1, 0),
    ("stmxcsr dword ptr [rbx]", d.KIND_NONE, 0, 0, 1),
    ("ldmxcsr dword ptr [rbx]", d.KIND_NONE, 0, 1, 0),
    ("sete byte ptr [rbx]", d.KIND_NONE, 0, 0, 1),
    ("cmove rax, [rbx]", d.KIND_NONE, 0, 1, 0),
    ("movsd xmm0, [rbx]", d.KIND_NONE, 0, 1, 0),            # SSE2, not the string MOVSD
    ("movsd [rbx], xmm0", d.KIND_NONE, 0, 0, 1),
    ("lea rax, [rbx+8]", d.KIND_NONE, 0, 0, 0),             # an address, no access
    ("nop dword ptr [rax+rax]", d.KIND_NONE, 0, 0, 0),
    ("clflush [rbx]", d.KIND_NONE, 0, 0, 0),
    ("prefetcht0 [rbx]", d.KIND_NONE, 0, 1, 0),
    ("push rax", d.KIND_NONE, 0, 0, 1),                     # the stack
    ("push 5", d.KIND_NONE, 0, 0, 1),
    ("push qword ptr [rbx]", d.KIND_NONE, 0, 1, 1),
    ("pop rax", d.KIND_NONE, 0, 1, 0),
    ("pop qword ptr [rbx]", d.KIND_NONE, 0, 1, 1),
    ("pushfq", d.KIND_NONE, 0, 0, 1),
    ("popfq", d.KIND_NONE, 0, 1, 0),
    ("enter 16, 0", d.KIND_NONE, 0, 0, 1),                  # push rbp
    ("enter 16, 1", d.KIND_NONE, 0, 0, 2),                  # push rbp, push the frame
    ("enter 16, 3", d.KIND_NONE, 0, 2, 4),                  # and copy 2 frame pointers
    ("leave", d.KIND_NONE, 0, 1, 0),                        # pop rbp
    ("call 1f", d.KIND_CALL, 0, 0, 1),
    ("call rax", d.KIND_CALL, d.FLAG_INDIRECT, 0, 1),
    ("call qword ptr [rbx]", d.KIND_CALL, d.FLAG_INDIRECT, 1, 1),
    ("ret", d.KIND_RET, 0, 1, 0),
    ("ret 8", d.KIND_RET, 0, 1, 0),
    ("jz 1f", d.KIND_JCC, 0, 0, 0),
    ("jrcxz 1f", d.KIND_JCC, 0, 0, 0),
    ("loop 1f", d.KIND_JCC, 0, 0, 0),
    ("jmp 1f", d.KIND_JMP, 0, 0, 0),
    ("jmp rax", d.KIND_JMP, d.FLAG_INDIRECT, 0, 0),
    ("jmp qword ptr [rbx]", d.KIND_JMP, d.FLAG_INDIRECT, 1, 0),
    ("iretq", d.KIND_FAR, 0, 5, 0),
    ("retf", d.KIND_FAR, 0, 2, 0),
    ("syscall", d.KIND_FAR, 0, 0, 0),
    ("int3", d.KIND_FAR, 0, 0, 0),
    ("movsb", d.KIND_NONE, 0, 1, 1),                        # strings
    ("movsq", d.KIND_NONE, 0, 1, 1),
    ("cmpsb", d.KIND_NONE, 0, 2, 0),
    ("scasd", d.KIND_NONE, 0, 1, 0),
    ("lodsw", d.KIND_NONE, 0, 1, 0),
    ("stosq", d.KIND_NONE, 0, 0, 1),
    ("insb", d.KIND_NONE, 0, 0, 1),
    ("outsb", d.KIND_NONE, 0, 1, 0),
    ("rep movsb", d.KIND_NONE, d.FLAG_REP, 1, 1),
    ("rep stosq", d.KIND_NONE, d.FLAG_REP, 0, 1),
    ("repne scasb", d.KIND_NONE, d.FLAG_REP, 1, 0),
    ("xlatb", d.KIND_NONE, 0, 1, 0),
    ("maskmovdqu xmm0, xmm1", d.KIND_NONE, 0, 0, 1),        # at RDI
    ("vpgatherdd ymm0, [rax+ymm5*4], ymm1", d.KIND_NONE, 0, 1, 0),
]


class Table(unittest.TestCase):
    def test_each_instruction(self):
        for stmt, kind, flags, reads, writes in EXPECTED:
            table = d.decode(asm.assemble(stmt, "-asm"))
            self.assertEqual(len(table), 1, "%s: %s" % (stmt, table))
            e = table[0]
            self.assertEqual((d.KIND_NAMES[e.kind], e.flags, e.reads, e.writes),
                             (d.KIND_NAMES[kind], flags, reads, writes), "%s (%s)" % (stmt,
                                                                                    e.text))

    def test_offsets_cover_the_code(self):
        code = asm.assemble("; ".join(s for s, *_ in EXPECTED), "-asm")
        table = d.decode(code)
        self.assertEqual(len(table), len(EXPECTED))
        at = 0
        for e, (stmt, kind, flags, reads, writes) in zip(table, EXPECTED):
            self.assertEqual(e.offset, at, stmt)
            self.assertTrue(1 <= e.length <= 15, stmt)
            self.assertEqual((e.kind, e.flags, e.reads, e.writes), (kind, flags, reads, writes),
                             stmt)
            at += e.length
        self.assertEqual(at, len(code))

    def test_the_load_latency_example(self):
        # nanoBench's example 2: the init part stores once, the code loads once.
        init = d.decode(asm.assemble("mov RAX, R14; sub RAX, 8; mov [RAX], RAX", "-asm"))
        self.assertEqual([(e.offset, e.length, e.reads, e.writes) for e in init],
                         [(0, 3, 0, 0), (3, 4, 0, 0), (7, 3, 0, 1)])
        code = d.decode(asm.assemble("mov RAX, [RAX]", "-asm"))
        self.assertEqual([(e.offset, e.length, e.reads, e.writes) for e in code],
                         [(0, 3, 1, 0)])

    def test_bytes_that_do_not_decode(self):
        # 06 (PUSH ES) does not exist in 64-bit mode; the sweep goes on behind it.
        table = d.decode(bytes.fromhex("06" "4801d8" "06"))
        self.assertEqual([(e.offset, e.length, e.flags) for e in table],
                         [(0, 1, d.FLAG_UNDECODED), (1, 3, 0), (4, 1, d.FLAG_UNDECODED)])

    def test_a_cut_instruction_ends_undecoded(self):
        table = d.decode(bytes.fromhex("4801"))       # ADD without its ModRM
        self.assertEqual(sum(e.length for e in table), 2)
        self.assertTrue(all(e.flags & d.FLAG_UNDECODED for e in table))

    def test_empty(self):
        self.assertEqual(d.decode(b""), [])


if __name__ == "__main__":
    unittest.main()
