/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pair: the two sibling threads of one core (struct mux_thread each, pmu/mux.h) scheduled under
 * one XSU mode (pmu/xsu_mode.h), whose ops plug in through struct xsu_ops, as Linux's model quirks
 * plug in through struct x86_pmu:
 *
 *   off   each thread schedules alone (Linux without the workaround): sched_hooks_none;
 *   on    each thread schedules alone against the sibling's XSU states (Linux 4.1's XSU, pmu/xsu.h):
 *         mux_start/mux_tick/mux_stop through xsu_hooks, or xsu_hooks_limit with 4.1-rc7's
 *         half-of-the-counters limit;
 *   core  core-wide XSU (pmu/xsu_core.c): both threads reschedule at one tick boundary, with one
 *         joint schedule for both (pmu/core_sched.h), fair across both threads, and a leak
 *         catcher opposite every corrupting event so that its leak is given back.
 *
 * Exposure and the invariant. A corrupting event is *exposed* when a measured event of the
 * sibling (one of its list, not a catcher) counts on the same GP index. ops->invariant() checks,
 * after every schedule: off promises nothing; on: no exposure and the XSU states exactly what the
 * threads hold (xsu_invariant); core: that, and every corrupting event of a running thread faces
 * a catcher (when the microarchitecture has a zero event) and no catcher shares a counter with a
 * measured event.
 *
 * The ops say all a mode means, so that a new mode is a new set of ops (docs/ARCHITECTURE.md,
 * "Adding things"): the threads' hooks, how the two CPUs tick (ops->ticking: the payload's
 * counting ops, one per way of ticking), the schedule on a tick, the invariant, and the passes of
 * a bundle (ops->plan_passes, pmu/xsu_passes.h), which tools/pmu-bench's bundles run on the same
 * exclusion and catchers as an experiment.
 *
 * Kernel integration, off and on (XSU_TICK_EACH): each thread, on its own tick, calls
 * ops->start, ops->tick and ops->stop (pair, t, now): exactly mux_start/mux_tick/mux_stop of
 * pmu/mux.h into pair.schedule[t].events. Core-wide XSU (XSU_TICK_JOINT): pmu/xsu_core.c says how
 * its one timer drives both.
 *
 * Programming pair.schedule[t]: event i on events.counter[i], and the catcher (schedule.catcher)
 * on every GP counter in schedule.catchers. Reading: with the schedule that was programmed, event
 * i gets what events.counter[i] counted, and for every catcher counter c:
 *	mux_pair_add_leak(&pair, t, &programmed, c, what counter c counted),
 * and the pair reads each event with what its sibling's catchers gave back (mux_pair_read()).
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests. Caller-owned state
 * of fixed size, no globals but the const ops, no printing, no recursion.
 */
#ifndef PMU_MUX_PAIR_H
#define PMU_MUX_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/event.h"
#include "pmu/mux.h"
#include "pmu/xsu.h"
#include "pmu/xsu_mode.h"

struct mux_pair;
struct xsu_pass_input;
struct xsu_pass_plan;

/*
 * How the two CPUs of a pair tick under a mode; the payload has one set of counting ops for each
 * (tests/experiments/counting.h), schedsim one loop.
 */
enum xsu_ticking {
	XSU_TICK_EACH,	/* each CPU on its own timer schedules its own thread (Linux's way) */
	XSU_TICK_JOINT, /* thread 0's timer schedules both; the handover's steps by IPI
			 * (pmu/handover.h): call tick once, from thread 0 */
	XSU_TICKINGS
};

/* An XSU mode's ops: everything the mode means. */
struct xsu_ops {
	enum xsu_mode mode;
	enum xsu_ticking ticking;
	/* Each thread's schedule (mux_set_hooks); the joint schedule needs none. */
	const struct sched_hooks *hooks;
	/* Thread t starts (joint: joins, scheduled from the next tick). */
	void (*start)(struct mux_pair *pair, unsigned thread, uint64_t now);
	/* A tick: thread t's schedule (joint: both threads', whichever t). */
	void (*tick)(struct mux_pair *pair, unsigned thread, uint64_t now);
	/* Thread t stops for good: final accounting, its events out. */
	void (*stop)(struct mux_pair *pair, unsigned thread, uint64_t now);
	/* The invariant above, on what the two threads hold now. */
	bool (*invariant)(const struct mux_pair *pair);
	/* A bundle's events of both threads in passes of the counters, each pass as safe as the
	 * mode makes a schedule (pmu/xsu_passes.h), with the mode's hooks: xsu_plan_passes(). */
	void (*plan_passes)(const struct sched_hooks *hooks, const struct xsu_pass_input *in,
			    struct xsu_pass_plan *out);
};

/* on_limit is `on` with Linux 4.1-rc7's half-of-the-counters limit. */
extern const struct xsu_ops xsu_ops_off, xsu_ops_on, xsu_ops_on_limit, xsu_ops_core;

/* The ops of a mode (limit: the half limit, which only `on` has); off's for a bad mode. */
const struct xsu_ops *xsu_ops_of(unsigned mode, bool limit);

/* A bundle's passes under ops (pmu/xsu_passes.h). */
static inline void xsu_plan_passes(const struct xsu_ops *ops, const struct xsu_pass_input *in,
				   struct xsu_pass_plan *out)
{
	ops->plan_passes(ops->hooks, in, out);
}

/*
 * What one thread's counters hold under the pair's mode: its events on their counters (the
 * multiplexer's schedule, or its half of the joint one) and, under core-wide XSU, leak catchers:
 * bit i of catchers set means GP counter i of this thread counts *catcher, an event that never
 * occurs here, because the sibling counts the corrupting event number leak_of[i] of its list on
 * its counter i. What the catcher reads is that event's leak (thesis ch. 8), for
 * mux_pair_add_leak(). off and on place no catchers.
 */
struct xsu_schedule {
	struct mux_schedule events;
	uint8_t catchers;
	int8_t leak_of[PMU_MAX_GP];
	const struct pmu_event *catcher;
};

struct mux_pair {
	const struct xsu_ops *ops;
	struct mux_thread *thread[2];
	struct xsu_states xsu;		 /* Linux's states; under `core` they mirror the schedule */
	const struct pmu_event *catcher; /* the leak catcher's event; NULL: no catchers */
	struct xsu_schedule schedule[2]; /* what each thread programs now */
	/* core: what the sibling's catchers caught of each event's count and gave back
	 * (mux_pair_add_leak); always 0 with off and on */
	uint64_t leak[2][MUX_MAX_EVENTS];
	uint8_t exclusive[2]; /* core: the split of the last joint schedule */
	unsigned splits;      /* core: splits the last joint schedule tried */
	unsigned ticks;	      /* core: joint schedules made */
};

/*
 * Bind two threads (mux_init'ed, events added) to a pair under ops. catcher: uarch_zero_event()
 * of the microarchitecture, or NULL for no leak catchers (the modes that place catchers use it).
 * Sets both threads' hooks to ops->hooks over pair->xsu.
 */
void mux_pair_init(struct mux_pair *pair, const struct xsu_ops *ops, struct mux_thread *thread0,
		   struct mux_thread *thread1, const struct pmu_event *catcher);

/* What each thread now holds, for the invariant: ops->invariant(pair). */
static inline bool mux_pair_invariant(const struct mux_pair *pair)
{
	return pair->ops->invariant(pair);
}

/* Linux's invariant (xsu_invariant) on what the two threads hold now. */
bool mux_pair_xsu_invariant(const struct mux_pair *pair);

/* The counters a thread's events count on now, or with event i on counter[i] (a schedule's
 * plan), and which of them count a corrupting event: for xsu_invariant(). */
struct xsu_usage xsu_usage_now(const struct mux_thread *t);
struct xsu_usage xsu_usage_of(const struct mux_thread *t, const int8_t *counter);

/*
 * Give back a leak: GP counter `counter` of thread `thread`, programmed as `programmed` says
 * (a catcher there), counted `caught`; it is added to the sibling's corrupting event opposite
 * (pair->leak), and when the catcher's counter was written behind the kernel's back
 * (interfered) that event's count is marked too. Nothing happens when programmed has no catcher
 * on that counter.
 */
void mux_pair_add_leak(struct mux_pair *pair, unsigned thread,
		       const struct xsu_schedule *programmed, unsigned counter, uint64_t caught,
		       bool interfered);

/* Event `event` of thread `thread` as perf stat reports it (mux_read()), its raw count with
 * the leak given back: under core-wide XSU it is part of the count, scaled with it. */
struct mux_reading mux_pair_read(const struct mux_pair *pair, unsigned thread, unsigned event);

/* An empty schedule: no counter, no catcher. */
void xsu_schedule_clear(struct xsu_schedule *s);

/*
 * Core-wide XSU: thread `thread`'s counters hold `in_force` from now on (a part of its half of
 * the joint schedule, during a handover, pmu/handover.h). Its events' times are accounted up to
 * now with what they held, and from now on an event runs only while in_force places it: the
 * joint schedule (ops->tick) only plans, and an event is running while it counts.
 */
void mux_pair_commit(struct mux_pair *pair, unsigned thread, const struct xsu_schedule *in_force,
		     uint64_t now);

/* Core-wide XSU: thread `thread`'s times accounted to now (its own clock) with what it holds. */
void mux_pair_account(struct mux_pair *pair, unsigned thread, uint64_t now);

/* Both threads hold their whole half of the joint schedule from now on (a handover of no time,
 * for simulations that schedule and nothing else: tools/schedsim). */
void mux_pair_commit_all(struct mux_pair *pair, uint64_t now);

#endif
