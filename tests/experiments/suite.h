/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The experiment suite: runs the experiments `exp=` selects (and `custom`, the run defined by
 * ht0=/ht1=), in the XSU modes `xsu=` selects, each `repeat=` times, and prints their records
 * (docs/records.md) and a perf-stat-like table per thread.
 */
#ifndef TESTS_EXPERIMENTS_SUITE_H
#define TESTS_EXPERIMENTS_SUITE_H

#include "kernel/payload.h"
#include "tests/lib/payload_config.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/runner.h"
#include "tests/experiments/summary.h"
#include "tests/experiments/verdict.h"

/* What one boot's suite shares between its experiments. */
struct suite {
	const struct payload_config *config;
	struct exp_settings settings;
	struct exp_machine machine;
	struct exp_results results; /* the repetition being measured */
	struct measurement run;	    /* the run being measured: its room (runner.h) */
	unsigned tally[3];	    /* verdicts so far, by enum exp_result_kind */
	struct summary summary;	    /* the screen's progress line and the table at the end */
};

/* The names exp= takes besides all, none and custom, NULL-terminated. */
#define EXP_NAMES_MAX 32
const char *const *suite_experiment_names(void);

/* Run the selection; a failed verdict fails the boot. */
void experiments_run(const struct payload_env *env, const struct payload_config *config);

/* For experiments that make their own runs (experiment.measure): whether XSU mode `mode` is one
 * the command line selected, and the records of one run and of one verdict. */
bool suite_mode_selected(const struct suite *s, unsigned mode);
void suite_emit_verdict(struct suite *s, const struct experiment *e, unsigned mode,
			const char *sched, const struct exp_verdict *v);

#endif
