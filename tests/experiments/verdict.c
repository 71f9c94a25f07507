// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict rules: the table that names them (each rule's text, baselines and judgement, in the
 * rules_*.c files), the checks every rule shares (runs measured, data enough, counters nobody
 * else wrote), and the helpers the rules share. Counts are compared per unit of work (a triad
 * element), not as totals: a busy host (or a different clock) changes how much work a run does,
 * not the rate of its events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "pmu/xsu_mode.h"
#include "kernel/format.h"
#include "pmu/mux.h"
#include "tests/experiments/survey.h"
#include "tests/experiments/verdict_rules.h"

bool exp_is_checked(const struct experiment *e, const char *given)
{
	return exp_list_contains(e->checked, given);
}

const struct exp_run_result *rule_reference(const struct exp_results *r, unsigned phase,
					    unsigned before)
{
	for (unsigned i = 0; i < before && i < r->exp->nr_runs; i++)
		if (r->runs[i].done && r->runs[i].run->phase == phase)
			return &r->runs[i];
	return NULL;
}

const struct exp_count *rule_find(const struct exp_thread_result *t, const char *given)
{
	for (unsigned i = 0; i < t->nr_events; i++)
		if (strcmp(t->counts[i].event.name, given) == 0)
			return &t->counts[i];
	return NULL;
}

/* The reference's count of `given`, per unit of its work, scaled to `units`. */
bool rule_scaled_reference(const struct exp_thread_result *ref, const char *given, uint64_t units,
			   uint64_t *out)
{
	const struct exp_count *c = rule_find(ref, given);

	if (!c || !c->reading.counted || ref->units == 0)
		return false;
	*out = mux_mul_div(c->reading.scaled, units, ref->units);
	return true;
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

void rule_say(struct exp_verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void rule_say(struct exp_verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

void rule_set(struct exp_verdict *v, enum exp_result_kind result, const char *skip)
{
	v->result = result;
	v->skip = skip;
}

const char *rule_mode_name(unsigned mode)
{
	return xsu_mode_name(mode);
}

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

void rule_view_mode(const struct exp_results *r, unsigned mode, unsigned phase, unsigned threads,
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
const char *rule_worst_text(const struct mode_view *v, char *buf, size_t size)
{
	format_snprintf(buf, size, "HT%u %s %'llu against %'llu", v->worst_thread,
			v->worst->event.name, (unsigned long long)v->worst->reading.scaled,
			(unsigned long long)v->worst->baseline);
	return buf;
}

/*
 * What XSU itself guarantees, whatever the rule (thesis ch. 5, pmu/xsu.h): after every schedule
 * no corrupting event shares a GP counter index with an enabled event of the sibling, so no tick
 * is exposed (only the model sees exposure). False, with the verdict failed, when a run broke it.
 */
bool rule_xsu_held(unsigned mode, const struct exp_machine *m, uint64_t violations,
		   uint64_t exposure, struct exp_verdict *out)
{
	if (!violations && !(m->model && exposure))
		return true;
	rule_set(out, RESULT_FAIL, NULL);
	rule_say(out, "with XSU %s the invariant failed %llu times and %llu ticks were exposed",
		 rule_mode_name(mode), (unsigned long long)violations,
		 (unsigned long long)exposure);
	return false;
}

/* The verdict with XSU: nothing corrupted, nothing exposed, the invariant held throughout. */
bool rule_clean(const struct mode_view *v, unsigned mode, const struct exp_machine *m,
		struct exp_verdict *out)
{
	char worst[PMU_EVENT_NAME_MAX + 64];

	if (!rule_xsu_held(mode, m, v->violations, v->exposure, out))
		return false;
	if (v->corrupted) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "%u of %u checked counts corrupted with XSU %s: %s", v->corrupted,
			 v->checked, rule_mode_name(mode),
			 rule_worst_text(v, worst, sizeof(worst)));
	} else if (v->deviating) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "%u checked counts far below their baselines", v->deviating);
	} else if (v->not_counted == v->checked) {
		/* XSU may starve events (thesis ch. 8); with none counted, nothing was verified. */
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "none of the %u checked counts ever ran: nothing verified",
			 v->checked);
	} else {
		return true;
	}
	return false;
}

/* The count of `given` on thread `thread` in the first measured run of `phase` (of mode `mode`,
 * unless any_mode), and that thread's results. */
const struct exp_count *rule_count_of(const struct exp_results *r, unsigned phase, unsigned mode,
				      unsigned thread, const char *given, bool any_mode,
				      const struct exp_thread_result **tr)
{
	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		const struct exp_run_result *run = &r->runs[i];
		if (!run->done || run->run->phase != phase || (!any_mode && run->run->xsu != mode))
			continue;
		const struct exp_count *c = rule_find(&run->thread[thread], given);
		if (c) {
			if (tr)
				*tr = &run->thread[thread];
			return c;
		}
	}
	return NULL;
}

/* The event a rule's figure is about: the first of the experiment's checked list. */
const char *rule_first_checked(const struct experiment *e, char *buf, size_t size)
{
	const char *comma = strchr(e->checked, ',');
	size_t len = comma ? (size_t)(comma - e->checked) : strlen(e->checked);

	if (len >= size)
		len = size - 1;
	memcpy(buf, e->checked, len);
	buf[len] = 0;
	return buf;
}

void rule_running_text(const struct exp_count *c, char *buf, size_t size)
{
	if (c->reading.counted)
		format_snprintf(buf, size, "ran %u.%02u%% of the time", c->reading.percent / 100,
				c->reading.percent % 100);
	else
		format_snprintf(buf, size, "never ran (<not counted>)");
}

/* RULE_MEASURED (a run defined on the command line): every run ran; XSU held where it was on. */
static void judge_measured(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
			   struct exp_verdict *out)
{
	struct mode_view v;
	unsigned events = 0, not_counted = 0;

	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (mode != XSU_MODE_OFF && !rule_xsu_held(mode, m, v.violations, v.exposure, out))
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
	rule_set(out, RESULT_PASS, NULL);
	rule_say(out, "measured: %u events on both threads, %u of them never on a counter", events,
		 not_counted);
}

/* ---- the rules in words, from the same constants ------------------------------------------- */

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
	[RULE_FAIRNESS] = { "fairness", describe_fairness, NULL, judge_fairness },
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

const char *rule_phase_word(const struct exp_run *run)
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
		rule_say(
			out,
			"HT%u did no work in the %s run of XSU %s (it started after the run's end, "
			"or its CPU never ran): nothing to judge",
			t, rule_phase_word(run->run), rule_mode_name(run->run->xsu));
	} else if (t == 1 && run->overlap_pct < EXP_MIN_OVERLAP_PCT) {
		rule_say(
			out,
			"the siblings counted side by side for %u%% of the %s run of XSU %s (a CPU "
			"started or stopped late: held back by its host), below the %u%% the rules "
			"need",
			run->overlap_pct, rule_phase_word(run->run), rule_mode_name(run->run->xsu),
			EXP_MIN_OVERLAP_PCT);
	} else if (multiplexed(tr) && run->run->xsu != XSU_MODE_CORE &&
		   tr->ticks_lost * 100 > (tr->ticks + tr->ticks_lost) * EXP_MAX_LOST_TICKS_PCT) {
		rule_say(out,
			 "HT%u lost %llu of its %llu ticks in the %s run of XSU %s (its CPU ran in "
			 "bursts): its multiplexed counts cannot be scaled",
			 t, (unsigned long long)tr->ticks_lost,
			 (unsigned long long)(tr->ticks + tr->ticks_lost),
			 rule_phase_word(run->run), rule_mode_name(run->run->xsu));
	} else if (multiplexed(tr) && tr->ticks < EXP_MIN_TICKS) {
		rule_say(out,
			 "HT%u's events were multiplexed over %llu ticks in the %s run of XSU %s: "
			 "judging them needs at least %u (a longer dur_ms or a shorter mux_ms)",
			 t, (unsigned long long)tr->ticks, rule_phase_word(run->run),
			 rule_mode_name(run->run->xsu), EXP_MIN_TICKS);
	} else {
		return false;
	}
	(void)mode;
	rule_set(out, RESULT_SKIP, "too_little_data");
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
			rule_set(out, RESULT_FAIL, NULL);
			rule_say(
				out,
				"HT%u %s in the %s run of XSU %s: its counter went down without an "
				"overflow (firmware or SMM code wrote it): the count cannot be "
				"trusted",
				t, c->event.name, rule_phase_word(run->run),
				rule_mode_name(run->run->xsu));
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
			rule_set(out, run->unsupported ? RESULT_SKIP : RESULT_FAIL,
				 run->unsupported ? "unsupported_event" : NULL);
			rule_say(out, "%s: %s",
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
	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
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
