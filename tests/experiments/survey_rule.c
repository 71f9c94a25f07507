// SPDX-License-Identifier: GPL-2.0
/*
 * The leak survey's verdict (tests/experiments/survey.h).
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/lib/format.h"
#include "tests/experiments/survey.h"

/* What the points show, and the first point that contradicts the rule. */
struct survey_view {
	unsigned observed, leaking, silent, stray;
	const struct survey_point *first_silent, *first_stray;
	uint64_t min_ppm, max_ppm; /* leak ratios of the corrupting events at their own index */
};

const char *const survey_state_names[SURVEY_STATES] = {
	[SURVEY_ZERO_EVENT] = "zero_event",
	[SURVEY_EN_CLEAR] = "en_clear",
	[SURVEY_GLOBAL_CLEAR] = "global_clear",
};

uint64_t survey_share_ppm(const struct survey_point *p)
{
	uint64_t total = p->count + p->leak;

	return total ? p->leak * 1000000 / total : 0;
}

static void view(const struct survey_point *points, unsigned n, struct survey_view *v)
{
	memset(v, 0, sizeof(*v));
	v->min_ppm = UINT64_MAX;
	for (unsigned i = 0; i < n; i++) {
		const struct survey_point *p = &points[i];
		bool same = p->index == p->sibling_index;
		if (p->overlap_pct < threshold_of(TH_OVERLAP) || p->state != SURVEY_ZERO_EVENT)
			continue;
		if (p->corrupting && same && p->count >= threshold_of(TH_SURVEY_COUNT)) {
			v->observed++;
			if (p->leak) {
				uint64_t ppm = survey_share_ppm(p);
				v->leaking++;
				v->min_ppm = ppm < v->min_ppm ? ppm : v->min_ppm;
				v->max_ppm = ppm > v->max_ppm ? ppm : v->max_ppm;
			} else if (!v->silent++) {
				v->first_silent = p;
			}
		} else if ((!p->corrupting || !same) && p->leak && !v->stray++) {
			v->first_stray = p;
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

/* A leak where nothing should leak: a control event, or another index. */
static void judge_stray(const struct survey_view *v, struct exp_verdict *out)
{
	const struct survey_point *p = v->first_stray;

	out->result = RESULT_FAIL;
	say(out,
	    "%u measurements leak where nothing should: r%04x:u on gp%u leaked %'llu into the "
	    "sibling's gp%u%s",
	    v->stray, p->code, p->index, (unsigned long long)p->leak, p->sibling_index,
	    p->corrupting ? " (another index)" : " (not a corrupting event)");
}

/* Where the erratum is: every corrupting event counted enough leaks at its own index. */
static void judge_erratum(const struct survey_view *v, const struct exp_machine *m,
			  struct exp_verdict *out)
{
	const struct survey_point *p = v->first_silent;
	char th[THRESHOLD_TEXT_MAX];

	threshold_text(TH_SURVEY_COUNT, th, sizeof(th));
	out->result = v->silent ? RESULT_FAIL : v->observed ? RESULT_PASS : RESULT_SKIP;
	if (v->silent)
		say(out,
		    "%u corrupting measurements leak nothing although %s has the erratum: r%04x:u "
		    "counted %'llu on gp%u, reaching %s, and the sibling's gp%u caught 0",
		    v->silent, m->uarch, p->code, (unsigned long long)p->count, p->index, th,
		    p->sibling_index);
	else if (!v->observed)
		say(out, "no corrupting event reached %s under this workload: no leak to observe",
		    th);
	else
		say(out,
		    "every corrupting event that reached %s leaks into the sibling's counter of "
		    "its "
		    "own index (%u measurements, %llu.%04llu%% to %llu.%04llu%% of its "
		    "occurrences), "
		    "none into another index, no control event leaks",
		    th, v->leaking, (unsigned long long)(v->min_ppm / 10000),
		    (unsigned long long)(v->min_ppm % 10000),
		    (unsigned long long)(v->max_ppm / 10000),
		    (unsigned long long)(v->max_ppm % 10000));
	out->skip = v->observed || v->silent ? NULL : "too_little_data";
}

void survey_judge(const struct survey_point *points, unsigned n, const struct exp_machine *m,
		  struct exp_verdict *out)
{
	struct survey_view v;

	memset(out, 0, sizeof(*out));
	view(points, n, &v);
	out->checked = n;
	out->corrupted = v.leaking + v.stray;
	if (v.stray) {
		judge_stray(&v, out);
	} else if (m->erratum) {
		judge_erratum(&v, m, out);
	} else {
		out->result = RESULT_PASS;
		say(out,
		    "%s has no cross-HT erratum and nothing leaks: %u measurements, the zero event "
		    "stayed 0 on every index",
		    m->uarch, n);
	}
}

static void describe(const struct experiment *e, char *buf, size_t size)
{
	(void)e;
	format_snprintf(
		buf, size,
		"XSU off, where the CPU has the erratum: every event the table calls "
		"corrupting and counting %u or more leaks into the sibling's counter of the "
		"same index, and nothing else leaks; without the erratum nothing leaks",
		threshold_of(TH_SURVEY_COUNT));
}

/* Judged by survey_judge(), over its measurements (the survey makes its own runs). */
const struct exp_rule rule_survey = { "survey", describe, NULL, NULL };
