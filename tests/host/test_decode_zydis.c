// SPDX-License-Identifier: GPL-2.0
/*
 * The decode table against an independent decoder: tools/pmu-bench decodes
 * tests/owncode/decode_corpus.s with capstone 4 and its own rules for memory accesses
 * (tools/pmu_bench_decode.py); Zydis 4 (Debian's libzydis-dev), which lists implicit operands
 * (the stack of PUSH, CALL, RET; the strings' RSI and RDI), decodes the same bytes here. Every
 * instruction must have the same length, kind of control transfer, indirect and REP flags, and
 * memory reads and writes, but where the rules differ on purpose (DELIBERATE below: each with
 * the values the rules give instead).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <Zydis/Zydis.h>

#include "tests/owncode/bundle.h"

static uint8_t data[64 * 1024];
static struct bundle b;

static int setup(void **state)
{
	FILE *f = fopen(BUNDLE_CORPUS, "rb");
	size_t n;

	(void)state;
	if (!f)
		return -1;
	n = fread(data, 1, sizeof(data), f);
	fclose(f);
	return bundle_parse(data, n, &b, NULL) == BUNDLE_OK ? 0 : -1;
}

/* Zydis's memory reads and writes: operands that access memory (not an address generation). */
static void zydis_accesses(const ZydisDisassembledInstruction *d, unsigned *reads, unsigned *writes)
{
	*reads = *writes = 0;
	for (unsigned i = 0; i < d->info.operand_count; i++) {
		const ZydisDecodedOperand *o = &d->operands[i];

		if (o->type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    (o->mem.type != ZYDIS_MEMOP_TYPE_MEM && o->mem.type != ZYDIS_MEMOP_TYPE_VSIB))
			continue;
		*reads += (o->actions & ZYDIS_OPERAND_ACTION_MASK_READ) != 0;
		*writes += (o->actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) != 0;
	}
}

static unsigned zydis_kind(const ZydisDisassembledInstruction *d)
{
	bool far = d->info.meta.branch_type == ZYDIS_BRANCH_TYPE_FAR;

	switch (d->info.meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
		return BUNDLE_INSN_JCC;
	case ZYDIS_CATEGORY_UNCOND_BR:
		return far ? BUNDLE_INSN_FAR : BUNDLE_INSN_JMP;
	case ZYDIS_CATEGORY_CALL:
		return far ? BUNDLE_INSN_FAR : BUNDLE_INSN_CALL;
	case ZYDIS_CATEGORY_RET:
		if (far || d->info.mnemonic == ZYDIS_MNEMONIC_IRET ||
		    d->info.mnemonic == ZYDIS_MNEMONIC_IRETD ||
		    d->info.mnemonic == ZYDIS_MNEMONIC_IRETQ)
			return BUNDLE_INSN_FAR;
		return BUNDLE_INSN_RET;
	case ZYDIS_CATEGORY_INTERRUPT:
	case ZYDIS_CATEGORY_SYSCALL:
	case ZYDIS_CATEGORY_SYSRET:
		return BUNDLE_INSN_FAR;
	default:
		return BUNDLE_INSN_NONE;
	}
}

static unsigned zydis_flags(const ZydisDisassembledInstruction *d)
{
	unsigned flags = 0;
	ZydisInstructionCategory c = d->info.meta.category;

	if ((c == ZYDIS_CATEGORY_UNCOND_BR || c == ZYDIS_CATEGORY_CALL) &&
	    d->operands[0].type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
		flags |= BUNDLE_INSN_INDIRECT;
	if ((c == ZYDIS_CATEGORY_STRINGOP || c == ZYDIS_CATEGORY_IOSTRINGOP) &&
	    (d->info.attributes &
	     (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE | ZYDIS_ATTRIB_HAS_REPNE)))
		flags |= BUNDLE_INSN_REP;
	return flags;
}

/*
 * Where the rules differ from Zydis on purpose, the (reads, writes) they give: the address
 * operand of NOP and the cache-line instructions is no data access; ENTER copies L - 1 frame
 * pointers and pushes L + 1 values (SDM vol. 2A, ENTER); IRETQ pops five values, a far RET two.
 * Returns false for every other instruction.
 */
static bool deliberate(const ZydisDisassembledInstruction *d, unsigned *reads, unsigned *writes)
{
	switch (d->info.mnemonic) {
	case ZYDIS_MNEMONIC_NOP:
	case ZYDIS_MNEMONIC_CLFLUSH:
	case ZYDIS_MNEMONIC_CLFLUSHOPT:
	case ZYDIS_MNEMONIC_CLWB:
	case ZYDIS_MNEMONIC_INVLPG:
		*reads = *writes = 0;
		return true;
	case ZYDIS_MNEMONIC_ENTER: {
		unsigned level = d->operands[1].imm.value.u & 31;
		*reads = level > 1 ? level - 1 : 0;
		*writes = level + 1;
		return true;
	}
	case ZYDIS_MNEMONIC_IRETQ:
		*reads = 5;
		*writes = 0;
		return true;
	case ZYDIS_MNEMONIC_RET:
		if (d->info.meta.branch_type != ZYDIS_BRANCH_TYPE_FAR)
			return false;
		*reads = 2;
		*writes = 0;
		return true;
	default:
		return false;
	}
}

static void test_every_instruction(void **state)
{
	const struct bundle_part_view *code = &b.part[BUNDLE_PART_CODE];
	unsigned deliberate_count = 0;

	(void)state;
	assert_true(code->insns > 150);
	for (uint32_t i = 0; i < code->insns; i++) {
		struct bundle_insn insn;
		ZydisDisassembledInstruction d;
		unsigned reads, writes;

		assert_true(bundle_insn(&b, BUNDLE_PART_CODE, i, &insn));
		assert_true(ZYAN_SUCCESS(ZydisDisassembleIntel(
			ZYDIS_MACHINE_MODE_LONG_64, insn.offset, code->bytes + insn.offset,
			code->size - insn.offset, &d)));
		zydis_accesses(&d, &reads, &writes);
		deliberate_count += deliberate(&d, &reads, &writes);
		if (insn.length != d.info.length || insn.kind != zydis_kind(&d) ||
		    insn.flags != zydis_flags(&d) || insn.reads != reads || insn.writes != writes)
			fail_msg("offset %u `%s`: table length %u kind %u flags %u reads %u writes "
				 "%u, "
				 "Zydis %u %u %u %u %u",
				 insn.offset, d.text, insn.length, insn.kind, insn.flags,
				 insn.reads, insn.writes, d.info.length, zydis_kind(&d),
				 zydis_flags(&d), reads, writes);
	}
	/* The corpus's: two NOPs, CLFLUSH, CLFLUSHOPT, INVLPG, three ENTERs, IRETQ, RETF. */
	assert_int_equal(deliberate_count, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_instruction),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
