// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict rules, and the table that names them (at the end). Counts are compared per unit of
 * work (a triad element), not as totals: a busy host (or a different clock) changes how much work
 * a run does, not the rate of its events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/format.h"
#include "pmu/mux.h"
#include "tests/experiments/survey.h"
#include "tests/experiments/verdict.h"

bool exp_is_checked(const struct experiment *e, const char *given)
{
	return exp_list_contains(e->checked, given);
}

static const struct exp_run_result *reference(const struct exp_results *r, unsigned phase,
					      unsigned before)
{
	for (unsigned i = 0; i < before && i < r->exp->nr_runs; i++)
		if (r->runs[i].done && r->runs[i].run->phase == phase)
			return &r->runs[i];
	return NULL;
}

static const struct exp_count *find(const struct exp_thread_result *t, const char *given)
{
	for (unsigned i = 0; i < t->nr_events; i++)
		if (strcmp(t->counts[i].event.name, given) == 0)
			return &t->counts[i];
	return NULL;
}

/* The reference's count of `given`, per unit of its work, scaled to `units`. */
static bool scaled_reference(const struct exp_thread_result *ref, const char *given, uint64_t units,
			     uint64_t *out)
{
	const struct exp_count *c = find(ref, given);

	if (!c || !c->reading.counted || ref->units == 0)
		return false;
	*out = mux_mul_div(c->reading.scaled, units, ref->units);
	return true;
}

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
	uint64_t share = base * EXP_TOLERANCE_PCT / 100, floor = EXP_TOLERANCE_ABS;

	if (m->counted && m->time_running && m->time_running < m->time_enabled)
		floor = mux_mul_div(EXP_TOLERANCE_ABS, m->time_enabled, m->time_running);
	return share > floor ? share : floor;
}

/* RULE_BASELINE: the baseline run's rate of the same event on the same thread. */
static void annotate_baseline(const struct exp_results *r, unsigned index, unsigned t,
			      struct exp_count *c)
{
	const struct exp_run_result *ref = reference(r, PHASE_BASELINE, index);
	const struct exp_thread_result *tr = &r->runs[index].thread[t];
	uint64_t base;

	if (r->runs[index].run->phase != PHASE_BASELINE && ref &&
	    scaled_reference(&ref->thread[t], c->event.name, tr->units, &base)) {
		c->has_baseline = true;
		c->baseline = base;
		c->tolerance = baseline_tolerance(base, &c->reading);
	}
}

/* RULE_ZERO, RULE_ALIGNED: the checked events must count nothing at all. */
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

/* RULE_LOSS: against thread 0 alone, the sibling's counters unused. */
static void annotate_loss(const struct exp_results *r, unsigned index, unsigned t,
			  struct exp_count *c)
{
	const struct exp_run_result *ref = reference(r, PHASE_ALONE, index);
	uint64_t base;

	if (r->runs[index].run->phase != PHASE_ALONE && ref &&
	    scaled_reference(&ref->thread[0], c->event.name, r->runs[index].thread[t].units,
			     &base)) {
		c->has_baseline = true;
		c->baseline = base;
		c->tolerance = base * EXP_LOSS_MATCH_PCT / 100;
	}
}

void exp_annotate(struct exp_results *r, unsigned index)
{
	const struct exp_rule *rule = &exp_rules[r->exp->rule];

	for (unsigned t = 0; t < 2; t++) {
		struct exp_thread_result *tr = &r->runs[index].thread[t];
		for (unsigned i = 0; i < tr->nr_events; i++) {
			struct exp_count *c = &tr->counts[i];
			c->has_baseline = false;
			if (rule->annotate && exp_is_checked(r->exp, c->event.name))
				rule->annotate(r, index, t, c);
		}
	}
}

static void say(struct exp_verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct exp_verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

static void set(struct exp_verdict *v, enum exp_result_kind result, const char *skip)
{
	v->result = result;
	v->skip = skip;
}

static const char *mode_name(unsigned mode)
{
	return config_xsu_mode_name(mode);
}

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

static void view_count(struct mode_view *v, const struct exp_count *c, unsigned t)
{
	if (!c->has_baseline)
		return;
	v->checked++;
	if (!c->reading.counted) {
		v->not_counted++;
		return;
	}
	uint64_t s = c->reading.scaled;
	if (s > c->baseline + c->tolerance) {
		v->corrupted++;
		if (!v->worst || s - c->baseline > v->worst->reading.scaled - v->worst->baseline) {
			v->worst = c;
			v->worst_thread = t;
		}
	} else if (c->baseline > s + c->tolerance) {
		v->deviating++;
	}
}

static void view_mode(const struct exp_results *r, unsigned mode, unsigned phase, unsigned threads,
		      struct mode_view *v)
{
	memset(v, 0, sizeof(*v));
	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		const struct exp_run_result *run = &r->runs[i];
		if (!run->done || !exp_run_in_mode(run->run, mode) || run->run->phase != phase)
			continue;
		v->runs++;
		for (unsigned t = 0; t < threads; t++) {
			const struct exp_thread_result *tr = &run->thread[t];
			v->exposure += tr->exposure;
			v->violations += tr->invariant_violations;
			for (unsigned k = 0; k < tr->nr_events; k++)
				view_count(v, &tr->counts[k], t);
		}
	}
}

/* The worst corrupted count, for a reason: "HT1 r00c5:u 330,818 against 26". */
static const char *worst_text(const struct mode_view *v, char *buf, size_t size)
{
	format_snprintf(buf, size, "HT%u %s %'llu against %'llu", v->worst_thread,
			v->worst->event.name, (unsigned long long)v->worst->reading.scaled,
			(unsigned long long)v->worst->baseline);
	return buf;
}

/* The XSU-off verdict of the corruption rules: corruption seen exactly where the erratum is. */
static void judge_corruption_off(const struct mode_view *v, const struct exp_machine *m,
				 struct exp_verdict *out)
{
	char worst[PMU_EVENT_NAME_MAX + 64];

	if (v->corrupted && m->erratum) {
		set(out, RESULT_PASS, NULL);
		say(out,
		    "corruption as in the thesis: %u of %u checked counts above their baselines, "
		    "%s",
		    v->corrupted, v->checked, worst_text(v, worst, sizeof(worst)));
	} else if (v->corrupted) {
		set(out, RESULT_FAIL, NULL);
		say(out, "%u checked counts corrupted on %s, which has no cross-HT erratum: %s",
		    v->corrupted, m->uarch, worst_text(v, worst, sizeof(worst)));
	} else if (m->erratum) {
		set(out, RESULT_FAIL, NULL);
		say(out,
		    "no corruption although %s has the erratum: all %u checked counts within "
		    "their baselines",
		    m->uarch, v->checked);
	} else {
		set(out, RESULT_SKIP, "no_erratum");
		say(out,
		    "%s has no cross-HT erratum: the corruption is not observable here (all %u "
		    "checked counts clean)",
		    m->uarch, v->checked);
	}
}

/*
 * What XSU itself guarantees, whatever the rule (thesis ch. 5, pmu/xsu.h): after every schedule
 * no corrupting event shares a GP counter index with an enabled event of the sibling, so no tick
 * is exposed (only the model sees exposure). False, with the verdict failed, when a run broke it.
 */
static bool judge_xsu_held(unsigned mode, const struct exp_machine *m, uint64_t violations,
			   uint64_t exposure, struct exp_verdict *out)
{
	if (!violations && !(m->model && exposure))
		return true;
	set(out, RESULT_FAIL, NULL);
	say(out, "with XSU %s the invariant failed %llu times and %llu ticks were exposed",
	    mode_name(mode), (unsigned long long)violations, (unsigned long long)exposure);
	return false;
}

/* The verdict with XSU: nothing corrupted, nothing exposed, the invariant held throughout. */
static bool judge_clean(const struct mode_view *v, unsigned mode, const struct exp_machine *m,
			struct exp_verdict *out)
{
	char worst[PMU_EVENT_NAME_MAX + 64];

	if (!judge_xsu_held(mode, m, v->violations, v->exposure, out))
		return false;
	if (v->corrupted) {
		set(out, RESULT_FAIL, NULL);
		say(out, "%u of %u checked counts corrupted with XSU %s: %s", v->corrupted,
		    v->checked, mode_name(mode), worst_text(v, worst, sizeof(worst)));
	} else if (v->deviating) {
		set(out, RESULT_FAIL, NULL);
		say(out, "%u checked counts far below their baselines", v->deviating);
	} else if (v->not_counted == v->checked) {
		/* XSU may starve events (thesis ch. 8); with none counted, nothing was verified. */
		set(out, RESULT_FAIL, NULL);
		say(out, "none of the %u checked counts ever ran: nothing verified", v->checked);
	} else {
		return true;
	}
	return false;
}

/* RULE_BASELINE, RULE_ZERO. */
static void judge_corruption(const struct exp_results *r, unsigned mode,
			     const struct exp_machine *m, struct exp_verdict *out)
{
	struct mode_view v;

	view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (mode == XSU_MODE_OFF) {
		judge_corruption_off(&v, m, out);
		return;
	}
	if (!judge_clean(&v, mode, m, out))
		return;
	set(out, RESULT_PASS, NULL);
	if (v.not_counted)
		say(out,
		    "the %u checked counts that ran are within their baselines (%u never ran: "
		    "starved by XSU, as in ch. 8), exposure 0",
		    v.checked - v.not_counted, v.not_counted);
	else
		say(out, "all %u checked counts within their baselines, exposure 0", v.checked);
}

/*
 * RULE_ALIGNED. With XSU off not judge_clean(): aligned siblings do share counter indices with
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

	view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (mode != XSU_MODE_OFF) {
		if (judge_clean(&v, mode, m, out)) {
			set(out, RESULT_PASS, NULL);
			say(out, "%s stayed exactly 0 on both threads, exposure 0",
			    r->exp->checked);
		}
	} else if (v.corrupted) {
		set(out, RESULT_FAIL, NULL);
		say(out,
		    "%u of %u checked counts corrupted with XSU off although the lists are aligned "
		    "(thesis 7.1): %s",
		    v.corrupted, v.checked, worst_text(&v, worst, sizeof(worst)));
	} else if (v.not_counted || !v.checked) {
		set(out, RESULT_FAIL, NULL);
		say(out, "with XSU off only %u of the %u checked counts ran: 0 not verified",
		    v.checked - v.not_counted, v.checked);
	} else {
		set(out, RESULT_PASS, NULL);
		say(out,
		    "%s stayed exactly 0 on both threads: aligned lists do not corrupt each other",
		    r->exp->checked);
	}
}

/* The count of `given` on thread `thread` in the first measured run of `phase` (of mode `mode`,
 * unless any_mode), and that thread's results. */
static const struct exp_count *count_of(const struct exp_results *r, unsigned phase, unsigned mode,
					unsigned thread, const char *given, bool any_mode,
					const struct exp_thread_result **tr)
{
	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		const struct exp_run_result *run = &r->runs[i];
		if (!run->done || run->run->phase != phase || (!any_mode && run->run->xsu != mode))
			continue;
		const struct exp_count *c = find(&run->thread[thread], given);
		if (c) {
			if (tr)
				*tr = &run->thread[thread];
			return c;
		}
	}
	return NULL;
}

/*
 * Per mille of the rate of `given` in the measured run of the mode, over both threads together,
 * relative to thread 0 measuring alone. Summed over the siblings, every count one thread leaks
 * reaches the other when both count: the total does not depend on how the host shared its time
 * between the two virtual CPUs.
 */
static bool loss_ratio(const struct exp_results *r, unsigned mode, unsigned threads,
		       const char *given, uint64_t *per_mille)
{
	const struct exp_thread_result *alone_t, *run_t;
	const struct exp_count *alone = count_of(r, PHASE_ALONE, mode, 0, given, true, &alone_t);
	uint64_t count = 0, units = 0;

	if (!alone || !alone->reading.counted || !alone->reading.scaled || !alone_t->units)
		return false;
	for (unsigned t = 0; t < threads; t++) {
		const struct exp_count *c =
			count_of(r, PHASE_MEASURE, mode, t, given, false, &run_t);
		if (!c || !c->reading.counted)
			return false;
		count += c->reading.scaled;
		units += run_t->units;
	}
	if (!units)
		return false;
	uint64_t rate = mux_mul_div(count, alone_t->units, units);
	*per_mille = mux_mul_div(rate, 1000, alone->reading.scaled);
	return true;
}

/* The event a rule's figure is about: the first of the experiment's checked list. */
static const char *first_checked(const struct experiment *e, char *buf, size_t size)
{
	const char *comma = strchr(e->checked, ',');
	size_t len = comma ? (size_t)(comma - e->checked) : strlen(e->checked);

	if (len >= size)
		len = size - 1;
	memcpy(buf, e->checked, len);
	buf[len] = 0;
	return buf;
}

/* RULE_LOSS with XSU off: aligned siblings compensate the loss alone, where the erratum is. */
static void judge_loss_off(const char *given, uint64_t ratio, const struct exp_machine *m,
			   struct exp_verdict *out)
{
	uint64_t high = 1000 + EXP_LOSS_MATCH_PCT * 10, low = 1000 - EXP_LOSS_MATCH_PCT * 10;
	bool compensated = ratio >= 1000 + EXP_LOSS_COMPENSATION_PCT * 10;

	if (m->erratum && compensated) {
		set(out, RESULT_PASS, NULL);
		say(out,
		    "alone, %s loses %llu%% of its count into the unused sibling counter; aligned "
		    "siblings compensate (%llu.%02llu times the rate alone), as in ch. 8",
		    given, (unsigned long long)(1000 - 1000000 / ratio) / 10,
		    (unsigned long long)ratio / 1000, (unsigned long long)ratio % 1000 / 10);
	} else if (!m->erratum && ratio >= low && ratio <= high) {
		set(out, RESULT_SKIP, "no_erratum");
		say(out, "%s has no cross-HT erratum: no loss alone, nothing to compensate",
		    m->uarch);
	} else {
		set(out, RESULT_FAIL, NULL);
		say(out, "%s aligned at %llu per mille of the rate alone: expected %s", given,
		    (unsigned long long)ratio,
		    m->erratum ? "a loss alone that aligned siblings compensate"
			       : "the same rate (no erratum)");
	}
}

static void judge_loss(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		       struct exp_verdict *out)
{
	char name[PMU_EVENT_NAME_MAX];
	const char *given = first_checked(r->exp, name, sizeof(name));
	uint64_t ratio;
	struct mode_view v;

	if (!loss_ratio(r, mode, m->threads, given, &ratio)) {
		set(out, RESULT_FAIL, NULL);
		say(out, "%s was not counted in the run alone or in the XSU %s run", given,
		    mode_name(mode));
		return;
	}
	if (mode == XSU_MODE_OFF) {
		judge_loss_off(given, ratio, m, out);
		return;
	}
	view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (!judge_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	uint64_t high = 1000 + EXP_LOSS_MATCH_PCT * 10, low = 1000 - EXP_LOSS_MATCH_PCT * 10;
	set(out, ratio >= low && ratio <= high ? RESULT_PASS : RESULT_FAIL, NULL);
	say(out,
	    "with XSU %s %s runs at %llu per mille of its rate alone (within %u%% expected: XSU "
	    "neither causes nor prevents the loss), exposure 0",
	    mode_name(mode), given, (unsigned long long)ratio, EXP_LOSS_MATCH_PCT);
}

static void running_text(const struct exp_count *c, char *buf, size_t size)
{
	if (c->reading.counted)
		format_snprintf(buf, size, "ran %u.%02u%% of the time", c->reading.percent / 100,
				c->reading.percent % 100);
	else
		format_snprintf(buf, size, "never ran (<not counted>)");
}

static void judge_starvation(const struct exp_results *r, unsigned mode,
			     const struct exp_machine *m, struct exp_verdict *out)
{
	char name[PMU_EVENT_NAME_MAX], ran[48];
	const char *given = first_checked(r->exp, name, sizeof(name));
	const struct exp_count *measured = count_of(r, PHASE_MEASURE, mode, 1, given, false, NULL);
	struct mode_view v, limit;

	if (!measured) {
		set(out, RESULT_FAIL, NULL);
		say(out, "HT1 did not measure %s", given);
		return;
	}
	running_text(measured, ran, sizeof(ran));
	if (mode == XSU_MODE_OFF) {
		set(out, measured->reading.counted ? RESULT_PASS : RESULT_FAIL, NULL);
		say(out,
		    "without XSU, HT1's %s %s (no starvation, but nothing keeps it off a counter "
		    "facing a corrupting event)",
		    given, ran);
		return;
	}
	view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	view_mode(r, mode, PHASE_LIMIT, m->threads, &limit);
	if (!judge_xsu_held(mode, m, v.violations + limit.violations, v.exposure + limit.exposure,
			    out))
		return;
	bool starved = measured->reading.percent < EXP_STARVED_BELOW;
	if (!m->erratum) {
		/* Nothing is corrupting here: XSU has nothing to exclude, so nothing starves. */
		set(out, starved ? RESULT_FAIL : RESULT_SKIP, starved ? NULL : "no_erratum");
		say(out, "%s has no cross-HT erratum: XSU excludes nothing and HT1's %s %s%s",
		    m->uarch, given, ran, starved ? ", starved for no reason" : "");
		return;
	}
	const struct exp_count *limited = count_of(r, PHASE_LIMIT, mode, 1, given, false, NULL);
	bool relieved = limited && limited->reading.counted;
	set(out, starved && relieved ? RESULT_PASS : RESULT_FAIL, NULL);
	say(out, "HT1's %s %s (%s); with the half-of-the-counters limit %u.%02u%%; exposure 0",
	    given, ran,
	    starved ? "starved by four corrupting events on HT0, as in ch. 8" : "not starved",
	    limited ? limited->reading.percent / 100 : 0,
	    limited ? limited->reading.percent % 100 : 0);
}

/* The sum of running fractions (hundredths of a percent) over both threads of a run. */
static uint64_t total_running(const struct exp_run_result *run, unsigned threads)
{
	uint64_t sum = 0;

	for (unsigned t = 0; t < threads; t++)
		for (unsigned i = 0; i < run->thread[t].nr_events; i++)
			sum += run->thread[t].counts[i].reading.percent;
	return sum;
}

static void judge_hk_vs_greedy(const struct exp_results *r, unsigned mode,
			       const struct exp_machine *m, struct exp_verdict *out)
{
	const struct exp_run_result *greedy = NULL, *hk = NULL;
	struct mode_view v;

	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		if (!r->runs[i].done || !exp_run_in_mode(r->runs[i].run, mode))
			continue;
		if (r->runs[i].run->sched == EXP_SCHED_GREEDY)
			greedy = &r->runs[i];
		if (r->runs[i].run->sched == EXP_SCHED_HK)
			hk = &r->runs[i];
	}
	if (!greedy || !hk) {
		set(out, RESULT_FAIL, NULL);
		say(out, "the greedy or the Hopcroft-Karp run is missing");
		return;
	}
	view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (!judge_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	uint64_t g = total_running(greedy, m->threads), h = total_running(hk, m->threads);
	unsigned events = 0;
	for (unsigned t = 0; t < m->threads; t++)
		events += hk->thread[t].nr_events;
	/*
	 * Beyond the margin, the difference is the schedulers'. Where the lists were built so that
	 * greedy loses (thesis 6.4: Hopcroft-Karp finds a maximum assignment where greedy need
	 * not), a tie means the constraints did not act and fails; elsewhere a tie is all there is.
	 */
	uint64_t margin = (uint64_t)EXP_HK_MARGIN * events;
	bool more = h > g + margin, not_worse = h + margin >= g;
	bool must_win = r->exp->hk_wins_on && exp_list_contains(r->exp->hk_wins_on, m->uarch);
	const char *what =
		": the same schedules here (these constraints leave greedy nothing to lose)";
	if (more)
		what = ": Hopcroft-Karp lets more events run";
	else if (!not_worse)
		what = ": Hopcroft-Karp ran less";
	else if (must_win)
		what = ": no more than greedy, although greedy loses these lists here";
	set(out, (must_win ? more : not_worse) ? RESULT_PASS : RESULT_FAIL, NULL);
	say(out,
	    "mean running fraction per event: greedy %llu.%02llu%%, Hopcroft-Karp %llu.%02llu%%%s",
	    (unsigned long long)(g / events / 100), (unsigned long long)(g / events % 100),
	    (unsigned long long)(h / events / 100), (unsigned long long)(h / events % 100), what);
}

/* RULE_MEASURED (a run defined on the command line): every run ran; XSU held where it was on. */
static void judge_measured(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
			   struct exp_verdict *out)
{
	struct mode_view v;
	unsigned events = 0, not_counted = 0;

	view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (mode != XSU_MODE_OFF && !judge_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		const struct exp_run_result *run = &r->runs[i];
		if (!run->done || !exp_run_in_mode(run->run, mode))
			continue;
		for (unsigned t = 0; t < m->threads; t++)
			for (unsigned k = 0; k < run->thread[t].nr_events; k++) {
				events++;
				not_counted += !run->thread[t].counts[k].reading.counted;
			}
	}
	set(out, RESULT_PASS, NULL);
	say(out, "measured: %u events on both threads, %u of them never on a counter", events,
	    not_counted);
}

/* ---- the rules in words, from the same constants ------------------------------------------- */

static void describe_baseline(const struct experiment *e, char *buf, size_t size)
{
	format_snprintf(buf, size,
			"XSU off: %s above the baseline run's rate where the CPU has the erratum; "
			"with XSU: within %u%% of it or %u events, whichever is larger (the events "
			"times enabled/running for a multiplexed count), exposure 0",
			e->checked, EXP_TOLERANCE_PCT, EXP_TOLERANCE_ABS);
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

static void describe_loss(const struct experiment *e, char *buf, size_t size)
{
	char name[PMU_EVENT_NAME_MAX];

	format_snprintf(buf, size,
			"XSU off (aligned): %s %u%% or more above the run alone where the CPU has "
			"the erratum; XSU on (with the half-of-the-counters limit): within %u%% of "
			"the run alone, exposure 0",
			first_checked(e, name, sizeof(name)), EXP_LOSS_COMPENSATION_PCT,
			EXP_LOSS_MATCH_PCT);
}

static void describe_starvation(const struct experiment *e, char *buf, size_t size)
{
	char name[PMU_EVENT_NAME_MAX];
	const char *given = first_checked(e, name, sizeof(name));

	format_snprintf(
		buf, size,
		"XSU off: %s counted; XSU on: %s below %u%% of the time (starved, as in the "
		"thesis) where the CPU has the erratum, and counted again with the "
		"half-of-the-counters limit; exposure 0",
		given, given, EXP_STARVED_BELOW / 100);
}

static void describe_hk_vs_greedy(const struct experiment *e, char *buf, size_t size)
{
	format_snprintf(
		buf, size,
		"XSU on: Hopcroft-Karp's mean running fraction more than %u%% above greedy's "
		"where the constraints make greedy lose these lists (%s), at least greedy's "
		"elsewhere; exposure 0",
		EXP_HK_MARGIN / 100, e->hk_wins_on);
}

static void describe_measured(const struct experiment *e, char *buf, size_t size)
{
	(void)e;
	format_snprintf(buf, size, "measured: every run ran to its end; no verdict on the counts");
}

const struct exp_rule exp_rules[RULE_COUNT] = {
	[RULE_BASELINE] = { "baseline", describe_baseline, annotate_baseline, judge_corruption },
	[RULE_ZERO] = { "zero", describe_zero, annotate_zero, judge_corruption },
	[RULE_ALIGNED] = { "aligned", describe_aligned, annotate_zero, judge_aligned },
	[RULE_LOSS] = { "loss", describe_loss, annotate_loss, judge_loss },
	[RULE_STARVATION] = { "starvation", describe_starvation, NULL, judge_starvation },
	[RULE_HK_VS_GREEDY] = { "hk-vs-greedy", describe_hk_vs_greedy, NULL, judge_hk_vs_greedy },
	[RULE_MEASURED] = { "measured", describe_measured, NULL, judge_measured },
	/* Judged by survey_judge(), over its measurements (the survey makes its own runs). */
	[RULE_SURVEY] = { "survey", survey_describe, NULL, NULL },
};

const char *exp_rule_text(const struct experiment *e, char *buf, size_t size)
{
	exp_rules[e->rule].describe(e, buf, size);
	return buf;
}

/* ---- judging a mode ------------------------------------------------------------------------- */

static bool run_serves_mode(const struct exp_run *run, unsigned mode)
{
	return exp_run_is_reference(run) || exp_run_in_mode(run, mode);
}

static bool multiplexed(const struct exp_thread_result *tr)
{
	for (unsigned i = 0; i < tr->nr_events; i++)
		if (tr->counts[i].reading.time_running < tr->counts[i].reading.time_enabled)
			return true;
	return false;
}

static const char *phase_word(const struct exp_run *run)
{
	static const char *const words[PHASE_COUNT] = { "measured", "baseline", "alone", "limit" };
	return words[run->phase];
}

/* Too little data to judge (EXP_MIN_TICKS, EXP_MIN_TICKS_PCT): a skip, with the reason. */
static bool thread_too_little(const struct exp_run_result *run, unsigned mode, unsigned t,
			      struct exp_verdict *out)
{
	const struct exp_thread_result *tr = &run->thread[t];

	if (!tr->units) {
		say(out,
		    "HT%u did no work in the %s run of XSU %s (it started after the run's end, "
		    "or its CPU never ran): nothing to judge",
		    t, phase_word(run->run), mode_name(run->run->xsu));
	} else if (t == 1 && run->overlap_pct < EXP_MIN_OVERLAP_PCT) {
		say(out,
		    "the siblings counted side by side for %u%% of the %s run of XSU %s (a CPU "
		    "started or stopped late: held back by its host), below the %u%% the rules "
		    "need",
		    run->overlap_pct, phase_word(run->run), mode_name(run->run->xsu),
		    EXP_MIN_OVERLAP_PCT);
	} else if (multiplexed(tr) &&
		   tr->ticks_lost * 100 > (tr->ticks + tr->ticks_lost) * EXP_MAX_LOST_TICKS_PCT) {
		say(out, "HT%u lost %llu of its %llu ticks in the %s run of XSU %s (its CPU ran in "
		    "bursts): its multiplexed counts cannot be scaled",
		    t, (unsigned long long)tr->ticks_lost,
		    (unsigned long long)(tr->ticks + tr->ticks_lost), phase_word(run->run),
		    mode_name(run->run->xsu));
	} else if (multiplexed(tr) && tr->ticks < EXP_MIN_TICKS) {
		say(out,
		    "HT%u's events were multiplexed over %llu ticks in the %s run of XSU %s: "
		    "judging them needs at least %u (a longer dur_ms or a shorter mux_ms)",
		    t, (unsigned long long)tr->ticks, phase_word(run->run),
		    mode_name(run->run->xsu), EXP_MIN_TICKS);
	} else {
		return false;
	}
	(void)mode;
	set(out, RESULT_SKIP, "too_little_data");
	return true;
}

/* A count whose counter was written behind the kernel's back (pmu/driver.h: interference). */
static bool interfered(const struct exp_run_result *run, const struct exp_machine *m,
		       struct exp_verdict *out)
{
	for (unsigned t = 0; t < m->threads; t++)
		for (unsigned i = 0; i < run->thread[t].nr_events; i++) {
			const struct exp_count *c = &run->thread[t].counts[i];
			if (!c->interfered)
				continue;
			set(out, RESULT_FAIL, NULL);
			say(out,
			    "HT%u %s in the %s run of XSU %s: its counter went down without an "
			    "overflow (firmware or SMM code wrote it): the count cannot be trusted",
			    t, c->event.name, phase_word(run->run), mode_name(run->run->xsu));
			return true;
		}
	return false;
}

/* A run of the mode (or a reference) that could not be measured fails the mode, or skips it when
 * the PMU cannot count one of its events; a count written behind the kernel's back fails it; one
 * with too little data skips it. */
static bool runs_judgeable(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
			   struct exp_verdict *out)
{
	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		const struct exp_run_result *run = &r->runs[i];
		if (!run->run || !run_serves_mode(run->run, mode))
			continue;
		if (!run->done) {
			set(out, run->unsupported ? RESULT_SKIP : RESULT_FAIL,
			    run->unsupported ? "unsupported_event" : NULL);
			say(out, "%s: %s",
			    run->unsupported ? "this PMU cannot count the run's events"
					     : "a run could not be measured",
			    run->error ? run->error : "?");
			return false;
		}
		if (interfered(run, m, out))
			return false;
	}
	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		const struct exp_run_result *run = &r->runs[i];
		if (!run->run || !run_serves_mode(run->run, mode))
			continue;
		for (unsigned t = 0; t < m->threads; t++)
			if (thread_too_little(run, mode, t, out))
				return false;
	}
	return true;
}

bool exp_judge(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
	       struct exp_verdict *out)
{
	const struct experiment *e = r->exp;
	bool any = false;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < e->nr_runs; i++)
		any = any || (r->runs[i].run && exp_run_in_mode(r->runs[i].run, mode));
	if (!any)
		return false;

	struct mode_view v;
	view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	out->exposure = v.exposure;
	out->checked = v.checked;
	out->corrupted = v.corrupted;
	if (!exp_rules[e->rule].judge)
		return false;
	if (runs_judgeable(r, mode, m, out))
		exp_rules[e->rule].judge(r, mode, m, out);
	return true;
}

void exp_verdict_add(struct exp_verdict_tally *t, const struct exp_verdict *v, unsigned rep,
		     unsigned repeat)
{
	bool first_fail = v->result == RESULT_FAIL && !t->failed;
	bool first_pass = v->result == RESULT_PASS && !t->failed && !t->passed;
	bool first = !t->seen;

	t->seen++;
	t->passed += v->result == RESULT_PASS;
	t->failed += v->result == RESULT_FAIL;
	t->skipped += v->result == RESULT_SKIP;
	if (!(first_fail || first_pass || first))
		return;
	t->verdict = *v;
	if (repeat > 1 && v->result != RESULT_PASS)
		format_snprintf(t->verdict.reason, sizeof(t->verdict.reason),
				"repetition %u of %u: %s", rep + 1, repeat, v->reason);
}
