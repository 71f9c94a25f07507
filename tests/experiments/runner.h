/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measuring one run of an experiment on the chosen core's two threads (docs/ARCHITECTURE.md,
 * "The data flow"): each thread starts its workload at CPL 3 at the common start plus its offset;
 * the tick runs the run's counting ops (counting.h): read the counters, schedule through the
 * pair's XSU mode (pmu/mux_pair.h), program the new assignment, all under the pair's lock; at the
 * end each thread reads its counts with time enabled and running.
 */
#ifndef TESTS_EXPERIMENTS_RUNNER_H
#define TESTS_EXPERIMENTS_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/sched.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/settings.h"

/* The scheduler a run uses: its own (own_sched), or `configured` (sched=). */
enum sched_algorithm exp_run_sched(const struct exp_run *run, enum sched_algorithm configured);

/*
 * Set one run up: parse both threads' lists for this machine and give them to the scheduler. The
 * parsed events, in list order, are out->thread[t].counts[0 .. nr_events - 1].event, so that the
 * suite prints the lists the runner counts. False, with out->error, when a list does not parse
 * here or does not fit (out->done stays false).
 */
bool exp_run_setup(const struct exp_run *run, const struct exp_settings *s,
		   struct exp_run_result *out);

/* Measure the run exp_run_setup() set up last, into the same *out: out->done, or out->error. */
void exp_run_measure(struct exp_run_result *out);

#endif
