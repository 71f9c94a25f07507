/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core-wide XSU's handover (xsu=core, pmu/xsu_core.c): how the two threads of a pair go from the
 * joint schedule S their counters hold to the next one, S', that thread 0's tick made, when each
 * thread can program only its own counters and reaches the other by IPI.
 *
 * The four steps. Nothing may let a corrupting event count while the sibling counter opposite it
 * is stopped (its leak would be lost), and a catcher must catch for the event its schedule names:
 *
 *   1. thread 0 (its timer): stops its events, keeps its catchers of S counting, makes S';
 *   2. thread 1: reads its counters, runs S' with its corrupting events held (programmed, not
 *      counting), its catchers of S' counting;
 *   3. thread 0: reads its counters, runs its half of S' (catchers and events);
 *   4. thread 1: starts its held corrupting events.
 *
 * Each step is one thread's tick, the next raised by IPI: handover_tick() does the step due on
 * the thread that ticks and says which thread to raise. Each thread's events' times are accounted
 * when its own counters stop and start (mux_pair_commit()), so an event is running exactly while
 * it counts, whatever the IPIs' delays.
 *
 * The shortcuts. When S' equals S on both threads there is no handover: thread 0 reads its
 * counters, and nothing is written. When neither S nor S' places a corrupting event or a catcher
 * (a CPU without the erratum, or lists without corrupting events), nothing can leak: each thread
 * switches its own counters directly, thread 1 only when its half changed.
 *
 * Every joint tick, both threads look at their counters: thread 1 is raised on every tick (one
 * IPI), and reads its counters there when no step of a handover does (reads only: no write when
 * its half stays), so that a counter firmware wrote, the sibling's as the leader's, is seen within
 * a tick, as Linux's per-CPU tick reads each CPU's own; and each thread once a tick reads back what
 * decides whether its counters count, IA32_PERF_GLOBAL_CTRL, and every IA32_PERFEVTSELx after an
 * SMI (pmu_driver_verify()): an enable bit cleared behind the kernel's back stops a counter with no
 * value going down, and only a read of the register tells. What differs marks the counts it
 * touched interfered, as a counter that went down does.
 *
 * An IPI can be late or lost. Thread 0's timer keeps ticking: a tick that finds a handover waiting
 * for thread 1 sends it again (retries), and a tick that finds step 3 due does it. The time from
 * step 1 to the end of the handover is the handover's gap (some events stopped meanwhile, the
 * time not counted as running); handover_end() closes an open gap and says whether a handover
 * was still waiting: a sibling that never answered fails the run.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests. The caller holds
 * the core's lock around every call, sends the IPIs and supplies the time.
 */
#ifndef PMU_HANDOVER_H
#define PMU_HANDOVER_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/mux_pair.h"
#include "pmu/thread_counters.h"

enum handover_step {
	HANDOVER_IDLE,	/* both threads hold S */
	HANDOVER_STEP2, /* thread 1's step 2 is due */
	HANDOVER_STEP3, /* thread 0's step 3 is due */
	HANDOVER_STEP4, /* thread 1's step 4 (or its direct switch) is due */
};

/*
 * When a step happens: the wall clock (the handover's gap), and each thread's own time, the clock
 * of its events' times (pmu/mux.h): in the kernel its time outside its tick handlers
 * (kernel/tick.h, tick_own_time_of()), in which no user-level event can count. A handler that
 * stops a thread's events at its entry and runs long would otherwise be enabled time in which
 * nothing was running and nothing was done, and scale every count of that thread up.
 */
struct handover_time {
	uint64_t wall, own[2];
};

/* Which thread a step raises by IPI, its number, or none: a handover answers with one. */
enum handover_raise {
	HANDOVER_RAISE_THREAD0 = 0,
	HANDOVER_RAISE_THREAD1 = 1,
	HANDOVER_NONE, /* no thread to raise */
};

/*
 * A handover still waiting for thread 1 at the end was never answered when its IPI and one sent
 * again went unanswered (this many of thread 0's timer ticks) and it had waited longer than
 * struct handover.unanswered_after (wall time): IPIs can be late, but not for that long.
 */
#define HANDOVER_UNANSWERED 2

struct handover {
	struct mux_pair *pair; /* under xsu_ops_core */
	struct thread_counters *tc[2];
	bool sibling;	/* the pair has a second thread */
	bool following; /* thread 1 takes part in the ticks (between enter and end) */
	bool hurry;	/* thread 1 joined: a handover begins at thread 0's raised tick */
	bool read_due;	/* thread 1 reads its counters at its next raised tick (no step does) */
	enum handover_step step;
	bool direct;		   /* the handover under way: nothing corrupting, no four steps */
	uint64_t began_at;	   /* of the handover under way */
	unsigned waited;	   /* timer ticks the handover under way has waited for thread 1 */
	uint64_t unanswered_after; /* wall time (handover_init) */
	/* Figures of the run. */
	uint64_t gap;	     /* time some events were stopped for a handover */
	uint64_t handovers;  /* begun */
	uint64_t unchanged;  /* ticks whose joint schedule needed no handover */
	uint64_t retries;    /* IPIs sent again: thread 1 had not answered by the next tick */
	uint64_t unanswered; /* handovers still waiting for thread 1 when it stopped following */
	/* Joint ticks (thread 0's, each a joint schedule) each thread took part in: thread 0 all,
	 * thread 1 those while it followed. A thread's figures per tick count these. */
	uint64_t ticks[2];
};

/*
 * Both threads' counters, over pair; sibling: the pair has a second thread; unanswered_after: how
 * long (wall time) a handover may wait at the end before thread 1 counts as never answering.
 */
void handover_init(struct handover *h, struct mux_pair *pair, struct thread_counters *tc0,
		   struct thread_counters *tc1, bool sibling, uint64_t unanswered_after);

/*
 * A tick of thread `thread` at now: its own timer (timer, thread 0 only) or raised by the other.
 * Does the step due on it; returns the thread to raise by IPI, or HANDOVER_NONE.
 */
enum handover_raise handover_tick(struct handover *h, unsigned thread, bool timer,
				  struct handover_time now);

/* Thread 1 enters at now: it follows thread 0's ticks. Returns the thread to raise. */
enum handover_raise handover_enter(struct handover *h, struct handover_time now);

/*
 * Thread `thread` joins at now (pair->ops->start done): a handover to a schedule with its events
 * begins at once. Returns the thread to raise.
 */
enum handover_raise handover_join(struct handover *h, unsigned thread, struct handover_time now);

/*
 * Thread 1 follows no more (both threads departed): a handover under way ends here, its gap
 * closed at wall, and counted in `unanswered` when it was waiting for thread 1. True when it had
 * waited so long that thread 1 never answered.
 */
bool handover_end(struct handover *h, uint64_t wall);

#endif
