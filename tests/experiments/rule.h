/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A verdict rule: how the runs of an experiment are judged (struct exp_rule), and the helpers of
 * the rule files (rules_*.c). Each rule is one const struct exp_rule in its file, declared below;
 * an experiment names it (.rule = &rule_loss). A new rule is its file and its line below. The
 * thresholds the rules apply are one table, tests/experiments/thresholds.h, and a verdict's text
 * names the one it applied. Counts are compared per unit of work (a triad element), not as totals:
 * a busy host (or a different clock) changes how much work a run does, not the rate of its events.
 * Pure code: host-tested on synthetic results.
 */
#ifndef TESTS_EXPERIMENTS_RULE_H
#define TESTS_EXPERIMENTS_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/experiments/experiment.h"
#include "tests/experiments/thresholds.h"

/* How the machine measured: the rules read exposure only from the model. */
struct exp_machine {
	bool erratum; /* the CPU (or the model of it) has the cross-HT erratum */
	bool model;   /* the model PMU counted: exposure is known */
	const char *uarch;
	unsigned threads; /* threads of the chosen core in use: 1 or 2 */
};

/* Triad's MEM_UOPS_RETIRED.ALL_LOADS: two loads per element (TH_CORE_LOADS). */
#define TRIAD_LOADS "r81d0:u"

struct exp_rule {
	const char *name; /* "baseline", "zero", ... */
	/* The rule in words, for the exp record: from the experiment and its thresholds. */
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
 * failed otherwise. `held_to` names the threshold a count is held to against its baseline ("the
 * baseline threshold (...)"), NULL where it must equal it. */
bool rule_clean(const struct mode_view *v, unsigned mode, const struct exp_machine *m,
		const char *held_to, struct exp_verdict *out);

#endif
