/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of one run on both siblings (private to runner.c and run_counters.c): the state a
 * run keeps per thread, and the steps that schedule, program and read the counters at the start,
 * on every tick and at the end, under the XSU policy of the run (pmu/mux_core.h).
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
#include "pmu/mux_core.h"
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
	struct mux_core core; /* the two threads' lists under the run's XSU policy */
	struct run_thread thread[2];
	uint64_t start_tsc;
	uint64_t duration_tsc;
	uint64_t deadline_tsc; /* when both threads stop: set by the first to count */
	/* Joint policy: the step of the handover under way (run_counters.c, enum joint_step),
	 * thread 0's timer ticks that came before it ended, and its time: when it began, and in all
	 * (some events of one thread or the other were stopped meanwhile). */
	unsigned joint_step;
	uint64_t joint_unanswered;
	uint64_t joint_began_at, joint_gap_tsc;
};

/* The XSU policy of each mode (kernel/cmdline.h enum xsu_mode). */
const struct mux_policy *run_policy(unsigned mode);

/* On thread rt's CPU, after pmu_thread_begin(): its first schedule, programmed, and its tick. */
void run_counters_start(struct run_thread *rt, unsigned mux_ms);

/* On thread rt's CPU at its end: its tick stopped, its counters read and stopped, at the time
 * returned. */
uint64_t run_counters_stop(struct run_thread *rt);

/* On thread rt's CPU once the sibling has stopped too: its events out of the schedule, their
 * times ending at `stopped`. */
void run_counters_leave(struct run_thread *rt, uint64_t stopped);

#endif
