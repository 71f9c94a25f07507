/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict rules of the experiments (enum exp_rule): which counts carry a baseline, and
 * whether an XSU mode passed. Pure code: host-tested on synthetic results.
 */
#ifndef TESTS_EXPERIMENTS_VERDICT_H
#define TESTS_EXPERIMENTS_VERDICT_H

#include <stdbool.h>

#include "tests/experiments/experiment.h"

/* How the machine measured: the rules read exposure only from the model. */
struct exp_machine {
	bool erratum; /* the CPU (or the model of it) has the cross-HT erratum */
	bool model;   /* the model PMU counted: exposure is known */
	const char *uarch;
	unsigned threads; /* threads of the chosen core in use: 1 or 2 */
};

/* Tolerances of RULE_BASELINE: the larger of a share of the baseline and an absolute count of
 * events, the latter times enabled / running for a multiplexed count (verdict.c). */
#define EXP_TOLERANCE_PCT 25
#define EXP_TOLERANCE_ABS 100
/* RULE_LOSS: how far (percent) the aligned XSU-off rate must exceed the rate alone, and how close
 * the XSU-on rate must stay to it. */
#define EXP_LOSS_COMPENSATION_PCT 20
#define EXP_LOSS_MATCH_PCT 20
/* RULE_STARVATION: below this running fraction (hundredths of a percent) an event is starved. */
#define EXP_STARVED_BELOW 500
/* RULE_HK_VS_GREEDY: how far (hundredths of a percent of running fraction, per event) the two
 * schedulers may differ by the timing of a run alone: a tick or two of a run of some hundred. */
#define EXP_HK_MARGIN 200

/* Whether event `given` is one of the experiment's checked events. */
bool exp_is_checked(const struct experiment *e, const char *given);

/*
 * Give the counts of run `index` their baselines and tolerances, from the experiment's reference
 * runs measured before it (RULE_BASELINE: the baseline run's rate per unit of work, scaled to this
 * run's units; RULE_ZERO and RULE_ALIGNED: 0; RULE_LOSS: the rate alone).
 */
void exp_annotate(struct exp_results *r, unsigned index);

/*
 * Judge one XSU mode (xsu_on) from every run of that mode and the references. Returns false when
 * no run of that mode was measured (no verdict to give).
 */
bool exp_judge(const struct exp_results *r, bool xsu_on, const struct exp_machine *m,
	       struct exp_verdict *v);

#endif
