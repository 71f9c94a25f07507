/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdicts of the experiments: an experiment's rule (tests/experiments/rule.h) applied to a
 * repetition's results, after the checks every rule shares (runs measured, data enough, counters
 * nobody else wrote), and the tally over repetitions. Pure code: host-tested on synthetic results.
 */
#ifndef TESTS_EXPERIMENTS_VERDICT_H
#define TESTS_EXPERIMENTS_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "tests/experiments/experiment.h"
#include "tests/experiments/rule.h"

/* The experiment's rule in words, into buf. */
const char *exp_rule_text(const struct experiment *e, char *buf, size_t size);

/* Give the counts of run `index` their baselines and tolerances, from the experiment's reference
 * runs measured before it. */
void exp_annotate(struct exp_results *r, unsigned index);

/*
 * Judge one XSU mode from every run of that mode and the references of one repetition. Returns
 * false when no run of that mode was measured (no verdict to give).
 */
bool exp_judge(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
	       struct exp_verdict *v);

/*
 * The verdict over repetitions: any failure fails (its reason names the repetition), else any
 * pass passes, else a skip. `combined` starts zeroed with `seen` 0; add each repetition's.
 */
struct exp_verdict_tally {
	struct exp_verdict verdict;
	unsigned seen, passed, failed, skipped;
};
void exp_verdict_add(struct exp_verdict_tally *t, const struct exp_verdict *v, unsigned rep,
		     unsigned repeat);

#endif
