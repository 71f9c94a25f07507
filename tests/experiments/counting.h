/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counting of a measurement, a run in progress on both siblings: the state a measurement
 * keeps per thread, and the steps that schedule, program and read the counters at the start, on
 * every tick and at the end, under the XSU mode of the run (pmu/mux_pair.h). The measurement is a
 * value: the suite holds its room, exp_run_setup() fills it and exp_run_measure() takes it
 * (runner.h); only runner.c and counting*.c look inside. How the two threads tick is the mode's
 * (struct xsu_ops.ticking), and each way of ticking is one struct counting_ops:
 *
 *   counting_alone (XSU_TICK_EACH: off, on): each sibling ticks on its own APIC timer and
 *                  reschedules its own list (Linux's way), counting_alone.c;
 *   counting_joint (XSU_TICK_JOINT: core): thread 0's timer is the only one: its tick makes the
 *                  joint schedule of both threads, and the two threads hand over to it in steps,
 *                  each raising the other's tick by IPI (kernel/tick.h, tick_send; pmu/handover.h
 *                  says how), so that the XSU guarantee holds at every moment and no leak lands
 *                  in a stopped counter.
 */
#ifndef TESTS_EXPERIMENTS_COUNTING_H
#define TESTS_EXPERIMENTS_COUNTING_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/tick.h"
#include "pmu/driver.h"
#include "pmu/handover.h"
#include "pmu/mux.h"
#include "pmu/mux_pair.h"
#include "pmu/thread_counters.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/settings.h"

struct measurement;

struct measurement_thread {
	struct measurement *m;
	unsigned thread;
	struct mux_thread mux;
	struct thread_counters tc; /* its counters: what they hold, their driver */
	uint64_t ticks;
	uint64_t exposure_at_start;
	bool counting; /* its counters are programmed: a thread started later may begin */
	bool stopped;  /* its counters are stopped: the sibling may take back its XSU claims */
	uint64_t window_start, window_end; /* when its counters started and stopped (TSC) */
	uint64_t departed_own;		   /* when it departed, its own time (kernel/tick.h) */
	struct tick_stats tick;		   /* the tick handler's cost, read after the run */
};

/*
 * A thread's part in a measurement, on its CPU, in this order:
 *
 *   enter()   after pmu_thread_begin(), at the common start: it takes part in the core's
 *             counters (joint: thread 0's timer ticks, thread 1 follows them, and its counters
 *             carry the catchers its sibling's events need);
 *   join()    at its own start (its offset): its events take part from now (alone: its first
 *             schedule, programmed, and its own tick; joint: a handover to a joint schedule with
 *             them begins at once, not at thread 0's next tick, which its host may hold back);
 *   depart()  at the deadline: its events leave, at the time returned (alone: its tick stopped
 *             and its counters read for the last time);
 *   exit()    once the sibling has departed too: alone: its events out of the schedule (the XSU
 *             claims it kept until then, their times ending when it departed); joint: its tick
 *             stopped and its counters read for the last time (until then they caught the
 *             sibling's leaks);
 *   ticks()   after the run: the ticks its figures per tick count (alone: its own timer's;
 *             joint: thread 0's joint ticks it took part in).
 *
 * common_start: both threads start together and apply their offsets themselves (joint: the
 * catchers must be there from the start); otherwise pair_run() applies the offsets.
 */
struct counting_ops {
	void (*enter)(struct measurement_thread *mt, unsigned mux_ms);
	void (*join)(struct measurement_thread *mt, unsigned mux_ms);
	uint64_t (*depart)(struct measurement_thread *mt);
	void (*exit)(struct measurement_thread *mt);
	uint64_t (*ticks)(const struct measurement_thread *mt);
	bool common_start;
};

extern const struct counting_ops counting_alone, counting_joint;

/* The counting ops of a mode's way of ticking (ops->ticking). */
const struct counting_ops *counting_of(const struct xsu_ops *ops);

struct measurement {
	const struct exp_run *spec;
	const struct exp_settings *settings;
	struct pmu *pmu; /* the machine measured (settings->pmu, settings->pair) */
	const struct pair *pair;
	const struct counting_ops *counting; /* of the pair's XSU mode */
	const struct workload *workload[2];
	struct workload_params *params[2];
	struct mux_pair mux; /* the two threads' lists under the run's XSU mode */
	struct measurement_thread thread[2];
	struct handover handover; /* counting_joint: the steps between joint schedules */
	bool unanswered;	  /* counting_joint: a handover was still waiting at the end */
	uint64_t send_failures;	  /* counting_joint: raised ticks whose IPI stayed pending */
	/* MSR_SMI_COUNT at thread 0's start and end, where it could be read. */
	uint64_t smi[2];
	bool smi_known[2];
	uint64_t start_tsc;
	uint64_t duration_tsc;
	uint64_t deadline_tsc; /* when both threads stop: set by the first to count */
};

/* ---- shared by the counting ops (counting.c) ------------------------------------------------ */

/* Bind thread's counters to its driver, with the model's hooks when the model measures. */
void counting_bind(struct measurement_thread *mt, struct pmu_driver *driver);
/* The model's exposure so far on this thread, the mark its exposure is counted from. */
void counting_mark_exposure(struct measurement_thread *mt);
/*
 * Stop the tick and read the counters a last time: they stay stopped. Takes the lock, and calls
 * also (when not NULL) under it first: what the ops end with the counting.
 */
void counting_stop(struct measurement_thread *mt, void (*also)(struct measurement_thread *mt));

#endif
