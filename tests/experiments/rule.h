/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A verdict rule: how the runs of an experiment are judged (struct exp_rule), the constants the
 * judgements and their texts share, and the helpers of the rule files (rules_*.c). Each rule is
 * one const struct exp_rule in its file, declared below; an experiment names it (.rule =
 * &rule_loss). A new rule is its file and its line below. Counts are compared per unit of work
 * (a triad element), not as totals: a busy host (or a different clock) changes how much work a
 * run does, not the rate of its events. Pure code: host-tested on synthetic results.
 */
#ifndef TESTS_EXPERIMENTS_RULE_H
#define TESTS_EXPERIMENTS_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * with core-wide XSU every event of both threads must run at least EXP_CORE_MIN_RUNNING, the time
 * the run spent handing over joint schedules (exp_end joint_gap_pct) counted with it. */
#define EXP_STARVED_BELOW 500
#define EXP_CORE_MIN_RUNNING 7000
/* RULE_LOSS with core-wide XSU: every corrupting count within this (percent) of its true count
 * (the model's), the leak its sibling's catcher caught given back. */
#define EXP_CORE_TRUE_PCT 3
/*
 * ... judged at its thread's pace (pmu/mux.h's work clock), which only corrects a pace that was
 * nearly even: the work is sampled where the counts are accounted, not at the very instruction
 * that stops a counter. A thread whose work, sampled as a count was, is further off than this
 * (percent) is not judged: at dur_ms=60 on a busy host, 12.8% left a count 3.2% off its paced
 * truth with nothing lost. A quiet make run: 0.8%.
 */
#define EXP_CORE_PACE_PCT 5
/* RULE_LOSS with core-wide XSU on real counters: triad's MEM_UOPS_RETIRED.ALL_LOADS (two loads
 * per element, TRIAD_LOADS), counted plus caught, within this (percent) of twice its units. */
#define EXP_CORE_LOADS_PCT 1
#define TRIAD_LOADS "r81d0:u"
/* On real counters (no true count) the rate per unit of work is compared instead, which needs the
 * counters to have counted most of the run's work: not when the threads spent more than this (per
 * mille of the run) handing over joint schedules, some events stopped meanwhile (their scaled
 * counts assume the work went on evenly). On bare metal a handover is three IPIs, microseconds per
 * tick; a hypervisor's host can make it milliseconds. */
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
 * shows the host, not the schedule (Linux's XSU rotates each thread on its own ticks). A stall of
 * a share of the ticks moves a running fraction by up to that share, so judging to within the
 * margin allows no more than the margin: 15% lost left ch7-three-events at 92% on a busy host,
 * where a quiet make run loses 0.8-2%. */
#define EXP_MAX_CORE_LOST_TICKS_PCT (EXP_FAIR_MARGIN / 100)
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
 * threads, ch8-corrupting-loss's XSU-on rate was 21% off the rate alone, its true count too. With
 * xsu=core too, since its counts are judged against the workload's own truth (issue 16); there
 * thread 1 has no timer of its own, and thread 0's lost ticks stand for the host's bursts.
 */
#define EXP_MAX_LOST_TICKS_PCT 40
/*
 * The same, measured rather than guessed from the ticks: the thread's own work done while an event
 * ran, scaled as its count is (pmu/mux.h's work clock), is at most this far (percent) from the
 * work it did. Beyond, no rule's tolerance (25% at most) could tell the counting from the pace,
 * and no scaled count is judged. Under TCG: a quiet 500 ms run at most 4%, with 1 ms ticks on a
 * busy host 10-22%, and at dur_ms=60 on a busy host 37%. The core truth is judged at the pace.
 */
#define EXP_MAX_PACE_PCT EXP_TOLERANCE_PCT

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

/* The rules (rules_*.c; the leak survey's is survey_rule.c). */
extern const struct exp_rule rule_baseline, rule_zero, rule_aligned; /* rules_corruption.c */
extern const struct exp_rule rule_loss;				     /* rules_loss.c */
extern const struct exp_rule rule_starvation;			     /* rules_starvation.c */
extern const struct exp_rule rule_hk_vs_greedy, rule_fairness;	     /* rules_policies.c */
extern const struct exp_rule rule_measured;			     /* rules_measured.c */
extern const struct exp_rule rule_survey;			     /* survey_rule.c */

/* ---- for the rule files (rule.c) ------------------------------------------------------------ */

/*
 * Which runs a rule looks at (rule_next_run, for_each_run): done runs, and of those the ones that
 * serve every mode of `modes` (exp_run_in_mode), whose own mode is in `xsu`, whose phase is in
 * `phases` (a bit per enum exp_phase) and whose label is `label`; 0 or NULL: any.
 */
struct run_select {
	unsigned modes, xsu, phases;
	const char *label;
};
#define PHASE_BIT(p) (1u << (p))

/* The next selected run of r from index *i on, or NULL; *i moves past it. */
const struct exp_run_result *rule_next_run(const struct exp_results *r,
					   const struct run_select *sel, unsigned *i);
/* for_each_run(run, r, .modes = XSU_MODE_BIT(XSU_MODE_CORE)) { ... } */
#define for_each_run(run, r, ...)                                                                  \
	for (unsigned run##_i = 0;                                                                 \
	     ((run) = rule_next_run((r), &(struct run_select){ __VA_ARGS__ }, &run##_i));)

/* Whether event `given` is one of the experiment's checked events. */
bool exp_is_checked(const struct experiment *e, const char *given);

/* What every measured run of the mode shows: checked counts against their baselines, exposure,
 * the invariant, and which checked events were never counted. */
struct mode_view {
	unsigned runs;
	uint64_t exposure;
	uint64_t violations;
	unsigned checked, corrupted, deviating, not_counted;
	const struct exp_count *worst; /* the checked count furthest above its baseline */
	unsigned worst_thread;
};

/* The verdict's result, and its reason (printf-style). */
void rule_set(struct exp_verdict *v, enum exp_result_kind result, const char *skip);
void rule_say(struct exp_verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "off", "on", "core"; "measured", "baseline", ... of a run's phase. */
const char *rule_mode_name(unsigned mode);
const char *rule_phase_word(const struct exp_run *run);

/* The first done run of `phase` before run `before`, or NULL. */
const struct exp_run_result *rule_reference(const struct exp_results *r, unsigned phase,
					    unsigned before);
/* The count of the event written `given` in a thread's results, or NULL. */
const struct exp_count *rule_find(const struct exp_thread_result *t, const char *given);
/*
 * The reference's count of c's event, per unit of its work, times c's thread's `units`. Where both
 * counts have a work clock (pmu/mux.h), per unit of work as each count sampled it: a thread that
 * worked unevenly puts its scaled counts off with its sampled work, and the two cancel.
 */
bool rule_scaled_reference(const struct exp_thread_result *ref, const struct exp_count *c,
			   uint64_t units, uint64_t *out);
/* The count of `given` on thread `thread` in the first measured run of `phase` (of mode `mode`,
 * unless any_mode), and that thread's results. */
const struct exp_count *rule_count_of(const struct exp_results *r, unsigned phase, unsigned mode,
				      unsigned thread, const char *given, bool any_mode,
				      const struct exp_thread_result **tr);
/* The event a rule's figure is about: the first of the experiment's checked list. */
const char *rule_first_checked(const struct experiment *e, char *buf, size_t size);
/* "ran 66.70% of the time" or "never ran (<not counted>)". */
void rule_running_text(const struct exp_count *c, char *buf, size_t size);

/* Every measured run of the mode and phase, summed (struct mode_view). */
void rule_view_mode(const struct exp_results *r, unsigned mode, unsigned phase, unsigned threads,
		    struct mode_view *v);
/* The worst corrupted count, for a reason: "HT1 r00c5:u 330,818 against 26". */
const char *rule_worst_text(const struct mode_view *v, char *buf, size_t size);
/* What XSU guarantees: false, with the verdict failed, when a run broke the invariant or (on the
 * model) exposed a tick. */
bool rule_xsu_held(unsigned mode, const struct exp_machine *m, uint64_t violations,
		   uint64_t exposure, struct exp_verdict *out);
/* With XSU: nothing corrupted, nothing exposed, something verified; false with the verdict
 * failed otherwise. */
bool rule_clean(const struct mode_view *v, unsigned mode, const struct exp_machine *m,
		struct exp_verdict *out);

#endif
