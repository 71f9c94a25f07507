/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multiplexing: one thread's event list, scheduled again on every tick, with the time each event
 * was enabled and the time it actually ran, and the counts scaled from them (thesis 3.3 and
 * equation 6.1; Linux perf_rotate_context, update_event_times, perf's scaling in perf stat).
 *
 * This is the one entry point the kernel (and tools/schedsim) call per thread: it ties together
 * the time accounting, the rotation of the flexible list and the scheduler (pmu/sched.h), and it
 * schedules through the thread's scheduling hooks (struct sched_hooks, pmu/sched.h), as Linux's
 * x86_schedule_events() calls struct x86_pmu's: constraints in, a start/commit/stop transaction
 * around the assignment. What the hooks do with what the threads share (pmu/mux_pair.h names
 * them) the multiplexer does not know: they learn what an event needs from its static constraint. Everything is in caller-owned structures of fixed size: no
 * allocation, no globals, no printing, no locks.
 *
 * Kernel integration. Per physical core: the hooks' shared state and the spinlock that protects
 * it; per sibling thread (0 and 1): one struct mux_thread. Times are whatever clock the caller
 * uses (TSC ticks, nanoseconds, schedsim's ticks), as long as it never goes backwards. A pair of
 * threads under a mode of sharing is pmu/mux_pair.h, which does the set-up:
 *
 *	setup (once, either CPU, before both start):
 *		mux_init(&thread[t], &config, t);                    // for t = 0, 1
 *		mux_set_hooks(&thread[t], hooks, &states);           // shares states with t ^ 1
 *		mux_add_events(&thread[t], events, n);               // parsed by event_parse_list()
 *
 *	start, on CPU t:
 *		spin_lock(&core_lock);
 *		mux_start(&thread[t], now, &schedule);
 *		spin_unlock(&core_lock);
 *		program the counters from schedule.counter[]; enable them
 *
 *	every multiplexing tick (APIC timer, every mux_ms), on CPU t:
 *		stop this thread's counters; read them; thread[t].events[i].count += delta for every
 *		    event i that was counting (schedule.counter[i] != SCHED_NO_COUNTER)
 *		spin_lock(&core_lock);
 *		mux_tick(&thread[t], now, &schedule);
 *		    // accounts [last, now) to time_enabled/time_running, rotates the flexible list if
 *		    // the last schedule needed multiplexing, gives up its counters (hooks->put),
 *		    // schedules on static AND dynamic constraints (hooks->allowed), commits the new
 *		    // counters (hooks->commit) and fills schedule
 *		spin_unlock(&core_lock);
 *		program the counters from schedule.counter[]; enable them
 *
 *	end, on CPU t:
 *		stop and read the counters as on a tick
 *		spin_lock(&core_lock);
 *		mux_stop(&thread[t], now);   // final accounting; gives every counter up
 *		spin_unlock(&core_lock);
 *		report mux_read(&thread[t].events[i]) for every event
 *
 * Semantics follow Linux:
 *  - pinned groups are scheduled before flexible ones and are never rotated; a pinned group
 *    that does not fit goes into the error state for good (MUX_EVENT_ERROR, "<not counted>");
 *  - flexible groups are passed down in list order and the first that fails ends the pass;
 *  - the flexible list is rotated (head to tail, Linux rotate_ctx) at a tick only when the
 *    previous schedule left a flexible group out;
 *  - the fast path keeps an event on the counter it last ran on while that is still allowed.
 * One difference from Linux 4.1: every tick reschedules the whole list and recommits every
 * counter through the hooks from scratch, so a counter an event moved away from can never stay
 * marked (4.1 only marked, and released through hwc->idx).
 */
#ifndef PMU_MUX_H
#define PMU_MUX_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/event.h"
#include "pmu/sched.h"
#include "pmu/uarch.h"

#define MUX_MAX_EVENTS SCHED_MAX_EVENTS
#define MUX_MAX_GROUPS SCHED_MAX_EVENTS

enum mux_event_state {
	MUX_EVENT_NEW,	   /* added; enabled from the next schedule on */
	MUX_EVENT_ENABLED, /* takes part in every schedule */
	MUX_EVENT_ERROR,   /* in a pinned group that did not fit (Linux PERF_EVENT_STATE_ERROR):
			    * never scheduled again, its times stop */
};

struct mux_event {
	struct pmu_event event;
	struct constraint constraint; /* static: uarch_constraint(), or mux_set_constraint() */
	uint64_t dynamic_mask; /* the constraint of its last schedule (static AND the hooks') */
	int8_t counter;	       /* counter it counts on now (idxmsk index), or SCHED_NO_COUNTER */
	int8_t last_counter;   /* counter it last ran on (Linux hwc->idx), for the fast path */
	uint8_t group;	       /* index into mux_thread.groups */
	uint8_t state;	       /* enum mux_event_state */
	uint64_t time_enabled;
	uint64_t time_running;
	/* The thread's work (mux_set_work()) done while it was enabled and while it ran: the pace
	 * check of its scaling, accounted as its times are. 0 without a work clock. */
	uint64_t work_enabled;
	uint64_t work_running;
	uint64_t count;	 /* raw count; the caller adds what the counter counted while it ran */
	bool interfered; /* a counter that counted for it went down without an overflow
			  * (pmu/driver.h): the count is a lower bound */
};

struct mux_config {
	const struct uarch *uarch; /* static constraints; NULL: every event on any GP counter */
	unsigned gp;		   /* GP counters of this thread (4 with HT on on SNB-HSW) */
	unsigned fixed;		   /* fixed counters */
	enum sched_algorithm algorithm;
	/* The thesis 7.2 experiment: keep passing flexible groups after the first failure, up to
	 * max_passed events (0: all). Off for perf's behaviour. */
	bool past_first_failure;
	unsigned max_passed;
};

struct mux_thread {
	struct mux_config config;
	const struct sched_hooks *hooks; /* sched_hooks_none until mux_set_hooks() */
	void *shared;			 /* the hooks' state, shared with the sibling */
	unsigned thread;		 /* 0 or 1: which of the two sharing it this is */
	unsigned nr_events;
	unsigned nr_groups;
	struct mux_event events[MUX_MAX_EVENTS];
	struct sched_group groups[MUX_MAX_GROUPS]; /* in the order they were added */
	uint8_t flexible[MUX_MAX_GROUPS]; /* flexible groups, head first (rotation order) */
	unsigned nr_flexible;
	bool multiplexing; /* the last schedule left a flexible group out: rotate next tick */
	bool running;	   /* between mux_start and mux_stop */
	uint64_t last_time;
	/* The thread's work clock (mux_set_work()): units of work done so far; NULL: none. */
	uint64_t (*work)(const void *arg);
	const void *work_arg;
	uint64_t last_work;
};

/* What one schedule decided: the driver programs counter[]. */
struct mux_schedule {
	int8_t counter[MUX_MAX_EVENTS]; /* per event index: counter, or SCHED_NO_COUNTER */
	unsigned nr_scheduled;		/* events with a counter */
	bool multiplexing;		/* some flexible group was left out */
	bool pinned_failed;		/* a pinned group went into the error state now */
};

/* Thread `thread` (0 or 1) with no events, scheduled with sched_hooks_none. */
void mux_init(struct mux_thread *t, const struct mux_config *config, unsigned thread);

/* Schedule through hooks, over the state shared with the sibling (before mux_start). */
void mux_set_hooks(struct mux_thread *t, const struct sched_hooks *hooks, void *shared);

/*
 * Add one group of n events (n = 1 for a lone event); pinned when events[0].pinned. Static
 * constraints come from config.uarch. False when the list is full (or n is 0); otherwise
 * *index (when not NULL) is the index of the group's first event. The events take part from the
 * next schedule on.
 */
bool mux_add_group(struct mux_thread *t, const struct pmu_event *events, unsigned n,
		   unsigned *index);

/*
 * Add a list as event_parse_list() produces it: consecutive events with the same group number
 * form one group. False, and none is added, when they do not all fit.
 */
bool mux_add_events(struct mux_thread *t, const struct pmu_event *events, unsigned n);

/*
 * A second clock for the accounting: the units of work the thread has done so far (its workload's
 * own ledger), read wherever time is accounted. A scaled count assumes the work went on at an even
 * pace while the event was off its counter; the work done while it ran, scaled the same way,
 * says how far that held (mux_reading's work figures). May be read from the sibling's CPU.
 */
void mux_set_work(struct mux_thread *t, uint64_t (*work)(const void *arg), const void *arg);

/* Replace an event's static constraint mask (schedsim's -C). */
void mux_set_constraint(struct mux_thread *t, unsigned event, uint64_t mask);

/* The initial schedule at time now. The lock of the hooks' shared state held. */
void mux_start(struct mux_thread *t, uint64_t now, struct mux_schedule *out);

/* One multiplexing tick at time now (see the sequence above). The same lock held. */
void mux_tick(struct mux_thread *t, uint64_t now, struct mux_schedule *out);

/* The final stop at time now: accounting, then every event out and its counter given up. */
void mux_stop(struct mux_thread *t, uint64_t now);

/*
 * Account [last, now) to the events' time_enabled (enabled events) and time_running (events on a
 * counter), Linux update_event_times(). mux_tick and mux_stop do it themselves; a pair that
 * schedules both threads at once (pmu/mux_pair.h) calls it for each.
 */
void mux_account(struct mux_thread *t, uint64_t now);

/* An event's result, as perf stat reports it. */
struct mux_reading {
	uint64_t raw; /* the count */
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t scaled;       /* raw * enabled / running; meaningless when !counted */
	bool counted;	       /* false: "<not counted>" (it never ran) */
	unsigned percent;      /* running / enabled in hundredths of a percent (6670 = 66.70%) */
	uint64_t work_enabled; /* the work done while enabled (0: no work clock) */
	uint64_t work_scaled;  /* the work done while it ran, scaled as the count is */
};

struct mux_reading mux_read(const struct mux_event *e);

/* How far a reading's work, sampled as its count was, is from the work done, in 1/per of that
 * work (per = 1000: per mille); 0 with no work clock or when it never counted. */
uint64_t mux_work_gap(const struct mux_reading *r, uint64_t per);

/*
 * Scaling, thesis equation 6.1: *scaled = raw * enabled / running, in integers and without
 * overflow in the intermediate product (saturating at UINT64_MAX). Returns false, leaving
 * *scaled untouched, when running is 0: the event was never counted.
 */
bool mux_scale(uint64_t raw, uint64_t enabled, uint64_t running, uint64_t *scaled);

/* a * b / c rounded down, with a 128-bit intermediate product; UINT64_MAX if it overflows or
 * c is 0. */
uint64_t mux_mul_div(uint64_t a, uint64_t b, uint64_t c);

/* part / whole in hundredths of a percent, rounded to nearest (0 when whole is 0). */
unsigned mux_percent(uint64_t part, uint64_t whole);

#endif
