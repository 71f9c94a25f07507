// SPDX-License-Identifier: GPL-2.0
/*
 * The greedy assignment (pmu/sched_greedy.c) and the fast path (sched_events, pmu/sched.c) on
 * examples worked by hand from the thesis (3.2, fig. 3.2) and the Linux article.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/sched.h"

#define FIXED(j) (1ull << (PMU_FIXED_BASE + (j)))

/* Thesis fig. 3.2: E1 (weight 1), E2 (weight 4), E3 (weight 2). With two events E1 goes first,
 * then E2; with three, E1, then E3, then E2, and E2 moves to a later counter. */
static void test_thesis_figure_3_2(void **state)
{
	const uint64_t masks[] = { 0x2, 0xf, 0x3 };
	int8_t a[3];

	(void)state;
	assert_int_equal(greedy_assign(masks, 1, 4, a), 0);
	assert_int_equal(a[0], 1);
	assert_int_equal(greedy_assign(masks, 2, 4, a), 0);
	assert_int_equal(a[0], 1);
	assert_int_equal(a[1], 0);
	assert_int_equal(greedy_assign(masks, 3, 4, a), 0);
	assert_int_equal(a[0], 1);
	assert_int_equal(a[2], 0);
	assert_int_equal(a[1], 2);
}

/* Visit order: weight first, list order within a weight (Linux wmin..wmax, then index). */
static void test_weight_order(void **state)
{
	const uint64_t masks[] = { 0xf, 0x3, 0x1, 0x3, FIXED(0) | 0xf, 0x8 };
	uint8_t order[6];

	(void)state;
	sched_weight_order(masks, 6, order);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 5);
	assert_int_equal(order[2], 1);
	assert_int_equal(order[3], 3);
	assert_int_equal(order[4], 0);
	assert_int_equal(order[5], 4);
}

/*
 * Linux article, the group {mem_load_uops_retired.l1_hit, .l1_miss, .l2_hit,
 * l1d_pend_miss.pending} on Haswell with HT off: three events on counters 0-3 and one on counter
 * 2 only. Weight order puts l1d_pend_miss.pending (weight 1) first, so it gets counter 2 and the
 * group fits; in list order counters 0-2 would be gone before it.
 */
static void test_article_weight_ordering_group(void **state)
{
	const uint64_t masks[] = { 0xf, 0xf, 0xf, 0x4 };
	int8_t a[4];

	(void)state;
	assert_int_equal(greedy_assign(masks, 4, 8, a), 0);
	assert_int_equal(a[3], 2);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], 1);
	assert_int_equal(a[2], 3);
}

/* Linux article, first example: l1d_pend_miss.pending and cycle_activity.stalls_l1d_pending are
 * both counter 2 only; the second cannot be scheduled beside the first. */
static void test_article_counter_2_conflict(void **state)
{
	const uint64_t masks[] = { 0x4, 0x4 };
	int8_t a[2];

	(void)state;
	assert_int_equal(greedy_assign(masks, 2, 4, a), 1);
	assert_int_equal(a[0], 2);
	assert_int_equal(a[1], SCHED_NO_COUNTER);
}

/* Linux article, overlapping constraints 1001, 0011, 0111, 0111: the Intel algorithm has no
 * backtracking, so D finds no counter (AMD's overlap flag would backtrack to A). */
static void test_article_overlap_without_backtracking(void **state)
{
	const uint64_t masks[] = { 0x9, 0x3, 0x7, 0x7 };
	int8_t a[4];

	(void)state;
	assert_int_equal(greedy_assign(masks, 4, 4, a), 1);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], 1);
	assert_int_equal(a[2], 2);
	assert_int_equal(a[3], SCHED_NO_COUNTER);
}

/* The pass stops at the first event that finds nothing; later events are not tried even if a
 * counter would be free for them (perf_assign_events returns the number left). */
static void test_stops_at_first_failure(void **state)
{
	const uint64_t masks[] = { 0x1, 0x1, 0xf, 0xff };
	int8_t a[4];

	(void)state;
	assert_int_equal(greedy_assign(masks, 4, 8, a), 3);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], SCHED_NO_COUNTER);
	assert_int_equal(a[2], SCHED_NO_COUNTER);
	assert_int_equal(a[3], SCHED_NO_COUNTER);
}

/* Fixed counters are preferred (Linux >= 3.3); reference cycles only fit fixed counter 2; a
 * second instructions event falls back to a GP counter. */
static void test_fixed_counters_first(void **state)
{
	const uint64_t masks[] = { 0xf, FIXED(0) | 0xf, FIXED(0) | 0xf, FIXED(2), FIXED(1) | 0xf };
	int8_t a[5];

	(void)state;
	assert_int_equal(greedy_assign(masks, 5, 4, a), 0);
	assert_int_equal(a[3], PMU_FIXED_BASE + 2);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], PMU_FIXED_BASE + 0);
	assert_int_equal(a[2], 1);
	assert_int_equal(a[4], PMU_FIXED_BASE + 1);
}

/* gpmax: a third GP counter fails once two are in use (and, the pass stopping there, the
 * fixed-capable event after it in weight order is not reached); fixed counters do not count
 * against the limit. */
static void test_gpmax(void **state)
{
	const uint64_t masks[] = { 0xf, 0xf, FIXED(0) | 0xf, 0xf };
	int8_t a[4];

	(void)state;
	assert_int_equal(greedy_assign(masks, 4, 2, a), 2);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[1], 1);
	assert_int_equal(a[3], SCHED_NO_COUNTER);
	assert_int_equal(a[2], SCHED_NO_COUNTER);
	assert_int_equal(greedy_assign(masks, 3, 2, a), 0);
	assert_int_equal(a[2], PMU_FIXED_BASE);
	assert_int_equal(greedy_assign(masks, 4, 4, a), 0);
}

/* The fast path keeps previous counters in list order, gives up at the first event that cannot
 * keep its counter, and then the algorithm reassigns everything. */
static void test_fast_path(void **state)
{
	const uint64_t masks[] = { 0xf, 0xf, 0xf };
	const int8_t keep[] = { 3, 1, 2 };
	const int8_t clash[] = { 3, 3, 2 };
	const int8_t fresh[] = { 3, SCHED_NO_COUNTER, 2 };
	const uint64_t moved[] = { 0x7, 0xf, 0xf };
	int8_t a[3];

	(void)state;
	assert_int_equal(sched_events(SCHED_GREEDY, masks, keep, 3, 4, a), 0);
	assert_int_equal(a[0], 3);
	assert_int_equal(a[1], 1);
	assert_int_equal(a[2], 2);
	/* A taken counter, a never-run event, a counter no longer allowed: slow path from 0. */
	assert_int_equal(sched_events(SCHED_GREEDY, masks, clash, 3, 4, a), 0);
	assert_int_equal(a[0], 0);
	assert_int_equal(sched_events(SCHED_GREEDY, masks, fresh, 3, 4, a), 0);
	assert_int_equal(a[0], 0);
	assert_int_equal(a[2], 2);
	assert_int_equal(sched_events(SCHED_GREEDY, moved, keep, 3, 4, a), 0);
	assert_int_equal(a[0], 0);
	/* As in Linux, the fast path does not apply gpmax: three kept GP counters with gpmax 2. */
	assert_int_equal(sched_events(SCHED_GREEDY, masks, keep, 3, 2, a), 0);
	assert_int_equal(a[2], 2);
	assert_int_equal(sched_events(SCHED_GREEDY, masks, fresh, 3, 2, a), 1);
	/* The same fast path in front of Hopcroft-Karp. */
	assert_int_equal(sched_events(SCHED_HK, masks, keep, 3, 4, a), 0);
	assert_int_equal(a[0], 3);
	assert_int_equal(a[1], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thesis_figure_3_2),
		cmocka_unit_test(test_weight_order),
		cmocka_unit_test(test_article_weight_ordering_group),
		cmocka_unit_test(test_article_counter_2_conflict),
		cmocka_unit_test(test_article_overlap_without_backtracking),
		cmocka_unit_test(test_stops_at_first_failure),
		cmocka_unit_test(test_fixed_counters_first),
		cmocka_unit_test(test_gpmax),
		cmocka_unit_test(test_fast_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
