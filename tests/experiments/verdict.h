/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict rules of the experiments: one table (verdict.c) of rules, each with its name, the
 * text that says it (made from the same constants the judgement uses), which counts get a
 * baseline, and how an XSU mode is judged. Pure code: host-tested on synthetic results.
 */
#ifndef TESTS_EXPERIMENTS_VERDICT_H
#define TESTS_EXPERIMENTS_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "tests/experiments/experiment.h"

/* How the machine measured: the rules read exposure only from the model. */
struct exp_machine {
	bool erratum; /* the CPU (or the model of it) has the cross-HT erratum */
	bool model;   /* the model PMU counted: exposure is known */
	const char *uarch;
	unsigned threads; /* threads of the chosen core in use: 1 or 2 */
};

/* RULE_BASELINE: the tolerance is the larger of a share of the baseline and an absolute count
 * of events, the latter times enabled / running for a multiplexed count (verdict.c). */
#define EXP_TOLERANCE_PCT 25
#define EXP_TOLERANCE_ABS 100
/* RULE_LOSS: how far (percent) the aligned XSU-off rate must exceed the rate alone, and how close
 * the XSU-on rate must stay to it. */
#define EXP_LOSS_COMPENSATION_PCT 20
#define EXP_LOSS_MATCH_PCT 20
/* RULE_STARVATION: below this running fraction (hundredths of a percent) an event is starved;
 * with core-wide XSU every event of both threads must run at least EXP_CORE_MIN_RUNNING. */
#define EXP_STARVED_BELOW 500
#define EXP_CORE_MIN_RUNNING 7000
/* RULE_LOSS with core-wide XSU: every corrupting count within this (percent) of its true count
 * (the model's), the leak its sibling's catcher caught given back. */
#define EXP_CORE_TRUE_PCT 3
/* On real counters (no true count) the rate per unit of work is compared instead, which needs the
 * counters to have counted the run's work: not when the threads spent more than this (per mille
 * of the run) handing over joint schedules, some events stopped meanwhile. On bare metal a
 * handover is three IPIs, microseconds per tick; a hypervisor's host can make it milliseconds. */
#define EXP_MAX_JOINT_GAP_PER_MILLE 20
/* RULE_HK_VS_GREEDY: how far (hundredths of a percent of running fraction, per event) the two
 * schedulers may differ by the timing of a run alone: a tick or two of a run of some hundred. */
#define EXP_HK_MARGIN 200
/* RULE_FAIRNESS: how far (hundredths of a percent) core-wide XSU's smallest running fraction may
 * fall below the best of Linux's: the 0.05 of the max-min optimum. The time the run spent
 * handing over joint schedules (exp_end joint_gap_pct, an event stopped meanwhile) is not held
 * against the schedule: it is the IPIs' cost, reported on its own. */
#define EXP_FAIR_MARGIN 500
/* RULE_FAIRNESS under xsu=core: only thread 0's timer changes the joint schedule, so while its
 * host holds thread 0 the schedule of both threads stands still and the running fractions are
 * whatever it favoured. A core run whose thread 0 lost more than this share (percent) of its ticks
 * shows the host, not the schedule (Linux's XSU rotates each thread on its own ticks). */
#define EXP_MAX_CORE_LOST_TICKS_PCT 25
/*
 * Every rule: too little data to judge. A run whose events were multiplexed needs at least this
 * many ticks on each thread (rotation is what the rules look at); and the siblings must have
 * counted side by side: the shorter counting window at least this much (percent) inside the
 * other (a virtual CPU its host held back starts or stops late, and what the rules look at is
 * the interplay of the two threads).
 */
#define EXP_MIN_TICKS 20
#define EXP_MIN_OVERLAP_PCT 75
/*
 * A multiplexed count is its raw count times enabled / running, which assumes the thread's work
 * went on at an even pace while its event was off the counter. A thread that lost more than this
 * share (percent) of its ticks (a virtual CPU its host ran in bursts: kernel/tick_stats.h) did not
 * work evenly, and its scaled counts are guesses: under QEMU with 42% of the ticks lost on both
 * threads, ch8-corrupting-loss's XSU-on rate was 21% off the rate alone, its true count too. Not with xsu=core: there thread 0's timer only
 * starts handovers, its ticks merge while the IPIs of one are delivered (under a hypervisor,
 * most of them), and its rules compare each count with its own true count and the running
 * fractions, which assume nothing about the pace of the work.
 */
#define EXP_MAX_LOST_TICKS_PCT 40

struct exp_rule {
	const char *name; /* "baseline", "zero", ... */
	/* The rule in words, for the exp record: from the experiment and the constants above. */
	void (*describe)(const struct experiment *e, char *buf, size_t size);
	/* Whether a count of run `run` of thread `thread` gets a baseline, and which (NULL: none). */
	void (*annotate)(const struct exp_results *r, unsigned run, unsigned thread,
			 struct exp_count *c);
	/* The verdict of XSU mode `mode`, from every measured run of that mode and the references;
	 * the common checks (data enough, runs measured) have passed. */
	void (*judge)(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		      struct exp_verdict *out);
};

extern const struct exp_rule exp_rules[RULE_COUNT];

/* Whether event `given` is one of the experiment's checked events. */
bool exp_is_checked(const struct experiment *e, const char *given);

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
