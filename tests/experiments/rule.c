// SPDX-License-Identifier: GPL-2.0
/*
 * What the verdict rules share (tests/experiments/rule.h): selecting runs, finding counts and
 * references, the view of a mode's runs, the texts and the checks of XSU's guarantee.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "kernel/lib/format.h"
#include "pmu/mux.h"
#include "pmu/xsu_mode.h"
#include "tests/experiments/rule.h"

const struct exp_run_result *rule_next_run(const struct exp_results *r,
					   const struct run_select *sel, unsigned *i)
{
	for (; *i < r->exp->nr_runs; (*i)++) {
		const struct exp_run_result *run = &r->runs[*i];
		const struct exp_run *spec = run->run;
		bool serves = true;

		if (!run->done || !spec)
			continue;
		for (unsigned m = 0; m < XSU_MODE_COUNT; m++)
			if (sel->modes & XSU_MODE_BIT(m))
				serves = serves && exp_run_in_mode(spec, m);
		if (!serves || (sel->xsu && !(sel->xsu & XSU_MODE_BIT(spec->xsu))) ||
		    (sel->phases && !(sel->phases & PHASE_BIT(spec->phase))) ||
		    (sel->label && (!spec->label || strcmp(spec->label, sel->label))))
			continue;
		(*i)++;
		return run;
	}
	return NULL;
}

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
/* Work sampled as the count was (mux_reading.work_scaled), when it has a work clock and ran. */
static bool sampled(const struct mux_reading *m)
{
	return m->counted && m->work_enabled && m->work_scaled;
}

bool rule_scaled_reference(const struct exp_thread_result *ref, const struct exp_count *c,
			   uint64_t units, uint64_t *out)
{
	const struct exp_count *rc = rule_find(ref, c->event.name);

	if (!rc || !rc->reading.counted || ref->units == 0)
		return false;
	if (sampled(&rc->reading) && sampled(&c->reading))
		*out = mux_mul_div(rc->reading.scaled, c->reading.work_scaled,
				   rc->reading.work_scaled);
	else
		*out = mux_mul_div(rc->reading.scaled, units, ref->units);
	return true;
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
	const struct exp_run_result *run;

	memset(v, 0, sizeof(*v));
	for_each_run(run, r, .modes = XSU_MODE_BIT(mode), .phases = PHASE_BIT(phase))
	{
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
		const char *held_to, struct exp_verdict *out)
{
	char worst[PMU_EVENT_NAME_MAX + 64];

	if (!rule_xsu_held(mode, m, v->violations, v->exposure, out))
		return false;
	if (v->corrupted) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "%u of %u checked counts corrupted with XSU %s%s%s: %s", v->corrupted,
			 v->checked, rule_mode_name(mode), held_to ? ", past " : "",
			 held_to ? held_to : "", rule_worst_text(v, worst, sizeof(worst)));
	} else if (v->deviating) {
		/* Below a baseline by more than its tolerance: only a rule with one can say so. */
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "%u checked counts far below their baselines, past %s", v->deviating,
			 held_to ? held_to : "0");
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
	const struct exp_run_result *run;

	for_each_run(run, r, .xsu = any_mode ? 0 : XSU_MODE_BIT(mode), .phases = PHASE_BIT(phase))
	{
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

const char *rule_phase_word(const struct exp_run *run)
{
	static const char *const words[PHASE_COUNT] = { "measured", "baseline", "alone", "limit" };
	return words[run->phase];
}
