/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multiplexing a whole core: the two sibling threads' event lists (struct mux_thread, pmu/mux.h)
 * under one of three XSU policies, plugged in through an ops struct (struct mux_policy):
 *
 *   off   each thread schedules alone (Linux without the workaround);
 *   on    each thread schedules alone against the sibling's XSU states (Linux 4.1's XSU,
 *         pmu/xsu.h): mux_start/mux_tick/mux_stop exactly as before;
 *   core  core-wide XSU (issue 10): both threads reschedule at one tick boundary, with one joint
 *         schedule computed for both (pmu/core_sched.h), fair across both threads, and a leak
 *         catcher opposite every corrupting event so that its leak is given back.
 *
 * The joint policy, per tick. The two threads' groups go into one order: pinned groups that
 * were running, then the other pinned groups, then the flexible groups by their running fraction
 * so far (time_running / time_enabled), lowest first. Each flexible group is worth its events
 * times 2^(-32 x its fraction), and core_sched() places the pinned groups first and then the most
 * worth it can: a quantised soft-min, which drives the fractions of both threads to a max-min
 * fair allocation over the run (mux_core.c, group_worth(), says why the strict order does not;
 * tests/host/test_xsu_core.c checks every event against the exact optimum on thousands of random
 * pairs of lists). Every EXHAUSTIVE_EVERY-th tick (8) every split of the GP indices is tried; in
 * between, the splits around the last one. There is no rotation: the worths are the rotation.
 *
 * Leak re-integration (thesis ch. 8). Under the joint schedule nothing measured shares a GP index
 * with a corrupting event, so the sibling's counter i counts a *catcher* (uarch_zero_event(), an
 * event that never occurs there) while a corrupting event runs on counter i: everything the
 * catcher reads is that event's leak, and mux_core_add_leak() gives it back (mux_event.leak,
 * included in mux_read()'s raw and scaled). Fixed counters and non-corrupting events have none.
 *
 * Exposure and the invariant. A corrupting event is *exposed* when a measured event of the
 * sibling (one of its list, not a catcher) counts on the same GP index. mux_core_invariant()
 * checks, after every schedule: no exposure; under `on` and `core` the XSU states are exactly
 * what the threads hold (xsu_invariant); under `core` also every corrupting event of a running
 * thread faces a catcher (when the microarchitecture has a zero event) and no catcher shares a
 * counter with a measured event.
 *
 * Kernel integration, `core` (policy->joint). Thread 0's tick is the only timer; under the
 * core's lock throughout:
 *
 *	setup:  mux_init(&thread[t], &config, NULL, t); mux_add_events(...) for t = 0, 1
 *	        mux_core_init(&core, &mux_policy_core, false, &thread[0], &thread[1],
 *	                      uarch_zero_event(uarch))
 *	thread t joins at now (at a tick, before that tick's schedule, to lose no time):
 *	        core.policy->start(&core, t, now)
 *	tick, on CPU 0:
 *	        stop and read CPU 0's counters (counts, and the catchers: mux_core_add_leak)
 *	        core.policy->tick(&core, 0, now)        // both threads' schedules
 *	        assert(mux_core_invariant(&core))
 *	        IPI to CPU 1: it stops and reads its counters with the schedule it had programmed,
 *	            then programs core.schedule[1] and acknowledges
 *	        program core.schedule[0]
 *	thread t leaves at now: stop and read its counters, then core.policy->stop(&core, t, now)
 *
 * Programming core.schedule[t]: event i on counter[i] as today, and the catcher
 * (schedule.catcher) on every GP counter in schedule.catchers. A thread that has not started yet
 * or has stopped gets catchers too (its sibling's corrupting events still leak into it): program
 * them if its CPU takes part in the tick. Reading: with the schedule that was programmed, event i
 * gets what counter[i] counted, and for every catcher counter c:
 *	mux_core_add_leak(&core, t, &programmed, c, pmu_driver_take(driver, c)).
 *
 * Kernel integration, `off` and `on`: the same ops (policy->start/tick/stop(&core, t, now)),
 * called by each thread on its own tick, do exactly mux_start/mux_tick/mux_stop of pmu/mux.h
 * into core.schedule[t].
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests. Caller-owned state
 * of fixed size, no globals but the three const policies, no printing, no recursion; a joint tick
 * uses about 4 KiB of stack (gcc -fstack-usage: 2.3 KiB its own, 1.5 KiB core_sched()).
 */
#ifndef PMU_MUX_CORE_H
#define PMU_MUX_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/event.h"
#include "pmu/mux.h"
#include "pmu/xsu.h"

struct mux_core;

/* An XSU policy: how a core's two threads are scheduled. */
struct mux_policy {
	const char *name; /* the xsu= value: "off", "on", "core" */
	bool xsu;	  /* keeps the XSU states (xsu_init enabled) */
	bool joint;	  /* one tick schedules both threads: call tick once, from thread 0 */
	/* Thread t starts (joint: joins, scheduled from the next tick). */
	void (*start)(struct mux_core *core, unsigned thread, uint64_t now);
	/* A tick: thread t's schedule (joint: both threads', whichever t). */
	void (*tick)(struct mux_core *core, unsigned thread, uint64_t now);
	/* Thread t stops for good: final accounting, its events out. */
	void (*stop)(struct mux_core *core, unsigned thread, uint64_t now);
};

extern const struct mux_policy mux_policy_off, mux_policy_on, mux_policy_core;

/* By its xsu= name, or NULL. */
const struct mux_policy *mux_policy_by_name(const char *name);

struct mux_core {
	const struct mux_policy *policy;
	struct mux_thread *thread[2];
	struct xsu_core xsu;		 /* Linux's states; under `core` they mirror the schedule */
	const struct pmu_event *catcher; /* the leak catcher's event; NULL: no catchers */
	struct mux_schedule schedule[2]; /* what each thread programs now */
	uint8_t exclusive[2];		 /* core: the split of the last joint schedule */
	unsigned splits;		 /* core: splits the last joint schedule tried */
	unsigned ticks;			 /* core: joint schedules made */
};

/*
 * Bind two threads (mux_init'ed, events added) to a core under policy. starvation_limit is Linux
 * 4.1-rc7's half-of-the-counters limit, for `on` (pmu/xsu.h). catcher: uarch_zero_event() of the
 * microarchitecture, or NULL for no leak catchers. Points both threads' XSU at core->xsu.
 */
void mux_core_init(struct mux_core *core, const struct mux_policy *policy, bool starvation_limit,
		   struct mux_thread *thread0, struct mux_thread *thread1,
		   const struct pmu_event *catcher);

/*
 * The joint policy's steps, which mux_policy_core's ops call. mux_core_join: thread t takes part
 * from the next mux_core_tick on, its events enabled from now. mux_core_tick: account [last, now)
 * for both threads, then the joint schedule into core->schedule[]. mux_core_leave: thread t's
 * final accounting at now, every event out; the sibling goes on.
 */
void mux_core_join(struct mux_core *core, unsigned thread, uint64_t now);
void mux_core_tick(struct mux_core *core, uint64_t now);
void mux_core_leave(struct mux_core *core, unsigned thread, uint64_t now);

/*
 * Give back a leak: GP counter `counter` of thread `thread`, programmed as `programmed` says
 * (a catcher there), counted `caught`; it is added to the sibling's corrupting event opposite
 * (its mux_event.leak). Nothing happens when programmed has no catcher on that counter.
 */
void mux_core_add_leak(struct mux_core *core, unsigned thread,
		       const struct mux_schedule *programmed, unsigned counter, uint64_t caught);

/* The invariant above, on what the two threads hold now (core->schedule and their events). */
bool mux_core_invariant(const struct mux_core *core);

#endif
