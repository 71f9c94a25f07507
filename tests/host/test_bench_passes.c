// SPDX-License-Identifier: GPL-2.0
/*
 * The passes of a bundle (tests/owncode/passes.h): every event placed once when a counter can
 * take it, every pass safe under its XSU mode, catchers exactly opposite corrupting events.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/owncode/passes.h"

static struct bench_pass_input in;
static struct bench_pass_plan plan;

static void add(unsigned t, uint8_t mask, bool corrupting, bool alone)
{
	in.event[t][in.n[t]++] = (struct bench_pass_event){ mask, corrupting, alone };
}

static void reset(unsigned xsu)
{
	memset(&in, 0, sizeof(in));
	in.gp = 4;
	in.xsu = xsu;
}

static void assert_all_safe(void)
{
	for (unsigned p = 0; p < plan.passes; p++)
		assert_true(bench_pass_safe(&in, &plan, p));
}

/* The sibling test: HT0 counts LBR_INSERTS, HT1 loads. */
static void test_leak_pair(void **state)
{
	(void)state;
	reset(BUNDLE_XSU_OFF);
	add(0, 0xff, false, false);
	add(1, 0xff, true, false);
	bench_passes_plan(&in, &plan);
	assert_int_equal(plan.passes, 1);
	assert_int_equal(plan.counter[0][0], 0);
	assert_int_equal(plan.counter[1][0], 0); /* the same index: the erratum shows */
	assert_int_equal(plan.catchers[0][0], 0);
	assert_all_safe();

	for (unsigned xsu = BUNDLE_XSU_ON; xsu <= BUNDLE_XSU_CORE; xsu++) {
		in.xsu = xsu;
		bench_passes_plan(&in, &plan);
		assert_int_equal(plan.passes, 1);
		assert_int_equal(plan.counter[0][0], 0);
		assert_int_equal(plan.counter[1][0], 1); /* not opposite HT0's event */
		assert_int_equal(plan.catchers[0][0], 1u << 1);
		assert_int_equal(plan.catchers[0][1], 0);
		assert_all_safe();
	}
	/* What the checker refuses: the off plan judged under on. */
	in.xsu = BUNDLE_XSU_OFF;
	bench_passes_plan(&in, &plan);
	in.xsu = BUNDLE_XSU_ON;
	assert_false(bench_pass_safe(&in, &plan, 0));
}

static void test_more_events_than_counters(void **state)
{
	(void)state;
	reset(BUNDLE_XSU_ON);
	for (unsigned i = 0; i < 9; i++)
		add(0, 0xff, i == 1 || i == 2, false);
	bench_passes_plan(&in, &plan);
	assert_int_equal(plan.passes, 3);
	for (unsigned i = 0; i < 9; i++)
		assert_int_equal(plan.pass[0][i], i / 4);
	assert_all_safe();
}

static void test_alone_and_restrictions(void **state)
{
	(void)state;
	reset(BUNDLE_XSU_OFF);
	add(0, 0xff, false, false);
	add(0, 0xff, false, true); /* TakenAlone */
	add(0, 1u << 2, false, false);
	add(0, 0, false, false); /* .CTR=5 on a PMU with 4 counters */
	bench_passes_plan(&in, &plan);
	assert_int_equal(plan.passes, 2);
	assert_int_equal(plan.pass[0][0], 0);
	assert_int_equal(plan.pass[0][1], 1);
	assert_int_equal(plan.pass[0][2], 0);
	assert_int_equal(plan.counter[0][2], 2);
	assert_int_equal(plan.pass[0][3], -1);
	assert_all_safe();
}

/* Random lists on both threads: each event in exactly one pass when its mask allows, and every
 * pass safe in every mode. */
static void test_random_lists(void **state)
{
	(void)state;
	srand(18);
	for (unsigned round = 0; round < 2000; round++) {
		reset((unsigned)rand() % 3);
		in.gp = 2 + (unsigned)rand() % 7;
		for (unsigned t = 0; t < 2; t++)
			for (unsigned i = (unsigned)rand() % 12; i > 0; i--)
				add(t, (uint8_t)(rand() % 4 ? 0xff : rand()), rand() % 3 == 0,
				    rand() % 10 == 0);
		bench_passes_plan(&in, &plan);
		assert_all_safe();
		uint8_t all = (uint8_t)((1u << in.gp) - 1);
		for (unsigned t = 0; t < 2; t++)
			for (unsigned i = 0; i < in.n[t]; i++)
				assert_int_equal(plan.pass[t][i] >= 0,
						 (in.event[t][i].mask & all) != 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leak_pair),
		cmocka_unit_test(test_more_events_than_counters),
		cmocka_unit_test(test_alone_and_restrictions),
		cmocka_unit_test(test_random_lists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
