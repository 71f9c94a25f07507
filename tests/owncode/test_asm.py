"""The parts as machine code (tools/pmu_bench_asm.py): Intel syntax through GNU as with bare
register names, nanoBench's `|n` NOPs (each one instruction of n bytes that capstone decodes as a
NOP), labels and `jmp 1f`, and everything the assembler or the kernel's placement refuses, each
refused with the option and the statement named."""

import os
import tempfile
import unittest

import capstone

import pmu_bench_asm as asm


def instructions(code):
    md = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
    return list(md.disasm(code, 0))


class Assemble(unittest.TestCase):
    def test_intel_syntax_bare_registers(self):
        # ADD r/m64, r64 is REX.W 01 /r (SDM vol. 2A, ADD): RBX into RAX is ModRM 0xD8.
        self.assertEqual(asm.assemble("ADD RAX, RBX; add RBX, RAX", "-asm"),
                         bytes.fromhex("4801d8" "4801c3"))
        self.assertEqual(asm.assemble("mov RAX, R14\nsub RAX, 8\n mov [RAX], RAX", "-asm"),
                         bytes.fromhex("4c89f0" "4883e808" "488900"))

    def test_empty_code(self):
        self.assertEqual(asm.assemble("", "-asm"), b"")
        self.assertEqual(asm.assemble(" ;  ; ", "-asm"), b"")

    def test_label_after_the_code(self):
        # nanoBench puts a label 1 after the code: a forward jump to it skips the rest.
        code = asm.assemble("jmp 1f; nop; nop", "-asm")
        self.assertEqual(code, bytes.fromhex("eb02" "90" "90"))
        code = asm.assemble("l: dec rcx; jnz l", "-asm")
        self.assertEqual(code, bytes.fromhex("48ffc9" "75fb"))

    def test_statements_split_outside_quotes(self):
        self.assertEqual(asm.statements('a; b\nc ;; .ascii "x;y"'), ["a", "b", "c",
                                                                  '.ascii "x;y"'])
        self.assertEqual(asm.assemble('.ascii "a;b"', "-asm"), b"a;b")


class Nops(unittest.TestCase):
    def test_every_length_is_one_nop(self):
        for n in range(1, 16):
            code = asm.assemble("|%d" % n, "-asm")
            self.assertEqual(len(code), n)
            insns = instructions(code)
            self.assertEqual(len(insns), 1, "|%d: %s" % (n, insns))
            self.assertEqual(insns[0].size, n)
            self.assertEqual(insns[0].mnemonic, "nop", "|%d" % n)

    def test_nops_between_instructions_and_after_labels(self):
        code = asm.assemble("add rax, rbx; |3; x: |2 ; add rax, rbx", "-asm")
        self.assertEqual([i.size for i in instructions(code)], [3, 3, 2, 3])
        self.assertEqual(code[3:8], bytes.fromhex("0f1f00" "6690"))

    def test_out_of_range(self):
        for bad in ("|0", "|16", "|x", "|", "| 99"):
            with self.assertRaises(asm.AsmError) as cm:
                asm.assemble("nop; " + bad, "-asm_init")
            self.assertIn("-asm_init: |", str(cm.exception))
            self.assertIn("from 1 to 15", str(cm.exception))

    def test_a_bar_inside_an_expression_is_not_a_nop(self):
        self.assertEqual(asm.assemble("mov eax, 1|2", "-asm"), bytes.fromhex("b803000000"))


class Refused(unittest.TestCase):
    def refused(self, text, *words):
        with self.assertRaises(asm.AsmError) as cm:
            asm.assemble(text, "-asm_late_init")
        message = str(cm.exception)
        self.assertTrue(message.startswith("-asm_late_init: "), message)
        for w in words:
            self.assertIn(w, message)
        self.assertNotIn(".s:", message)   # no scratch file names, the statement instead
        return message

    def test_assembler_errors_name_the_statement(self):
        self.refused("nop; mov RAX, [RAX", "statement 2 `mov RAX, [RAX`")
        self.refused("nop\nnop\nfoo rax", "statement 3 `foo rax`", "no such instruction")
        self.refused("add rax, 1 2", "junk")

    def test_relocations(self):
        self.refused("mov rax, offset lbl; lbl: nop", "relocation", "RIP-relative")
        self.refused("call printf", "relocation", "printf")
        # RIP-relative needs none.
        self.assertEqual(len(asm.assemble("lea rax, [rip+lbl]; lbl: nop", "-asm")), 8)

    def test_other_sections(self):
        self.refused(".data; .quad 1", "section .data", "only .text")
        self.refused(".bss; .skip 16", "section .bss")

    def test_too_long(self):
        self.refused(".skip %d" % (asm.MAX_PART + 1), "at most %d" % asm.MAX_PART)


class RawCode(unittest.TestCase):
    def test_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "code.bin")
            with open(path, "wb") as f:
                f.write(b"\x48\x01\xd8")
            self.assertEqual(asm.read_code(path, "-code"), b"\x48\x01\xd8")
            with self.assertRaises(asm.AsmError) as cm:
                asm.read_code(os.path.join(tmp, "missing"), "-code_init")
            self.assertIn("-code_init", str(cm.exception))
            self.assertIn("cannot read it", str(cm.exception))
            with open(path, "wb") as f:
                f.write(bytes(asm.MAX_PART + 1))
            with self.assertRaises(asm.AsmError):
                asm.read_code(path, "-code")


if __name__ == "__main__":
    unittest.main()
