// SPDX-License-Identifier: GPL-2.0
/*
 * The generated code's layout (tests/owncode/codegen.h) and the counts of a trace
 * (tests/owncode/trace.h), on the bundle tools/pmu-bench writes for tests/host/test_bundle.c:
 *   -asm_init "mov RAX, R14; sub RAX, 8; mov [RAX], RAX"
 *   -asm "mov RAX, [RAX]; push RAX; pop RBX; |5" -asm_late_init "lea RBX, [RSP]"
 *   -unroll_count 500 -loop_count 7 ...
 * The trace is stepped as the #DB handler steps it: each instruction's end address in turn.
 */
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

static void program(enum bench_program p, uint32_t copies, struct bench_layout *l)
{
	struct bench_codegen g = { .program = p,
				   .b = &b,
				   .copies = copies,
				   .loop_count = 7,
				   .reads = 3,
				   .read_ecx = { 0, 1, 1u << 30 },
				   .data = 0x10000000,
				   .model = true };

	assert_true(bench_codegen(&g, code, ADDR, sizeof(code), l));
	assert_true(l->size <= bench_codegen_size(&g));
	assert_false(bench_codegen(&g, code, ADDR, l->size - 1, l)); /* too small: refused */
	assert_true(bench_codegen(&g, code, ADDR, sizeof(code), l));
}

static void test_layout(void **state)
{
	struct bench_layout l;
	uint32_t size = b.part[BUNDLE_PART_CODE].size;
	unsigned part;
	uint32_t offset;

	(void)state;
	program(BENCH_PROGRAM_MEASURE, 500, &l);
	assert_int_equal(l.copies_start % 64, b.params.alignment_offset);
	assert_int_equal(l.copies, 500);
	assert_memory_equal(code + (l.copies_start - ADDR) + 499 * size,
			    b.part[BUNDLE_PART_CODE].bytes, size);
	assert_memory_equal(code + (l.part_start[BUNDLE_PART_INIT] - ADDR),
			    b.part[BUNDLE_PART_INIT].bytes, b.part[BUNDLE_PART_INIT].size);
	assert_true(l.part_start[BUNDLE_PART_INIT] < l.part_start[BUNDLE_PART_LATE_INIT]);
	assert_true(l.part_start[BUNDLE_PART_LATE_INIT] < l.copies_start);
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
		over = bench_trace_step(t, last ? after : start + in.offset + in.length);
	}
	return over;
}

static void test_trace_counts(void **state)
{
	struct bench_layout l;
	struct bench_tracer t;

	(void)state;
	program(BENCH_PROGRAM_TRACE, 1, &l);
	assert_int_equal(l.copies, 1);
	bench_trace_start(&t, &b, &l, l.part_start[BUNDLE_PART_INIT]);
	assert_false(walk(&t, l.part_start[BUNDLE_PART_INIT], BUNDLE_PART_INIT,
			  l.part_start[BUNDLE_PART_LATE_INIT]));
	/* late_init, then the jump over the padding (generated code: not counted) */
	assert_false(
		walk(&t, l.part_start[BUNDLE_PART_LATE_INIT], BUNDLE_PART_LATE_INIT,
		     l.part_start[BUNDLE_PART_LATE_INIT] + b.part[BUNDLE_PART_LATE_INIT].size));
	assert_false(bench_trace_step(&t, l.copies_start));
	assert_true(walk(&t, l.copies_start, BUNDLE_PART_CODE, l.trace_end));
	const struct bench_counts *c = &t.part[BUNDLE_PART_CODE];
	assert_int_equal(c->instructions, 4); /* mov, push, pop, the 5-byte NOP */
	assert_int_equal(c->loads, 2);	      /* mov RAX, [RAX] and POP */
	assert_int_equal(c->stores, 1);	      /* PUSH */
	assert_int_equal(c->branches, 0);
	assert_int_equal(t.part[BUNDLE_PART_INIT].instructions, 3);
	assert_int_equal(t.part[BUNDLE_PART_INIT].stores, 1);
	assert_int_equal(t.part[BUNDLE_PART_LATE_INIT].loads, 0); /* LEA reads nothing */

	struct model_rate rates[16];
	struct model_profile p;
	bench_trace_profile(c, MODEL_RING_USER, "code", rates, &p);
	assert_int_equal(p.instructions, 4 * MODEL_RATE_UNITS);
	for (unsigned i = 0; i < p.nrates; i++)
		if (rates[i].event == 0xd0)
			assert_int_equal(rates[i].per_units,
					 (rates[i].umask == 0x81 ? 2 : 1) * MODEL_RATE_UNITS);
}

/* An address with no entry of the decode table (inside an instruction) is one unknown
 * instruction; which event selects the trace gives. */
static void test_unknown_and_modelled(void **state)
{
	struct bench_layout l = { 0 };
	struct bench_tracer t;

	(void)state;
	program(BENCH_PROGRAM_TRACE, 1, &l);
	bench_trace_start(&t, &b, &l, l.copies_start + 1); /* inside MOV: no entry */
	bench_trace_step(&t, l.copies_start + 3);
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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_trace_counts),
		cmocka_unit_test(test_unknown_and_modelled),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
