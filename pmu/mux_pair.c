// SPDX-License-Identifier: GPL-2.0
/*
 * A pair of sibling threads under an XSU mode (pmu/mux_pair.h): the ops of off and on (each thread
 * alone, exactly pmu/mux.h), and what every mode shares: binding, what each thread holds,
 * Linux's invariant and the leak given back.
 */
#include <string.h>

#include "pmu/counters.h"
#include "pmu/mux_pair.h"
#include "pmu/xsu_passes.h"

void xsu_schedule_clear(struct xsu_schedule *s)
{
	memset(s, 0, sizeof(*s));
	memset(s->events.counter, SCHED_NO_COUNTER, sizeof(s->events.counter));
	memset(s->leak_of, SCHED_NO_COUNTER, sizeof(s->leak_of));
}

struct xsu_usage xsu_usage_of(const struct mux_thread *t, const int8_t *counter)
{
	struct xsu_usage use = { 0, 0 };

	for (unsigned i = 0; i < t->nr_events; i++) {
		if (counter[i] == SCHED_NO_COUNTER)
			continue;
		use.enabled |= 1ull << counter[i];
		if (t->events[i].constraint.corrupting)
			use.corrupting |= 1ull << counter[i];
	}
	return use;
}

struct xsu_usage xsu_usage_now(const struct mux_thread *t)
{
	int8_t counter[MUX_MAX_EVENTS];

	for (unsigned i = 0; i < t->nr_events; i++)
		counter[i] = t->events[i].counter;
	return xsu_usage_of(t, counter);
}

/* ---- off and on: each thread alone, exactly pmu/mux.h --------------------------------------- */

static void thread_start(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	mux_start(pair->thread[thread & 1], now, &pair->schedule[thread & 1].events);
}

static void thread_tick(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	mux_tick(pair->thread[thread & 1], now, &pair->schedule[thread & 1].events);
}

static void thread_stop(struct mux_pair *pair, unsigned thread, uint64_t now)
{
	mux_stop(pair->thread[thread & 1], now);
	xsu_schedule_clear(&pair->schedule[thread & 1]);
}

/* off promises nothing. */
static bool no_invariant(const struct mux_pair *pair)
{
	(void)pair;
	return true;
}

bool mux_pair_xsu_invariant(const struct mux_pair *pair)
{
	return xsu_invariant(&pair->xsu, xsu_usage_now(pair->thread[0]),
			     xsu_usage_now(pair->thread[1]));
}

const struct xsu_ops xsu_ops_off = {
	.mode = XSU_MODE_OFF,
	.ticking = XSU_TICK_EACH,
	.hooks = &sched_hooks_none,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
	.invariant = no_invariant,
	.plan_passes = xsu_passes_alone,
};

const struct xsu_ops xsu_ops_on = {
	.mode = XSU_MODE_ON,
	.ticking = XSU_TICK_EACH,
	.hooks = &xsu_hooks,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
	.invariant = mux_pair_xsu_invariant,
	.plan_passes = xsu_passes_alone,
};

const struct xsu_ops xsu_ops_on_limit = {
	.mode = XSU_MODE_ON,
	.ticking = XSU_TICK_EACH,
	.hooks = &xsu_hooks_limit,
	.start = thread_start,
	.tick = thread_tick,
	.stop = thread_stop,
	.invariant = mux_pair_xsu_invariant,
	.plan_passes = xsu_passes_alone,
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
	pair->catcher = catcher;
	for (unsigned t = 0; t < 2; t++) {
		mux_set_hooks(pair->thread[t], ops->hooks, &pair->xsu);
		pair->thread[t]->thread = t;
		xsu_schedule_clear(&pair->schedule[t]);
	}
}

void mux_pair_add_leak(struct mux_pair *pair, unsigned thread,
		       const struct xsu_schedule *programmed, unsigned counter, uint64_t caught,
		       bool interfered)
{
	unsigned other = (thread & 1) ^ 1;
	struct mux_thread *sibling = pair->thread[other];
	int e;

	if (counter >= PMU_MAX_GP || !(programmed->catchers & (1u << counter)))
		return;
	e = programmed->leak_of[counter];
	if (e < 0 || (unsigned)e >= sibling->nr_events)
		return;
	pair->leak[other][e] += caught;
	sibling->events[e].interfered |= interfered;
}

struct mux_reading mux_pair_read(const struct mux_pair *pair, unsigned thread, unsigned event)
{
	struct mux_reading r = mux_read(&pair->thread[thread & 1]->events[event]);

	r.raw += pair->leak[thread & 1][event];
	r.counted = mux_scale(r.raw, r.time_enabled, r.time_running, &r.scaled);
	return r;
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

void mux_pair_commit(struct mux_pair *pair, unsigned thread, const struct xsu_schedule *in_force,
		     uint64_t now)
{
	struct mux_thread *t = pair->thread[thread & 1];

	if (t->running)
		mux_account(t, now);
	for (unsigned i = 0; i < t->nr_events; i++) {
		struct mux_event *e = &t->events[i];

		e->counter = t->running ? in_force->events.counter[i] : SCHED_NO_COUNTER;
		if (e->counter != SCHED_NO_COUNTER)
			e->last_counter = e->counter;
	}
}
