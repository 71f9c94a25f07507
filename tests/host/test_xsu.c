// SPDX-License-Identifier: GPL-2.0
/*
 * XSU (pmu/xsu.c) through the per-thread entry points (pmu/mux.c): the thesis's figures 5.4-5.10
 * step by step, the XSU masks of fig. 5.3, the transaction, the starvation limit, the examples of
 * chapters 7 and 8, and a random interleaving of two threads. After every schedule of every test
 * with XSU on, the invariant (no corrupting event beside an enabled sibling counter, states equal
 * to what the sibling holds) is checked.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/mux.h"
#include "pmu/mux_pair.h"
#include "pmu/xsu.h"
#include "tests/host/lib/brute_force.h"
#include "tests/host/lib/fixtures.h"

#define U XSU_UNUSED
#define S XSU_SHARED
#define X XSU_EXCLUSIVE

/* A corrupting and a non-corrupting event, both statically unconstrained (thesis 5.2). */
static const struct pmu_event corrupting = { .event = 0xd0, .umask = 0x81, .usr = true };
static const struct pmu_event non_corrupting = { .event = 0xcc, .umask = 0x20, .usr = true };

struct pair {
	struct xsu_states core;
	bool limit; /* Linux 4.1-rc7's half limit: xsu_hooks_limit */
	struct mux_thread t[2];
	struct mux_schedule s[2];
	unsigned long now;
};

static void check_invariant(struct pair *p)
{
	assert_true(xsu_invariant(&p->core, xsu_usage_now(&p->t[0]), xsu_usage_now(&p->t[1])));
}

static void pair_init(struct pair *p, bool limit)
{
	struct mux_config config = {
		.uarch = uarch_by_name("haswell"),
		.gp = 4,
		.fixed = 3,
		.algorithm = SCHED_GREEDY,
	};

	memset(p, 0, sizeof(*p));
	p->limit = limit;
	xsu_init(&p->core);
	for (unsigned t = 0; t < 2; t++) {
		mux_init(&p->t[t], &config, t);
		mux_set_hooks(&p->t[t], limit ? &xsu_hooks_limit : &xsu_hooks, &p->core);
	}
}

/* Thread t's events, parsed for Haswell, scheduled with the pair's XSU hooks. */
static void load(struct pair *p, unsigned t, const char *events)
{
	fixture_thread(&p->t[t], "haswell", 0, events, SCHED_GREEDY, &p->core, t);
	mux_set_hooks(&p->t[t], p->limit ? &xsu_hooks_limit : &xsu_hooks, &p->core);
}

/* Thread t gets one more event and reschedules (start the first time, tick afterwards). */
static void add_and_schedule(struct pair *p, unsigned t, const struct pmu_event *e)
{
	assert_true(mux_add_group(&p->t[t], e, 1, NULL));
	if (p->t[t].running)
		mux_tick(&p->t[t], ++p->now, &p->s[t]);
	else
		mux_start(&p->t[t], ++p->now, &p->s[t]);
	check_invariant(p);
}

static void expect_states(const struct pair *p, unsigned t, const uint8_t *states)
{
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(xsu_state_of(&p->core, t, i), states[i]);
	for (unsigned i = 4; i < XSU_MAX_COUNTERS; i++)
		assert_int_equal(xsu_state_of(&p->core, t, i), U);
}

/* Thesis figures 5.4 to 5.10: HT_0 schedules C, NC, NC and HT_1 NC, C, C, alternately. */
static void test_thesis_figures_5_4_to_5_10(void **state)
{
	struct pair p;

	(void)state;
	pair_init(&p, false);

	/* 5.4: nothing scheduled, every pair Unused. */
	expect_states(&p, 0, (const uint8_t[]){ U, U, U, U });
	expect_states(&p, 1, (const uint8_t[]){ U, U, U, U });

	/* 5.5: HT_0's corrupting event: dynamic constraint 0b1111, counter 0; HT_1's C_0 -> X. */
	add_and_schedule(&p, 0, &corrupting);
	assert_int_equal(p.t[0].events[0].dynamic_mask, 0xf);
	assert_int_equal(p.s[0].counter[0], 0);
	expect_states(&p, 0, (const uint8_t[]){ U, U, U, U });
	expect_states(&p, 1, (const uint8_t[]){ X, U, U, U });

	/* 5.6: HT_1's non-corrupting event: 0b1110, counter 1; HT_0's C_1 -> S. */
	add_and_schedule(&p, 1, &non_corrupting);
	assert_int_equal(p.t[1].events[0].dynamic_mask, 0xe);
	assert_int_equal(p.s[1].counter[0], 1);
	expect_states(&p, 0, (const uint8_t[]){ U, S, U, U });
	expect_states(&p, 1, (const uint8_t[]){ X, U, U, U });

	/* 5.7: HT_0's second event, non-corrupting: 0b1111 (S allows it), counter 1; HT_1's C_1 ->
	 * S. The corrupting event keeps counter 0, now within 0b1101. */
	add_and_schedule(&p, 0, &non_corrupting);
	assert_int_equal(p.t[0].events[1].dynamic_mask, 0xf);
	assert_int_equal(p.t[0].events[0].dynamic_mask, 0xd);
	assert_int_equal(p.s[0].counter[0], 0);
	assert_int_equal(p.s[0].counter[1], 1);
	expect_states(&p, 0, (const uint8_t[]){ U, S, U, U });
	expect_states(&p, 1, (const uint8_t[]){ X, S, U, U });

	/* 5.8: HT_1's second event, corrupting: Unused pairs only, 0b1100, counter 2; HT_0's C_2 ->
	 * X. */
	add_and_schedule(&p, 1, &corrupting);
	assert_int_equal(p.t[1].events[1].dynamic_mask, 0xc);
	assert_int_equal(p.s[1].counter[0], 1);
	assert_int_equal(p.s[1].counter[1], 2);
	expect_states(&p, 0, (const uint8_t[]){ U, S, X, U });
	expect_states(&p, 1, (const uint8_t[]){ X, S, U, U });

	/* 5.9: HT_0's third event, non-corrupting: 0b1011, counters 0 and 1 are its own: 3; HT_1's
	 * C_3 -> S. */
	add_and_schedule(&p, 0, &non_corrupting);
	assert_int_equal(p.t[0].events[2].dynamic_mask, 0xb);
	assert_int_equal(p.s[0].counter[2], 3);
	assert_int_equal(p.s[0].nr_scheduled, 3);
	expect_states(&p, 0, (const uint8_t[]){ U, S, X, U });
	expect_states(&p, 1, (const uint8_t[]){ X, S, U, S });

	/* 5.10: HT_1's third event, corrupting: only C_2 is Unused (0b0100), and HT_1's own
	 * corrupting event holds it: 2 of 3, multiplexing. */
	add_and_schedule(&p, 1, &corrupting);
	assert_int_equal(p.t[1].events[2].dynamic_mask, 0x4);
	assert_int_equal(p.s[1].nr_scheduled, 2);
	assert_int_equal(p.s[1].counter[2], SCHED_NO_COUNTER);
	assert_true(p.s[1].multiplexing);
	expect_states(&p, 0, (const uint8_t[]){ U, S, X, U });
	expect_states(&p, 1, (const uint8_t[]){ X, S, U, S });

	/* Schedule-out releases: HT_1 stops, HT_0's counters are all Unused again. */
	mux_stop(&p.t[1], ++p.now);
	check_invariant(&p);
	expect_states(&p, 0, (const uint8_t[]){ U, U, U, U });
	mux_stop(&p.t[0], ++p.now);
	expect_states(&p, 1, (const uint8_t[]){ U, U, U, U });
	assert_false(p.core.has_exclusive[0]);
}

/* Fig. 5.3: X blocks both kinds, S blocks corrupting events, U blocks nothing. */
static void test_xsu_masks(void **state)
{
	struct xsu_states core;
	struct sched_txn txn;

	(void)state;
	xsu_init(&core);
	xsu_start(&core, 1, &txn);
	xsu_commit(&txn, 0, true);
	xsu_commit(&txn, 1, false);
	xsu_commit(&txn, PMU_FIXED_BASE + 1, false);
	xsu_stop(&txn);
	assert_int_equal(xsu_state_of(&core, 0, 0), X);
	assert_int_equal(xsu_state_of(&core, 0, 1), S);
	assert_int_equal(xsu_dynamic_constraint(&core, 0, 0xf, true), 0xc);
	assert_int_equal(xsu_dynamic_constraint(&core, 0, 0xf, false), 0xe);
	/* A fixed counter marked S never blocks the non-corrupting event that may use it. */
	assert_int_equal(xsu_dynamic_constraint(&core, 0, PMU_FIXED_BIT(1) | 0xf, false),
			 PMU_FIXED_BIT(1) | 0xe);
	/* The other thread is not constrained by its own holdings. */
	assert_int_equal(xsu_dynamic_constraint(&core, 1, 0xf, true), 0xf);
	/* Through the hooks: Linux's XSU allows what the states allow, as the event's own
	 * constraint says whether it needs the exclusion; with no XSU (sched_hooks_none) the static
	 * constraint stays whole. */
	struct constraint corrupting = { 0xf, true }, other = { 0xf, false };
	xsu_hooks.start(&txn, &core, 0);
	assert_int_equal(xsu_hooks.allowed(&txn, &corrupting) & 0xf, 0xc);
	assert_int_equal(xsu_hooks.allowed(&txn, &other) & 0xf, 0xe);
	xsu_hooks.stop(&txn);
	sched_hooks_none.start(&txn, &core, 0);
	assert_int_equal(sched_hooks_none.allowed(&txn, &corrupting) & 0xf, 0xf);
	sched_hooks_none.stop(&txn);
}

/* Linux's has_exclusive: a pass that asks for an event needing the exclusion sets it for its
 * thread; the next pass without one clears it, whatever was committed. */
static void test_hooks_learn_from_the_event(void **state)
{
	struct xsu_states core;
	struct sched_txn txn;
	struct constraint corrupting = { 0xf, true }, other = { 0xf, false };

	(void)state;
	xsu_init(&core);
	xsu_hooks.start(&txn, &core, 1);
	xsu_hooks.allowed(&txn, &other);
	assert_false(core.has_exclusive[1]);
	xsu_hooks.allowed(&txn, &corrupting);
	assert_true(core.has_exclusive[1]);
	assert_int_equal(xsu_hooks_limit.gpmax(&txn, 4), 2);
	xsu_hooks.commit(&txn, 2, &corrupting);
	xsu_hooks.commit(&txn, 3, &other);
	xsu_hooks.stop(&txn);
	assert_int_equal(xsu_state_of(&core, 0, 2), X);
	assert_int_equal(xsu_state_of(&core, 0, 3), S);
	assert_false(core.has_exclusive[0]);
	xsu_hooks.start(&txn, &core, 1);
	xsu_hooks.allowed(&txn, &other);
	xsu_hooks.stop(&txn);
	assert_false(core.has_exclusive[1]);
	assert_int_equal(xsu_hooks_limit.gpmax(&txn, 4), 4);
}

/* The transaction: the sibling sees nothing of a pass until it is committed and stopped. */
static void test_transaction(void **state)
{
	struct xsu_states core;
	struct sched_txn txn;

	(void)state;
	xsu_init(&core);
	xsu_start(&core, 0, &txn);
	xsu_commit(&txn, 2, true);
	assert_int_equal(xsu_state_of(&core, 1, 2), U);
	xsu_stop(&txn);
	assert_int_equal(xsu_state_of(&core, 1, 2), X);
	xsu_start(&core, 0, &txn);
	xsu_release(&txn, 2);
	xsu_commit(&txn, 3, false);
	assert_int_equal(xsu_state_of(&core, 1, 2), X);
	xsu_stop(&txn);
	assert_int_equal(xsu_state_of(&core, 1, 2), U);
	assert_int_equal(xsu_state_of(&core, 1, 3), S);
	assert_int_equal(xsu_state_of(&core, 0, 3), U);
}

/* The starvation limit: half the GP counters while either thread has a corrupting event, and
 * only when switched on. */
static void test_starvation_limit(void **state)
{
	struct xsu_states core;

	(void)state;
	xsu_init(&core);
	assert_int_equal(xsu_limit_gpmax(&core, 4), 4);
	xsu_set_has_exclusive(&core, 1, true);
	assert_int_equal(xsu_limit_gpmax(&core, 4), 2);
	assert_int_equal(xsu_limit_gpmax(&core, 8), 4);
	/* Through the hooks: only xsu_hooks_limit halves; Linux's XSU without it and no XSU at
	 * all leave every GP counter. */
	struct sched_txn txn = { .states = &core, .thread = 0 };
	assert_int_equal(xsu_hooks_limit.gpmax(&txn, 4), 2);
	assert_int_equal(xsu_hooks.gpmax(&txn, 4), 4);
	assert_int_equal(sched_hooks_none.gpmax(&txn, 4), 4);
}

/* The invariant detects what it is there for. */
static void test_invariant_detects(void **state)
{
	struct xsu_states core;
	struct sched_txn txn;
	struct xsu_usage t0 = { .enabled = 0x1, .corrupting = 0x1 };
	struct xsu_usage t1 = { .enabled = 0x2, .corrupting = 0 };
	struct xsu_usage clash = { .enabled = 0x1, .corrupting = 0 };
	struct xsu_usage fixed = { .enabled = PMU_FIXED_BIT(0), .corrupting = 0 };

	(void)state;
	assert_true(xsu_no_corruption(t0, t1));
	assert_false(xsu_no_corruption(t0, clash));
	assert_false(xsu_no_corruption(clash, t0));
	assert_true(xsu_no_corruption(t0, fixed));
	xsu_init(&core);
	/* States not matching what is programmed. */
	assert_false(xsu_invariant(&core, t0, t1));
	xsu_start(&core, 0, &txn);
	xsu_commit(&txn, 0, true);
	xsu_stop(&txn);
	xsu_start(&core, 1, &txn);
	xsu_commit(&txn, 1, false);
	xsu_stop(&txn);
	assert_true(xsu_invariant(&core, t0, t1));
	/* A stale state (HT_1's counter 1 released without telling the core). */
	assert_false(xsu_invariant(&core, t0, (struct xsu_usage){ 0, 0 }));
	/* A corrupting event facing an enabled sibling counter, states notwithstanding. */
	assert_false(xsu_invariant(&core, t0, (struct xsu_usage){ 0x3, 0 }));
}

/* Run two threads for n ticks; HT_1 starts at `offset`. Both tick in every tick, HT_0 first. */
static void replay(struct pair *p, unsigned n, unsigned offset)
{
	for (unsigned k = 0; k < n; k++) {
		for (unsigned t = 0; t < 2; t++) {
			unsigned start = t ? offset : 0;

			if (k == start)
				mux_start(&p->t[t], k, &p->s[t]);
			else if (k > start)
				mux_tick(&p->t[t], k, &p->s[t]);
			check_invariant(p);
		}
	}
	mux_stop(&p->t[0], n);
	mux_stop(&p->t[1], n);
}

/*
 * Thesis 7.1, fig. 7.3: CPU0 (HT_0) holds 0x81d0, 0x08d1, 0x20cc from the start; CPU4 (HT_1)
 * starts later with 0x20cc, 0x81d0, 0x08d1. Without the limit HT_0 keeps all three (100%) and
 * HT_1 cycles through the three passes of fig. 7.3b-d: 2/3, 2/3, 1/3.
 */
static void test_thesis_chapter_7_replay(void **state)
{
	struct pair p;

	(void)state;
	pair_init(&p, false);
	load(&p, 0, "r81d0:u,r08d1:u,r20cc:u");
	load(&p, 1, "r20cc:u,r81d0:u,r08d1:u");
	replay(&p, 1000, 10);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(fixture_percent(&p.t[0], i), 10000);
	assert_int_equal(p.t[1].events[0].time_enabled, 990);
	assert_int_equal(p.t[1].events[0].time_running, 660);
	assert_int_equal(p.t[1].events[1].time_running, 660);
	assert_int_equal(p.t[1].events[2].time_running, 330);
	/* fig. 7.3b: 0x20cc on C_2, 0x81d0 on C_3 */
	assert_int_equal(p.t[1].events[0].last_counter, 2);
	assert_int_equal(p.t[1].events[1].last_counter, 3);
	assert_int_equal(p.t[1].events[2].last_counter, 3);

	/* With Linux 4.1-rc7's limit each thread gets two GP counters: HT_0 multiplexes too. */
	pair_init(&p, true);
	load(&p, 0, "r81d0:u,r08d1:u,r20cc:u");
	load(&p, 1, "r20cc:u,r81d0:u,r08d1:u");
	replay(&p, 1000, 10);
	for (unsigned i = 0; i < 3; i++) {
		assert_in_range(fixture_percent(&p.t[0], i), 6660, 6670);
		assert_int_equal(fixture_percent(&p.t[1], i), 6667);
	}
}

/*
 * Thesis ch. 8, fig. 8.4: four corrupting events on HT_0 take every pair exclusively; a lone
 * 'branches' on HT_1 is <not counted> for as long as they run. The 4.1-rc7 limit exists for this:
 * with it HT_0 keeps two counters at a time and HT_1's event runs.
 */
static void test_thesis_chapter_8_starvation(void **state)
{
	struct pair p;

	(void)state;
	pair_init(&p, false);
	load(&p, 0, "r81d0:u,r08d1:u,r10d1:u,r01d1:u");
	load(&p, 1, "branches");
	replay(&p, 100, 1);
	assert_int_equal(fixture_percent(&p.t[0], 0), 10000);
	assert_false(mux_read(&p.t[1].events[0]).counted);

	pair_init(&p, true);
	load(&p, 0, "r81d0:u,r08d1:u,r10d1:u,r01d1:u");
	load(&p, 1, "branches");
	replay(&p, 100, 1);
	assert_int_equal(fixture_percent(&p.t[0], 0), 5000);
	assert_int_equal(fixture_percent(&p.t[1], 0), 10000);
}

/*
 * Random interleavings: random lists (corrupting or not, random static masks, groups, pinned),
 * greedy or Hopcroft-Karp, random order of ticks, starts and stops, with and without the limit.
 * The invariant must hold after every single schedule.
 */
static void test_random_interleavings(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (unsigned run = 0; run < 2000; run++) {
		struct pair p;
		unsigned ticks = 5 + brute_random(&seed) % 60;

		pair_init(&p, brute_random(&seed) & 1);
		for (unsigned t = 0; t < 2; t++) {
			unsigned n = 1 + brute_random(&seed) % 8;

			p.t[t].config.algorithm = brute_random(&seed) & 1 ? SCHED_HK : SCHED_GREEDY;
			for (unsigned i = 0; i < n;) {
				struct pmu_event g[3];
				unsigned size = 1 + brute_random(&seed) % 3;
				bool pinned = brute_random(&seed) % 5 == 0;
				unsigned first;

				if (size > n - i)
					size = n - i;
				for (unsigned j = 0; j < size; j++) {
					g[j] = brute_random(&seed) % 3 ? non_corrupting
								       : corrupting;
					g[j].pinned = pinned;
				}
				assert_true(mux_add_group(&p.t[t], g, size, &first));
				for (unsigned j = 0; j < size; j++)
					if (brute_random(&seed) % 3 == 0)
						mux_set_constraint(&p.t[t], first + j,
								   brute_random(&seed) & 0xf);
				i += size;
			}
		}
		for (unsigned k = 0; k < ticks; k++) {
			unsigned t = brute_random(&seed) & 1;

			if (!p.t[t].running)
				mux_start(&p.t[t], k, &p.s[t]);
			else if (brute_random(&seed) % 20 == 0)
				mux_stop(&p.t[t], k);
			else
				mux_tick(&p.t[t], k, &p.s[t]);
			check_invariant(&p);
		}
		mux_stop(&p.t[0], ticks);
		mux_stop(&p.t[1], ticks);
		check_invariant(&p);
		expect_states(&p, 0, (const uint8_t[]){ U, U, U, U });
		expect_states(&p, 1, (const uint8_t[]){ U, U, U, U });
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thesis_figures_5_4_to_5_10),
		cmocka_unit_test(test_xsu_masks),
		cmocka_unit_test(test_hooks_learn_from_the_event),
		cmocka_unit_test(test_transaction),
		cmocka_unit_test(test_starvation_limit),
		cmocka_unit_test(test_invariant_detects),
		cmocka_unit_test(test_thesis_chapter_7_replay),
		cmocka_unit_test(test_thesis_chapter_8_starvation),
		cmocka_unit_test(test_random_interleavings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
