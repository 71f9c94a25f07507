// SPDX-License-Identifier: GPL-2.0
/*
 * Core-wide XSU (xsu=core): the two threads of a pair under one joint schedule, with its priority
 * order, leak catchers and invariant (pmu/mux_pair.h; the joint scheduler is pmu/core_sched.h).
 *
 * The joint policy, per tick. The two threads' groups go into one order: pinned groups that
 * were running, then the other pinned groups, then the flexible groups by their running fraction
 * so far (time_running / time_enabled), lowest first. Each flexible group is worth its events
 * times 2^(-32 x its fraction), and core_sched() places the pinned groups first and then the most
 * worth it can: a quantised soft-min, which drives the fractions of both threads to a max-min
 * fair allocation over the run (group_worth() says why the strict order does not;
 * tests/host/test_xsu_core.c checks every event against the exact optimum on thousands of random
 * pairs of lists). Every EXHAUSTIVE_EVERY-th tick (8) every split of the GP indices is tried; in
 * between, the splits around the last one. There is no rotation: the worths are the rotation.
 *
 * Leak re-integration (thesis ch. 8). Under the joint schedule nothing measured shares a GP index
 * with a corrupting event, so the sibling's counter i counts a *catcher* (uarch_zero_event(), an
 * event that never occurs there) while a corrupting event runs on counter i: everything the
 * catcher reads is that event's leak, and mux_pair_add_leak() gives it back (mux_pair.leak,
 * included in mux_pair_read()'s raw and scaled). Fixed counters and non-corrupting events have
 * none. A bundle's passes (xsu_passes_joint(), pmu/xsu_passes.h) place the same catchers.
 *
 * Kernel integration (XSU_TICK_JOINT). Thread 0's tick is the only timer; under the core's lock
 * throughout, each thread's times on its own clock (pmu/handover.h, struct handover_time):
 *
 *	setup:  mux_init(&thread[t], &config, t); mux_add_events(...) for t = 0, 1
 *	        mux_pair_init(&pair, &xsu_ops_core, &thread[0], &thread[1], uarch_zero_event(uarch))
 *	thread t joins at now (at a tick, before that tick's schedule, to lose no time):
 *	        pair.ops->start(&pair, t, now)
 *	tick, on CPU 0:
 *	        pair.ops->tick(&pair, 0, now)        // plans both threads' schedules
 *	        assert(mux_pair_invariant(&pair))
 *	        hand both threads over to pair.schedule[] (pmu/handover.h); each thread, when its
 *	        counters change, reads them (counts, and the catchers: mux_pair_add_leak) and
 *	        mux_pair_commit(&pair, t, what they now hold, its now): an event runs while it counts
 *	thread t leaves at now: pair.ops->stop(&pair, t, now), then stop and read its counters
 *
 * A thread that has not started yet or has stopped gets catchers too (its sibling's corrupting
 * events still leak into it): program them if its CPU takes part in the tick.
 *
 * A joint tick uses about 6.7 KiB of stack (gcc -fstack-usage, kernel flags: 2.4 KiB its own,
 * 4.2 KiB core_sched()), well within the kernel's 16 KiB.
 */
#include <string.h>

#include "pmu/core_sched.h"
#include "pmu/counters.h"
#include "pmu/mux_pair.h"
#include "pmu/xsu_passes.h"

/* New events take part from now on (Linux: enabled, so time_enabled runs). */
static void enable_new(struct mux_thread *t)
{
	for (unsigned i = 0; i < t->nr_events; i++)
		if (t->events[i].state == MUX_EVENT_NEW)
			t->events[i].state = MUX_EVENT_ENABLED;
}

static void join(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	struct mux_thread *t = pair->thread[thread & 1];

	t->running = true;
	t->multiplexing = false;
	t->last_time = now;
	enable_new(t);
}

/*
 * The running fraction time_running / time_enabled as a 0.32 fixed-point number (1.0 is
 * 0xffffffff), comparable across threads. Both times are shifted right until time_enabled fits
 * 32 bits (2^-32 of the fraction is all that is lost); then running * (2^63 / enabled) fits 64
 * bits, since running <= enabled. The reciprocal is kept between calls of one tick (*recip for
 * *enabled): the events of a thread are mostly enabled for the same time, and a division costs
 * more than all the rest of the key. 0 before any time.
 */
struct reciprocal {
	uint64_t enabled, recip;
};

static uint32_t running_fraction(const struct mux_event *e, struct reciprocal *r)
{
	uint64_t enabled = e->time_enabled, running = e->time_running, q;
	unsigned shift = enabled >> 32 ? 64 - (unsigned)__builtin_clzll(enabled >> 32) : 0;

	enabled >>= shift;
	running >>= shift;
	if (!enabled)
		return 0;
	if (enabled != r->enabled) {
		r->enabled = enabled;
		r->recip = (1ull << 63) / enabled;
	}
	q = (running * r->recip) >> 31;
	return q > 0xffffffffu ? 0xffffffffu : (uint32_t)q;
}

/*
 * A group's place in the joint order, as one number (smaller first): pinned groups that were
 * running (they keep running), other pinned groups, then flexible groups; the lowest running
 * fraction first, by steps of 1/128 (the worth's, group_worth()); within a step the groups that
 * run now first, then the rest of the fraction; then the group's position in its list, thread 0
 * before thread 1. Running groups first within a step is hysteresis: groups served alike do not
 * take turns at every tick, each turn a handover and its register writes (pmu/handover.h), but
 * when one is a step behind; the allocation stays within a step of max-min fair.
 *
 *	bits 41-42 rank, 34-40 step, 33 not running, 8-32 the fraction below the step,
 *	1-7 group, 0 thread
 */
#define KEY_RANK_SHIFT 41
#define KEY_STEP_SHIFT 34

static uint64_t order_key(const struct mux_thread *t, unsigned thread, unsigned group,
			  struct reciprocal *r)
{
	const struct sched_group *g = &t->groups[group];
	const struct mux_event *leader = &t->events[g->first];
	bool running = leader->counter != SCHED_NO_COUNTER;
	uint64_t rank = !g->pinned ? 2 : running ? 0 : 1;
	uint32_t f = running_fraction(leader, r);

	return rank << KEY_RANK_SHIFT | (uint64_t)(f >> 25) << KEY_STEP_SHIFT |
	       (uint64_t)!running << 33 | (uint64_t)(f & 0x1ffffffu) << 8 | group << 1 | thread;
}

/*
 * What placing a flexible group is worth, for comparing splits (pmu/core_sched.h): each event
 * 2^(-32 f), f its running fraction, in steps of 1/128: a group served 1/32 less is worth twice
 * as much an event, and groups within one step are worth alike. (At most 2^47 an event: 64 groups
 * of 32 events cannot overflow a sum.)
 *
 * Why worths and not the strict order of the running fractions. Serving the least served groups
 * first, at every tick, is not max-min fair over time: groups that cannot all run together then
 * alternate in the patterns that serve the very least served ones now, even where a mix of other
 * patterns gives every group more; and a group that could run beside them for free loses
 * whenever its company is a hair less served. The worths are a quantised soft-min, exp(-22 f):
 * their sum is the gradient of a smooth max-min objective, which the running average of the
 * chosen placements climbs as a Frank-Wolfe iteration does; equal worths within a step let the
 * free group in. On thousands of random pairs of lists the smallest fraction stays within 0.03
 * of the exact max-min optimum, and every fraction within 0.05 of a max-min optimal allocation
 * (tests/host/test_xsu_core.c); the strict order missed the smallest by up to 0.07.
 */
static uint64_t group_worth(uint64_t key)
{
	/* 2^(-j/4) in 1.15 fixed point: the four steps of a halving. */
	static const uint16_t mantissa[4] = { 32768, 27554, 23170, 19484 };
	unsigned steps = (unsigned)(key >> KEY_STEP_SHIFT) & 0x7f; /* 1/128 each, 0..127 */

	return (uint64_t)mantissa[steps & 3] << (32 - steps / 4);
}

/*
 * Every this many ticks core_sched() tries every split (pmu/core_sched.h), also where there are
 * many; in between it searches around the last tick's split. A group that needs a move of two
 * classes at once to run (a group of two corrupting events, say) waits at most this long.
 */
#define EXHAUSTIVE_EVERY 8

/*
 * The keys of the enabled groups of a running thread, in order: an insertion sort as they come
 * (a few dozen at most; only the keys move, each names its group). Returns how many.
 */
static unsigned group_keys(const struct mux_thread *th, unsigned t, uint64_t *key)
{
	struct reciprocal recip = { 0, 0 };
	unsigned n = 0;

	if (!th->running)
		return 0;
	for (unsigned g = 0; g < th->nr_groups; g++) {
		uint64_t k;
		unsigned j;

		if (th->events[th->groups[g].first].state != MUX_EVENT_ENABLED)
			continue;
		k = order_key(th, t, g, &recip);
		for (j = n++; j > 0 && key[j - 1] > k; j--)
			key[j] = key[j - 1];
		key[j] = k;
	}
	return n;
}

/* Both threads' keys in one order: thread 0's in key[0..na), thread 1's in b[0..nb), merged
 * into key[] from the end (two sorts of half the keys and a merge move fewer than one sort). */
static void merge_keys(uint64_t *key, unsigned na, const uint64_t *b, unsigned nb)
{
	unsigned i = na, j = nb;

	while (j > 0) {
		if (i > 0 && key[i - 1] > b[j - 1]) {
			key[i + j - 1] = key[i - 1];
			i--;
		} else {
			key[i + j - 1] = b[j - 1];
			j--;
		}
	}
}

static void build_input(const struct mux_pair *pair, struct core_sched_input *in)
{
	uint64_t key[CORE_SCHED_MAX_GROUPS], keys1[MUX_MAX_GROUPS];
	unsigned n, n1;

	in->gp = pair->thread[0]->config.gp < pair->thread[1]->config.gp
			 ? pair->thread[0]->config.gp
			 : pair->thread[1]->config.gp;
	in->fixed = pair->thread[0]->config.fixed < pair->thread[1]->config.fixed
			    ? pair->thread[0]->config.fixed
			    : pair->thread[1]->config.fixed;
	in->hint[0] = pair->exclusive[0];
	in->hint[1] = pair->exclusive[1];
	in->exhaustive = pair->ticks % EXHAUSTIVE_EVERY == 0;
	for (unsigned t = 0; t < 2; t++) {
		const struct mux_thread *th = pair->thread[t];
		struct core_sched_thread *ct = &in->thread[t];

		ct->nr_events = th->nr_events;
		ct->corrupting = 0;
		for (unsigned i = 0; i < th->nr_events; i++) {
			ct->mask[i] = th->events[i].constraint.mask;
			ct->corrupting |= (uint32_t)th->events[i].constraint.corrupting << i;
		}
	}
	n = group_keys(pair->thread[0], 0, key);
	n1 = group_keys(pair->thread[1], 1, keys1);
	merge_keys(key, n, keys1, n1);
	n += n1;
	in->nr_groups = n;
	in->nr_pinned = 0;
	for (unsigned k = 0; k < n; k++) {
		unsigned t = key[k] & 1;
		const struct sched_group *grp = &pair->thread[t]->groups[(key[k] >> 1) & 0x7f];
		bool pinned = key[k] >> KEY_RANK_SHIFT != 2;

		in->order[k] = (struct core_sched_group){ (uint8_t)t, grp->first, grp->count,
							  pinned ? 0 : group_worth(key[k]) };
		in->nr_pinned += pinned;
	}
}

/* Thread t's half of the joint result: its counters, its schedule. */
static void apply(struct mux_pair *pair, unsigned t, const struct core_sched_result *res)
{
	struct mux_thread *th = pair->thread[t];
	struct xsu_schedule *s = &pair->schedule[t];
	uint64_t allowed[2] = {
		/* what the split let this thread use, shown as the dynamic constraint */
		(PMU_GP_BITS & ~(uint64_t)res->exclusive[t ^ 1]) | PMU_FIXED_BITS,
		res->exclusive[t],
	};

	xsu_schedule_clear(s);
	for (unsigned i = 0; i < th->nr_events; i++) {
		struct mux_event *e = &th->events[i];

		/* The plan: the event counts there once the handover commits it (mux_pair_commit). */
		s->events.counter[i] = th->running ? res->counter[t][i] : SCHED_NO_COUNTER;
		e->dynamic_mask = e->constraint.mask & allowed[e->constraint.corrupting];
		if (s->events.counter[i] != SCHED_NO_COUNTER)
			s->events.nr_scheduled++;
	}
}

/* The groups left out: a flexible one means multiplexing, a pinned one is in error for good. */
static void left_out(struct mux_pair *pair, const struct core_sched_input *in,
		     const struct core_sched_result *res)
{
	uint64_t all = in->nr_groups ? ~0ull << (64 - in->nr_groups) : 0;

	for (uint64_t out = all & ~res->accepted; out; out &= out - 1) {
		unsigned k = 63 - (unsigned)__builtin_ctzll(out);
		const struct core_sched_group *g = &in->order[k];
		struct mux_thread *th = pair->thread[g->thread];

		if (k >= in->nr_pinned) {
			pair->schedule[g->thread].events.multiplexing = true;
			continue;
		}
		/* Linux ctx_pinned_sched_in(): a pinned group that does not fit is in error for good. */
		for (unsigned j = 0; j < g->count; j++)
			th->events[g->first + j].state = MUX_EVENT_ERROR;
		pair->schedule[g->thread].events.pinned_failed = true;
	}
	for (unsigned t = 0; t < 2; t++)
		pair->thread[t]->multiplexing = pair->schedule[t].events.multiplexing;
}

/* The k-th set bit of m (from bit 0); m has more than k bits set. */
static unsigned nth_bit(uint64_t m, unsigned k)
{
	while (k--)
		m &= m - 1; /* the lowest set bit cleared */
	return sched_first_bit(m);
}

/* The GP counters in the three classes of a split: thread 0's, thread 1's, shared. */
static void classes(const uint8_t exclusive[2], unsigned gp, uint64_t out[3])
{
	out[0] = exclusive[0];
	out[1] = exclusive[1];
	out[2] = PMU_GP_MASK(gp) & ~(uint64_t)(exclusive[0] | exclusive[1]);
}

/*
 * Keep the split where it was. Splits of the same shape serve alike, and core_sched() may find
 * another one each tick (symmetric lists: thread 0's corrupting events on GP 0-1 and thread 1's on
 * 2-3, then the other way round): every corrupting event and every catcher would move, some ten
 * register writes a thread at each handover. When the new split has the shape of the last one,
 * the counters are renamed class for class (the i-th counter of a class to the i-th of the same
 * class last time), if every placed event's static constraint allows its new counter.
 */
static void keep_split(const struct mux_pair *pair, unsigned gp, struct core_sched_result *res)
{
	uint64_t now[3], before[3];
	int8_t to[PMU_MAX_GP];

	classes(res->exclusive, gp, now);
	classes(pair->exclusive, gp, before);
	if (!pair->ticks || (now[0] == before[0] && now[1] == before[1]))
		return;
	for (unsigned k = 0; k < 3; k++)
		if (__builtin_popcountll(now[k]) != __builtin_popcountll(before[k]))
			return;
	for (unsigned c = 0; c < PMU_MAX_GP; c++)
		to[c] = (int8_t)c;
	for (unsigned k = 0; k < 3; k++)
		for (unsigned j = 0; j < (unsigned)__builtin_popcountll(now[k]); j++)
			to[nth_bit(now[k], j)] = (int8_t)nth_bit(before[k], j);
	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < pair->thread[t]->nr_events; i++) {
			int c = res->counter[t][i];
			if (c != SCHED_NO_COUNTER && c < PMU_MAX_GP &&
			    !(pair->thread[t]->events[i].constraint.mask & (1ull << to[c])))
				return;
		}
	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < pair->thread[t]->nr_events; i++)
			if (res->counter[t][i] != SCHED_NO_COUNTER &&
			    res->counter[t][i] < PMU_MAX_GP)
				res->counter[t][i] = to[res->counter[t][i]];
	res->exclusive[0] = pair->exclusive[0];
	res->exclusive[1] = pair->exclusive[1];
}

/*
 * Keep what can stay where it is. core_sched() chooses which events run and on which counters,
 * but any counter an event's dynamic constraint allows serves it as well, and every event that
 * changes counter costs the handover two writes (pmu/driver.h): so an event whose last counter is
 * allowed goes back there, swapping with the event the schedule put there when that one may take
 * the counter left (Linux's fast path does the same for each thread, pmu/mux.h). The split and
 * every constraint hold; catchers follow their corrupting events (place_catchers()).
 */
static void stick(struct mux_pair *pair, unsigned t)
{
	const struct mux_thread *th = pair->thread[t];
	int8_t *plan = pair->schedule[t].events.counter;

	for (unsigned i = 0; i < th->nr_events; i++) {
		int from = plan[i], to = th->events[i].last_counter;

		if (from == SCHED_NO_COUNTER || to == SCHED_NO_COUNTER || from == to ||
		    !(th->events[i].dynamic_mask & (1ull << to)))
			continue;
		int other = -1;
		for (unsigned j = 0; j < th->nr_events; j++)
			if (plan[j] == to)
				other = (int)j;
		if (other >= 0 && !(th->events[other].dynamic_mask & (1ull << from)))
			continue;
		plan[i] = (int8_t)to;
		if (other >= 0)
			plan[other] = (int8_t)from;
	}
}

/* Opposite every corrupting event on GP counter i, the sibling's counter i counts the catcher. */
static void place_catchers(struct mux_pair *pair)
{
	for (unsigned t = 0; t < 2; t++) {
		pair->schedule[t].catchers = 0;
		pair->schedule[t].catcher = pair->catcher;
		memset(pair->schedule[t].leak_of, SCHED_NO_COUNTER,
		       sizeof(pair->schedule[t].leak_of));
	}
	if (!pair->catcher)
		return;
	for (unsigned t = 0; t < 2; t++) {
		const struct mux_thread *th = pair->thread[t];
		const int8_t *planned = pair->schedule[t].events.counter;
		struct xsu_schedule *sibling = &pair->schedule[t ^ 1];

		sibling->catchers = xsu_catchers(xsu_usage_of(th, planned));
		for (unsigned i = 0; i < th->nr_events; i++) {
			int c = planned[i];

			if (c != SCHED_NO_COUNTER && c < PMU_MAX_GP &&
			    (sibling->catchers & (1u << c)))
				sibling->leak_of[c] = (int8_t)i;
		}
	}
}

/* Linux's XSU states, made equal to the joint schedule (xsu_invariant checks them). */
static void mirror_states(struct mux_pair *pair)
{
	for (unsigned t = 0; t < 2; t++) {
		const struct mux_thread *th = pair->thread[t];
		const int8_t *planned = pair->schedule[t].events.counter;
		struct sched_txn txn;
		bool exclusive = false;

		xsu_start(&pair->xsu, t, &txn);
		memset(txn.next, XSU_UNUSED, sizeof(txn.next)); /* every counter released */
		for (unsigned i = 0; i < th->nr_events; i++) {
			const struct mux_event *e = &th->events[i];

			if (e->state == MUX_EVENT_ENABLED)
				exclusive |= e->constraint.corrupting;
			if (planned[i] != SCHED_NO_COUNTER)
				xsu_commit(&txn, (unsigned)planned[i], e->constraint.corrupting);
		}
		xsu_stop(&txn);
		xsu_set_has_exclusive(&pair->xsu, t, exclusive && th->running);
	}
}

/*
 * The joint schedule, made on thread `driver`'s tick at its own time now: only its own events'
 * times are accounted to now (the sibling's clock is the sibling's, and each thread accounts its
 * own events when its counters change, mux_pair_commit()); the sibling's running fractions are
 * those of its last change, a tick old at most.
 */
static void joint_schedule(struct mux_pair *pair, unsigned driver, uint64_t now)
{
	struct core_sched_input in;
	struct core_sched_result res;

	for (unsigned t = 0; t < 2; t++) {
		if (!pair->thread[t]->running)
			continue;
		if (t == driver)
			mux_account(pair->thread[t], now);
		enable_new(pair->thread[t]);
	}
	build_input(pair, &in);
	core_sched(&in, &res);
	keep_split(pair, in.gp, &res);
	for (unsigned t = 0; t < 2; t++)
		apply(pair, t, &res);
	left_out(pair, &in, &res);
	for (unsigned t = 0; t < 2; t++)
		stick(pair, t);
	place_catchers(pair);
	mirror_states(pair);
	pair->exclusive[0] = res.exclusive[0];
	pair->exclusive[1] = res.exclusive[1];
	pair->splits = res.splits;
	pair->ticks++;
}

static void leave(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	struct mux_thread *t = pair->thread[thread & 1];
	struct xsu_schedule *s = &pair->schedule[thread & 1];

	mux_account(t, now);
	for (unsigned i = 0; i < t->nr_events; i++)
		t->events[i].counter = SCHED_NO_COUNTER;
	t->running = false;
	t->multiplexing = false;
	/* Its own events are out; its catchers stay until the next tick, as the sibling's
	 * corrupting events keep running until then. */
	memset(s->events.counter, SCHED_NO_COUNTER, sizeof(s->events.counter));
	s->events.nr_scheduled = 0;
	s->events.multiplexing = false;
	mirror_states(pair);
}

static void joint_tick(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	joint_schedule(pair, thread & 1, now);
}

/* Linux's invariant on the joint schedule, and the catchers where they belong. */
static bool joint_invariant(const struct mux_pair *pair)
{
	struct xsu_usage use[2] = { xsu_usage_of(pair->thread[0], pair->schedule[0].events.counter),
				    xsu_usage_of(pair->thread[1],
						 pair->schedule[1].events.counter) };

	if (!xsu_invariant(&pair->xsu, use[0], use[1]))
		return false; /* exposure, or states that do not match */
	for (unsigned t = 0; t < 2; t++) {
		uint64_t catchers = pair->schedule[t].catchers;

		if (catchers & use[t].enabled)
			return false; /* a catcher on a measured event's counter */
		if (pair->catcher && (use[t ^ 1].corrupting & PMU_GP_BITS & ~catchers))
			return false; /* a corrupting event whose leak nothing catches */
	}
	return true;
}

const struct xsu_ops xsu_ops_core = {
	.mode = XSU_MODE_CORE,
	.ticking = XSU_TICK_JOINT,
	.hooks = &sched_hooks_none,
	.start = join,
	.tick = joint_tick,
	.stop = leave,
	.invariant = joint_invariant,
	.plan_passes = xsu_passes_joint,
};
