// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts (tests/experiments/verdict.h): an experiment's rule applied after the checks every
 * rule shares (runs measured, data enough, counters nobody else wrote), and the tally.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "kernel/lib/format.h"
#include "pmu/regs.h"
#include "pmu/xsu_mode.h"
#include "tests/experiments/verdict.h"

void exp_annotate(struct exp_results *r, unsigned index)
{
	const struct exp_rule *rule = r->exp->rule;

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

const char *exp_rule_text(const struct experiment *e, char *buf, size_t size)
{
	e->rule->describe(e, buf, size);
	return buf;
}

/* ---- judging a mode ------------------------------------------------------------------------- */

static bool run_serves_mode(const struct exp_run *run, unsigned mode)
{
	return exp_run_is_reference(run) || exp_run_in_mode(run, mode);
}

/*
 * Too little data to judge thread t of a run: each check below, in turn, says so in out (and
 * returns true) or passes. Each names the threshold it applied.
 */
typedef bool (*too_little_check)(const struct exp_run_result *run, unsigned t,
				 struct exp_verdict *out);

/* "the measured run of XSU on", into buf. */
static const char *run_words(const struct exp_run_result *run, char *buf, size_t size)
{
	format_snprintf(buf, size, "the %s run of XSU %s", rule_phase_word(run->run),
			rule_mode_name(run->run->xsu));
	return buf;
}

static bool did_no_work(const struct exp_run_result *run, unsigned t, struct exp_verdict *out)
{
	char in[48];

	if (run->thread[t].units)
		return false;
	rule_say(out,
		 "HT%u did no work in %s (it started after the run's end, or its CPU never ran): "
		 "nothing to judge",
		 t, run_words(run, in, sizeof(in)));
	return true;
}

/* The siblings did not count side by side (TH_OVERLAP): thread 1 says it for both. */
static bool apart(const struct exp_run_result *run, unsigned t, struct exp_verdict *out)
{
	char in[48], th[THRESHOLD_TEXT_MAX];

	if (t != 1 || run->overlap_pct >= threshold_of(TH_OVERLAP))
		return false;
	rule_say(out,
		 "the siblings counted side by side for %u%% of %s (a CPU started or stopped "
		 "late: held back by its host), below %s",
		 run->overlap_pct, run_words(run, in, sizeof(in)),
		 threshold_text(TH_OVERLAP, th, sizeof(th)));
	return true;
}

static bool multiplexed(const struct exp_thread_result *tr)
{
	for (unsigned i = 0; i < tr->nr_events; i++)
		if (tr->counts[i].reading.time_running < tr->counts[i].reading.time_enabled)
			return true;
	return false;
}

/* A multiplexed thread that lost too many ticks (TH_LOST_TICKS): it ran in bursts. */
static bool in_bursts(const struct exp_run_result *run, unsigned t, struct exp_verdict *out)
{
	const struct exp_thread_result *tr = &run->thread[t];
	char in[48], th[THRESHOLD_TEXT_MAX];

	if (!multiplexed(tr) ||
	    tr->ticks_lost * 100 <= (tr->ticks + tr->ticks_lost) * threshold_of(TH_LOST_TICKS))
		return false;
	rule_say(out,
		 "HT%u lost %llu of its %llu ticks in %s (its CPU ran in bursts), over %s: its "
		 "multiplexed counts cannot be scaled",
		 t, (unsigned long long)tr->ticks_lost,
		 (unsigned long long)(tr->ticks + tr->ticks_lost), run_words(run, in, sizeof(in)),
		 threshold_text(TH_LOST_TICKS, th, sizeof(th)));
	return true;
}

/* The count of tr whose thread's work, sampled as it was, is furthest from the work done
 * (mux_work_gap()), and how far, per mille; NULL when every gap is 0. */
static const struct exp_count *worst_pace(const struct exp_thread_result *tr, uint64_t *per_mille)
{
	const struct exp_count *worst = NULL;

	*per_mille = 0;
	for (unsigned i = 0; i < tr->nr_events; i++) {
		uint64_t off = mux_work_gap(&tr->counts[i].reading, 1000);
		if (off > *per_mille) {
			worst = &tr->counts[i];
			*per_mille = off;
		}
	}
	return worst;
}

/* A thread whose work, sampled as a count was, came too far off the work it did (TH_PACE). */
static bool uneven(const struct exp_run_result *run, unsigned t, struct exp_verdict *out)
{
	uint64_t pace;
	const struct exp_count *worst = worst_pace(&run->thread[t], &pace);
	char in[48], th[THRESHOLD_TEXT_MAX];

	if (!worst || pace <= threshold_of(TH_PACE) * 10)
		return false;
	rule_say(out,
		 "HT%u's own work, sampled as its %s was, came %llu.%llu%% off the %'llu units it "
		 "did in %s (its CPU ran in bursts), over %s: its multiplexed counts cannot be "
		 "scaled",
		 t, worst->event.name, (unsigned long long)pace / 10, (unsigned long long)pace % 10,
		 (unsigned long long)worst->reading.work_enabled, run_words(run, in, sizeof(in)),
		 threshold_text(TH_PACE, th, sizeof(th)));
	return true;
}

/* Too few ticks (TH_TICKS): to rotate multiplexed events, or to check XSU's guarantee at. */
static bool few_ticks(const struct exp_run_result *run, unsigned t, struct exp_verdict *out)
{
	const struct exp_thread_result *tr = &run->thread[t];
	char in[48], th[THRESHOLD_TEXT_MAX];

	if (tr->ticks >= threshold_of(TH_TICKS))
		return false;
	run_words(run, in, sizeof(in));
	threshold_text(TH_TICKS, th, sizeof(th));
	if (multiplexed(tr))
		rule_say(out,
			 "HT%u's events were multiplexed over %llu ticks in %s, below %s: a longer "
			 "dur_ms or a shorter mux_ms",
			 t, (unsigned long long)tr->ticks, in, th);
	else
		rule_say(out,
			 "HT%u ticked %llu times in %s, below %s: XSU's guarantee is checked at "
			 "ticks; a longer dur_ms or a shorter mux_ms",
			 t, (unsigned long long)tr->ticks, in, th);
	return true;
}

/* Too little data to judge: a skip, with the reason of the first check that finds it. */
static bool thread_too_little(const struct exp_run_result *run, unsigned t, struct exp_verdict *out)
{
	static const too_little_check checks[] = { did_no_work, apart, in_bursts, uneven,
						   few_ticks };

	for (unsigned i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (checks[i](run, t, out)) {
			rule_set(out, RESULT_SKIP, "too_little_data");
			return true;
		}
	return false;
}

/*
 * Why thread t's count was marked interfered, into out: the first register its own driver found
 * written behind the kernel's back, else the sibling's (the leak catcher that caught for it was
 * written): a counter that went down without an overflow, or a control register firmware
 * changed (read back every tick under xsu=core, pmu/handover.h).
 */
static void say_interfered(const struct exp_run_result *run, unsigned t, const struct exp_count *c,
			   struct exp_verdict *out)
{
	unsigned w = run->thread[t].interference.msr ? t : t ^ 1;
	const struct pmu_drv_interference *f = &run->thread[w].interference;
	const char *name = regs_msr_name(f->msr);

	if (name && !regs_msr_is_counter(f->msr))
		rule_say(out,
			 "HT%u %s in the %s run of XSU %s: firmware changed HT%u's %s behind the "
			 "kernel's back (read %#llx, written %#llx): the count cannot be trusted",
			 t, c->event.name, rule_phase_word(run->run), rule_mode_name(run->run->xsu),
			 w, name, (unsigned long long)f->read, (unsigned long long)f->wrote);
	else
		rule_say(out,
			 "HT%u %s in the %s run of XSU %s: %s went down without an overflow "
			 "(firmware or SMM code wrote it): the count cannot be trusted",
			 t, c->event.name, rule_phase_word(run->run), rule_mode_name(run->run->xsu),
			 w == t ? "its counter" : "its leak catcher on the sibling");
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
			say_interfered(run, t, c, out);
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
			if (thread_too_little(run, t, out))
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
	if (!e->rule->judge)
		return false;
	if (runs_judgeable(r, mode, m, out))
		e->rule->judge(r, mode, m, out);
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
