// SPDX-License-Identifier: GPL-2.0
/*
 * rule_loss (thesis ch. 8): corrupting events lose counts into an unused sibling counter,
 * compensate when both siblings count them on the same counters, lose them again with Linux's XSU,
 * and get them back with core-wide XSU's leak catchers.
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "pmu/mux.h"
#include "tests/experiments/rule.h"

/* rule_loss: against thread 0 alone, the sibling's counters unused. */
static void annotate_loss(const struct exp_results *r, unsigned index, unsigned t,
			  struct exp_count *c)
{
	const struct exp_run_result *ref = rule_reference(r, PHASE_ALONE, index);
	uint64_t base;

	if (r->runs[index].run->phase != PHASE_ALONE && ref &&
	    rule_scaled_reference(&ref->thread[0], c, r->runs[index].thread[t].units, &base)) {
		c->has_baseline = true;
		c->baseline = base;
		c->tolerance = base * EXP_LOSS_MATCH_PCT / 100;
	}
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
	const struct exp_count *alone =
		rule_count_of(r, PHASE_ALONE, mode, 0, given, true, &alone_t);
	uint64_t count = 0, units = 0;

	if (!alone || !alone->reading.counted || !alone->reading.scaled || !alone_t->units)
		return false;
	for (unsigned t = 0; t < threads; t++) {
		const struct exp_count *c =
			rule_count_of(r, PHASE_MEASURE, mode, t, given, false, &run_t);
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

/*
 * Under the model: per mille of the share of its true count that `given` kept in the measured
 * run of the mode, over both threads, relative to the share thread 0 kept alone. Scaled and true
 * counts are scaled alike, so a host that ran a virtual CPU in bursts (a scaled count that is a
 * guess) moves both and not their ratio; a rate per unit of work moves with it. False where there
 * is no true count (real counters).
 */
static bool kept_ratio(const struct exp_results *r, unsigned mode, unsigned threads,
		       const char *given, uint64_t *per_mille)
{
	const struct exp_thread_result *unused;
	const struct exp_count *alone =
		rule_count_of(r, PHASE_ALONE, mode, 0, given, true, &unused);
	uint64_t scaled = 0, truth = 0;

	if (!alone || !alone->has_true || !alone->reading.scaled || !alone->truth)
		return false;
	for (unsigned t = 0; t < threads; t++) {
		const struct exp_count *c =
			rule_count_of(r, PHASE_MEASURE, mode, t, given, false, &unused);
		if (!c || !c->reading.counted || !c->has_true)
			return false;
		scaled += c->reading.scaled;
		truth += c->truth;
	}
	if (!truth)
		return false;
	/* (scaled / truth) / (alone scaled / alone true), in two steps that keep 64 bits. */
	uint64_t kept = mux_mul_div(scaled, 1000000, truth);
	uint64_t kept_alone = mux_mul_div(alone->reading.scaled, 1000, alone->truth);
	*per_mille = kept_alone ? kept / kept_alone : 0;
	return kept_alone != 0;
}

/* rule_loss with XSU off: aligned siblings compensate the loss alone, where the erratum is. */
static void judge_loss_off(const char *given, uint64_t ratio, const struct exp_machine *m,
			   struct exp_verdict *out)
{
	uint64_t high = 1000 + EXP_LOSS_MATCH_PCT * 10, low = 1000 - EXP_LOSS_MATCH_PCT * 10;
	bool compensated = ratio >= 1000 + EXP_LOSS_COMPENSATION_PCT * 10;

	if (m->erratum && compensated) {
		rule_set(out, RESULT_PASS, NULL);
		rule_say(out,
			 "alone, %s loses %llu%% of its count into the unused sibling counter; "
			 "aligned "
			 "siblings compensate (%llu.%02llu times the rate alone), as in ch. 8",
			 given, (unsigned long long)(1000 - 1000000 / ratio) / 10,
			 (unsigned long long)ratio / 1000, (unsigned long long)ratio % 1000 / 10);
	} else if (!m->erratum && ratio >= low && ratio <= high) {
		rule_set(out, RESULT_SKIP, "no_erratum");
		rule_say(out, "%s has no cross-HT erratum: no loss alone, nothing to compensate",
			 m->uarch);
	} else {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "%s aligned at %llu per mille of the rate alone: expected %s", given,
			 (unsigned long long)ratio,
			 m->erratum ? "a loss alone that aligned siblings compensate"
				    : "the same rate (no erratum)");
	}
}

/*
 * The corrupting counts of the XSU core runs against their true counts (the model's), as their
 * thread's work was sampled: a scaled count estimates what the thread did while its event was off
 * the counter from what it did while it was on, which holds only for work at an even pace. The
 * work clock (pmu/mux.h) scales the thread's own units the same way: a virtual CPU its host ran
 * in bursts puts them, and every count with them, some percent off, which is the host's, not the
 * counting's. The truth is judged at that pace; the message gives both.
 */
struct truth_view {
	unsigned checked;
	uint64_t leak;		  /* caught and given back, over every count */
	uint64_t worst_per_mille; /* the largest |scaled - paced| per mille of paced */
	uint64_t worst_paced;	  /* the worst count's truth at its thread's pace */
	const struct exp_count *worst;
	unsigned worst_thread;
	uint64_t pace_per_mille; /* the largest gap of a thread's work as sampled, per mille */
	unsigned pace_thread;
};

/* c's true count as its thread's work was sampled: truth times work scaled / work done. */
static uint64_t paced_truth(const struct exp_count *c)
{
	const struct mux_reading *r = &c->reading;

	if (!r->work_enabled || !r->work_scaled)
		return c->truth;
	return mux_mul_div(c->truth, r->work_scaled, r->work_enabled);
}

static void view_truth(const struct exp_results *r, unsigned threads, struct truth_view *v)
{
	memset(v, 0, sizeof(*v));
	const struct exp_run_result *run;

	for_each_run(run, r, .modes = XSU_MODE_BIT(XSU_MODE_CORE))
	{
		for (unsigned t = 0; t < threads; t++)
			for (unsigned k = 0; k < run->thread[t].nr_events; k++) {
				const struct exp_count *c = &run->thread[t].counts[k];
				if (!c->corrupting || !c->has_true || !c->reading.counted ||
				    !c->truth)
					continue;
				uint64_t s = c->reading.scaled, truth = paced_truth(c);
				uint64_t off =
					truth ? mux_mul_div(s > truth ? s - truth : truth - s, 1000,
							    truth)
					      : 1000;
				uint64_t pace = mux_work_gap(&c->reading, 1000);
				if (pace > v->pace_per_mille) {
					v->pace_per_mille = pace;
					v->pace_thread = t;
				}
				v->checked++;
				v->leak += c->leak;
				if (!v->worst || off > v->worst_per_mille) {
					v->worst = c;
					v->worst_per_mille = off;
					v->worst_paced = truth;
					v->worst_thread = t;
				}
			}
	}
}

/* A rate per unit of work needs the counters to have counted the run's work: not when the
 * threads spent more than EXP_MAX_JOINT_GAP_PER_MILLE of an XSU core run handing over joint
 * schedules (some events stopped meanwhile). Says so in out. */
static bool handover_too_long(const struct exp_results *r, struct exp_verdict *out)
{
	const struct exp_run_result *run;

	for_each_run(run, r, .modes = XSU_MODE_BIT(XSU_MODE_CORE))
	{
		if (run->joint_gap_per_mille <= EXP_MAX_JOINT_GAP_PER_MILLE)
			continue;
		rule_set(out, RESULT_SKIP, "too_little_data");
		rule_say(out,
			 "the threads spent %u.%u%% of the run handing over joint schedules, some "
			 "events stopped meanwhile (IPIs held back): a rate per unit of work shows "
			 "nothing",
			 run->joint_gap_per_mille / 10, run->joint_gap_per_mille % 10);
		return true;
	}
	return false;
}

/*
 * On real counters there is no true count, but triad knows its own: two loads per element
 * (c[i] = a[i] + k * b[i]). So each thread's MEM_UOPS_RETIRED.ALL_LOADS under XSU core, what its
 * counters counted plus the leak its sibling's catchers caught, scaled, must be twice its units
 * within EXP_CORE_LOADS_PCT: the re-integration checked on the hardware, with no model. False
 * when the run does not count that event with triad on both threads (then the aligned rate is
 * the reference).
 */
/* Of thread t in run, triad's loads, scaled, and twice its units; false when it has none. */
static bool loads_of(const struct exp_run_result *run, unsigned t, uint64_t *got, uint64_t *want)
{
	const struct exp_thread_result *tr = &run->thread[t];
	const struct exp_count *c = rule_find(tr, TRIAD_LOADS);

	if (!c || strcmp(run->run->thread[t].workload, "triad") || !tr->units ||
	    !c->reading.counted)
		return false;
	*got = c->reading.scaled;
	*want = 2 * tr->units;
	return true;
}

static bool judge_loads_per_unit(const struct exp_results *r, const struct exp_machine *m,
				 struct exp_verdict *out)
{
	uint64_t worst = 0, got[2] = { 0, 0 }, want[2] = { 0, 0 };
	unsigned worst_t = 0, checked = 0;
	const struct exp_run_result *run;

	for_each_run(run, r, .modes = XSU_MODE_BIT(XSU_MODE_CORE),
		     .phases = PHASE_BIT(PHASE_MEASURE))
	{
		for (unsigned t = 0; t < m->threads; t++) {
			uint64_t g, w;
			if (!loads_of(run, t, &g, &w))
				return false;
			uint64_t off = mux_mul_div(g > w ? g - w : w - g, 10000, w);
			checked++;
			if (off < worst && checked > 1)
				continue;
			worst = off;
			worst_t = t;
			got[t] = g;
			want[t] = w;
		}
	}
	if (!checked)
		return false;
	bool kept = worst <= EXP_CORE_LOADS_PCT * 100;
	rule_set(out, kept ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "%s: with XSU core each thread's %s, counted plus the leak caught opposite it, is "
		 "twice its triad elements within %llu.%02llu%% (HT%u %'llu against %'llu; at most "
		 "%u%%)",
		 kept ? "no load lost" : "loads lost", TRIAD_LOADS, (unsigned long long)worst / 100,
		 (unsigned long long)worst % 100, worst_t, (unsigned long long)got[worst_t],
		 (unsigned long long)want[worst_t], EXP_CORE_LOADS_PCT);
	return true;
}

/* On real counters there is no true count: triad's loads per unit where the run has them,
 * otherwise core's rate against the aligned XSU-off run's, where the leaks compensate (thesis
 * ch. 8: "213,411,639 with the leaks compensated"). */
static void judge_loss_core_hw(const struct exp_results *r, const struct exp_machine *m,
			       const char *given, uint64_t core_ratio, struct exp_verdict *out)
{
	uint64_t off_ratio, low = 1000 - EXP_LOSS_MATCH_PCT * 10;

	if (handover_too_long(r, out) || judge_loads_per_unit(r, m, out))
		return;
	if (!loss_ratio(r, XSU_MODE_OFF, m->threads, given, &off_ratio) || !off_ratio) {
		rule_set(out, RESULT_SKIP, "too_little_data");
		rule_say(out, "real counters have no true count: XSU core is judged against the "
			      "aligned XSU-off run, which did not run");
		return;
	}
	uint64_t against = mux_mul_div(core_ratio, 1000, off_ratio);
	bool kept = against >= low && against <= 1000 + EXP_LOSS_MATCH_PCT * 10;
	rule_set(out, kept ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "with XSU core %s runs at %llu per mille of the aligned XSU-off rate, where the "
		 "leaks compensate (within %u%% expected: the catchers give the leak back)",
		 given, (unsigned long long)against, EXP_LOSS_MATCH_PCT);
}

/* Core-wide XSU gives the leak back: every corrupting count within EXP_CORE_TRUE_PCT of its true
 * count, the catchers having caught something where the erratum is. */
/* Core-wide XSU on a CPU without the erratum: nothing leaks, the rate alone is what counts. */
static void judge_loss_core_no_erratum(const struct exp_results *r, const struct exp_machine *m,
				       const char *given, uint64_t ratio, struct exp_verdict *out)
{
	if (handover_too_long(r, out))
		return;
	bool kept =
		ratio >= 1000 - EXP_LOSS_MATCH_PCT * 10 && ratio <= 1000 + EXP_LOSS_MATCH_PCT * 10;
	rule_set(out, kept ? RESULT_SKIP : RESULT_FAIL, kept ? "no_erratum" : NULL);
	rule_say(out,
		 "%s has no cross-HT erratum: no event corrupts, nothing leaks to give "
		 "back; "
		 "%s runs at %llu per mille of its rate alone",
		 m->uarch, given, (unsigned long long)ratio);
}

static void judge_loss_core(const struct exp_results *r, const struct exp_machine *m,
			    const char *given, uint64_t ratio, struct exp_verdict *out)
{
	struct truth_view v;
	char worst[PMU_EVENT_NAME_MAX + 128];

	if (!m->erratum) {
		judge_loss_core_no_erratum(r, m, given, ratio, out);
		return;
	}
	if (!m->model) {
		judge_loss_core_hw(r, m, given, ratio, out);
		return;
	}
	view_truth(r, m->threads, &v);
	if (!v.checked) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "no corrupting count of XSU core had a true count to compare");
		return;
	}
	if (v.pace_per_mille > EXP_CORE_PACE_PCT * 10) {
		rule_set(out, RESULT_SKIP, "too_little_data");
		rule_say(
			out,
			"HT%u's work, sampled as its counts were, came %llu.%llu%% off the work it "
			"did (its CPU ran in bursts): too uneven to judge a count within %u%% of "
			"its "
			"truth (at most %u%%)",
			v.pace_thread, (unsigned long long)v.pace_per_mille / 10,
			(unsigned long long)v.pace_per_mille % 10, EXP_CORE_TRUE_PCT,
			EXP_CORE_PACE_PCT);
		return;
	}
	if (v.worst_paced == v.worst->truth)
		format_snprintf(worst, sizeof(worst), "HT%u %s %'llu against %'llu", v.worst_thread,
				v.worst->event.name, (unsigned long long)v.worst->reading.scaled,
				(unsigned long long)v.worst->truth);
	else
		format_snprintf(worst, sizeof(worst),
				"HT%u %s %'llu against %'llu at its thread's pace, %'llu in all",
				v.worst_thread, v.worst->event.name,
				(unsigned long long)v.worst->reading.scaled,
				(unsigned long long)v.worst_paced,
				(unsigned long long)v.worst->truth);
	if (!v.leak) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "the leak catchers caught nothing although %s has the erratum: %s",
			 m->uarch, worst);
		return;
	}
	bool kept = v.worst_per_mille <= EXP_CORE_TRUE_PCT * 10;
	rule_set(out, kept ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "%s: all %u corrupting counts within %llu.%llu%% of their true counts at their "
		 "threads' pace (%s), %'llu "
		 "leaked events caught and given back, exposure 0",
		 kept ? "no count lost" : "counts lost", v.checked,
		 (unsigned long long)v.worst_per_mille / 10,
		 (unsigned long long)v.worst_per_mille % 10, worst, (unsigned long long)v.leak);
}

static void judge_loss(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		       struct exp_verdict *out)
{
	char name[PMU_EVENT_NAME_MAX];
	const char *given = rule_first_checked(r->exp, name, sizeof(name));
	uint64_t ratio;
	struct mode_view v;

	if (!loss_ratio(r, mode, m->threads, given, &ratio)) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "%s was not counted in the run alone or in the XSU %s run", given,
			 rule_mode_name(mode));
		return;
	}
	if (mode == XSU_MODE_OFF) {
		judge_loss_off(given, ratio, m, out);
		return;
	}
	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (!rule_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	if (mode == XSU_MODE_CORE) {
		judge_loss_core(r, m, given, ratio, out);
		return;
	}
	uint64_t high = 1000 + EXP_LOSS_MATCH_PCT * 10, low = 1000 - EXP_LOSS_MATCH_PCT * 10;
	uint64_t kept;
	bool model = kept_ratio(r, mode, m->threads, given, &kept);
	uint64_t judged = model ? kept : ratio;
	rule_set(out, judged >= low && judged <= high ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "with XSU %s %s %s at %llu per mille of %s alone (within %u%% expected: XSU "
		 "neither causes nor prevents the loss), exposure 0",
		 rule_mode_name(mode), given, model ? "keeps its true count" : "runs",
		 (unsigned long long)judged, model ? "what it keeps" : "its rate",
		 EXP_LOSS_MATCH_PCT);
}

static void describe_loss(const struct experiment *e, char *buf, size_t size)
{
	char name[PMU_EVENT_NAME_MAX];

	format_snprintf(buf, size,
			"XSU off (aligned): %s %u%% or more above the run alone where the CPU has "
			"the erratum; XSU on (with the half-of-the-counters limit): within %u%% of "
			"the run alone; XSU core: every corrupting count within %u%% of its true "
			"count (the model's; on real counters, of the aligned rate); exposure 0",
			rule_first_checked(e, name, sizeof(name)), EXP_LOSS_COMPENSATION_PCT,
			EXP_LOSS_MATCH_PCT, EXP_CORE_TRUE_PCT);
}

const struct exp_rule rule_loss = { "loss", describe_loss, annotate_loss, judge_loss };
