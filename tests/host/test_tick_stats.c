// SPDX-License-Identifier: GPL-2.0
/*
 * The tick's statistics (kernel/tick_stats.c): the handler's cost, and late and lost ticks on
 * made-up timelines of a 1000-cycle period: on time, serviced late, merged with the next (lost),
 * a late tick placed a slot too far, and a timer a little faster than its calibration.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/tick_stats.h"

#define P 1000ull
#define START 1000000ull

/* A tick entering at `at` whose handler takes `cost`. */
static void tick(struct tick_stats *s, uint64_t at, uint64_t cost)
{
	tick_stats_note(s, at, at + cost);
}

static void test_cost(void **state)
{
	(void)state;
	struct tick_stats s;

	tick_stats_start(&s, START, P);
	assert_int_equal(tick_stats_mean_tsc(&s), 0);
	tick(&s, START + P, 30);
	tick(&s, START + 2 * P, 50);
	tick(&s, START + 3 * P, 40);
	assert_int_equal(s.ticks, 3);
	assert_int_equal(s.handler_tsc, 120);
	assert_int_equal(s.handler_max_tsc, 50);
	assert_int_equal(tick_stats_mean_tsc(&s), 40);
	assert_int_equal(s.late + s.lost, 0);
	/* Started again: everything from zero. */
	tick_stats_start(&s, START, P);
	assert_int_equal(s.ticks + s.handler_tsc + s.handler_max_tsc, 0);
}

/*
 * A handler that takes the whole period, three times in a row, slows the tick down: the period
 * doubles, up to TICK_SLOWEST times the first; one shorter handler starts the count again.
 */
static void test_overloaded_tick_slows_down(void **state)
{
	(void)state;
	struct tick_stats s;
	uint64_t at = START;

	tick_stats_start(&s, START, P);
	for (unsigned k = 0; k < 2; k++) {
		tick(&s, at += P, P);
		assert_false(tick_stats_overloaded(&s, P));
	}
	tick(&s, at += P, P - 1); /* one that leaves the CPU a cycle: the count starts again */
	assert_false(tick_stats_overloaded(&s, P));
	for (unsigned k = 0; k < TICK_OVERRUNS - 1; k++) {
		tick(&s, at += P, 2 * P);
		assert_false(tick_stats_overloaded(&s, P));
	}
	tick(&s, at += P, 2 * P);
	assert_true(tick_stats_overloaded(&s, P));
	assert_int_equal(s.period_tsc, 2 * P);
	assert_int_equal(s.slowed, 1);
	/* Slower and slower, never beyond TICK_SLOWEST periods. */
	for (unsigned k = 0; k < 100 * TICK_OVERRUNS; k++) {
		tick(&s, at += s.period_tsc, 1000 * P);
		tick_stats_overloaded(&s, P);
	}
	assert_int_equal(s.period_tsc, TICK_SLOWEST * P);
	assert_int_equal(s.slowed, 6);
	/* A follower's stats (no period) never slow down. */
	tick_stats_start(&s, START, 0);
	for (unsigned k = 0; k < 10; k++) {
		tick_stats_note_cost(&s, START, START + 10 * P);
		assert_false(tick_stats_overloaded(&s, P));
	}
}

static void test_late_and_lost(void **state)
{
	(void)state;
	struct tick_stats s;

	tick_stats_start(&s, START, P);
	tick(&s, START + 1 * P + 10, 5);
	/* Serviced 0.6 periods late: late, not lost; the next comes on the timer's grid. */
	tick(&s, START + 2 * P + 600, 5);
	assert_int_equal(s.late, 1);
	assert_int_equal(s.lost, 0);
	tick(&s, START + 3 * P + 10, 5);
	assert_int_equal(s.late, 1);
	assert_int_equal(s.lost, 0);
	/* The 4th merged with the 5th, which comes on time: one lost, none late. */
	tick(&s, START + 5 * P + 20, 5);
	assert_int_equal(s.lost, 1);
	assert_int_equal(s.late, 1);
	/* The 6th and 7th merged and were serviced 1.6 periods late: one more lost, and late. */
	tick(&s, START + 7 * P + 600, 5);
	assert_int_equal(s.lost, 2);
	assert_int_equal(s.late, 2);
	tick(&s, START + 8 * P, 5);
	assert_int_equal(s.ticks, 6);
	assert_int_equal(s.lost, 2);
	assert_int_equal(s.late, 2);
}

/*
 * A tick serviced 0.8 periods late is first placed on the next due time (as if its own had been
 * lost); when the next one then comes on the grid, early for that placement, the count is set
 * right: the tick was late, and none was lost.
 */
static void test_late_tick_placed_too_far(void **state)
{
	(void)state;
	struct tick_stats s;

	tick_stats_start(&s, START, P);
	tick(&s, START + P, 5);
	tick(&s, START + 2 * P + 800, 5);
	assert_int_equal(s.lost, 1);
	tick(&s, START + 3 * P + 5, 5);
	assert_int_equal(s.lost, 0);
	assert_int_equal(s.late, 1);
	for (uint64_t k = 4; k < 10; k++)
		tick(&s, START + k * P, 5);
	assert_int_equal(s.ticks, 9);
	assert_int_equal(s.lost, 0);
	assert_int_equal(s.late, 1);
}

/* The APIC timer 1% faster than its calibration: 1000 ticks drift by 10 periods against the
 * TSC's grid, but re-anchoring on every timely tick keeps them all on time. */
static void test_calibration_drift(void **state)
{
	(void)state;
	struct tick_stats s;

	tick_stats_start(&s, START, P);
	for (uint64_t k = 1; k <= 1000; k++)
		tick(&s, START + k * (P - 10), 5);
	assert_int_equal(s.ticks, 1000);
	assert_int_equal(s.lost, 0);
	assert_int_equal(s.late, 0);
	tick_stats_start(&s, START, P);
	for (uint64_t k = 1; k <= 1000; k++)
		tick(&s, START + k * (P + 10), 5);
	assert_int_equal(s.lost, 0);
	assert_int_equal(s.late, 0);
}

/* A tick another CPU raises has no period: its cost counts, no tick is late or lost. */
static void test_follower_has_no_due_ticks(void **state)
{
	(void)state;
	struct tick_stats s;

	tick_stats_start(&s, 1000, 0);
	tick_stats_note(&s, 5000, 5100);
	tick_stats_note(&s, 900000, 900300);
	assert_int_equal(s.ticks, 2);
	assert_int_equal(s.late, 0);
	assert_int_equal(s.lost, 0);
	assert_int_equal(tick_stats_mean_tsc(&s), 200);
	assert_int_equal(s.handler_max_tsc, 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_overloaded_tick_slows_down),
		cmocka_unit_test(test_late_and_lost),
		cmocka_unit_test(test_late_tick_placed_too_far),
		cmocka_unit_test(test_calibration_drift),
		cmocka_unit_test(test_follower_has_no_due_ticks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
