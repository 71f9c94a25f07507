// SPDX-License-Identifier: GPL-2.0
/*
 * The leak survey's measurements (tests/experiments/survey.h).
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/lib/format.h"
#include "kernel/pmu.h"
#include "kernel/record_stream.h"
#include "pmu/event_names.h"
#include "pmu/zero_event.h"
#include "tests/experiments/runner.h"
#include "tests/experiments/suite.h"
#include "tests/experiments/survey.h"
#include "tests/workloads/workloads.h"

#define SURVEY_MAX_POINTS (SURVEY_MAX_EVENTS * SURVEY_POINTS_PER_EVENT)

/*
 * The zero event on the sibling's counter: the microarchitecture's (pmu/zero_event.h: LBR inserts
 * from Sandy Bridge to Skylake, zero while the kernel keeps the LBR off), as a list the runner
 * takes. Where the table has none (no erratum to survey), LBR inserts all the same: the model
 * has no rate for them in any profile.
 */
static const char *survey_zero_event(const struct uarch *u, char *buf, size_t size)
{
	const struct pmu_event *zero = uarch_zero_event(u);

	format_snprintf(buf, size, "r%04x:u", zero ? pmu_event_code(zero) : 0x20cc);
	return buf;
}

static void emit_point(const struct suite *s, const struct survey_point *p, const char *event,
		       const struct pmu_event *parsed)
{
	static struct record r;

	record_begin(&r, "survey");
	record_string(&r, "exp", "leak-survey");
	record_string(&r, "xsu", "off");
	record_uint(&r, "rep", s->results.rep);
	record_string(&r, "event", event);
	record_string(&r, "name", event_name_for(parsed, s->settings.pmu->info.uarch));
	record_bool(&r, "corrupting", p->corrupting);
	record_bool(&r, "control", p->control);
	record_uint(&r, "index", p->index);
	record_uint(&r, "sibling_index", p->sibling_index);
	record_bool(&r, "same_index", p->index == p->sibling_index);
	record_string(&r, "sibling_state", survey_state_names[p->state]);
	record_uint(&r, "count", p->count);
	record_uint(&r, "leak", p->leak);
	if (p->count + p->leak)
		record_fixed(&r, "ratio", (int64_t)survey_share_ppm(p), 6);
	else
		record_null(&r, "ratio");
	record_uint(&r, "overlap_pct", p->overlap_pct);
	record_emit(&r);
}

/* One measurement; false when the run could not be measured (a warning says why). */
static bool measure_point(struct suite *s, const struct experiment *e, const char *workload,
			  const char *event, const char *zero, struct survey_point *p)
{
	uint8_t sibling = (uint8_t)(1u << p->sibling_index);
	struct exp_run run = {
		.phase = PHASE_MEASURE,
		.xsu = XSU_MODE_OFF,
		.thread = { { event, workload, 0, (uint8_t)(1u << p->index), 0 },
			    { p->state == SURVEY_EN_CLEAR ? "" : zero, workload, 0, sibling,
			      p->state == SURVEY_GLOBAL_CLEAR ? sibling : 0 } },
	};
	struct exp_run_result *res = &s->results.runs[0];
	struct measurement *m = exp_run_setup(&run, &s->settings, &s->run, res);

	if (m)
		exp_run_measure(m, res);
	if (!res->done) {
		record_warn("experiment", e->name, event, "", NULL,
			    res->error ? res->error : "the run could not be measured");
		return false;
	}
	const struct exp_count *c = &res->thread[0].counts[0];
	p->corrupting = c->corrupting;
	p->count = c->reading.raw;
	p->leak = p->state == SURVEY_EN_CLEAR ? 0 : res->thread[1].counts[0].reading.raw;
	p->overlap_pct = res->overlap_pct;
	emit_point(s, p, event, &c->event);
	return true;
}

static bool observable(const struct survey_point *p)
{
	return p->count >= threshold_of(TH_SURVEY_COUNT) &&
	       p->overlap_pct >= threshold_of(TH_OVERLAP);
}

static void print_ppm(uint64_t ppm)
{
	kprintf(" %4llu.%03llu", (unsigned long long)(ppm / 10000),
		(unsigned long long)(ppm % 10000 / 10));
}

/*
 * The leak map on the console: an event per line, the share that leaked per index; then, for a
 * sibling counter left unused, the share of its count (and leak) at index 0 that HT0 kept.
 */
static void print_map(const struct survey_point *points, unsigned n)
{
	kprintf("\n  share of each event's occurrences caught by the sibling's counter (%%), and "
		"kept by HT0 with the sibling's counter unused:\n");
	kprintf("  %-10s %8s %8s %8s %8s %8s %8s %8s\n", "event", "gp0", "gp1", "gp2", "gp3",
		"other", "EN clr", "GL clr");
	for (unsigned i = 0; i < n;) {
		const struct survey_point *zero0 = &points[i];
		kprintf("  r%04x:u%s ", points[i].code, points[i].corrupting ? "*" : " ");
		unsigned code = points[i].code;
		for (; i < n && points[i].code == code; i++) {
			const struct survey_point *p = &points[i];
			uint64_t whole = zero0->count + zero0->leak;
			if (!observable(p))
				kprintf(" %8s", "-");
			else if (p->state == SURVEY_ZERO_EVENT)
				print_ppm(survey_share_ppm(p));
			else if (whole)
				print_ppm(p->count * 1000000 / whole);
		}
		kprintf("\n");
	}
	kprintf("  (* = corrupting on this CPU; - = counted too little, or the siblings did not "
		"count side by side)\n");
}

/* The survey's exp record: what the measurements are, before the first. */
static void emit_survey_start(const struct suite *s, const struct experiment *e,
			      const char *workload, const char *zero, unsigned events,
			      unsigned measurements)
{
	static struct record r;
	char rule[512];

	record_begin(&r, "exp");
	record_string(&r, "exp", e->name);
	record_string(&r, "phase", "measure");
	record_string(&r, "xsu", "off");
	record_string(&r, "sched", "greedy");
	record_uint(&r, "rep", s->results.rep);
	record_uint(&r, "repeat", s->config->repeat);
	record_string(&r, "title", e->title);
	record_string(&r, "section", e->section);
	record_string(&r, "rule", exp_rule_text(e, rule, sizeof(rule)));
	record_string(&r, "description", e->note);
	record_string(&r, "workload", workload);
	record_string(&r, "zero_event", zero);
	record_uint(&r, "events", events);
	record_uint(&r, "measurements", measurements);
	record_uint(&r, "duration_ns", s->settings.dur_ms * 1000000ull);
	record_uint(&r, "mux_ms", s->settings.mux_ms);
	record_emit(&r);
}

static void survey_repetition(struct suite *s, const struct experiment *e, const char *workload,
			      struct exp_verdict_tally *tally)
{
	static struct survey_point points[SURVEY_MAX_POINTS];
	struct survey_event list[SURVEY_MAX_EVENTS];
	unsigned nr_events = survey_events(s->settings.pmu->info.uarch, list), n = 0;

	char zero[16];
	survey_zero_event(s->settings.pmu->info.uarch, zero, sizeof(zero));
	emit_survey_start(s, e, workload, zero, nr_events, survey_measurements(list, nr_events));
	for (unsigned i = 0; i < nr_events; i++) {
		char event[16];
		format_snprintf(event, sizeof(event), "r%04x:u", list[i].code);
		for (unsigned k = 0; k <= SURVEY_INDICES; k++) {
			struct survey_point *p = &points[n];
			/* The last measurement puts the zero event one index further along. */
			*p = (struct survey_point){
				.code = list[i].code,
				.control = list[i].control,
				.index = (uint8_t)(k % SURVEY_INDICES),
				.sibling_index = (uint8_t)(k < SURVEY_INDICES ? k : 1),
			};
			if (measure_point(s, e, workload, event, zero, p))
				n++;
		}
		/* Where the leak goes when the sibling's counter is unused: index 0, both ways. */
		for (unsigned state = SURVEY_EN_CLEAR; !list[i].control && state < SURVEY_STATES;
		     state++) {
			struct survey_point *p = &points[n];
			*p = (struct survey_point){ .code = list[i].code, .state = (uint8_t)state };
			if (measure_point(s, e, workload, event, zero, p))
				n++;
		}
	}
	print_map(points, n);
	struct exp_verdict v;
	survey_judge(points, n, &s->machine, &v);
	exp_verdict_add(tally, &v, s->results.rep, s->config->repeat);
}

const struct experiment survey_experiment = {
	.name = "leak-survey",
	.title = "Which events leak into the sibling's counter, and where",
	.section = "4, 7.1",
	.rule = &rule_survey,
	.checked = "",
	.note = "HT0 counts each event alone on GP counter i, HT1 counts an event that never "
		"occurs on counter i (i = 0..3) and once on another index; what HT1 counts is leak",
	.on_request = true,
	.measure = survey_measure,
};

void survey_measure(const struct experiment *e, struct suite *s)
{
	struct exp_verdict_tally tally;
	const char *workload = s->config->survey_work; /* checked at boot (payload_check.c) */

	memset(&tally, 0, sizeof(tally));
	kprintf("\n== %s: %s (XSU off, both threads run %s, %u ms per measurement)\n", e->name,
		e->title, workload, s->settings.dur_ms);
	for (unsigned rep = 0; rep < s->config->repeat; rep++) {
		memset(&s->results, 0, sizeof(s->results));
		s->results.exp = e;
		s->results.rep = rep;
		survey_repetition(s, e, workload, &tally);
	}
	suite_emit_verdict(s, e, XSU_MODE_OFF, "greedy", &tally.verdict);
}
