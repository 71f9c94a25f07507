// SPDX-License-Identifier: GPL-2.0
/*
 * rule_starvation (thesis ch. 8): four corrupting events on one thread starve the sibling under
 * Linux's XSU, the half-of-the-counters limit gives it counters again, and core-wide XSU starves
 * nobody.
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "pmu/mux.h"
#include "tests/experiments/rule.h"

/*
 * The least running event of either thread in the measured runs of XSU core, its thread, and the
 * share (hundredths of a percent) of its run spent handing over joint schedules: an event is
 * stopped for part of each handover, which is the IPIs' cost, reported on its own, not the
 * schedule's (as in rule_fairness).
 */
static const struct exp_count *least_running(const struct exp_results *r, unsigned threads,
					     unsigned *thread, unsigned *handover)
{
	const struct exp_count *least = NULL;

	const struct exp_run_result *run;

	for_each_run(run, r, .modes = XSU_MODE_BIT(XSU_MODE_CORE))
	{
		for (unsigned t = 0; t < threads; t++)
			for (unsigned k = 0; k < run->thread[t].nr_events; k++) {
				const struct exp_count *c = &run->thread[t].counts[k];
				if (!least || c->reading.percent < least->reading.percent) {
					least = c;
					*thread = t;
					*handover = run->joint_gap_per_mille * 10;
				}
			}
	}
	return least;
}

/* Core-wide XSU: no event of either thread starves (TH_CORE_RUNNING); the optimum of the
 * thesis's case is 80% for every event (HT1 runs a fraction x, HT0's four events 1 - x/4 each). */
static void judge_starvation_core(const struct exp_results *r, const struct exp_machine *m,
				  struct exp_verdict *out)
{
	struct mode_view v;
	unsigned t = 0, handover = 0;
	char ran[48], th[THRESHOLD_TEXT_MAX];

	rule_view_mode(r, XSU_MODE_CORE, PHASE_MEASURE, m->threads, &v);
	if (!rule_xsu_held(XSU_MODE_CORE, m, v.violations, v.exposure, out))
		return;
	const struct exp_count *least = least_running(r, m->threads, &t, &handover);
	if (!least) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "no event was measured with XSU core");
		return;
	}
	rule_running_text(least, ran, sizeof(ran));
	threshold_text(TH_CORE_RUNNING, th, sizeof(th));
	bool fair = least->reading.percent + handover >= threshold_of(TH_CORE_RUNNING);
	rule_set(out, fair ? RESULT_PASS : RESULT_FAIL, NULL);
	if (!m->erratum)
		rule_say(out,
			 "%s has no cross-HT erratum: core-wide XSU schedules as without XSU; the "
			 "least running event, HT%u's %s, %s, %s %s",
			 m->uarch, t, least->event.name, ran, fair ? "at least" : "below", th);
	else
		rule_say(out,
			 "no thread starves: the least running event, HT%u's %s, %s and %u.%02u%% "
			 "handing over, %s %s in all (the optimum is 80%%), exposure 0",
			 t, least->event.name, ran, handover / 100, handover % 100,
			 fair ? "at least" : "below", th);
}

/* Linux's XSU where no event corrupts: it excludes nothing, so nothing starves. */
static void judge_starvation_no_erratum(const struct exp_count *measured, const char *given,
					const char *ran, const struct exp_machine *m,
					struct exp_verdict *out)
{
	bool starved = measured->reading.percent < threshold_of(TH_STARVED);
	char th[THRESHOLD_TEXT_MAX];

	rule_set(out, starved ? RESULT_FAIL : RESULT_SKIP, starved ? NULL : "no_erratum");
	rule_say(out, "%s has no cross-HT erratum: XSU excludes nothing and HT1's %s %s, %s %s",
		 m->uarch, given, ran, starved ? "starved for no reason, below" : "at least",
		 threshold_text(TH_STARVED, th, sizeof(th)));
}

/* Linux's XSU: HT1's event starved, and given counters again by the half-of-the-counters limit. */
static void judge_starvation_on(const struct exp_results *r, unsigned mode,
				const struct exp_count *measured, const char *given,
				const struct exp_machine *m, struct exp_verdict *out)
{
	char ran[48], th[THRESHOLD_TEXT_MAX];
	struct mode_view v, limit;

	rule_running_text(measured, ran, sizeof(ran));
	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	rule_view_mode(r, mode, PHASE_LIMIT, m->threads, &limit);
	if (!rule_xsu_held(mode, m, v.violations + limit.violations, v.exposure + limit.exposure,
			   out))
		return;
	if (!m->erratum) {
		judge_starvation_no_erratum(measured, given, ran, m, out);
		return;
	}
	bool starved = measured->reading.percent < threshold_of(TH_STARVED);
	const struct exp_count *limited =
		rule_count_of(r, PHASE_LIMIT, mode, 1, given, false, NULL);
	bool relieved = limited && limited->reading.counted;
	rule_set(out, starved && relieved ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "HT1's %s %s: %s %s; with the half-of-the-counters limit %u.%02u%%; exposure 0",
		 given, ran,
		 starved ? "starved by four corrupting events on HT0, as in ch. 8, below"
			 : "not starved, at least",
		 threshold_text(TH_STARVED, th, sizeof(th)),
		 limited ? limited->reading.percent / 100 : 0,
		 limited ? limited->reading.percent % 100 : 0);
}

static void judge_starvation(const struct exp_results *r, unsigned mode,
			     const struct exp_machine *m, struct exp_verdict *out)
{
	char name[PMU_EVENT_NAME_MAX], ran[48];
	const char *given = rule_first_checked(r->exp, name, sizeof(name));
	const struct exp_count *measured =
		rule_count_of(r, PHASE_MEASURE, mode, 1, given, false, NULL);

	if (!measured) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "HT1 did not measure %s", given);
	} else if (mode == XSU_MODE_OFF) {
		rule_running_text(measured, ran, sizeof(ran));
		rule_set(out, measured->reading.counted ? RESULT_PASS : RESULT_FAIL, NULL);
		rule_say(out,
			 "without XSU, HT1's %s %s (no starvation, but nothing keeps it off a "
			 "counter facing a corrupting event)",
			 given, ran);
	} else if (mode == XSU_MODE_CORE) {
		judge_starvation_core(r, m, out);
	} else {
		judge_starvation_on(r, mode, measured, given, m, out);
	}
}

static void describe_starvation(const struct experiment *e, char *buf, size_t size)
{
	char name[PMU_EVENT_NAME_MAX];
	const char *given = rule_first_checked(e, name, sizeof(name));

	format_snprintf(
		buf, size,
		"XSU off: %s counted; XSU on: %s below %u%% of the time (starved, as in the "
		"thesis) where the CPU has the erratum, and counted again with the "
		"half-of-the-counters limit; XSU core: every event of both threads %u%% of the "
		"time or more; exposure 0",
		given, given, threshold_of(TH_STARVED) / 100, threshold_of(TH_CORE_RUNNING) / 100);
}

const struct exp_rule rule_starvation = { "starvation", describe_starvation, NULL,
					  judge_starvation };
