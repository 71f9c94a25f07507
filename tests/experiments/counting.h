/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counting of a measurement, a run in progress on both siblings (private to runner.c and
 * counting*.c): the state a measurement keeps per thread, and the steps that schedule, program
 * and read the counters at the start, on every tick and at the end, under the XSU mode of the run
 * (pmu/mux_pair.h). How the two threads tick plugs in through struct counting_ops:
 *
 *   counting_alone (off, on): each sibling ticks on its own APIC timer and reschedules its own
 *                  list (Linux's way), counting_alone.c;
 *   counting_joint (core):    thread 0's timer is the only one: its tick makes the joint schedule
 *                  of both threads, and the two threads hand over to it in steps, each raising
 *                  the other's tick by IPI (kernel/tick.h, tick_send; counting_joint.c says how),
 *                  so that the XSU guarantee holds at every moment and no leak lands in a stopped
 *                  counter.
 */
#ifndef TESTS_EXPERIMENTS_COUNTING_H
#define TESTS_EXPERIMENTS_COUNTING_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/tick.h"
#include "pmu/driver.h"
#include "pmu/mux.h"
#include "pmu/mux_pair.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/settings.h"

struct measurement;

struct measurement_thread {
	struct measurement *m;
	unsigned thread;
	struct mux_thread mux;
	struct mux_schedule programmed; /* what its counters hold now */
	struct pmu_driver *driver;
	uint64_t ticks;
	uint64_t exposure_at_start;
	uint64_t violations;
	enum pmu_drv_status program_error;
	bool counting;	/* its counters are programmed: a thread started later may begin */
	bool stopped;	/* its counters are stopped: the sibling may take back its XSU claims */
	bool following; /* counting_joint, thread 1: it takes part in thread 0's ticks */
	uint64_t window_start, window_end;   /* when its counters started and stopped (TSC) */
	bool interfered[MUX_MAX_EVENTS];     /* its counter went down without an overflow */
	uint64_t true_count[MUX_MAX_EVENTS]; /* the model's count with no erratum (raw) */
	struct tick_stats tick;		     /* the tick handler's cost, read after the run */
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
 *             claims it kept until then, their times ending at `departed`); joint: its tick
 *             stopped and its counters read for the last time (until then they caught the
 *             sibling's leaks).
 *
 * common_start: both threads start together and apply their offsets themselves (joint: the
 * catchers must be there from the start); otherwise pair_run() applies the offsets.
 */
struct counting_ops {
	void (*enter)(struct measurement_thread *mt, unsigned mux_ms);
	void (*join)(struct measurement_thread *mt, unsigned mux_ms);
	uint64_t (*depart)(struct measurement_thread *mt);
	void (*exit)(struct measurement_thread *mt, uint64_t departed);
	bool common_start;
};

extern const struct counting_ops counting_alone, counting_joint;

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
	uint64_t start_tsc;
	uint64_t duration_tsc;
	uint64_t deadline_tsc; /* when both threads stop: set by the first to count */
	/* counting_joint: the step of the handover under way (counting_joint.c, enum joint_step),
	 * thread 0's timer ticks that came before it ended, and its time: when it began, and in all
	 * (some events of one thread or the other were stopped meanwhile). */
	unsigned joint_step;
	bool join_raised; /* thread 1 joined and raised thread 0's tick for a handover now */
	uint64_t joint_unanswered;
	uint64_t joint_began_at, joint_gap_tsc;
};

/* ---- shared by the counting ops (counting.c); the measurement's lock held ------------------- */

/* Fold what each counter counted since the last take into the thread's events. */
void counting_collect(struct measurement_thread *mt);
/* Program schedule s: its events and its leak catchers. */
void counting_program(struct measurement_thread *mt, const struct mux_schedule *s);
/* After every schedule: the XSU mode's invariant (pmu/mux_pair.h), violations counted. */
void counting_check(struct measurement_thread *mt);
/* The model's tick on this thread (exposure accounting), when the model measures. */
void counting_model_tick(const struct measurement_thread *mt);
/* The model's exposure so far on this thread, the mark its exposure is counted from. */
void counting_mark_exposure(struct measurement_thread *mt);
/*
 * Stop the tick and read the counters a last time: they stay stopped. Takes the lock, and calls
 * also (when not NULL) under it first: what the ops end with the counting.
 */
void counting_stop(struct measurement_thread *mt, void (*also)(struct measurement_thread *mt));

#endif
