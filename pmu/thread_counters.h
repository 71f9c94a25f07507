/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One thread's events on its counters: which counter holds which of its events and leak catchers
 * now (the schedule programmed), the driver that programs and reads them (pmu/driver.h), and the
 * folding of what the counters counted into the events of its list (pmu/mux.h): each event's
 * count and interference mark, and what each catcher caught, given back to the sibling's
 * corrupting event opposite it (mux_pair_add_leak(), with the catcher's mark).
 *
 * A schedule changes the counters it changes and no other: thread_counters_switch() stops
 * exactly the counters whose event or catcher changes, reads every counter (the others keep
 * counting, catchers too), and programs the new schedule, so an unchanged schedule costs reads
 * and no write (the driver keeps shadow copies of the registers). Counters can be programmed
 * held, stopped until thread_counters_start(): core-wide XSU's handover (pmu/handover.h) brings
 * a thread's corrupting events in only once the sibling's catchers are there.
 *
 * The model PMU must know which counters hold catchers before they count (pmu/model.h,
 * model_set_catchers()), and counts exposure per tick: hooks tell it, NULL on real counters.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests. The caller holds
 * the lock the driver needs (the core's, under the model).
 */
#ifndef PMU_THREAD_COUNTERS_H
#define PMU_THREAD_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/driver.h"
#include "pmu/mux.h"
#include "pmu/mux_pair.h"

/* What a backend that is not the hardware must hear (the model PMU); members may be NULL. */
struct thread_counters_hooks {
	/* thread's GP counters `gp` (bit i: counter i) hold leak catchers from now on */
	void (*catchers)(void *ctx, unsigned thread, uint8_t gp);
	/* a tick of thread ends (the model counts exposure per tick) */
	void (*tick)(void *ctx, unsigned thread);
	void *ctx;
};

struct thread_counters {
	struct mux_pair *pair;
	unsigned thread;
	struct pmu_driver *driver;
	struct xsu_schedule programmed; /* what the counters hold now: events and catchers */
	uint64_t held;			/* programmed and not started (idxmsk) */
	uint64_t never;			/* counters never started, whatever is asked (idxmsk) */
	enum pmu_drv_status error;	/* the first assignment the driver refused */
	uint64_t violations;		/* schedules after which the invariant did not hold */
	/* The driver's register accesses when the thread's first schedule was in force and when
	 * its last tick was over: a run's figures count between the two (thread_counters_settled(),
	 * thread_counters_ended()). */
	bool settled, ended;
	uint64_t reads_at_start, writes_at_start, reads_at_end, writes_at_end;
	struct thread_counters_hooks hooks;
};

/* Thread `thread` of pair, with driver: nothing programmed. hooks may be NULL. */
void thread_counters_init(struct thread_counters *tc, struct mux_pair *pair, unsigned thread,
			  struct pmu_driver *driver, const struct thread_counters_hooks *hooks);

/* The counters (idxmsk) whose event or catcher differs between what is programmed and s. */
uint64_t thread_counters_changes(const struct thread_counters *tc, const struct xsu_schedule *s);

/* The counters (idxmsk) of the events s places, or of its corrupting events only. */
uint64_t thread_counters_events(const struct thread_counters *tc, const struct xsu_schedule *s,
				bool corrupting_only);

/*
 * Stop the counters in `stop` (the others go on counting), read every counter, and fold what each
 * counted since the last read into the programmed events and, for catchers, the sibling's.
 */
void thread_counters_read(struct thread_counters *tc, uint64_t stop);

/*
 * Program s, the counters in `hold` (and `never`) stopped; counters whose event s does not change go on as they
 * are. Counts not yet read of the counters that change are lost: read them first, or switch.
 */
void thread_counters_program(struct thread_counters *tc, const struct xsu_schedule *s,
			     uint64_t hold);

/* Read, stopping exactly the counters that change, and program s with `hold` held. */
void thread_counters_switch(struct thread_counters *tc, const struct xsu_schedule *s,
			    uint64_t hold);

/* Start the held counters in `counters`. */
void thread_counters_start(struct thread_counters *tc, uint64_t counters);

/* The thread's first schedule is in force: its register accesses count from now (once). */
void thread_counters_settled(struct thread_counters *tc);

/* Its last tick is over: the final reading that follows is not a tick's; the control registers are
 * read back once more (pmu_driver_verify()) so that a change after the last tick is seen. */
void thread_counters_ended(struct thread_counters *tc);

/* Its register accesses from settled to ended (or now; 0 before settled). */
uint64_t thread_counters_reads(const struct thread_counters *tc);
uint64_t thread_counters_writes(const struct thread_counters *tc);

/* Its control registers read back against what the driver wrote (pmu_driver_verify()): what
 * differs marks the counts it touched interfered at the next read. */
void thread_counters_verify(struct thread_counters *tc);

/* A tick of the thread ends (hooks.tick). */
void thread_counters_tick(const struct thread_counters *tc);

/* After a schedule: the pair's invariant (mux_pair_invariant()), a violation counted here. */
void thread_counters_check(struct thread_counters *tc);

/*
 * XSU off and on, Linux's way: each thread schedules its own list on its own tick. Start: its
 * first schedule at now, programmed. Tick: its counters read, its next schedule at now, switched
 * to.
 */
void thread_counters_own_start(struct thread_counters *tc, uint64_t now);
void thread_counters_own_tick(struct thread_counters *tc, uint64_t now);

#endif
