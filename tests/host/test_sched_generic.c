// SPDX-License-Identifier: GPL-2.0
/*
 * The generic layer (pmu/sched_generic.c): windows of groups, pinned before flexible, stop at the
 * first flexible failure, the error state of pinned groups, the counter bound on a window, and the
 * thesis's past-the-first-failure variant; and thesis fig. 3.1 through the multiplexing ticks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmu/mux.h"
#include "pmu/sched.h"
#include "tests/host/lib/fixtures.h"

static const int8_t never_ran[SCHED_MAX_EVENTS] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

static struct sched_generic_result run(const uint64_t *masks, unsigned n,
				       const struct sched_group *order, unsigned nr_groups,
				       enum sched_algorithm algorithm, bool past_failure)
{
	struct sched_generic_params params = {
		.algorithm = algorithm,
		.gpmax = 4,
		.max_events = 4,
		.past_first_failure = past_failure,
	};
	struct sched_generic_result r;

	sched_generic(&params, masks, never_ran, n, order, nr_groups, &r);
	return r;
}

#define GROUP(first, count) ((struct sched_group){ (first), (count), false })
#define PINNED(first, count) ((struct sched_group){ (first), (count), true })

/* Thesis fig. 3.1 at T_0: E1 fits, E1+E2 fits, E3 conflicts with E2: the P_2 assignment stays. */
static void test_windows_stop_at_first_failure(void **state)
{
	const uint64_t masks[] = { 0xf, 0x4, 0x4, 0xf };
	const struct sched_group order[] = { GROUP(0, 1), GROUP(1, 1), GROUP(2, 1), GROUP(3, 1) };
	struct sched_generic_result r = run(masks, 4, order, 4, SCHED_GREEDY, false);

	(void)state;
	assert_int_equal(r.nr_scheduled, 2);
	assert_int_equal(r.accepted, 0x3);
	assert_int_equal(r.failed, 0x4);
	assert_int_equal(r.passes, 3); /* E4 is never passed down */
	assert_true(r.flexible_failed);
	assert_int_equal(r.counter[0], 0);
	assert_int_equal(r.counter[1], 2);
	assert_int_equal(r.counter[2], SCHED_NO_COUNTER);
	assert_int_equal(r.counter[3], SCHED_NO_COUNTER);
}

/* Thesis 7.2 variant: the failed event is left out and E4 still gets its chance. */
static void test_past_first_failure(void **state)
{
	const uint64_t masks[] = { 0xf, 0x4, 0x4, 0xf };
	const struct sched_group order[] = { GROUP(0, 1), GROUP(1, 1), GROUP(2, 1), GROUP(3, 1) };
	struct sched_generic_result r = run(masks, 4, order, 4, SCHED_GREEDY, true);
	struct sched_generic_params limited = { SCHED_GREEDY, 4, 4, true, 3 };

	(void)state;
	assert_int_equal(r.nr_scheduled, 3);
	assert_int_equal(r.accepted, 0xb);
	assert_int_equal(r.counter[3], 1);
	assert_true(r.flexible_failed);
	/* At most three events passed down: E4 is not reached. */
	sched_generic(&limited, masks, never_ran, 4, order, 4, &r);
	assert_int_equal(r.nr_scheduled, 2);
	assert_int_equal(r.counter[3], SCHED_NO_COUNTER);
}

/* A group is all or nothing: {E2, E3} fails as a whole, E1 keeps its counter, and in the
 * default layer the next group is not tried. */
static void test_group_all_or_nothing(void **state)
{
	const uint64_t masks[] = { 0xf, 0x4, 0x4, 0x1 };
	const struct sched_group order[] = { GROUP(0, 1), GROUP(1, 2), GROUP(3, 1) };
	struct sched_generic_result r = run(masks, 4, order, 3, SCHED_HK, false);

	(void)state;
	assert_int_equal(r.nr_scheduled, 1);
	assert_int_equal(r.accepted, 0x1);
	assert_int_equal(r.counter[1], SCHED_NO_COUNTER);
	assert_int_equal(r.counter[2], SCHED_NO_COUNTER);
	assert_int_equal(r.counter[3], SCHED_NO_COUNTER);
	r = run(masks, 4, order, 3, SCHED_HK, true);
	assert_int_equal(r.nr_scheduled, 2);
	assert_int_not_equal(r.counter[3], SCHED_NO_COUNTER);
}

/* A pinned group that fails is skipped (error state) and scheduling goes on; a later flexible
 * group still gets its counters. */
static void test_pinned_failure_does_not_stop(void **state)
{
	const uint64_t masks[] = { 0x4, 0x4, 0x3 };
	const struct sched_group order[] = { PINNED(0, 1), PINNED(1, 1), GROUP(2, 1) };
	struct sched_generic_result r = run(masks, 3, order, 3, SCHED_GREEDY, false);

	(void)state;
	assert_int_equal(r.accepted, 0x5);
	assert_int_equal(r.failed, 0x2);
	assert_false(r.flexible_failed);
	assert_int_equal(r.counter[0], 2);
	assert_int_equal(r.counter[2], 0);
}

/* No window may hold more events than there are counters (Linux collect_events). */
static void test_window_bound(void **state)
{
	const uint64_t masks[] = { 0xf, 0xf, 0xf, 0xf, 0x10 };
	const struct sched_group order[] = { GROUP(0, 1), GROUP(1, 1), GROUP(2, 1), GROUP(3, 1),
					     GROUP(4, 1) };
	struct sched_generic_params params = { SCHED_GREEDY, 5, 4, false, 0 };
	struct sched_generic_result r;

	(void)state;
	sched_generic(&params, masks, never_ran, 5, order, 5, &r);
	assert_int_equal(r.nr_scheduled, 4);
	assert_int_equal(r.passes, 4); /* the fifth window is refused before scheduling */
	assert_true(r.flexible_failed);
	params.max_events = 5;
	sched_generic(&params, masks, never_ran, 5, order, 5, &r);
	assert_int_equal(r.nr_scheduled, 5);
}

/* Thesis fig. 3.1: E2 and E3 compete for one counter; over three ticks of rotation the list
 * schedules {E1, E2}, then {E2}, then {E3, E1}. */
static void test_thesis_figure_3_1(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;

	(void)state;
	fixture_thread(&t, "haswell", 0, "r00c5,r00c4,r20cc", SCHED_GREEDY, NULL, 0);
	mux_set_constraint(&t, 1, 0x4);
	mux_set_constraint(&t, 2, 0x4);

	mux_start(&t, 0, &s);
	assert_int_equal(s.nr_scheduled, 2);
	assert_int_equal(s.counter[0], 0);
	assert_int_equal(s.counter[1], 2);
	assert_int_equal(s.counter[2], SCHED_NO_COUNTER);
	assert_true(s.multiplexing);

	mux_tick(&t, 1, &s); /* rotated: E2, E3, E1 */
	assert_int_equal(s.nr_scheduled, 1);
	assert_int_equal(s.counter[1], 2);
	assert_int_equal(s.counter[0], SCHED_NO_COUNTER);
	assert_int_equal(s.counter[2], SCHED_NO_COUNTER);

	mux_tick(&t, 2, &s); /* rotated: E3, E1, E2 */
	assert_int_equal(s.nr_scheduled, 2);
	assert_int_equal(s.counter[2], 2);
	assert_int_equal(s.counter[0], 0);
	assert_int_equal(s.counter[1], SCHED_NO_COUNTER);

	mux_tick(&t, 3, &s); /* back to T_0 */
	assert_int_equal(s.counter[0], 0);
	assert_int_equal(s.counter[1], 2);
	mux_stop(&t, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows_stop_at_first_failure),
		cmocka_unit_test(test_past_first_failure),
		cmocka_unit_test(test_group_all_or_nothing),
		cmocka_unit_test(test_pinned_failure_does_not_stop),
		cmocka_unit_test(test_window_bound),
		cmocka_unit_test(test_thesis_figure_3_1),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
