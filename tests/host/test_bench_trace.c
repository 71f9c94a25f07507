// SPDX-License-Identifier: GPL-2.0
/*
 * The generated code's layout (tests/owncode/codegen.h) and the counts of a trace
 * (tests/owncode/trace.h), on the bundle tools/pmu-bench writes for tests/host/test_bundle.c:
 *   -asm_init "mov RAX, R14; sub RAX, 8; mov [RAX], RAX"
 *   -asm "mov RAX, [RAX]; push RAX; pop RBX; |5" -asm_late_init "lea RBX, [RSP]"
 *   -unroll_count 500 -loop_count 7 ...
 * The trace is stepped as the #DB handler steps it: each instruction's end address in turn, with
 * RFLAGS and RCX as the trap leaves them. A conditional branch is taken when its condition holds,
 * whatever its target (issue 27: a JZ to the next instruction was counted as not taken).
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/owncode/codegen.h"
#include "tests/owncode/trace.h"

static uint8_t bytes[1 << 20];
static struct bundle b;
static uint8_t code[256 << 10];
#define ADDR 0x40001234ull /* where the program would lie: any address works */
#define ZF BENCH_RFLAGS_ZF
#define CF BENCH_RFLAGS_CF
#define SF BENCH_RFLAGS_SF
#define OF BENCH_RFLAGS_OF
#define PF BENCH_RFLAGS_PF

static int setup(void **state)
{
	FILE *f = fopen(BUNDLE_FIXTURE, "rb");
	size_t n;

	(void)state;
	if (!f)
		return -1;
	n = fread(bytes, 1, sizeof(bytes), f);
	fclose(f);
	return bundle_parse(bytes, n, &b, NULL) == BUNDLE_OK ? 0 : -1;
}

static void program(enum bench_program p, uint32_t copies, uint32_t loops, struct bench_layout *l)
{
	struct bench_codegen g = { .program = p,
				   .b = &b,
				   .copies = copies,
				   .loop_count = loops,
				   .reads = p == BENCH_PROGRAM_TRACE ? 0 : 3,
				   .read_ecx = { 0, 1, 1u << 30 },
				   .data = 0x10000000,
				   .model = p != BENCH_PROGRAM_TRACE };

	assert_true(bench_codegen(&g, code, ADDR, sizeof(code), l));
	assert_true(l->size <= bench_codegen_size(&g));
	assert_false(bench_codegen(&g, code, ADDR, l->size - 1, l)); /* too small: refused */
	assert_true(bench_codegen(&g, code, ADDR, sizeof(code), l));
}

/* The window between the reads holds late_init, the copies and the loop, nothing else: the
 * padding and the loop's set-up come before the first read, as nanoBench places them. */
static void test_layout(void **state)
{
	struct bench_layout l;
	uint32_t size = b.part[BUNDLE_PART_CODE].size;
	unsigned part;
	uint32_t offset;

	(void)state;
	program(BENCH_PROGRAM_MEASURE, 500, 7, &l);
	assert_int_equal(l.copies_start % 64, b.params.alignment_offset);
	assert_int_equal(l.copies, 500);
	assert_memory_equal(code + (l.copies_start - ADDR) + 499 * size,
			    b.part[BUNDLE_PART_CODE].bytes, size);
	assert_memory_equal(code + (l.part_start[BUNDLE_PART_INIT] - ADDR),
			    b.part[BUNDLE_PART_INIT].bytes, b.part[BUNDLE_PART_INIT].size);
	assert_true(l.part_start[BUNDLE_PART_INIT] < l.window_start);
	assert_int_equal(l.part_start[BUNDLE_PART_LATE_INIT], l.window_start);
	assert_int_equal(l.part_start[BUNDLE_PART_LATE_INIT] + b.part[BUNDLE_PART_LATE_INIT].size,
			 l.copies_start);
	/* the loop: DEC R15 and JNZ back to the first copy, then the second read */
	assert_int_equal(l.glue_count, 2);
	assert_int_equal(l.glue[0].start, l.copies_start + 500 * size);
	assert_memory_equal(code + (l.glue[0].start - ADDR), ((uint8_t[]){ 0x49, 0xff, 0xcf }), 3);
	assert_int_equal(l.glue[1].kind, BUNDLE_INSN_JCC);
	assert_int_equal(l.glue[1].end, l.window_end);
	int32_t rel;
	memcpy(&rel, code + (l.glue[1].start - ADDR) + 2, 4);
	assert_int_equal(l.glue[1].end + rel, l.copies_start);
	assert_true(bench_layout_where(&l, &b, l.copies_start + 3 * size + 4, &part, &offset));
	assert_int_equal(part, BUNDLE_PART_CODE);
	assert_int_equal(offset, 4);
	assert_true(bench_layout_where(&l, &b, l.part_start[BUNDLE_PART_INIT] + 1, &part, &offset));
	assert_int_equal(part, BUNDLE_PART_INIT);
	assert_false(bench_layout_where(&l, &b, ADDR, &part, &offset)); /* the prologue */
	assert_false(bench_layout_where(&l, &b, l.copies_start + 500 * size, &part, &offset));
	/* The program returns: its last byte is RET, after CLD. */
	assert_int_equal(code[l.size - 1], 0xc3);
	assert_int_equal(code[l.size - 2], 0xfc);
}

/* Step through a part's instructions in order, as the traps would report them. */
static bool walk(struct bench_tracer *t, uint64_t start, unsigned part, uint64_t after)
{
	struct bundle_insn in;
	bool over = false;

	for (uint32_t i = 0; bundle_insn(&b, part, i, &in); i++) {
		bool last = !bundle_insn(&b, part, i + 1, &(struct bundle_insn){ 0 });
		over = bench_trace_step(t, last ? after : start + in.offset + in.length, 0, 1);
	}
	return over;
}

/* A trace program of 3 copies in a loop of 2: each run's window counts late_init once, the copies
 * at each iteration, the loop's DEC and JNZ (taken, then not); init is counted in its part
 * only. */
static void test_trace_counts(void **state)
{
	struct bench_layout l;
	struct bench_tracer t;
	uint32_t size = b.part[BUNDLE_PART_CODE].size;

	(void)state;
	program(BENCH_PROGRAM_TRACE, 3, 2, &l);
	assert_int_equal(l.trace_end, l.epilogue);
	bench_trace_start(&t, &b, &l, l.part_start[BUNDLE_PART_INIT]);
	assert_false(walk(&t, l.part_start[BUNDLE_PART_INIT], BUNDLE_PART_INIT, l.window_start));
	for (unsigned it = 0; it < 2; it++) {
		uint64_t copy = l.copies_start;
		if (it == 0)
			assert_false(walk(&t, l.window_start, BUNDLE_PART_LATE_INIT, copy));
		for (unsigned k = 0; k < 3; k++, copy += size)
			assert_false(walk(&t, copy, BUNDLE_PART_CODE, copy + size));
		assert_false(bench_trace_step(&t, l.glue[1].start, it ? ZF : 0, 1)); /* DEC R15 */
		assert_false(
			bench_trace_step(&t, it ? l.window_end : l.copies_start, it ? ZF : 0, 1));
	}
	assert_true(bench_trace_step(&t, l.trace_end, 0, 1)); /* the read: generated, not counted */
	const struct bench_counts *c = &t.run;
	assert_int_equal(t.copies, 6);
	/* 6 copies of mov, push, pop and the NOP, LEA once, DEC and JNZ twice */
	assert_int_equal(c->instructions, 6 * 4 + 1 + 2 * 2);
	assert_int_equal(c->loads, 6 * 2); /* mov RAX, [RAX] and POP */
	assert_int_equal(c->stores, 6);	   /* PUSH */
	assert_int_equal(c->branches, 2);
	assert_int_equal(c->conditional, 2);
	assert_int_equal(c->taken, 1);
	assert_int_equal(c->not_taken, 1);
	assert_int_equal(t.part[BUNDLE_PART_INIT].instructions, 3);
	assert_int_equal(t.part[BUNDLE_PART_INIT].stores, 1);
	assert_int_equal(t.run.stores, 6); /* init's store is not between the reads */
	assert_int_equal(t.part[BUNDLE_PART_LATE_INIT].loads, 0); /* LEA reads nothing */

	struct model_rate rates[16];
	struct model_profile p;
	bench_trace_profile(c, 1, MODEL_RING_USER, "run", rates, &p);
	assert_int_equal(p.instructions, 29 * MODEL_RATE_UNITS);
	bench_trace_profile(c, 4, MODEL_RING_USER, "a quarter", rates, &p);
	for (unsigned i = 0; i < p.nrates; i++)
		if (rates[i].event == 0xd0)
			assert_int_equal(rates[i].per_units,
					 (rates[i].umask == 0x81 ? 12 : 6) * MODEL_RATE_UNITS / 4);
}

/* -df: nanoBench's drain after late_init and after the last copy lies in the window, as glue of
 * one-byte and 15-byte NOPs; the one after init comes before the first read. */
static void test_drain(void **state)
{
	struct bench_layout l;
	uint32_t flags = b.params.flags;

	(void)state;
	b.params.flags |= BUNDLE_DF;
	program(BENCH_PROGRAM_MEASURE, 10, 0, &l);
	b.params.flags = flags;
	assert_int_equal(l.copies_start % 64, b.params.alignment_offset);
	assert_int_equal(l.glue_count, 3 + 6);
	assert_int_equal(l.glue[1].end - l.glue[1].start, 189);
	assert_int_equal(l.glue[2].length, 15);
	assert_int_equal((l.glue[2].end - l.glue[2].start) / 15, 64);
	assert_int_equal(l.glue[2].end, l.copies_start);
	assert_int_equal(l.window_end % 32, 0); /* the last drain ends at a 32-byte boundary */
	assert_int_equal(l.glue[8].end, l.window_end);
	for (unsigned i = 3; i < 9; i++)
		assert_true(l.glue[i].start >= l.copies_start + 10 * b.part[BUNDLE_PART_CODE].size);
	const struct bench_glue *g;
	assert_true(bench_layout_glue(&l, l.glue[2].start + 15, &g));
	assert_false(bench_layout_glue(&l, l.glue[2].start + 1, &g)); /* inside a NOP */
}

/* -no_mem: HT0's reads keep the counts in R8-R11 (sub, then add) and store them after. */
static void test_no_mem(void **state)
{
	struct bench_layout l;
	uint32_t flags = b.params.flags;
	static const uint8_t zero_r8[] = { 0x49, 0xc7, 0xc0, 0, 0, 0, 0 };
	static const uint8_t sub_r8[] = { 0x49, 0x29, 0xd0 }, add_r10[] = { 0x49, 0x01, 0xd2 };

	(void)state;
	b.params.flags |= BUNDLE_NO_MEM;
	program(BENCH_PROGRAM_MEASURE, 10, 0, &l);
	b.params.flags = flags;
	assert_non_null(memmem(code, l.window_start - ADDR, zero_r8, sizeof(zero_r8)));
	assert_non_null(memmem(code, l.window_start - ADDR, sub_r8, sizeof(sub_r8)));
	assert_null(memmem(code, l.window_start - ADDR, add_r10, sizeof(add_r10)));
	assert_non_null(memmem(code + (l.window_end - ADDR), l.epilogue - l.window_end, add_r10,
			       sizeof(add_r10)));
}

/* Every condition code against RFLAGS (SDM vol. 2, appendix B.1.4.7). */
static void test_conditions(void **state)
{
	static const struct {
		unsigned cc;
		uint64_t holds, fails;
	} cases[] = {
		{ 0x0, OF, 0 },	      { 0x2, CF, 0 },	    { 0x4, ZF, 0 },
		{ 0x6, ZF, 0 },	      { 0x6, CF, 0 },	    { 0x8, SF, 0 },
		{ 0xa, PF, 0 },	      { 0xc, SF, SF | OF }, { 0xc, OF, 0 },
		{ 0xe, ZF, SF | OF }, { 0xe, SF, OF | SF }, { 0x7, 0, CF },
		{ 0xd, SF | OF, SF }, { 0xf, 0, ZF },	    { 0xf, SF | OF, OF },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(bench_condition(cases[i].cc, cases[i].holds));
		assert_false(bench_condition(cases[i].cc, cases[i].fails));
		assert_int_equal(bench_condition(cases[i].cc ^ 1, cases[i].holds),
				 !bench_condition(cases[i].cc, cases[i].holds));
	}
}

/* A branch's bytes and what it did: Jcc short and near, with prefixes, JrCXZ, LOOP, LOOPcc. */
static void test_branch_taken(void **state)
{
	static const uint8_t jz[] = { 0x74, 0x00 }, jc_near[] = { 0x0f, 0x82, 0, 0, 0, 0 };
	static const uint8_t jnz_hinted[] = { 0x3e, 0x75, 0x00 }, jrcxz[] = { 0xe3, 0x00 };
	static const uint8_t jecxz[] = { 0x67, 0xe3, 0x00 }, loop[] = { 0xe2, 0xfe };
	static const uint8_t loope[] = { 0xe1, 0xfe }, loopne[] = { 0xe0, 0xfe };
	static const uint8_t nop[] = { 0x90 };

	(void)state;
	assert_true(bench_branch_taken(jz, 2, ZF, 0)); /* to the next instruction: taken */
	assert_false(bench_branch_taken(jz, 2, 0, 0));
	assert_true(bench_branch_taken(jc_near, 6, CF, 0));
	assert_true(bench_branch_taken(jnz_hinted, 3, 0, 0));
	assert_true(bench_branch_taken(jrcxz, 2, 0, 0));
	assert_false(bench_branch_taken(jrcxz, 2, 0, 1ull << 32));
	assert_true(bench_branch_taken(jecxz, 3, 0, 1ull << 32)); /* ECX is 0 */
	assert_true(bench_branch_taken(loop, 2, 0, 5));		  /* RCX after: 5 left */
	assert_false(bench_branch_taken(loop, 2, 0, 0));
	assert_true(bench_branch_taken(loope, 2, ZF, 1));
	assert_false(bench_branch_taken(loope, 2, 0, 1));
	assert_true(bench_branch_taken(loopne, 2, 0, 1));
	assert_false(bench_branch_taken(nop, 1, ZF, 0));
}

/* A taken JZ to the next instruction, and a REP string instruction whose count was 0, in a part
 * of their own: a bundle made here, as the host's writer makes it, but by hand. */
static void test_taken_to_next_and_rep_zero(void **state)
{
	struct bench_layout l = { 0 };
	struct bench_tracer t;
	struct bundle bb = b;
	/* xor eax, eax; jz +0; rep movsb */
	static const uint8_t part[] = { 0x31, 0xc0, 0x74, 0x00, 0xf3, 0xa4 };
	uint8_t table[3 * BUNDLE_INSN_SIZE] = { 0 };

	(void)state;
	table[0] = 0, table[4] = 2;
	table[12] = 2, table[16] = 2, table[17] = BUNDLE_INSN_JCC;
	table[24] = 4, table[28] = 2, table[30] = BUNDLE_INSN_REP, table[31] = 1, table[32] = 1;
	bb.part[BUNDLE_PART_CODE] = (struct bundle_part_view){ part, sizeof(part), table, 3 };
	l.copies_start = 0x1000, l.copies = 1, l.part_start[BUNDLE_PART_CODE] = 0x1000;
	l.window_start = 0x1000, l.window_end = 0x1006, l.trace_end = 0x2000;
	bench_trace_start(&t, &bb, &l, 0x1000);
	bench_trace_step(&t, 0x1002, ZF, 0); /* XOR: ZF set */
	bench_trace_step(&t, 0x1004, ZF, 0); /* JZ to the next instruction */
	bench_trace_step(&t, 0x1006, ZF, 0); /* REP MOVSB with RCX 0: one trap, no move */
	assert_true(bench_trace_step(&t, 0x2000, 0, 0));
	assert_int_equal(t.run.instructions, 3);
	assert_int_equal(t.run.taken, 1);
	assert_int_equal(t.run.not_taken, 0);
	assert_int_equal(t.run.loads + t.run.stores, 0);
	/* the same REP MOVSB with RCX 2: two traps, two moves, one instruction */
	bench_trace_start(&t, &bb, &l, 0x1004);
	t.prev_rcx = 2;
	bench_trace_step(&t, 0x1004, 0, 1);
	bench_trace_step(&t, 0x1006, 0, 0);
	assert_int_equal(t.run.instructions, 1);
	assert_int_equal(t.run.loads, 2);
	assert_int_equal(t.run.stores, 2);
}

/* MOV SS holds the #DB of the next instruction back (SDM vol. 3A, 6.8.3): the trap after it comes
 * after both, and both are counted (the reviewer of issue 27: the NOP after it went uncounted). */
static void test_mov_ss_shadow(void **state)
{
	struct bench_layout l = { 0 };
	struct bench_tracer t;
	struct bundle bb = b;
	/* mov eax, ss; mov ss, eax; jz +0; nop */
	static const uint8_t part[] = { 0x8c, 0xd0, 0x8e, 0xd0, 0x74, 0x00, 0x90 };
	uint8_t table[4 * BUNDLE_INSN_SIZE] = { 0 };

	(void)state;
	table[0] = 0, table[4] = 2;
	table[12] = 2, table[16] = 2;
	table[24] = 4, table[28] = 2, table[29] = BUNDLE_INSN_JCC;
	table[36] = 6, table[40] = 1;
	bb.part[BUNDLE_PART_CODE] = (struct bundle_part_view){ part, sizeof(part), table, 4 };
	l.copies_start = 0x1000, l.copies = 1, l.part_start[BUNDLE_PART_CODE] = 0x1000;
	l.window_start = 0x1000, l.window_end = 0x1007, l.trace_end = 0x2000;
	bench_trace_start(&t, &bb, &l, 0x1000);
	bench_trace_step(&t, 0x1002, ZF, 0); /* MOV EAX, SS */
	bench_trace_step(&t, 0x1006, ZF, 0); /* MOV SS, EAX and the JZ it shadowed: one #DB */
	bench_trace_step(&t, 0x1007, ZF, 0); /* NOP */
	assert_true(bench_trace_step(&t, 0x2000, 0, 0));
	assert_int_equal(t.run.instructions, 4);
	assert_int_equal(t.run.taken, 1); /* the shadowed JZ, taken by its condition */
	assert_int_equal(t.run.unknown, 0);
	/* A CPU that held nothing back (a #DB right after MOV SS): each instruction once. */
	bench_trace_start(&t, &bb, &l, 0x1002);
	bench_trace_step(&t, 0x1004, 0, 0);
	bench_trace_step(&t, 0x1006, 0, 0);
	assert_int_equal(t.run.instructions, 2);
	assert_int_equal(t.run.not_taken, 1);
}

/* An address with no entry of the decode table (inside an instruction) is one unknown
 * instruction; which event selects the trace gives. */
static void test_unknown_and_modelled(void **state)
{
	struct bench_layout l = { 0 };
	struct bench_tracer t;

	(void)state;
	program(BENCH_PROGRAM_TRACE, 1, 0, &l);
	bench_trace_start(&t, &b, &l, l.copies_start + 1); /* inside MOV: no entry */
	bench_trace_step(&t, l.copies_start + 3, 0, 0);
	assert_int_equal(t.part[BUNDLE_PART_CODE].unknown, 1);
	assert_int_equal(t.part[BUNDLE_PART_CODE].instructions, 1);
	assert_true(bench_trace_modelled(0x4181d0));
	assert_true(bench_trace_modelled(0x4100c0));
	/* ROB_MISC_EVENTS.LBR_INSERTS is event 0xCC, umask 0x20 (EVTSEL 0x4120cc), nanoBench's
	 * CC.20; the swapped pair, event 0x20 umask 0xCC, is an event Haswell does not document. */
	assert_true(bench_trace_modelled(0x4120cc));
	assert_false(bench_trace_modelled(0x41cc20));
	assert_true(bench_trace_modelled(0x41003c));   /* CPU_CLK_UNHALTED.THREAD_P: the TSC */
	assert_false(bench_trace_modelled(0x4108d1));  /* L1 misses: not from a trace */
	assert_false(bench_trace_modelled(0x14100c0)); /* a counter mask */
	struct bundle_event tsc = { .kind = BUNDLE_EVENT_TSC };
	assert_true(bench_trace_needs_none(&tsc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_trace_counts),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_no_mem),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_branch_taken),
		cmocka_unit_test(test_taken_to_next_and_rep_zero),
		cmocka_unit_test(test_mov_ss_shadow),
		cmocka_unit_test(test_unknown_and_modelled),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
