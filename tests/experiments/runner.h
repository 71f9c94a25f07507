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
#include "tests/experiments/counting.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/settings.h"

/* The scheduler a run uses: its own (own_sched), or `configured` (sched=). */
enum sched_algorithm exp_run_sched(const struct exp_run *run, enum sched_algorithm configured);

/*
 * Set one run up in room, the caller's, which holds it until it is measured: parse both threads'
 * lists for this machine and give them to the scheduler under the run's XSU mode. The parsed
 * events, in list order, are out->thread[t].counts[0 .. nr_events - 1].event, so that the suite
 * prints the lists the runner counts. Returns the measurement (room), or NULL with its reason in
 * out->error when a list does not parse here or does not fit (out->done stays false).
 */
struct measurement *exp_run_setup(const struct exp_run *run, const struct exp_settings *s,
				  struct measurement *room, struct exp_run_result *out);

/* Measure m, which exp_run_setup() returned, into its run's result out: out->done, or
 * out->error. */
void exp_run_measure(struct measurement *m, struct exp_run_result *out);

#endif
