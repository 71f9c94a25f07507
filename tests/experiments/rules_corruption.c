// SPDX-License-Identifier: GPL-2.0
/*
 * The rules of corruption: rule_baseline (checked counts against a baseline run, per unit of
 * work), rule_zero (events that must count 0) and rule_aligned (identical lists started together
 * stay clean even without XSU, thesis 7.1).
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "pmu/mux.h"
#include "tests/experiments/rule.h"

/*
 * The tolerance of a count against its baseline: the larger of a share of the baseline and an
 * absolute floor. The floor is a number of events actually counted. A multiplexed count that ran
 * a fraction f of the run is its raw count times 1/f (thesis eq. 6.1), so each event that happened
 * to fall into its part of the run moves it by 1/f; a rare event comes in few bursts (triad's loop
 * exits arrive three per pass over the arrays), and whether a burst lands in a short window is
 * luck, not corruption. The floor is magnified by 1/f with the count.
 */
static uint64_t baseline_tolerance(uint64_t base, const struct mux_reading *m)
{
	uint64_t share = base * threshold_of(TH_BASELINE) / 100;
	uint64_t floor = threshold_of(TH_BASELINE_FLOOR);

	if (m->counted && m->time_running && m->time_running < m->time_enabled)
		floor = mux_mul_div(floor, m->time_enabled, m->time_running);
	return share > floor ? share : floor;
}

/*
 * How the experiment's rule holds a count to its baseline, for its texts: "the baseline
 * threshold (25% or 100 events, the hardware's)"; NULL for rule_zero, whose checked events must
 * count exactly 0.
 */
static const char *held_to(const struct experiment *e, char *buf, size_t size)
{
	char share[24], floor[24];

	if (e->rule != &rule_baseline)
		return NULL;
	format_snprintf(buf, size, "the %s threshold (%s or %s, %s)", thresholds[TH_BASELINE].name,
			threshold_value_text(TH_BASELINE, share, sizeof(share)),
			threshold_value_text(TH_BASELINE_FLOOR, floor, sizeof(floor)),
			threshold_source_text(TH_BASELINE));
	return buf;
}

/* rule_baseline: the baseline run's rate of the same event on the same thread. */
static void annotate_baseline(const struct exp_results *r, unsigned index, unsigned t,
			      struct exp_count *c)
{
	const struct exp_run_result *ref = rule_reference(r, PHASE_BASELINE, index);
	const struct exp_thread_result *tr = &r->runs[index].thread[t];
	uint64_t base;

	if (r->runs[index].run->phase != PHASE_BASELINE && ref &&
	    rule_scaled_reference(&ref->thread[t], c, tr->units, &base)) {
		c->has_baseline = true;
		c->baseline = base;
		c->tolerance = baseline_tolerance(base, &c->reading);
	}
}

/* rule_zero, rule_aligned: the checked events must count nothing at all. */
static void annotate_zero(const struct exp_results *r, unsigned index, unsigned t,
			  struct exp_count *c)
{
	(void)r;
	(void)index;
	(void)t;
	c->has_baseline = true;
	c->baseline = 0;
	c->tolerance = 0;
}

/* The XSU-off verdict of the corruption rules: corruption seen exactly where the erratum is. */
static void judge_corruption_off(const struct mode_view *v, const struct exp_machine *m,
				 const char *held_to, struct exp_verdict *out)
{
	char worst[PMU_EVENT_NAME_MAX + 64], past[THRESHOLD_TEXT_MAX + 8] = "";
	const char *within = held_to ? held_to : "their baselines";

	if (held_to)
		format_snprintf(past, sizeof(past), ", past %s", held_to);
	if (v->corrupted)
		rule_worst_text(v, worst, sizeof(worst));
	if (v->corrupted && m->erratum) {
		rule_set(out, RESULT_PASS, NULL);
		rule_say(out,
			 "corruption as in the thesis: %u of %u checked counts above their "
			 "baselines%s, %s",
			 v->corrupted, v->checked, past, worst);
	} else if (v->corrupted) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out,
			 "%u checked counts corrupted on %s, which has no cross-HT erratum%s: %s",
			 v->corrupted, m->uarch, past, worst);
	} else if (m->erratum) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out,
			 "no corruption although %s has the erratum: all %u checked counts within "
			 "%s",
			 m->uarch, v->checked, within);
	} else {
		rule_set(out, RESULT_SKIP, "no_erratum");
		rule_say(
			out,
			"%s has no cross-HT erratum: the corruption is not observable here, all %u "
			"checked counts within %s",
			m->uarch, v->checked, within);
	}
}

/* rule_baseline, rule_zero. */
static void judge_corruption(const struct exp_results *r, unsigned mode,
			     const struct exp_machine *m, struct exp_verdict *out)
{
	char buf[THRESHOLD_TEXT_MAX];
	const char *held = held_to(r->exp, buf, sizeof(buf));
	const char *within = held ? held : "their baselines";
	struct mode_view v;

	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (mode == XSU_MODE_OFF) {
		judge_corruption_off(&v, m, held, out);
		return;
	}
	if (!rule_clean(&v, mode, m, held, out))
		return;
	rule_set(out, RESULT_PASS, NULL);
	if (v.not_counted)
		rule_say(out,
			 "the %u checked counts that ran are within %s (%u never ran: starved by "
			 "XSU, as in ch. 8), exposure 0",
			 v.checked - v.not_counted, within, v.not_counted);
	else
		rule_say(out, "all %u checked counts within %s, exposure 0", v.checked, within);
}

/*
 * rule_aligned. With XSU off not rule_clean(): aligned siblings do share counter indices with
 * corrupting events (the model counts those ticks as exposure), but identical lists started
 * together put the same event on the same counter of both threads, so a corrupting event only
 * ever leaks into the sibling's copy of itself and the checked event stays 0 (thesis 7.1).
 * Exposure and the XSU invariant decide nothing with XSU off; the checked counts do.
 */
static void judge_aligned(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
			  struct exp_verdict *out)
{
	char worst[PMU_EVENT_NAME_MAX + 64];
	struct mode_view v;

	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (mode != XSU_MODE_OFF) {
		if (rule_clean(&v, mode, m, NULL, out)) {
			rule_set(out, RESULT_PASS, NULL);
			rule_say(out, "%s stayed exactly 0 on both threads, exposure 0",
				 r->exp->checked);
		}
	} else if (v.corrupted) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out,
			 "%u of %u checked counts corrupted with XSU off although the lists are "
			 "aligned "
			 "(thesis 7.1): %s",
			 v.corrupted, v.checked, rule_worst_text(&v, worst, sizeof(worst)));
	} else if (v.not_counted || !v.checked) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "with XSU off only %u of the %u checked counts ran: 0 not verified",
			 v.checked - v.not_counted, v.checked);
	} else {
		rule_set(out, RESULT_PASS, NULL);
		rule_say(out,
			 "%s stayed exactly 0 on both threads: aligned lists do not corrupt each "
			 "other",
			 r->exp->checked);
	}
}

static void describe_baseline(const struct experiment *e, char *buf, size_t size)
{
	format_snprintf(buf, size,
			"XSU off: %s above the baseline run's rate where the CPU has the erratum; "
			"with XSU: within %u%% of it or %u events, whichever is larger (the events "
			"times enabled/running for a multiplexed count), exposure 0",
			e->checked, threshold_of(TH_BASELINE), threshold_of(TH_BASELINE_FLOOR));
}

static void describe_zero(const struct experiment *e, char *buf, size_t size)
{
	format_snprintf(buf, size,
			"XSU off: %s above 0 where the CPU has the erratum; with XSU: exactly 0 on "
			"both threads, exposure 0",
			e->checked);
}

static void describe_aligned(const struct experiment *e, char *buf, size_t size)
{
	format_snprintf(
		buf, size,
		"%s exactly 0 on both threads with XSU off and with XSU; exposure 0 with XSU",
		e->checked);
}

const struct exp_rule rule_baseline = { "baseline", describe_baseline, annotate_baseline,
					judge_corruption };
const struct exp_rule rule_zero = { "zero", describe_zero, annotate_zero, judge_corruption };
const struct exp_rule rule_aligned = { "aligned", describe_aligned, annotate_zero, judge_aligned };
