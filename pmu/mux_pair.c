// SPDX-License-Identifier: GPL-2.0
/*
 * A pair of sibling threads under an XSU mode (pmu/mux_pair.h): the ops of off and on (each thread
 * alone, exactly pmu/mux.h), and what every mode shares: binding, Linux's invariant and the leak
 * given back.
 */
#include <string.h>

#include "pmu/counters.h"
#include "pmu/mux_pair.h"

void mux_schedule_clear(struct mux_schedule *s)
{
	memset(s, 0, sizeof(*s));
	memset(s->counter, SCHED_NO_COUNTER, sizeof(s->counter));
	memset(s->leak_of, SCHED_NO_COUNTER, sizeof(s->leak_of));
}

/* ---- off and on: each thread alone, exactly pmu/mux.h --------------------------------------- */

static void thread_start(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	mux_start(pair->thread[thread & 1], now, &pair->schedule[thread & 1]);
}

static void thread_tick(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	mux_tick(pair->thread[thread & 1], now, &pair->schedule[thread & 1]);
}

static void thread_stop(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	mux_stop(pair->thread[thread & 1], now);
	mux_schedule_clear(&pair->schedule[thread & 1]);
}

/* off promises nothing. */
static bool no_invariant(const struct mux_pair *pair)
{
	(void)pair;
	return true;
}

bool mux_pair_xsu_invariant(const struct mux_pair *pair)
{
	return xsu_invariant(&pair->xsu, mux_usage(pair->thread[0]), mux_usage(pair->thread[1]));
}

const struct xsu_ops xsu_ops_off = {
	.mode = XSU_MODE_OFF,
	.hooks = &sched_hooks_none,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
	.invariant = no_invariant,
};

const struct xsu_ops xsu_ops_on = {
	.mode = XSU_MODE_ON,
	.hooks = &xsu_hooks,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
	.invariant = mux_pair_xsu_invariant,
};

const struct xsu_ops xsu_ops_on_limit = {
	.mode = XSU_MODE_ON,
	.hooks = &xsu_hooks_limit,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
	.invariant = mux_pair_xsu_invariant,
};

const struct xsu_ops *xsu_ops_of(unsigned mode, bool limit)
{
	static const struct xsu_ops *const by_mode[XSU_MODE_COUNT] = {
		[XSU_MODE_OFF] = &xsu_ops_off,
		[XSU_MODE_ON] = &xsu_ops_on,
		[XSU_MODE_CORE] = &xsu_ops_core,
	};

	if (mode == XSU_MODE_ON && limit)
		return &xsu_ops_on_limit;
	return mode < XSU_MODE_COUNT ? by_mode[mode] : &xsu_ops_off;
}

void mux_pair_init(struct mux_pair *pair, const struct xsu_ops *ops, struct mux_thread *thread0,
		   struct mux_thread *thread1, const struct pmu_event *catcher)
{
	memset(pair, 0, sizeof(*pair));
	pair->ops = ops;
	pair->thread[0] = thread0;
	pair->thread[1] = thread1;
	xsu_init(&pair->xsu);
	pair->catcher = ops->joint ? catcher : NULL;
	for (unsigned t = 0; t < 2; t++) {
		mux_set_hooks(pair->thread[t], ops->hooks, &pair->xsu);
		pair->thread[t]->thread = t;
		mux_schedule_clear(&pair->schedule[t]);
	}
}

void mux_pair_add_leak(struct mux_pair *pair, unsigned thread,
		       const struct mux_schedule *programmed, unsigned counter, uint64_t caught,
		       bool interfered)
{
	struct mux_thread *sibling = pair->thread[(thread & 1) ^ 1];
	int e;

	if (counter >= PMU_MAX_GP || !(programmed->catchers & (1u << counter)))
		return;
	e = programmed->leak_of[counter];
	if (e < 0 || (unsigned)e >= sibling->nr_events)
		return;
	sibling->events[e].leak += caught;
	sibling->events[e].interfered |= interfered;
}

void mux_pair_account(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	struct mux_thread *t = pair->thread[thread & 1];

	if (t->running)
		mux_account(t, now);
}

void mux_pair_commit_all(struct mux_pair *pair, uint64_t now)
{
	for (unsigned t = 0; t < 2; t++)
		mux_pair_commit(pair, t, &pair->schedule[t], now);
}

void mux_pair_commit(struct mux_pair *pair, unsigned thread, const struct mux_schedule *in_force,
		     uint64_t now)
{
	struct mux_thread *t = pair->thread[thread & 1];

	if (t->running)
		mux_account(t, now);
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		e->counter = t->running ? in_force->counter[i] : SCHED_NO_COUNTER;
		if (e->counter != SCHED_NO_COUNTER)
			e->last_counter = e->counter;
	}
}
