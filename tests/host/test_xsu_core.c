// SPDX-License-Identifier: GPL-2.0
/*
 * Core-wide XSU (pmu/xsu_core.c, pmu/core_sched.c): the thesis's starvation case; the XSU
 * guarantee, groups whole and pinned events running after every joint schedule; the joint
 * placement exactly the best one for its order and worths (against an exhaustive search of every
 * joint placement); on thousands of seeded random pairs of lists, the smallest running fraction
 * within 0.05 of the exact max-min optimum and every event within 0.05 of a max-min optimal
 * allocation (the enumeration of joint placements and the linear programmes of
 * tests/host/lib/joint_placements.c and leximin.c), with the distance from the leximin shares
 * reported; off and on identical to mux_tick; and the leak catchers on the model PMU: every
 * leaked event caught and given back, the counts equal to the model's true counts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/core_sched.h"
#include "pmu/counters.h"
#include "pmu/driver.h"
#include "pmu/model.h"
#include "pmu/mux_pair.h"
#include "pmu/uarch_constraint.h"
#include "pmu/zero_event.h"
#include "tests/host/lib/brute_force.h"
#include "tests/host/lib/fixtures.h"
#include "tests/host/lib/joint_placements.h"
#include "tests/host/lib/leximin.h"
#include "tests/host/lib/random_lists.h"
#include "tests/host/lib/test_util.h"

/* The fairness target of issue 10. */
#define FAIR_TOLERANCE 0.05

struct pair {
	struct mux_thread t[2];
	struct mux_pair core;
};

static const struct uarch *haswell(void)
{
	return uarch_by_name("haswell");
}

static void pair_from_lists(struct pair *p, const struct random_list *lists,
			    const struct xsu_ops *policy, enum sched_algorithm algorithm)
{
	struct mux_config config = {
		.uarch = haswell(),
		.gp = 4,
		.fixed = 3,
		.algorithm = algorithm,
	};

	for (unsigned t = 0; t < 2; t++) {
		mux_init(&p->t[t], &config, t);
		assert_true(mux_add_events(&p->t[t], lists[t].events, lists[t].n));
	}
	mux_pair_init(&p->core, policy, &p->t[0], &p->t[1], uarch_zero_event(haswell()));
}

static void pair_from_text(struct pair *p, const char *ht0, const char *ht1,
			   const struct xsu_ops *policy)
{
	fixture_thread(&p->t[0], "haswell", 4, ht0, SCHED_GREEDY, NULL, 0);
	fixture_thread(&p->t[1], "haswell", 4, ht1, SCHED_GREEDY, NULL, 1);
	mux_pair_init(&p->core, policy, &p->t[0], &p->t[1], uarch_zero_event(haswell()));
}

static double fraction(const struct mux_event *e)
{
	return e->time_enabled ? (double)e->time_running / (double)e->time_enabled : 0.0;
}

/*
 * What must hold after every joint schedule: the invariant (no exposure, states, catchers),
 * every placed event on a counter of its static constraint, no counter twice, groups whole, and
 * every enabled pinned event on a counter.
 */
static void check_schedule(const struct pair *p)
{
	assert_true(mux_pair_invariant(&p->core));
	for (unsigned t = 0; t < 2; t++) {
		const struct mux_thread *th = &p->t[t];
		uint64_t used = 0;

		for (unsigned i = 0; i < th->nr_events; i++) {
			const struct mux_event *e = &th->events[i];
			const struct sched_group *g = &th->groups[e->group];
			bool placed = e->counter != SCHED_NO_COUNTER;

			assert_int_equal(p->core.schedule[t].events.counter[i], e->counter);
			assert_int_equal(placed, th->events[g->first].counter != SCHED_NO_COUNTER);
			if (th->running && g->pinned && e->state == MUX_EVENT_ENABLED)
				assert_true(placed);
			if (!placed)
				continue;
			assert_true(e->constraint.mask & (1ull << e->counter));
			assert_false(used & (1ull << e->counter));
			used |= 1ull << e->counter;
		}
		/* A catcher never takes a counter the thread's own events use. */
		assert_false(used & p->core.schedule[t].catchers);
	}
}

/* ---- the catcher's event ----------------------------------------------------------------- */

static void test_zero_event(void **state)
{
	(void)state;
	for (const struct uarch *const *u = uarch_all; *u; u++) {
		const struct pmu_event *z = uarch_zero_event(*u);

		/* Every part with the erratum has one; others may (the survey's zero). */
		if (!z) {
			assert_false(uarch_has_erratum(*u));
			continue;
		}
		/* ROB_MISC_EVENTS.LBR_INSERTS at every level, on any of counters 0-3, and no
		 * corrupting event itself (it must not need a catcher of its own). */
		assert_non_null(z);
		assert_int_equal(pmu_event_code(z), 0x20cc);
		assert_true(z->usr && z->os);
		struct constraint c = uarch_constraint(*u, z, 4, 3);
		assert_int_equal(c.mask & 0xf, 0xf);
		assert_false(c.corrupting);
	}
	assert_null(uarch_zero_event(NULL));
}

/* ---- the thesis's case ------------------------------------------------------------------- */

/*
 * Thesis ch. 8 (our ch8-starvation): four corrupting events on HT0, branches on HT1 from the
 * second tick. Linux's XSU starves HT1; core-wide XSU gives every event 4/5 (the exact optimum:
 * time t with three corrupting events and branches, 4 - t = 4t), and the branches counter's
 * sibling counters carry catchers for the three corrupting events beside it.
 */
static void test_thesis_starvation(void **state)
{
	static struct pair p;
	const char *ht0 = "r81d0:u,r08d1:u,r10d1:u,r01d1:u", *ht1 = "r00c5:u";

	(void)state;
	pair_from_text(&p, ht0, ht1, &xsu_ops_core);
	p.core.ops->start(&p.core, 0, 0);
	for (unsigned k = 0; k < 1000; k++) {
		if (k == 1)
			p.core.ops->start(&p.core, 1, 1);
		p.core.ops->tick(&p.core, 0, k);
		mux_pair_commit_all(&p.core, k);
		check_schedule(&p);
		/* HT1's four GP counters: its branches event or a catcher. */
		if (k && p.t[1].events[0].counter != SCHED_NO_COUNTER)
			assert_int_equal(p.core.schedule[1].catchers |
						 (1u << p.t[1].events[0].counter),
					 0xf);
		else
			assert_int_equal(p.core.schedule[1].catchers, 0xf);
	}
	for (unsigned t = 0; t < 2; t++)
		p.core.ops->stop(&p.core, t, 1000);
	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < p.t[t].nr_events; i++)
			assert_true(fraction(&p.t[t].events[i]) > 0.795 &&
				    fraction(&p.t[t].events[i]) < 0.805);

	/* Linux's XSU, the same lists: branches never runs. */
	pair_from_text(&p, ht0, ht1, &xsu_ops_on);
	p.core.ops->start(&p.core, 0, 0);
	for (unsigned k = 1; k < 1000; k++) {
		p.core.ops->tick(&p.core, 0, k);
		if (k == 1)
			p.core.ops->start(&p.core, 1, 1);
		else
			p.core.ops->tick(&p.core, 1, k);
		assert_true(mux_pair_invariant(&p.core));
	}
	for (unsigned t = 0; t < 2; t++)
		p.core.ops->stop(&p.core, t, 1000);
	assert_int_equal(p.t[1].events[0].time_running, 0);
}

/* ---- the joint placement is the best one ------------------------------------------------- */

/* Thread t's enabled groups, by the global number joint_placements.h uses. */
static unsigned global_group(const struct pair *p, unsigned t, unsigned g)
{
	return joint_group_index(&p->t[0], t, g);
}

/* What a set's flexible groups are worth (the score core_sched() maximises after the pinned). */
static uint64_t set_worth(const struct core_sched_input *in, const unsigned *order, uint64_t set)
{
	uint64_t worth = 0;

	for (unsigned k = in->nr_pinned; k < in->nr_groups; k++)
		if ((set >> order[k]) & 1)
			worth += in->order[k].count * in->order[k].worth;
	return worth;
}

/* The rank bits of a set (bit 63 - k: order[k]), as core_sched_result.accepted. */
static uint64_t set_ranks(const struct core_sched_input *in, const unsigned *order, uint64_t set)
{
	uint64_t ranks = 0;

	for (unsigned k = 0; k < in->nr_groups; k++)
		if ((set >> order[k]) & 1)
			ranks |= core_sched_rank_bit(k);
	return ranks;
}

/* a better than b: the pinned groups lexicographically, then the worth, then the order. */
static bool better(const struct core_sched_input *in, const unsigned *order, uint64_t a, uint64_t b)
{
	uint64_t ra = set_ranks(in, order, a), rb = set_ranks(in, order, b);
	uint64_t pinned = in->nr_pinned ? ~0ull << (64 - in->nr_pinned) : 0;
	uint64_t wa = set_worth(in, order, a), wb = set_worth(in, order, b);

	if ((ra & pinned) != (rb & pinned))
		return (ra & pinned) > (rb & pinned);
	if (wa != wb)
		return wa > wb;
	return ra > rb;
}

/*
 * core_sched() on random lists and random orders against the exhaustive reference: the groups
 * it accepts are exactly the best feasible set for the order. With every group pinned (strict
 * order) that is the lexicographically best set, groups included (the feasible sets are closed
 * under subsets, so it is the greedy choice over the union of every split's sets). With worths
 * as pmu/xsu_core.c makes them (not increasing along the order, some pinned groups first) the
 * most worth: exactly, for lists of single events (a transversal matroid per split, where the
 * greedy pass finds the most worth). The placement keeps the guarantee.
 */
static void core_sched_against_reference(bool worths, unsigned instances, uint64_t seed)
{
	static struct pair p;
	static uint64_t sets[JOINT_MAX_SETS];
	struct random_lists_options o = { 1, 7, !worths, false };

	for (unsigned instance = 0; instance < instances; instance++) {
		struct random_list lists[2];
		struct core_sched_input in;
		struct core_sched_result res;
		unsigned order[2 * RANDOM_LIST_MAX], n = 0;
		uint64_t worth = 1ull << 47;
		uint64_t best = 0;
		int m;

		random_lists(&seed, &o, lists);
		pair_from_lists(&p, lists, &xsu_ops_core, SCHED_GREEDY);
		m = joint_maximal_sets(&p.t[0], &p.t[1], sets, JOINT_MAX_SETS);
		assert_true(m > 0);

		memset(&in, 0, sizeof(in));
		in.gp = 4;
		in.fixed = 3;
		in.exhaustive = true;
		in.hint[0] = (uint8_t)(brute_random(&seed) & 0xf);
		in.hint[1] = (uint8_t)(brute_random(&seed) & 0xf & ~in.hint[0]);
		for (unsigned t = 0; t < 2; t++) {
			in.thread[t].nr_events = p.t[t].nr_events;
			for (unsigned i = 0; i < p.t[t].nr_events; i++) {
				in.thread[t].mask[i] = p.t[t].events[i].constraint.mask;
				in.thread[t].corrupting |=
					(uint32_t)p.t[t].events[i].constraint.corrupting << i;
			}
			for (unsigned g = 0; g < p.t[t].nr_groups; g++)
				order[n++] = global_group(&p, t, g);
		}
		/* A random order of all groups (Fisher-Yates), and its worths. */
		for (unsigned k = n; k > 1; k--) {
			unsigned j = (unsigned)(brute_random(&seed) % k), tmp = order[k - 1];

			order[k - 1] = order[j];
			order[j] = tmp;
		}
		in.nr_groups = n;
		in.nr_pinned = worths ? (unsigned)(brute_random(&seed) % 3) % (n + 1) : n;
		for (unsigned k = 0; k < n; k++) {
			unsigned t = order[k] >= p.t[0].nr_groups;
			const struct sched_group *g =
				&p.t[t].groups[order[k] - t * p.t[0].nr_groups];

			/* Worths as group_worth() makes them: steps of 2^-1/4, never increasing along
			 * the order, equal now and then. */
			if (k > in.nr_pinned && brute_random(&seed) % 3 == 0)
				worth = worth * 27554 / 32768;
			in.order[k] =
				(struct core_sched_group){ (uint8_t)t, g->first, g->count, worth };
		}
		core_sched(&in, &res);

		for (int s = 0; s < m; s++)
			if (better(&in, order, sets[s], best))
				best = sets[s];
		assert_int_equal(res.accepted, set_ranks(&in, order, best));
		/* The placement: accepted groups placed whole, the guarantee held. */
		for (unsigned t = 0; t < 2; t++) {
			for (unsigned i = 0; i < p.t[t].nr_events; i++) {
				int c = res.counter[t][i];

				if (c == SCHED_NO_COUNTER)
					continue;
				assert_true(p.t[t].events[i].constraint.mask & (1ull << c));
				if (c < PMU_FIXED_BASE && p.t[t].events[i].constraint.corrupting)
					assert_true(res.exclusive[t] & (1u << c));
				if (c < PMU_FIXED_BASE)
					assert_false(res.exclusive[t ^ 1] & (1u << c));
			}
		}
		assert_true(res.splits >= 1 && res.splits <= 82);

		/* The search around the hint (many splits, not asked for all): fewer splits, a
		 * feasible set no better than the best, the guarantee kept. */
		struct core_sched_result around;
		bool feasible = false;

		in.exhaustive = false;
		core_sched(&in, &around);
		for (int s = 0; s < m && !feasible; s++)
			feasible = (set_ranks(&in, order, sets[s]) & around.accepted) ==
				   around.accepted;
		assert_true(feasible);
		uint64_t around_set = 0;

		for (unsigned k = 0; k < n; k++)
			if (around.accepted & core_sched_rank_bit(k))
				around_set |= 1ull << order[k];
		assert_false(better(&in, order, around_set, best));
		for (unsigned t = 0; t < 2; t++)
			for (unsigned i = 0; i < p.t[t].nr_events; i++) {
				int c = around.counter[t][i];

				if (c == SCHED_NO_COUNTER || c >= PMU_FIXED_BASE)
					continue;
				if (p.t[t].events[i].constraint.corrupting)
					assert_true(around.exclusive[t] & (1u << c));
				assert_false(around.exclusive[t ^ 1] & (1u << c));
			}
	}
}

static void test_core_sched_lexicographic(void **state)
{
	(void)state;
	core_sched_against_reference(false, 1000, 0x10c0e5c4edull);
}

static void test_core_sched_worth(void **state)
{
	(void)state;
	core_sched_against_reference(true, 1000, 0x7135ull);
}

static void test_core_sched_bounds(void **state)
{
	struct core_sched_input in;
	struct core_sched_result res;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.gp = 4;
	in.fixed = 3;
	in.thread[0].nr_events = 1;
	in.thread[0].mask[0] = 0xf;
	in.nr_groups = 1;
	in.order[0] = (struct core_sched_group){ 0, 0, 1, 1 };
	core_sched(&in, &res);
	assert_int_equal(res.counter[0][0], 0);
	assert_int_equal(res.accepted, core_sched_rank_bit(0));

	/* A group beyond its thread's events, or too many counters: nothing is placed. */
	in.order[0] = (struct core_sched_group){ 0, 0, 2, 1 };
	core_sched(&in, &res);
	assert_int_equal(res.counter[0][0], SCHED_NO_COUNTER);
	assert_int_equal(res.accepted, 0);
	in.order[0] = (struct core_sched_group){ 0, 0, 1, 1 };
	in.gp = PMU_MAX_GP + 1;
	core_sched(&in, &res);
	assert_int_equal(res.counter[0][0], SCHED_NO_COUNTER);
	in.gp = 4;
	in.order[0].worth = CORE_SCHED_MAX_WORTH + 1;
	core_sched(&in, &res);
	assert_int_equal(res.counter[0][0], SCHED_NO_COUNTER);
	in.order[0].worth = 1;
	in.nr_pinned = 2;
	core_sched(&in, &res);
	assert_int_equal(res.counter[0][0], SCHED_NO_COUNTER);
	in.nr_pinned = 1;
	core_sched(&in, &res);
	assert_int_equal(res.counter[0][0], 0);

	/* No groups at all: one split tried, nothing placed. */
	in.gp = 4;
	in.nr_groups = 0;
	in.nr_pinned = 0;
	core_sched(&in, &res);
	assert_int_equal(res.accepted, 0);
	assert_int_equal(res.splits, 1);
}

/*
 * A pair of random lists with every event that has GP counters tied to one or two of `gp` of
 * them instead (fixed counters kept): indices that the events tell apart, so many classes of
 * them. With 4 GP counters a search meets up to 81 splits, and more numbers of a thread's part
 * than core_sched() keeps; with 8 they do not fit its table at all, and every thread's part is
 * computed.
 */
static void pair_tied(struct pair *p, unsigned gp, uint64_t *seed)
{
	struct random_lists_options o = { 1, 6, true, false };
	struct mux_config config = { .uarch = haswell(), .gp = gp, .fixed = 3 };
	struct random_list lists[2];

	random_lists(seed, &o, lists);
	for (unsigned t = 0; t < 2; t++) {
		mux_init(&p->t[t], &config, t);
		assert_true(mux_add_events(&p->t[t], lists[t].events, lists[t].n));
		for (unsigned i = 0; i < p->t[t].nr_events; i++) {
			uint64_t mask = p->t[t].events[i].constraint.mask, r = brute_random(seed);

			if (!(mask & PMU_GP_BITS))
				continue;
			mask &= ~PMU_GP_BITS;
			mask |= 1ull << (r % gp) | ((r >> 8) & 1 ? 1ull << ((r >> 16) % gp) : 0);
			mux_set_constraint(&p->t[t], i, mask);
		}
	}
	mux_pair_init(&p->core, &xsu_ops_core, &p->t[0], &p->t[1], uarch_zero_event(haswell()));
}

/*
 * The input for the pair's groups in a random order (order[k]: the global group of
 * in->order[k]), with worths as pmu/xsu_core.c makes them and up to two pinned groups first.
 */
static void random_input(const struct pair *p, unsigned gp, uint64_t *seed,
			 struct core_sched_input *in, unsigned *order)
{
	uint64_t worth = 1ull << 47;
	unsigned n = 0;

	memset(in, 0, sizeof(*in));
	in->gp = gp;
	in->fixed = 3;
	in->exhaustive = true;
	in->hint[0] = (uint8_t)(brute_random(seed) & ((1u << gp) - 1));
	in->hint[1] = (uint8_t)(brute_random(seed) & ((1u << gp) - 1) & ~in->hint[0]);
	for (unsigned t = 0; t < 2; t++) {
		in->thread[t].nr_events = p->t[t].nr_events;
		for (unsigned i = 0; i < p->t[t].nr_events; i++) {
			in->thread[t].mask[i] = p->t[t].events[i].constraint.mask;
			in->thread[t].corrupting |=
				(uint32_t)p->t[t].events[i].constraint.corrupting << i;
		}
		for (unsigned g = 0; g < p->t[t].nr_groups; g++)
			order[n++] = global_group(p, t, g);
	}
	for (unsigned k = n; k > 1; k--) {
		unsigned j = (unsigned)(brute_random(seed) % k), tmp = order[k - 1];

		order[k - 1] = order[j];
		order[j] = tmp;
	}
	in->nr_groups = n;
	in->nr_pinned = (unsigned)(brute_random(seed) % 3) % (n + 1);
	for (unsigned k = 0; k < n; k++) {
		unsigned t = order[k] >= p->t[0].nr_groups;
		const struct sched_group *g = &p->t[t].groups[order[k] - t * p->t[0].nr_groups];

		if (k > in->nr_pinned && brute_random(seed) % 3 == 0)
			worth = worth * 27554 / 32768;
		in->order[k] = (struct core_sched_group){ (uint8_t)t, g->first, g->count, worth };
	}
}

/*
 * Every split searched (core_sched_input.exhaustive) on lists that tell the GP indices apart,
 * with 4 and with 8 GP counters: the groups placed are exactly the best set of the reference,
 * and the placement keeps the guarantee.
 */
static void test_core_sched_tied_counters(void **state)
{
	static struct pair p;
	static uint64_t sets[JOINT_MAX_SETS];
	uint64_t seed = 0x71edull;

	(void)state;
	for (unsigned instance = 0; instance < 240; instance++) {
		unsigned gp = instance % 6 ? 4 : 8, order[2 * RANDOM_LIST_MAX];
		struct core_sched_input in;
		struct core_sched_result res;
		uint64_t best = 0;
		int m;

		pair_tied(&p, gp, &seed);
		m = joint_maximal_sets(&p.t[0], &p.t[1], sets, JOINT_MAX_SETS);
		assert_true(m > 0);
		random_input(&p, gp, &seed, &in, order);
		core_sched(&in, &res);
		for (int s = 0; s < m; s++)
			if (better(&in, order, sets[s], best))
				best = sets[s];
		assert_int_equal(res.accepted, set_ranks(&in, order, best));
		for (unsigned t = 0; t < 2; t++) {
			for (unsigned i = 0; i < p.t[t].nr_events; i++) {
				int c = res.counter[t][i];

				if (c == SCHED_NO_COUNTER || c >= PMU_FIXED_BASE)
					continue;
				assert_true(p.t[t].events[i].constraint.mask & (1ull << c));
				if (p.t[t].events[i].constraint.corrupting)
					assert_true(res.exclusive[t] & (1u << c));
				assert_false(res.exclusive[t ^ 1] & (1u << c));
			}
		}
	}
}

/* ---- fairness against the exact optimum -------------------------------------------------- */

/* The pinned groups as global bits. */
static uint64_t pinned_groups(const struct pair *p)
{
	uint64_t pinned = 0;

	for (unsigned t = 0; t < 2; t++)
		for (unsigned g = 0; g < p->t[t].nr_groups; g++)
			if (p->t[t].groups[g].pinned)
				pinned |= 1ull << global_group(p, t, g);
	return pinned;
}

/* How one sweep of random pairs went. */
struct fairness {
	unsigned pairs;
	double min_shortfall;	/* the largest: optimum's smallest share minus ours */
	double maxmin_distance; /* the largest distance to a max-min optimal allocation */
	double leximin_worst;	/* the largest distance of one event from its leximin share */
	double leximin_sum;	/* of each pair's largest, for the mean */
	unsigned leximin_off;	/* pairs with an event more than FAIR_TOLERANCE off it */
};

/*
 * One random pair: the exact optimum (leximin shares, and with them the max-min value), then
 * `ticks` joint ticks with thread 1 starting at `offset`, the schedule checked after every one.
 * The target: the smallest running fraction within FAIR_TOLERANCE of the max-min value, and every
 * event within FAIR_TOLERANCE of a max-min optimal allocation. False when the pinned groups
 * cannot all run together (such a pair is drawn again).
 */
static bool fair_instance(struct pair *p, const struct random_list *lists, unsigned ticks,
			  unsigned offset, struct fairness *f)
{
	static uint64_t sets[JOINT_MAX_SETS];
	double x[JOINT_MAX_GROUPS], got[JOINT_MAX_GROUPS], lowest = 1, optimum = 1, worst = 0;
	unsigned groups;
	uint64_t runnable = 0;
	int m;

	pair_from_lists(p, lists, &xsu_ops_core, SCHED_GREEDY);
	groups = p->t[0].nr_groups + p->t[1].nr_groups;
	m = joint_maximal_sets(&p->t[0], &p->t[1], sets, JOINT_MAX_SETS);
	assert_true(m > 0);
	if (!leximin(sets, (unsigned)m, groups, pinned_groups(p), x))
		return false;
	for (int s = 0; s < m; s++)
		runnable |= sets[s];

	p->core.ops->start(&p->core, 0, 0);
	for (unsigned k = 0; k < ticks; k++) {
		if (k == offset)
			p->core.ops->start(&p->core, 1, k);
		p->core.ops->tick(&p->core, 0, k);
		mux_pair_commit_all(&p->core, k);
		check_schedule(p);
	}
	for (unsigned t = 0; t < 2; t++)
		p->core.ops->stop(&p->core, t, ticks);

	for (unsigned t = 0; t < 2; t++) {
		for (unsigned g = 0; g < p->t[t].nr_groups; g++) {
			const struct mux_event *e = &p->t[t].events[p->t[t].groups[g].first];
			unsigned k = global_group(p, t, g);
			double diff = fraction(e) > x[k] ? fraction(e) - x[k] : x[k] - fraction(e);

			assert_int_not_equal(e->state, MUX_EVENT_ERROR);
			got[k] = fraction(e);
			worst = diff > worst ? diff : worst;
			if ((runnable >> k) & 1) {
				lowest = got[k] < lowest ? got[k] : lowest;
				optimum = x[k] < optimum ? x[k] : optimum;
			}
		}
	}
	double distance = maxmin_distance(sets, (unsigned)m, groups, pinned_groups(p), x, got);

	f->pairs++;
	f->min_shortfall =
		optimum - lowest > f->min_shortfall ? optimum - lowest : f->min_shortfall;
	f->maxmin_distance = distance > f->maxmin_distance ? distance : f->maxmin_distance;
	f->leximin_worst = worst > f->leximin_worst ? worst : f->leximin_worst;
	f->leximin_sum += worst;
	f->leximin_off += worst > FAIR_TOLERANCE;
	if (optimum - lowest > FAIR_TOLERANCE || distance < 0 || distance > FAIR_TOLERANCE) {
		char text[2][512];

		random_list_text(&lists[0], text[0], sizeof(text[0]));
		random_list_text(&lists[1], text[1], sizeof(text[1]));
		fail_msg(
			"smallest share %.4f against the max-min value %.4f, %.4f from the nearest "
			"max-min optimal allocation\n  HT0: %s\n  HT1: %s (from tick %u)",
			lowest, optimum, distance, text[0], text[1], offset);
	}
	return true;
}

static void fair_sweep(uint64_t seed, const struct random_lists_options *o, unsigned pairs,
		       unsigned ticks)
{
	static struct pair p;
	struct fairness f;

	memset(&f, 0, sizeof(f));
	while (f.pairs < pairs) {
		struct random_list lists[2];
		unsigned offset = (unsigned)(brute_random(&seed) % 4);

		random_lists(&seed, o, lists);
		fair_instance(&p, lists, ticks, offset, &f);
	}
	print_message("%u pairs of %u-%u events, %u ticks: smallest share at most %.4f below the "
		      "max-min value, at most %.4f from a max-min optimal allocation; leximin "
		      "shares: largest distance %.4f, mean of the largest %.4f, %u pairs with one "
		      "beyond %.2f\n",
		      f.pairs, o->min_events, o->max_events, ticks, f.min_shortfall,
		      f.maxmin_distance, f.leximin_worst, f.leximin_sum / f.pairs, f.leximin_off,
		      FAIR_TOLERANCE);
	/*
	 * The leximin shares themselves (max-min fairness all the way up, not only at the bottom)
	 * are met closely but not always (pmu/xsu_core.c, group_worth()): nine pairs in ten or
	 * more within the tolerance, and on average well within.
	 */
	assert_true(f.leximin_off * 10 <= f.pairs);
	assert_true(f.leximin_sum / f.pairs < 0.025);
}

/* Flexible lists of 1 to 8 events: corrupting, constrained and fixed-counter events mixed. */
static void test_fair_random_flexible(void **state)
{
	struct random_lists_options o = { 1, 8, false, false };

	(void)state;
	fair_sweep(0x5eed0001ull, &o, 1200, 400);
}

/* With groups of two and pinned groups. */
static void test_fair_random_groups_pinned(void **state)
{
	struct random_lists_options o = { 2, 7, true, true };

	(void)state;
	fair_sweep(0x5eed0002ull, &o, 1000, 400);
}

/* ---- the policies' ops -------------------------------------------------------------------- */

/*
 * off and on through the ops are Linux's per-thread mux_tick, tick for tick: the same schedules
 * as the pair driven directly (HT0 first in every tick, as the kernel's lock race goes in the
 * thesis), on random pairs.
 */
static void test_per_thread_policies_unchanged(void **state)
{
	static struct pair via, direct;
	struct random_lists_options o = { 1, 8, true, true };
	uint64_t seed = 0x0ff0ull;

	(void)state;
	for (unsigned instance = 0; instance < 300; instance++) {
		const struct xsu_ops *policy = instance & 1 ? &xsu_ops_on : &xsu_ops_off;
		enum sched_algorithm algorithm = instance & 2 ? SCHED_HK : SCHED_GREEDY;
		struct xsu_states xsu;
		struct mux_schedule s[2];
		struct random_list lists[2];

		random_lists(&seed, &o, lists);
		pair_from_lists(&via, lists, policy, algorithm);
		pair_from_lists(&direct, lists, policy, algorithm);
		xsu_init(&xsu);
		for (unsigned t = 0; t < 2; t++)
			mux_set_hooks(&direct.t[t], policy->hooks, &xsu);
		for (unsigned k = 0; k < 60; k++) {
			for (unsigned t = 0; t < 2; t++) {
				if (k == t) {
					via.core.ops->start(&via.core, t, k);
					mux_start(&direct.t[t], k, &s[t]);
				} else if (k > t) {
					via.core.ops->tick(&via.core, t, k);
					mux_tick(&direct.t[t], k, &s[t]);
				} else {
					continue;
				}
				assert_memory_equal(via.core.schedule[t].events.counter,
						    s[t].counter, sizeof(s[t].counter));
				assert_int_equal(via.core.schedule[t].catchers, 0);
				assert_true(mux_pair_invariant(&via.core));
			}
		}
		for (unsigned t = 0; t < 2; t++) {
			via.core.ops->stop(&via.core, t, 60);
			mux_stop(&direct.t[t], 60);
			for (unsigned i = 0; i < direct.t[t].nr_events; i++)
				assert_int_equal(via.t[t].events[i].time_running,
						 direct.t[t].events[i].time_running);
		}
	}
	assert_ptr_equal(xsu_ops_of(XSU_MODE_OFF, false), &xsu_ops_off);
	assert_ptr_equal(xsu_ops_of(XSU_MODE_OFF, true), &xsu_ops_off);
	assert_ptr_equal(xsu_ops_of(XSU_MODE_ON, false), &xsu_ops_on);
	assert_ptr_equal(xsu_ops_of(XSU_MODE_ON, true), &xsu_ops_on_limit);
	assert_ptr_equal(xsu_ops_of(XSU_MODE_CORE, false), &xsu_ops_core);
	assert_ptr_equal(xsu_ops_of(XSU_MODE_COUNT, false), &xsu_ops_off);
}

/*
 * A thread joins late and leaves early: its times run only while it takes part, the other keeps
 * its whole run; a thread with no events at all, and the catchers opposite the corrupting events
 * of the thread still running, also on the thread that has not started.
 */
static void test_join_and_leave(void **state)
{
	static struct pair p;

	(void)state;
	pair_from_text(&p, "r81d0:u,r00c5:u", "r00c4:u,r08d1:u", &xsu_ops_core);
	p.core.ops->start(&p.core, 0, 0);
	p.core.ops->tick(&p.core, 0, 0);
	mux_pair_commit_all(&p.core, 0);
	check_schedule(&p);
	/* HT1 has not started: HT0 alone, and its corrupting event's leak is caught on HT1. */
	assert_int_not_equal(p.t[0].events[0].counter, SCHED_NO_COUNTER);
	assert_int_equal(p.core.schedule[1].catchers, 1u << p.t[0].events[0].counter);
	assert_int_equal(p.core.schedule[1].leak_of[p.t[0].events[0].counter], 0);
	assert_ptr_equal(p.core.schedule[1].catcher, uarch_zero_event(haswell()));
	assert_int_equal(p.core.schedule[1].events.nr_scheduled, 0);

	for (unsigned k = 1; k < 100; k++) {
		if (k == 10)
			p.core.ops->start(&p.core, 1, k);
		if (k == 60)
			p.core.ops->stop(&p.core, 1, k);
		p.core.ops->tick(&p.core, 0, k);
		mux_pair_commit_all(&p.core, k);
		check_schedule(&p);
	}
	p.core.ops->stop(&p.core, 0, 100);
	check_schedule(&p);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(p.t[0].events[i].time_enabled, 100);
		assert_int_equal(p.t[0].events[i].time_running, 100); /* all fit together */
		assert_int_equal(p.t[1].events[i].time_enabled, 50);
		assert_int_equal(p.t[1].events[i].time_running, 50);
	}

	/* A thread with no events takes part without harm. */
	fixture_thread(&p.t[0], "haswell", 4, "r81d0:u,r08d1:u,r10d1:u,r01d1:u,r00c5:u",
		       SCHED_GREEDY, NULL, 0);
	mux_init(&p.t[1], &p.t[0].config, 1);
	mux_pair_init(&p.core, &xsu_ops_core, &p.t[0], &p.t[1], uarch_zero_event(haswell()));
	for (unsigned t = 0; t < 2; t++)
		p.core.ops->start(&p.core, t, 0);
	for (unsigned k = 0; k < 50; k++) {
		p.core.ops->tick(&p.core, 0, k);
		mux_pair_commit_all(&p.core, k);
		check_schedule(&p);
		assert_int_equal(p.core.schedule[0].events.nr_scheduled, 4);
		assert_int_equal(xsu_usage_now(&p.t[0]).corrupting, p.core.schedule[1].catchers);
	}
	p.core.ops->stop(&p.core, 0, 50);
	/* Five events on four counters: 4/5 each, exactly, by the lowest fraction first. */
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(p.t[0].events[i].time_running, 40);
}

/* ---- leak re-integration ----------------------------------------------------------------- */

/* mux_pair_add_leak() gives the catch to the event opposite, and mux_pair_read() counts it. */
static void test_add_leak(void **state)
{
	static struct pair p;
	struct xsu_schedule programmed;
	struct mux_reading r;

	(void)state;
	pair_from_text(&p, "r00c5:u,r10d1:u", "r00c4:u", &xsu_ops_core);
	for (unsigned t = 0; t < 2; t++)
		p.core.ops->start(&p.core, t, 0);
	p.core.ops->tick(&p.core, 0, 0);
	mux_pair_commit_all(&p.core, 0);
	programmed = p.core.schedule[1];
	unsigned c = (unsigned)p.t[0].events[1].counter;

	assert_int_equal(programmed.catchers, 1u << c);
	mux_pair_add_leak(&p.core, 1, &programmed, c, 500, false);
	/* No catcher on another counter, nor on thread 0's side: nothing is given. */
	mux_pair_add_leak(&p.core, 1, &programmed, (c + 1) % 4, 77, true);
	mux_pair_add_leak(&p.core, 0, &p.core.schedule[0], c, 99, true);
	mux_pair_add_leak(&p.core, 1, &programmed, PMU_FIXED_BASE, 11, true);
	assert_int_equal(p.core.leak[0][1], 500);
	assert_int_equal(p.core.leak[0][0], 0);
	assert_int_equal(p.core.leak[1][0], 0);
	/* A catcher written behind the kernel's back marks the event whose leak it caught. */
	assert_false(p.t[0].events[1].interfered);
	mux_pair_add_leak(&p.core, 1, &programmed, c, 3, true);
	assert_true(p.t[0].events[1].interfered);
	assert_false(p.t[0].events[0].interfered || p.t[1].events[0].interfered);
	p.core.leak[0][1] -= 3;

	p.t[0].events[1].count = 1000;
	p.core.ops->tick(&p.core, 0, 4);
	mux_pair_commit_all(&p.core, 4);
	p.core.ops->stop(&p.core, 0, 4);
	r = mux_pair_read(&p.core, 0, 1);
	assert_int_equal(r.raw, 1500);
	assert_int_equal(r.scaled, 1500);
	/* The multiplexer's own reading is the count alone. */
	assert_int_equal(mux_read(&p.t[0].events[1]).raw, 1000);
}

static const struct model_rate triad_rates[] = {
	{ .event = 0xd0, .umask = 0x81, .per_units = 1333 },
	{ .event = 0xd1, .umask = 0x08, .per_units = 125 },
	{ .event = 0xd1, .umask = 0x10, .per_units = 94 },
	{ .event = 0xd1, .umask = 0x01, .per_units = 1208 },
	{ .event = 0xc5, .umask = 0x00, .per_units = 3 },
	{ .event = 0xc4, .umask = 0x00, .per_units = 500 },
};

static const struct model_profile triad = {
	.name = "triad-like",
	.ring = MODEL_RING_USER,
	.instructions = 4000,
	.core_cycles = 1700,
	.ref_cycles = 1300,
	.rates = triad_rates,
	.nrates = sizeof(triad_rates) / sizeof(triad_rates[0]),
};

struct run_state {
	struct model_pair model;
	struct pmu_driver driver[2];
	struct xsu_schedule programmed[2];
	uint64_t units[2];			/* each thread's work so far */
	uint64_t true_count[2][MUX_MAX_EVENTS]; /* of the work done while the event was on */
};

/* What event e of the profile counts for work from `from` units to `to` (the model's rounding:
 * one remainder per thread and event, carried across every call). */
static uint64_t events_between(const struct pmu_event *e, uint64_t from, uint64_t to)
{
	struct model_ledger l[2];
	uint64_t a, b;

	memset(l, 0, sizeof(l));
	model_ledger_add(&l[0], &triad, from);
	model_ledger_add(&l[1], &triad, to);
	assert_true(model_truth(&l[0], e, &a) && model_truth(&l[1], e, &b));
	return b - a;
}

/* Thread t does n units with its counters as programmed: the events on a counter count them. */
static void work(struct run_state *r, struct pair *p, unsigned t, uint64_t n)
{
	for (unsigned i = 0; i < p->t[t].nr_events; i++)
		if (r->programmed[t].events.counter[i] != SCHED_NO_COUNTER)
			r->true_count[t][i] += events_between(&p->t[t].events[i].event, r->units[t],
							      r->units[t] + n);
	r->units[t] += n;
	model_account(&r->model, t, &triad, n);
}

/* A tick's reading as the kernel does it: stop, take every event's count and every catcher's
 * catch. */
static void read_thread(struct run_state *r, struct pair *p, unsigned t)
{
	struct xsu_schedule *s = &r->programmed[t];

	pmu_driver_stop(&r->driver[t]);
	for (unsigned i = 0; i < p->t[t].nr_events; i++) {
		if (s->events.counter[i] == SCHED_NO_COUNTER)
			continue;
		p->t[t].events[i].count +=
			pmu_driver_take(&r->driver[t], (unsigned)s->events.counter[i]);
	}
	for (unsigned c = 0; c < PMU_MAX_GP; c++) {
		if (!(s->catchers & (1u << c)))
			continue;
		mux_pair_add_leak(&p->core, t, s, c, pmu_driver_take(&r->driver[t], c), false);
	}
}

static void program_thread(struct run_state *r, struct pair *p, unsigned t)
{
	const struct xsu_schedule *s = &p->core.schedule[t];
	struct pmu_assignment a[MUX_MAX_EVENTS + PMU_MAX_GP];
	unsigned n = 0;

	for (unsigned i = 0; i < p->t[t].nr_events; i++)
		if (s->events.counter[i] != SCHED_NO_COUNTER)
			a[n++] = (struct pmu_assignment){ &p->t[t].events[i].event,
							  (unsigned)s->events.counter[i], 0 };
	for (unsigned c = 0; c < PMU_MAX_GP; c++)
		if (s->catchers & (1u << c))
			a[n++] = (struct pmu_assignment){ s->catcher, c, 0 };
	/* The model hears of the catchers first: enabled beside a corrupting event, a counter not
	 * known to be a catcher is exposure. */
	model_set_catchers(&r->model, t, s->catchers);
	assert_int_equal(pmu_driver_program(&r->driver[t], a, n), PMU_DRV_OK);
	r->programmed[t] = *s;
}

/*
 * The whole path on the model PMU (Haswell, HSD29), with work done only while both threads'
 * counters hold a joint schedule: both threads count corrupting events, more than fit. Every
 * corrupting event's count plus the leak given back equals exactly what its work produced while
 * it was on a counter, every other event's count equals that, and no tick is exposed.
 * (tests/host/test_handover.c does the same with work in every step of the handover.)
 */
static void test_leak_reintegration_on_model(void **state)
{
	static struct pair p;
	static struct run_state r;
	struct model_config cfg;
	uint64_t leaked = 0, given = 0;

	(void)state;
	model_config_init(&cfg, haswell(), true);
	model_core_init(&r.model, &cfg);
	memset(r.true_count, 0, sizeof(r.true_count));
	memset(r.units, 0, sizeof(r.units));
	for (unsigned t = 0; t < 2; t++) {
		struct msr_backend b = model_backend(&r.model, t);

		pmu_driver_init(&r.driver[t], &b, &cfg.geo, 0);
	}
	pair_from_text(&p, "r81d0:u,r08d1:u,r10d1:u,r00c5:u,r00c0:u",
		       "r01d1:u,r00c4:u,r10d1:u,r08d1:u,r003c:u", &xsu_ops_core);
	for (unsigned t = 0; t < 2; t++)
		p.core.ops->start(&p.core, t, 0);
	p.core.ops->tick(&p.core, 0, 0);
	mux_pair_commit_all(&p.core, 0);
	for (unsigned t = 0; t < 2; t++)
		program_thread(&r, &p, t);

	for (unsigned k = 1; k <= 300; k++) {
		work(&r, &p, 0, 1000 + k % 17);
		work(&r, &p, 1, 900 + k % 13);
		for (unsigned t = 0; t < 2; t++)
			model_tick(&r.model, t);
		read_thread(&r, &p, 0);
		p.core.ops->tick(&p.core, 0, k);
		mux_pair_commit_all(&p.core, k);
		assert_true(mux_pair_invariant(&p.core));
		read_thread(&r, &p, 1);
		program_thread(&r, &p, 1);
		program_thread(&r, &p, 0);
	}
	for (unsigned t = 0; t < 2; t++) {
		read_thread(&r, &p, t);
		p.core.ops->stop(&p.core, t, 301);
	}

	for (unsigned t = 0; t < 2; t++) {
		for (unsigned i = 0; i < p.t[t].nr_events; i++) {
			const struct mux_event *e = &p.t[t].events[i];

			assert_true(e->time_running > 0);
			assert_int_equal(e->count + p.core.leak[t][i], r.true_count[t][i]);
			if (e->constraint.corrupting)
				given += p.core.leak[t][i];
			else
				assert_int_equal(p.core.leak[t][i], 0);
		}
		leaked += r.model.thread[t].leaked;
		assert_int_equal(r.model.thread[t].lost, 0);
		assert_int_equal(model_exposure_ticks(&r.model, t), 0);
		assert_int_equal(r.model.thread[t].faults, 0);
	}
	/* Something leaked, and all of it came back. */
	assert_true(leaked > 10000);
	assert_int_equal(given, leaked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_event),
		cmocka_unit_test(test_thesis_starvation),
		cmocka_unit_test(test_core_sched_lexicographic),
		cmocka_unit_test(test_core_sched_worth),
		cmocka_unit_test(test_core_sched_bounds),
		cmocka_unit_test(test_core_sched_tied_counters),
		cmocka_unit_test(test_fair_random_flexible),
		cmocka_unit_test(test_fair_random_groups_pinned),
		cmocka_unit_test(test_per_thread_policies_unchanged),
		cmocka_unit_test(test_join_and_leave),
		cmocka_unit_test(test_add_leak),
		cmocka_unit_test(test_leak_reintegration_on_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
