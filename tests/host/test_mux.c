// SPDX-License-Identifier: GPL-2.0
/*
 * Multiplexing (pmu/mux.c): time accounting, rotation, pinned and flexible groups, scaling, and
 * the multiplexing examples of the thesis (7.2) and the Linux article worked by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/mux.h"
#include "tests/host/lib/brute_force.h"
#include "tests/host/lib/fixtures.h"

/* Thesis 7.2: 1000 iterations of three events, two of them on counter 2 only: 667, 667 and 333
 * iterations on the counters, 66.70% / 66.70% / 33.30%, and the last iteration schedules two. */
static void test_thesis_simulator_example(void **state)
{
	struct mux_thread t;

	(void)state;
	fixture_thread(
		&t, "haswell", 0,
		"l2_lines_in:any,l1d_pend_miss:occurrences,cycle_activity:stalls_l1d_pending",
		SCHED_GREEDY, NULL, 0);
	assert_int_equal(t.events[1].constraint.mask, 0x4);
	assert_int_equal(t.events[2].constraint.mask, 0x4);
	fixture_run(&t, 1000);
	assert_int_equal(t.events[0].time_running, 667);
	assert_int_equal(t.events[1].time_running, 667);
	assert_int_equal(t.events[2].time_running, 333);
	assert_int_equal(t.events[0].time_enabled, 1000);
	assert_int_equal(fixture_percent(&t, 0), 6670);
	assert_int_equal(fixture_percent(&t, 2), 3330);
	assert_int_equal(t.events[0].last_counter, 0);
	assert_int_equal(t.events[1].last_counter, 2);
	assert_int_equal(t.events[2].last_counter, 2);
}

/* Thesis 7.2, -C 0x6,0x8,0x9,0xb: greedy runs each event 3 ticks in 4; Hopcroft-Karp all. */
static void test_thesis_constraint_example(void **state)
{
	const uint64_t masks[] = { 0x6, 0x8, 0x9, 0xb };
	struct mux_thread t;

	(void)state;
	for (unsigned alg = 0; alg < 2; alg++) {
		fixture_thread(&t, "haswell", 0,
			       "l2_lines_in:any,l1d_pend_miss:occurrences,"
			       "cycle_activity:stalls_l1d_pending,inst_retired:any_p",
			       alg ? SCHED_HK : SCHED_GREEDY, NULL, 0);
		for (unsigned i = 0; i < 4; i++)
			mux_set_constraint(&t, i, masks[i]);
		fixture_run(&t, 1000);
		for (unsigned i = 0; i < 4; i++)
			assert_int_equal(fixture_percent(&t, i), alg ? 10000 : 7500);
	}
}

/* Accounting with irregular tick times: enabled counts every interval, running only those the
 * event spent on a counter; the interval is charged to the schedule that was in force. */
static void test_time_accounting(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;

	(void)state;
	fixture_thread(&t, "haswell", 0, "r0148,r0148", SCHED_GREEDY, NULL, 0);
	mux_start(&t, 100, &s); /* event 0 on counter 2 */
	assert_int_equal(s.counter[0], 2);
	mux_tick(&t, 110, &s); /* +10 for event 0; rotated: event 1 */
	assert_int_equal(s.counter[1], 2);
	mux_tick(&t, 135, &s); /* +25 for event 1 */
	mux_stop(&t, 137);     /* +2 for event 0 */
	assert_int_equal(t.events[0].time_enabled, 37);
	assert_int_equal(t.events[1].time_enabled, 37);
	assert_int_equal(t.events[0].time_running, 12);
	assert_int_equal(t.events[1].time_running, 25);
	assert_false(t.running);
	assert_int_equal(t.events[0].counter, SCHED_NO_COUNTER);
}

static uint64_t work_of(const void *arg)
{
	return *(const uint64_t *)arg;
}

/*
 * The work clock: the thread's units are accounted where its time is. Two events take turns on
 * counter 2 (event 0 for 30 of 50 ticks, event 1 for 20), but the thread does 90 units while
 * event 0 runs and 10 while event 1 runs (a CPU its host ran in bursts): scaled as their counts
 * are, event 0's work comes to 150 and event 1's to 25 of the 100 done. A reset ledger is no
 * work done backwards.
 */
static void test_work_clock(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;
	uint64_t work = 1000;
	struct mux_reading r;

	(void)state;
	fixture_thread(&t, "haswell", 0, "r0148,r0148", SCHED_GREEDY, NULL, 0);
	mux_set_work(&t, work_of, &work);
	mux_start(&t, 0, &s); /* event 0 runs */
	work += 45;
	mux_tick(&t, 10, &s); /* event 1 runs */
	work += 5;
	mux_tick(&t, 20, &s); /* event 0 */
	work = 45;	      /* the ledger was reset: counts from here */
	mux_tick(&t, 30, &s); /* event 1 */
	work += 5;
	mux_tick(&t, 40, &s);
	work += 45;
	mux_stop(&t, 50); /* event 0 ran [40, 50) too */
	assert_int_equal(t.events[0].work_enabled, 100);
	assert_int_equal(t.events[0].work_running, 90);
	assert_int_equal(t.events[1].work_running, 10);
	r = mux_read(&t.events[0]);
	assert_int_equal(r.work_enabled, 100);
	assert_int_equal(r.work_scaled, 150); /* 90 in 30 of 50 ticks */
	assert_int_equal(mux_work_gap(&r, 1000), 500);
	r = mux_read(&t.events[1]);
	assert_int_equal(r.work_scaled, 25); /* 10 in 20 of 50 */
	assert_int_equal(mux_work_gap(&r, 10000), 7500);
	/* No work clock: no work figures. */
	fixture_thread(&t, "haswell", 0, "r0148,r0148", SCHED_GREEDY, NULL, 0);
	fixture_run(&t, 10);
	r = mux_read(&t.events[0]);
	assert_int_equal(r.work_enabled, 0);
	assert_int_equal(r.work_scaled, 0);
	assert_int_equal(mux_work_gap(&r, 1000), 0);
}

/* No rotation when everything fits: the fast path keeps every event where it is. */
static void test_no_rotation_without_multiplexing(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;

	(void)state;
	fixture_thread(&t, "haswell", 0, "r00c5,r20cc,r0148", SCHED_GREEDY, NULL, 0);
	mux_start(&t, 0, &s);
	assert_false(s.multiplexing);
	assert_int_equal(s.counter[2], 2);
	assert_int_equal(s.counter[0], 0);
	assert_int_equal(s.counter[1], 1);
	for (unsigned k = 1; k < 5; k++) {
		mux_tick(&t, k, &s);
		assert_int_equal(t.flexible[0], 0);
		assert_int_equal(s.counter[0], 0);
		assert_int_equal(s.counter[1], 1);
		assert_int_equal(s.counter[2], 2);
	}
	mux_stop(&t, 5);
	assert_int_equal(fixture_percent(&t, 0), 10000);
}

/* Linux article, first example: l1d_pend_miss.pending and cycle_activity.stalls_l1d_pending
 * alternate on counter 2: 50% each. */
static void test_article_alternating(void **state)
{
	struct mux_thread t;

	(void)state;
	fixture_thread(&t, "haswell", 0, "l1d_pend_miss.pending,cycle_activity.stalls_l1d_pending",
		       SCHED_GREEDY, NULL, 0);
	fixture_run(&t, 1000);
	assert_int_equal(fixture_percent(&t, 0), 5000);
	assert_int_equal(fixture_percent(&t, 1), 5000);
}

/* Linux article, second example: the pinned event always wins counter 2, the flexible one is
 * <not counted>; rotation of a one-group flexible list changes nothing. */
static void test_article_pinned(void **state)
{
	struct mux_thread t;
	struct mux_reading r;

	(void)state;
	fixture_thread(&t, "haswell", 0,
		       "l1d_pend_miss.pending,cycle_activity.stalls_l1d_pending:D", SCHED_GREEDY,
		       NULL, 0);
	assert_true(t.groups[1].pinned);
	fixture_run(&t, 1000);
	assert_int_equal(fixture_percent(&t, 1), 10000);
	r = mux_read(&t.events[0]);
	assert_false(r.counted);
	assert_int_equal(r.percent, 0);
	assert_int_equal(r.time_enabled, 1000);
}

/*
 * Linux article, third example: '{l1d_pend_miss.pending,<x>}', stalls_l1d_pending:D,
 * mem_uops_retired.all_loads. The group never fits beside the pinned event; while it is at the
 * head of the flexible list it stops the pass, so all_loads runs every other tick: 50%. (The
 * article's second group member is a software event; branch-misses stands in for it.)
 */
static void test_article_group_blocks_later_groups(void **state)
{
	struct mux_thread t;

	(void)state;
	fixture_thread(&t, "haswell", 0,
		       "{l1d_pend_miss.pending,branch-misses},cycle_activity.stalls_l1d_pending:D,"
		       "mem_uops_retired.all_loads",
		       SCHED_GREEDY, NULL, 0);
	fixture_run(&t, 1000);
	assert_false(mux_read(&t.events[0]).counted);
	assert_false(mux_read(&t.events[1]).counted);
	assert_int_equal(fixture_percent(&t, 2), 10000);
	assert_int_equal(fixture_percent(&t, 3), 5000);
}

/*
 * Linux article, with Linux 4.1-rc7's limit (HT on, a corrupting event enabled: at most 2 GP
 * counters): three mem_load_uops_retired events run 2/3 of the time, five run 2/5. The sibling
 * is idle; only the limit multiplexes.
 */
static void test_article_half_counter_limit(void **state)
{
	struct xsu_states core;
	struct mux_thread t;

	(void)state;
	xsu_init(&core);
	fixture_thread(&t, "haswell", 0,
		       "mem_load_uops_retired.l1_hit,mem_load_uops_retired.l1_miss,"
		       "mem_load_uops_retired.l2_hit",
		       SCHED_GREEDY, &core, 0);
	mux_set_hooks(&t, &xsu_hooks_limit, &core);
	fixture_run(&t, 999);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(fixture_percent(&t, i), 6667);

	xsu_init(&core);
	fixture_thread(&t, "haswell", 0,
		       "mem_load_uops_retired.l1_hit,mem_load_uops_retired.l1_miss,"
		       "mem_load_uops_retired.hit_lfb,mem_load_uops_retired.l2_hit,"
		       "mem_load_uops_retired.l3_hit",
		       SCHED_GREEDY, &core, 0);
	mux_set_hooks(&t, &xsu_hooks_limit, &core);
	fixture_run(&t, 1000);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(fixture_percent(&t, i), 4000);

	/* Skylake: no erratum, no limit, four counters for five events: 80%. */
	fixture_thread(&t, "skylake", 0,
		       "mem_load_retired.l1_hit,mem_load_retired.l1_miss,mem_load_retired.fb_hit,"
		       "mem_load_retired.l2_hit,mem_load_retired.l3_hit",
		       SCHED_GREEDY, NULL, 0);
	fixture_run(&t, 1000);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(fixture_percent(&t, i), 8000);
}

/* Linux article, last example: instructions takes fixed counter 0, four page-walk events the GP
 * counters, and the other two wait. */
static void test_article_fixed_counter_and_gp(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;

	(void)state;
	fixture_thread(&t, "haswell", 0,
		       "instructions,dtlb_load_misses.walk_completed,"
		       "dtlb_load_misses.walk_completed_4k,dtlb_store_misses.walk_completed,"
		       "dtlb_store_misses.walk_completed_4k,itlb_misses.walk_completed,"
		       "itlb_misses.walk_completed_4k",
		       SCHED_GREEDY, NULL, 0);
	mux_start(&t, 0, &s);
	assert_int_equal(s.counter[0], PMU_FIXED_BASE);
	assert_int_equal(s.nr_scheduled, 5);
	assert_int_equal(s.counter[5], SCHED_NO_COUNTER);
	assert_true(s.multiplexing);
	mux_stop(&t, 1);
}

/* A pinned group that does not fit goes into the error state for good: its times stop. */
static void test_pinned_error_state(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;

	(void)state;
	fixture_thread(&t, "haswell", 0, "r0148:D,{r0148,r00c5}:D,r00c4", SCHED_GREEDY, NULL, 0);
	mux_start(&t, 0, &s);
	assert_true(s.pinned_failed);
	assert_int_equal(t.events[1].state, MUX_EVENT_ERROR);
	assert_int_equal(t.events[2].state, MUX_EVENT_ERROR);
	assert_int_equal(s.counter[3], 0);
	mux_tick(&t, 10, &s);
	assert_false(s.pinned_failed);
	mux_stop(&t, 20);
	assert_int_equal(t.events[0].time_running, 20);
	assert_int_equal(t.events[1].time_enabled, 0);
	assert_false(mux_read(&t.events[2]).counted);
	assert_int_equal(t.events[3].time_running, 20);
}

/* Events added between ticks take part from the next schedule, and only then start their time. */
static void test_added_between_ticks(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;
	struct pmu_event late = { .event = 0xc4, .umask = 0x02, .usr = true, .os = true };

	(void)state;
	fixture_thread(&t, "haswell", 0, "r00c5", SCHED_GREEDY, NULL, 0);
	mux_start(&t, 0, &s);
	mux_tick(&t, 5, &s);
	unsigned first = 0;
	assert_true(mux_add_group(&t, &late, 1, &first));
	assert_int_equal(first, 1);
	mux_tick(&t, 8, &s);
	assert_int_equal(s.counter[1], 1);
	mux_stop(&t, 10);
	assert_int_equal(t.events[0].time_enabled, 10);
	assert_int_equal(t.events[1].time_enabled, 2);
	assert_int_equal(t.events[1].time_running, 2);
}

/* The list is bounded: a group that does not fit is refused as a whole. */
static void test_capacity(void **state)
{
	struct mux_thread t;
	struct mux_config config = { .gp = 4, .fixed = 3 };
	struct pmu_event e[MUX_MAX_EVENTS + 1] = { 0 };

	(void)state;
	mux_init(&t, &config, 0);
	assert_false(mux_add_group(&t, e, 0, NULL));
	assert_false(mux_add_events(&t, e, MUX_MAX_EVENTS + 1));
	assert_int_equal(t.nr_events, 0);
	unsigned index = 99;
	assert_true(mux_add_group(&t, e, MUX_MAX_EVENTS, &index));
	assert_int_equal(index, 0);
	assert_false(mux_add_group(&t, e, 1, NULL));
}

/* Scaling: equation 6.1 in integers, exact where the product exceeds 64 bits. */
static void test_scaling(void **state)
{
	uint64_t scaled = 42, seed = 7;

	(void)state;
	assert_false(mux_scale(1000, 10, 0, &scaled));
	assert_int_equal(scaled, 42);
	assert_true(mux_scale(1000, 10, 10, &scaled));
	assert_int_equal(scaled, 1000);
	assert_true(mux_scale(50000000, 10, 5, &scaled)); /* thesis fig. 6.1: 50M over 5T of 10T */
	assert_int_equal(scaled, 100000000);
	/* 5.5e9 counts over 10 s of TSC ticks at 3.4 GHz, 2/3 of the time running. */
	assert_true(mux_scale(5509435203ull, 34000000000ull, 22666666667ull, &scaled));
	assert_int_equal(scaled, (uint64_t)((unsigned __int128)5509435203ull * 34000000000ull /
					    22666666667ull));
	assert_int_equal(mux_mul_div(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
	assert_int_equal(mux_mul_div(UINT64_MAX, 2, 1), UINT64_MAX); /* saturates */
	assert_int_equal(mux_mul_div(1, 1, 0), UINT64_MAX);
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t a = brute_random(&seed) >> (brute_random(&seed) % 64);
		uint64_t b = brute_random(&seed) >> (brute_random(&seed) % 64);
		uint64_t c = (brute_random(&seed) >> (brute_random(&seed) % 64)) | 1;
		unsigned __int128 q = (unsigned __int128)a * b / c;

		assert_int_equal(mux_mul_div(a, b, c), q >> 64 ? UINT64_MAX : (uint64_t)q);
	}
	assert_int_equal(mux_percent(667, 1000), 6670);
	assert_int_equal(mux_percent(2, 3), 6667);
	assert_int_equal(mux_percent(1, 3), 3333);
	assert_int_equal(mux_percent(0, 0), 0);
	assert_int_equal(mux_percent(5, 5), 10000);
}

/* The kernel's view: counts added while running are scaled by enabled over running. */
static void test_reading(void **state)
{
	struct mux_thread t;
	struct mux_schedule s;
	struct mux_reading r;

	(void)state;
	fixture_thread(&t, "haswell", 0, "r0148,r0ca3", SCHED_GREEDY, NULL, 0);
	mux_start(&t, 0, &s);
	for (unsigned k = 1; k <= 4; k++) {
		for (unsigned i = 0; i < 2; i++)
			if (s.counter[i] != SCHED_NO_COUNTER)
				t.events[i].count += 1000 * (i + 1);
		if (k < 4)
			mux_tick(&t, k, &s);
	}
	mux_stop(&t, 4);
	r = mux_read(&t.events[0]);
	assert_true(r.counted);
	assert_int_equal(r.raw, 2000);
	assert_int_equal(r.scaled, 4000);
	assert_int_equal(r.percent, 5000);
	r = mux_read(&t.events[1]);
	assert_int_equal(r.scaled, 8000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thesis_simulator_example),
		cmocka_unit_test(test_thesis_constraint_example),
		cmocka_unit_test(test_time_accounting),
		cmocka_unit_test(test_work_clock),
		cmocka_unit_test(test_no_rotation_without_multiplexing),
		cmocka_unit_test(test_article_alternating),
		cmocka_unit_test(test_article_pinned),
		cmocka_unit_test(test_article_group_blocks_later_groups),
		cmocka_unit_test(test_article_half_counter_limit),
		cmocka_unit_test(test_article_fixed_counter_and_gp),
		cmocka_unit_test(test_pinned_error_state),
		cmocka_unit_test(test_added_between_ticks),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_reading),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
