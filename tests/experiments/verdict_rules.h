/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the verdict rules: what the rule files (rules_*.c) share with the table and the common
 * checks of verdict.c. Not for other code: tests/experiments/verdict.h is the rules' interface.
 */
#ifndef TESTS_EXPERIMENTS_VERDICT_RULES_H
#define TESTS_EXPERIMENTS_VERDICT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/experiments/experiment.h"
#include "tests/experiments/verdict.h"

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
/* The reference's count of `given`, per unit of its work, scaled to `units`. */
bool rule_scaled_reference(const struct exp_thread_result *ref, const char *given, uint64_t units,
			   uint64_t *out);
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

/* The rules of the table (verdict.c), by file. */
/* rules_corruption.c: RULE_BASELINE, RULE_ZERO, RULE_ALIGNED */
void describe_baseline(const struct experiment *e, char *buf, size_t size);
void describe_zero(const struct experiment *e, char *buf, size_t size);
void describe_aligned(const struct experiment *e, char *buf, size_t size);
void annotate_baseline(const struct exp_results *r, unsigned index, unsigned t,
		       struct exp_count *c);
void annotate_zero(const struct exp_results *r, unsigned index, unsigned t, struct exp_count *c);
void judge_corruption(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		      struct exp_verdict *out);
void judge_aligned(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		   struct exp_verdict *out);
/* rules_loss.c: RULE_LOSS */
void describe_loss(const struct experiment *e, char *buf, size_t size);
void annotate_loss(const struct exp_results *r, unsigned index, unsigned t, struct exp_count *c);
void judge_loss(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		struct exp_verdict *out);
/* rules_starvation.c: RULE_STARVATION */
void describe_starvation(const struct experiment *e, char *buf, size_t size);
void judge_starvation(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		      struct exp_verdict *out);
/* rules_policies.c: RULE_HK_VS_GREEDY, RULE_FAIRNESS */
void describe_hk_vs_greedy(const struct experiment *e, char *buf, size_t size);
void judge_hk_vs_greedy(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
			struct exp_verdict *out);
void describe_fairness(const struct experiment *e, char *buf, size_t size);
void judge_fairness(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		    struct exp_verdict *out);

#endif
