// SPDX-License-Identifier: GPL-2.0
/*
 * Hopcroft-Karp (pmu/hopcroft_karp.c) against brute force: every constraint set of 4 events on 4
 * counters, a million random instances on up to 8 GP and 3 fixed counters with groups and the
 * gpmax limit, and the thesis's examples.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/sched.h"
#include "tests/host/lib/brute_force.h"

#define FIXED(j) (1ull << (PMU_FIXED_BASE + (j)))

static void expect_valid(const uint64_t *masks, unsigned n, unsigned gpmax, const int8_t *assign,
			 unsigned unassigned)
{
	int scheduled = brute_check_assignment(masks, n, gpmax, assign);

	assert_int_not_equal(scheduled, -1);
	assert_int_equal((unsigned)scheduled, n - unassigned);
}

/* Thesis 7.2, -C 0x6,0x8,0x9,0xb: greedy 3 of 4, Hopcroft-Karp all four on the counters the
 * thesis prints (cntr-2, cntr-3, cntr-0, cntr-1). */
static void test_thesis_constraint_example(void **state)
{
	const uint64_t masks[] = { 0x6, 0x8, 0x9, 0xb };
	int8_t assign[4];

	(void)state;
	assert_int_equal(greedy_assign(masks, 4, 4, assign), 1);
	assert_int_equal(hk_assign(masks, 4, 4, assign), 0);
	assert_int_equal(assign[0], 2);
	assert_int_equal(assign[1], 3);
	assert_int_equal(assign[2], 0);
	assert_int_equal(assign[3], 1);
}

/* The overlap example of the Linux article: Intel's greedy algorithm has no backtracking and
 * fails; a maximum matching schedules all four. */
static void test_overlap_example(void **state)
{
	const uint64_t masks[] = { 0x9, 0x3, 0x7, 0x7 };
	int8_t assign[4];

	(void)state;
	assert_int_equal(greedy_assign(masks, 4, 4, assign), 1);
	assert_int_equal(hk_assign(masks, 4, 4, assign), 0);
	expect_valid(masks, 4, 4, assign, 0);
	assert_int_equal(assign[0], 3);
}

/* A greedy start that leaves the last event out, so that the only augmenting path runs through
 * every other event: the iterative depth-first search must follow all of it. */
static void test_long_augmenting_path(void **state)
{
	uint64_t masks[8];
	int8_t assign[8];

	(void)state;
	for (unsigned i = 0; i < 7; i++)
		masks[i] = 3ull << i; /* {C_i, C_i+1} */
	masks[7] = 0x3;		      /* {C_0, C_1} */
	assert_int_equal(greedy_assign(masks, 8, 8, assign), 1);
	assert_int_equal(hk_assign(masks, 8, 8, assign), 0);
	expect_valid(masks, 8, 8, assign, 0);
	/* The shortest augmenting path: E7-C1-E1-C2-...-E6-C7, six events deep. */
	assert_int_equal(assign[0], 0);
	for (unsigned i = 1; i < 7; i++)
		assert_int_equal(assign[i], i + 1);
	assert_int_equal(assign[7], 1);
}

/* Fixed counters first, and the gpmax limit exact: two INST_RETIRED.ANY-like events (fixed 0 or
 * any GP) and three GP-only events with gpmax 3: one fixed + three GP = 4. */
static void test_fixed_first_and_gpmax(void **state)
{
	const uint64_t masks[] = { 0xf, 0xf, FIXED(0) | 0xf, FIXED(0) | 0xf, 0xf };
	int8_t assign[5];
	unsigned unassigned;

	(void)state;
	unassigned = hk_assign(masks, 5, 3, assign);
	assert_int_equal(unassigned, 1);
	expect_valid(masks, 5, 3, assign, unassigned);
	assert_int_equal(brute_max_scheduled(masks, 5, 3), 4);
	/* Both algorithms put one of the fixed-capable events on fixed counter 0. */
	assert_true(assign[2] == PMU_FIXED_BASE || assign[3] == PMU_FIXED_BASE);

	/* Reference cycles: fixed counter 2 only. */
	{
		const uint64_t ref[] = { FIXED(2), FIXED(2), 0x1 };

		assert_int_equal(hk_assign(ref, 3, 4, assign), 1);
		expect_valid(ref, 3, 4, assign, 1);
		assert_int_equal(assign[0], PMU_FIXED_BASE + 2);
	}
}

/* Degenerate inputs: no events, an empty mask, more events than counters. */
static void test_degenerate(void **state)
{
	uint64_t masks[SCHED_MAX_EVENTS] = { 0 };
	int8_t assign[SCHED_MAX_EVENTS];

	(void)state;
	assert_int_equal(hk_assign(masks, 0, 4, assign), 0);
	masks[0] = 0;
	masks[1] = 0x1;
	assert_int_equal(hk_assign(masks, 2, 4, assign), 1);
	assert_int_equal(assign[0], SCHED_NO_COUNTER);
	assert_int_equal(assign[1], 0);
	for (unsigned i = 0; i < SCHED_MAX_EVENTS; i++)
		masks[i] = 0xff | FIXED(0) | FIXED(1) | FIXED(2);
	assert_int_equal(hk_assign(masks, SCHED_MAX_EVENTS, 8, assign), SCHED_MAX_EVENTS - 11);
	expect_valid(masks, SCHED_MAX_EVENTS, 8, assign, SCHED_MAX_EVENTS - 11);
}

/* The generic layer on brute force: which of the groups, passed one at a time, fit. */
static unsigned brute_windows(const uint64_t *masks, const struct sched_group *groups,
			      unsigned nr_groups, unsigned gpmax, unsigned max_events,
			      uint32_t *accepted)
{
	uint64_t window[SCHED_MAX_EVENTS];
	unsigned size = 0;

	*accepted = 0;
	for (unsigned k = 0; k < nr_groups; k++) {
		unsigned grown = size + groups[k].count;

		for (unsigned j = 0; j < groups[k].count; j++)
			window[size + j] = masks[groups[k].first + j];
		if (grown > max_events || !brute_can_schedule(window, grown, gpmax, grown))
			break;
		size = grown;
		*accepted |= 1u << k;
	}
	return size;
}

static void check_generic(const uint64_t *masks, unsigned n, const struct sched_group *groups,
			  unsigned nr_groups, unsigned gpmax, unsigned max_events)
{
	struct sched_generic_params params = {
		.algorithm = SCHED_HK,
		.gpmax = gpmax,
		.max_events = max_events,
	};
	struct sched_generic_result result;
	int8_t previous[SCHED_MAX_EVENTS];
	uint32_t accepted;
	unsigned expected;

	for (unsigned i = 0; i < n; i++)
		previous[i] = SCHED_NO_COUNTER;
	sched_generic(&params, masks, previous, n, groups, nr_groups, &result);
	expected = brute_windows(masks, groups, nr_groups, gpmax, max_events, &accepted);
	assert_int_equal(result.nr_scheduled, expected);
	assert_int_equal(result.accepted, accepted);
	assert_int_equal(brute_check_assignment(masks, n, gpmax, result.counter), (int)expected);
}

/* Every constraint set of 4 events on 4 GP counters (15^4 = 50,625, the thesis's sweep): the
 * matching is maximum, with and without the half-of-the-counters limit, and the windowed passes
 * agree with brute force. */
static void test_every_4_counter_instance(void **state)
{
	uint64_t masks[4];
	int8_t assign[4];
	struct sched_group groups[4];
	unsigned instances = 0;

	(void)state;
	for (unsigned i = 0; i < 4; i++)
		groups[i] = (struct sched_group){ (uint8_t)i, 1, false };
	for (unsigned a = 1; a < 16; a++)
		for (unsigned b = 1; b < 16; b++)
			for (unsigned c = 1; c < 16; c++)
				for (unsigned d = 1; d < 16; d++) {
					masks[0] = a;
					masks[1] = b;
					masks[2] = c;
					masks[3] = d;
					for (unsigned gpmax = 2; gpmax <= 4; gpmax += 2) {
						unsigned best =
							brute_max_scheduled(masks, 4, gpmax);
						unsigned un = hk_assign(masks, 4, gpmax, assign);

						assert_int_equal(4 - un, best);
						expect_valid(masks, 4, gpmax, assign, un);
					}
					check_generic(masks, 4, groups, 4, 4, 4);
					instances++;
				}
	assert_int_equal(instances, 50625);
}

/*
 * A million random instances: 1-8 GP and 0-3 fixed counters, 1 to counters+2 events (at most
 * 12), masks of random density over those counters, gpmax the GP count or half of it. Each is
 * checked flat (maximum, valid) and split into random groups of 1-3 events for the generic
 * layer.
 */
static void test_random_instances(void **state)
{
	uint64_t seed = 0x243f6a8885a308d3ull;
	uint64_t masks[12];
	int8_t assign[12];
	struct sched_group groups[12];

	(void)state;
	for (unsigned instance = 0; instance < 1000000; instance++) {
		uint64_t r = brute_random(&seed);
		unsigned gp = 1 + r % 8, fixed = (r >> 3) % 4;
		unsigned counters = gp + fixed;
		unsigned n = 1 + (r >> 5) % (counters + 2 < 12 ? counters + 2 : 12);
		unsigned density = 1 + (r >> 9) % 7; /* bits set with probability density/8 */
		unsigned gpmax = (r >> 12) & 1 ? gp : gp / 2;
		unsigned nr_groups = 0, un, best;
		uint64_t all = PMU_GP_MASK(gp);

		for (unsigned j = 0; j < fixed; j++)
			all |= FIXED(j);
		for (unsigned i = 0; i < n; i++) {
			uint64_t m = 0;

			for (unsigned c = 0; c < 64; c++)
				if (((all >> c) & 1) && (brute_random(&seed) & 7) < density)
					m |= 1ull << c;
			masks[i] = m;
		}

		un = hk_assign(masks, n, gpmax, assign);
		expect_valid(masks, n, gpmax, assign, un);
		best = n - un;
		/* Maximum: nothing schedules one more. */
		if (brute_can_schedule(masks, n, gpmax, best + 1)) {
			print_error("instance %u: hk scheduled %u, brute force more\n", instance,
				    best);
			fail();
		}

		for (unsigned i = 0; i < n;) {
			unsigned size = 1 + brute_random(&seed) % 3;

			if (size > n - i)
				size = n - i;
			groups[nr_groups++] =
				(struct sched_group){ (uint8_t)i, (uint8_t)size, false };
			i += size;
		}
		check_generic(masks, n, groups, nr_groups, gpmax, counters);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thesis_constraint_example),
		cmocka_unit_test(test_overlap_example),
		cmocka_unit_test(test_long_augmenting_path),
		cmocka_unit_test(test_fixed_first_and_gpmax),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_every_4_counter_instance),
		cmocka_unit_test(test_random_instances),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
