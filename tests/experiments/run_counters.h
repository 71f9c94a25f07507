/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of one run on both siblings (private to runner.c and run_counters.c): the state a
 * run keeps per thread, and the steps that schedule, program and read the counters at the start,
 * on every tick and at the end, under the XSU policy of the run (pmu/mux_pair.h).
 *
 * With `off` and `on` each sibling ticks on its own APIC timer and reschedules its own list
 * (Linux's way). With `core` (policy->joint) thread 0's timer is the only one: its tick makes the
 * joint schedule of both threads, and the two threads hand over to it in steps, each raising the
 * other's tick by IPI (kernel/tick.h, tick_send; run_counters.c says how), so that the XSU
 * guarantee holds at every moment and no leak lands in a stopped counter.
 */
#ifndef TESTS_EXPERIMENTS_RUN_COUNTERS_H
#define TESTS_EXPERIMENTS_RUN_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/tick.h"
#include "pmu/driver.h"
#include "pmu/mux.h"
#include "pmu/mux_pair.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/runner.h"

struct run;

struct run_thread {
	struct run *run;
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
	bool following; /* joint policy, thread 1: it takes part in thread 0's ticks */
	uint64_t window_start, window_end;   /* when its counters started and stopped (TSC) */
	bool interfered[MUX_MAX_EVENTS];     /* its counter went down without an overflow */
	uint64_t true_count[MUX_MAX_EVENTS]; /* the model's count with no erratum (raw) */
	struct tick_stats tick;		     /* the tick handler's cost, read after the run */
};

struct run {
	const struct exp_run *spec;
	const struct exp_settings *settings;
	const struct workload *workload[2];
	struct workload_params *params[2];
	struct mux_pair pair; /* the two threads' lists under the run's XSU mode */
	struct run_thread thread[2];
	uint64_t start_tsc;
	uint64_t duration_tsc;
	uint64_t deadline_tsc; /* when both threads stop: set by the first to count */
	/* Joint policy: the step of the handover under way (run_counters.c, enum joint_step),
	 * thread 0's timer ticks that came before it ended, and its time: when it began, and in all
	 * (some events of one thread or the other were stopped meanwhile). */
	unsigned joint_step;
	bool join_raised; /* thread 1 joined and raised thread 0's tick for a handover now */
	uint64_t joint_unanswered;
	uint64_t joint_began_at, joint_gap_tsc;
};

/*
 * A thread's part in a run, on its CPU, in this order:
 *
 *   run_counters_enter()   after pmu_thread_begin(), at the common start: it takes part in the
 *                          core's counters (core: thread 0's timer ticks, thread 1 follows them,
 *                          and its counters carry the catchers its sibling's events need);
 *   run_counters_join()    at its own start (its offset): its events take part from now (off,
 *                          on: its first schedule, programmed, and its own tick; core: a
 *                          handover to a joint schedule with them begins at once, not at
 *                          thread 0's next tick, which its host may hold back);
 *   run_counters_depart()  at the deadline: its events leave, at the time returned (off, on: its
 *                          tick stopped and its counters read for the last time);
 *   run_counters_exit()    once the sibling has departed too: off, on: its events out of the
 *                          schedule (the XSU claims it kept until then, their times ending at
 *                          `departed`); core: its tick stopped and its counters read for the last
 *                          time (until then they caught the sibling's leaks).
 */
void run_counters_enter(struct run_thread *rt, unsigned mux_ms);
void run_counters_join(struct run_thread *rt, unsigned mux_ms);
uint64_t run_counters_depart(struct run_thread *rt);
void run_counters_exit(struct run_thread *rt, uint64_t departed);

#endif
