// SPDX-License-Identifier: GPL-2.0
/*
 * The suite: selection, records and tables, repetitions and verdicts.
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/lib/format.h"
#include "kernel/record_stream.h"
#include "kernel/end.h"
#include "tests/lib/check.h"
#include "kernel/tick_stats.h"
#include "kernel/time.h"
#include "pmu/counters.h"
#include "pmu/event_names.h"
#include "pmu/regs.h"
#include "tests/experiments/custom.h"
#include "tests/experiments/runner.h"
#include "tests/experiments/stand_in.h"
#include "tests/experiments/suite.h"
#include "tests/experiments/verdict.h"

static const char *const phase_names[PHASE_COUNT] = {
	[PHASE_MEASURE] = "measure",
	[PHASE_BASELINE] = "baseline",
	[PHASE_ALONE] = "alone",
	[PHASE_LIMIT] = "limit",
};

static const char *sched_name(const struct suite *s, const struct exp_run *run)
{
	return exp_run_sched(run, s->settings.sched) == SCHED_GREEDY ? "greedy" : "hk";
}

/*
 * The `sched` of a verdict: the scheduler its mode's runs used, or "both" when they used
 * different ones, as a rule comparing the schedulers does (docs/records.md, `verdict`).
 */
static const char *mode_sched_name(const struct suite *s, const struct experiment *e, unsigned mode)
{
	const struct exp_run *first = NULL;

	for (unsigned i = 0; i < e->nr_runs; i++) {
		const struct exp_run *run = &e->runs[i];
		if (!exp_run_in_mode(run, mode))
			continue;
		if (!first)
			first = run;
		else if (exp_run_sched(run, s->settings.sched) !=
			 exp_run_sched(first, s->settings.sched))
			return "both";
	}
	return sched_name(s, first ? first : &e->runs[0]);
}

static void counter_name(int counter, char *buf, size_t size)
{
	if (counter < 0)
		buf[0] = 0;
	else if (counter >= PMU_FIXED_BASE)
		format_snprintf(buf, size, "fixed%d", counter - PMU_FIXED_BASE);
	else
		format_snprintf(buf, size, "gp%d", counter);
}

static void run_keys(struct record *r, const struct suite *s, const struct experiment *e,
		     const struct exp_run *run)
{
	record_string(r, "exp", e->name);
	record_string(r, "phase", phase_names[run->phase]);
	record_string(r, "xsu", xsu_mode_name(run->xsu));
	record_string(r, "sched", sched_name(s, run));
	record_uint(r, "rep", s->results.rep);
	if (e->policies)
		record_string(
			r, "policy",
			exp_run_policy(run, exp_run_sched(run, s->settings.sched) == SCHED_HK));
}

static void thread_keys(const struct suite *s, struct record *r, const struct exp_run *run,
			const struct exp_run_result *res, unsigned t)
{
	const struct exp_thread *th = &run->thread[t];
	const struct exp_thread_result *tr = &res->thread[t];

	record_begin_object(r, NULL);
	record_uint(r, "thread", t);
	record_uint(r, "apic", s->settings.pair->cpu[t]->apic_id);
	record_begin_array(r, "events");
	for (unsigned i = 0; i < tr->nr_events; i++)
		record_string(r, NULL, tr->counts[i].event.name);
	record_end_array(r);
	record_uint(r, "offset_ns", th->offset_ms * 1000000ull);
	record_string(r, "workload", th->workload);
	record_end_object(r);
}

/* The experiment whose exp record said what it is (title, section, rule): its first run's. */
static const struct experiment *described;

/* A run starts: res holds its lists as the runner parsed them (exp_run_setup). */
static void emit_exp(const struct suite *s, const struct experiment *e,
		     const struct exp_run_result *res)
{
	static struct record r;
	static char rule[512];
	const struct exp_run *run = res->run;

	record_begin(&r, "exp");
	run_keys(&r, s, e, run);
	record_uint(&r, "repeat", s->config->repeat);
	/* What the experiment is, once: in the record of its first run. Its later runs repeated
	 * about 600 bytes each, which the QR codes (deflated a code at a time) paid for in full. */
	if (described != e) {
		described = e;
		record_string(&r, "title", e->title);
		record_string(&r, "section", e->section);
		record_string(&r, "rule", exp_rule_text(e, rule, sizeof(rule)));
		if (e->note)
			record_string(&r, "description", e->note);
	}
	if (run->label)
		record_string(&r, "lists", run->label);
	record_begin_array(&r, "threads");
	for (unsigned t = 0; t < s->settings.pair->thread_count; t++)
		thread_keys(s, &r, run, res, t);
	record_end_array(&r);
	record_uint(&r, "duration_ns", s->settings.dur_ms * 1000000ull);
	record_uint(&r, "mux_ms", s->settings.mux_ms);
	record_begin_object(&r, "params");
	record_uint(&r, "triad_kib", s->settings.workloads.triad_kib);
	record_uint(&r, "chase_kib", s->settings.workloads.chase_kib);
	record_uint(&r, "triad_reps", s->settings.triad_reps);
	record_end_object(&r);
	if (e->rule == &rule_baseline) {
		record_begin_object(&r, "tolerance");
		record_uint(&r, "pct", threshold_of(TH_BASELINE));
		record_uint(&r, "abs", threshold_of(TH_BASELINE_FLOOR));
		record_end_object(&r);
	}
	record_emit(&r);
	kprintf("\n== %s, %s, XSU %s, %s: %s\n", e->name, phase_names[run->phase],
		xsu_mode_name(run->xsu), sched_name(s, run), e->title);
	if (s->config->repeat > 1)
		kprintf("   repetition %u of %u\n", s->results.rep + 1, s->config->repeat);
}

static void emit_count(const struct suite *s, const struct experiment *e, const struct exp_run *run,
		       unsigned t, const struct exp_count *c)
{
	static struct record r;
	char code[8], counter[12];

	format_snprintf(code, sizeof(code), "0x%04x", pmu_event_code(&c->event));
	counter_name(c->last_counter, counter, sizeof(counter));
	record_begin(&r, "count");
	run_keys(&r, s, e, run);
	record_uint(&r, "thread", t);
	record_uint(&r, "apic", s->settings.pair->cpu[t]->apic_id);
	record_string(&r, "event", c->event.name);
	record_string(&r, "code", code);
	record_string(&r, "name", event_name_for(&c->event, s->settings.pmu->info.uarch));
	record_bool(&r, "corrupting", c->corrupting);
	record_bool(&r, "any_thread", c->event.any);
	record_bool(&r, "interfered", c->interfered);
	record_string(&r, "counter", counter[0] ? counter : NULL);
	record_uint(&r, "raw", c->reading.raw);
	record_uint(&r, "enabled", c->reading.time_enabled);
	record_uint(&r, "running", c->reading.time_running);
	if (c->reading.counted)
		record_uint(&r, "scaled", c->reading.scaled);
	else
		record_null(&r, "scaled");
	if (c->has_baseline) {
		record_uint(&r, "baseline", c->baseline);
		record_uint(&r, "tolerance", c->tolerance);
	}
	if (run->xsu == XSU_MODE_CORE)
		record_uint(&r, "leak", c->leak);
	if (c->has_true)
		record_uint(&r, "true", c->truth);
	else if (s->settings.pmu->model)
		record_null(&r, "true");
	record_emit(&r);
}

static void print_count(const struct exp_count *c)
{
	bool corrupted =
		c->has_baseline && !c->corrupting && c->reading.scaled > c->baseline + c->tolerance;

	if (c->reading.counted)
		kprintf("  %'20llu  %-12s [%3u.%02u%%]%s%s\n",
			(unsigned long long)c->reading.scaled, c->event.name,
			c->reading.percent / 100, c->reading.percent % 100,
			corrupted ? "  <- corrupted" : "",
			c->interfered ? "  <- counter written behind the kernel's back" : "");
	else
		kprintf("  %20s  %-12s\n", "<not counted>", c->event.name);
}

static void emit_counts(const struct suite *s, const struct experiment *e,
			const struct exp_run_result *res)
{
	const struct exp_run *run = res->run;

	for (unsigned t = 0; t < s->settings.pair->thread_count; t++) {
		const struct exp_thread_result *tr = &res->thread[t];
		kprintf("  HT%u (APIC %u), %llu units of %s:\n", t,
			s->settings.pair->cpu[t]->apic_id, (unsigned long long)tr->units,
			run->thread[t].workload);
		for (unsigned i = 0; i < tr->nr_events; i++) {
			emit_count(s, e, run, t, &tr->counts[i]);
			print_count(&tr->counts[i]);
		}
	}
}

static void per_thread(struct record *r, const char *key, const struct exp_run_result *res,
		       unsigned threads, size_t offset)
{
	record_begin_array(r, key);
	for (unsigned t = 0; t < threads; t++)
		record_uint(r, NULL, *(const uint64_t *)((const char *)&res->thread[t] + offset));
	record_end_array(r);
}

/* A per-thread figure in hundredths, as a number with two decimals. */
static void per_thread_centi(struct record *r, const char *key, const struct exp_run_result *res,
			     unsigned threads, size_t offset)
{
	record_begin_array(r, key);
	for (unsigned t = 0; t < threads; t++)
		record_fixed(r, NULL,
			     (int64_t) * (const uint64_t *)((const char *)&res->thread[t] + offset),
			     2);
	record_end_array(r);
}

/* The register accesses and the handler's time: what the measurement costs (docs/cost.md). */
static void emit_cost(struct record *r, const struct exp_run_result *res, unsigned threads)
{
	per_thread(r, "tick_tsc_total", res, threads,
		   offsetof(struct exp_thread_result, tick_tsc_total));
	per_thread_centi(r, "msr_writes_per_tick", res, threads,
			 offsetof(struct exp_thread_result, writes_per_tick_centi));
	per_thread_centi(r, "msr_reads_per_tick", res, threads,
			 offsetof(struct exp_thread_result, reads_per_tick_centi));
	per_thread_centi(r, "pace_pct", res, threads,
			 offsetof(struct exp_thread_result, pace_centi));
	if (res->smi_known)
		record_uint(r, "smi_count", res->smi_count);
	else
		record_null(r, "smi_count");
}

/* A handover IPI that had to be sent again: said, with the word the harness looks for. */
static void warn_retries(const struct experiment *e, const struct exp_run_result *res)
{
	static char value[24], message[200];

	if (res->run->xsu != XSU_MODE_CORE || !res->joint_retries)
		return;
	format_snprintf(value, sizeof(value), "%llu", (unsigned long long)res->joint_retries);
	format_snprintf(
		message, sizeof(message),
		"%s: thread 1 had not answered a core-wide handover by thread 0's next tick "
		"(its IPI late or lost), so the handover IPI was sent again, %s times",
		e->name, value);
	record_warn("experiment", "joint_retries", value, "", NULL, message);
}

/* Raised ticks whose IPI stayed pending (tick_send() refused): said, with the count. */
static void warn_send_failures(const struct experiment *e, const struct exp_run_result *res)
{
	static char value[24], message[200];

	if (res->run->xsu != XSU_MODE_CORE || !res->joint_send_failures)
		return;
	format_snprintf(value, sizeof(value), "%llu", (unsigned long long)res->joint_send_failures);
	format_snprintf(message, sizeof(message),
			"%s: %s core-wide handover IPIs stayed pending (the local APIC's ICR was "
			"busy): tick_send() did not send them, and a later tick took their steps",
			e->name, value);
	record_warn("experiment", "joint_send_failures", value, "", NULL, message);
}

/*
 * A register written behind the kernel's back (pmu/driver.h): the first on each thread, named, as
 * the counts it touched are marked interfered and their verdict fails.
 */
static void warn_interference(const struct experiment *e, const struct exp_run_result *res,
			      unsigned threads)
{
	/* What was found, by the register's kind: read, then written (or last read). */
	static const char *const found[2] = {
		"read %#llx where the kernel wrote %#llx (firmware changed it: the counters it "
		"stopped or started are marked interfered",
		"went down without an overflow, to %#llx from %#llx (firmware or SMM code wrote it",
	};
	static char what[160], message[300];

	for (unsigned t = 0; t < threads; t++) {
		const struct pmu_drv_interference *f = &res->thread[t].interference;
		const char *name = regs_msr_name(f->msr);
		if (!f->msr || !name)
			continue;
		format_snprintf(what, sizeof(what), found[regs_msr_is_counter(f->msr)],
				(unsigned long long)f->read, (unsigned long long)f->wrote);
		format_snprintf(message, sizeof(message),
				"%s: HT%u's %s %s; %llu register(s) written behind the kernel's "
				"back in the run)",
				e->name, t, name, what,
				(unsigned long long)res->thread[t].interferences);
		record_warn("experiment", "interfered", name, "", NULL, message);
	}
}

/* A tick slowed down because its handler took longer than the tick: said, per thread. */
static void warn_slowed(const struct experiment *e, const struct exp_run_result *res,
			unsigned threads)
{
	static char value[24], message[240];

	for (unsigned t = 0; t < threads; t++) {
		uint64_t slowed = res->thread[t].tick_slowed;
		if (!slowed)
			continue;
		format_snprintf(value, sizeof(value), "%llu", (unsigned long long)slowed);
		format_snprintf(
			message, sizeof(message),
			"%s: HT%u's tick handler took longer than the tick %u times in a row, "
			"so the tick was slowed down %s times (to %llu times mux_ms): the "
			"run has fewer ticks (a hypervisor that runs the kernel slowly)",
			e->name, t, TICK_OVERRUNS, value, 1ull << slowed);
		record_warn("experiment", "tick_slowed", value, "", NULL, message);
	}
}

static void emit_end(const struct suite *s, const struct experiment *e,
		     const struct exp_run_result *res)
{
	static struct record r;
	uint64_t exposure = 0;
	unsigned threads = s->settings.pair->thread_count;

	record_begin(&r, "exp_end");
	run_keys(&r, s, e, res->run);
	record_uint(&r, "elapsed_ns", tsc_to_ns(res->elapsed_tsc));
	per_thread(&r, "ticks", res, threads, offsetof(struct exp_thread_result, ticks));
	per_thread(&r, "units", res, threads, offsetof(struct exp_thread_result, units));
	per_thread(&r, "tick_tsc_mean", res, threads,
		   offsetof(struct exp_thread_result, tick_tsc_mean));
	per_thread(&r, "tick_tsc_max", res, threads,
		   offsetof(struct exp_thread_result, tick_tsc_max));
	per_thread(&r, "ticks_late", res, threads, offsetof(struct exp_thread_result, ticks_late));
	per_thread(&r, "ticks_lost", res, threads, offsetof(struct exp_thread_result, ticks_lost));
	emit_cost(&r, res, threads);
	for (unsigned t = 0; t < s->settings.pair->thread_count; t++)
		exposure += res->thread[t].exposure;
	if (s->settings.pmu->model)
		record_uint(&r, "exposure", exposure);
	else
		record_null(&r, "exposure");
	record_uint(&r, "invariant_violations",
		    res->thread[0].invariant_violations + res->thread[1].invariant_violations);
	record_uint(&r, "skew_tsc", res->skew_tsc);
	record_uint(&r, "overlap_pct", res->overlap_pct);
	if (res->run->xsu == XSU_MODE_CORE) {
		record_uint(&r, "joint_unanswered", res->joint_unanswered);
		record_fixed(&r, "joint_gap_pct", res->joint_gap_per_mille, 1);
		record_uint(&r, "handovers", res->handovers);
		record_uint(&r, "joint_retries", res->joint_retries);
		record_uint(&r, "joint_send_failures", res->joint_send_failures);
	}

	record_emit(&r);
	warn_retries(e, res);
	warn_send_failures(e, res);
	warn_interference(e, res, threads);
	warn_slowed(e, res, threads);
	if (s->settings.pmu->model)
		kprintf("  exposure: %llu ticks in which a corrupting event shared a counter index "
			"with the sibling\n",
			(unsigned long long)exposure);
}

void suite_emit_verdict(struct suite *s, const struct experiment *e, unsigned mode,
			const char *sched, const struct exp_verdict *v)
{
	static struct record r;
	static const char *const results_text[] = { "pass", "fail", "skip" };

	record_begin(&r, "verdict");
	record_string(&r, "exp", e->name);
	record_string(&r, "xsu", xsu_mode_name(mode));
	record_string(&r, "sched", sched);
	record_string(&r, "result", results_text[v->result]);
	record_string(&r, "reason", v->reason);
	if (v->result == RESULT_SKIP)
		record_string(&r, "skip", v->skip);
	record_uint(&r, "exposure", v->exposure);
	record_uint(&r, "checked", v->checked);
	record_uint(&r, "corrupted", v->corrupted);
	kprintf("%s %s, XSU %s: %s\n",
		v->result == RESULT_PASS   ? "PASS"
		: v->result == RESULT_FAIL ? "FAIL"
					   : "SKIP",
		e->name, xsu_mode_name(mode), v->reason);
	s->tally[v->result]++;
	summary_verdict(&s->summary, e->name, mode, sched, v->result);
	/* The end record gives the first failure's reason: say which experiment it was. */
	static char first_failure[sizeof(v->reason) + 64];
	if (v->result == RESULT_FAIL && !boot_failed())
		format_snprintf(first_failure, sizeof(first_failure), "%s, XSU %s: %s", e->name,
				xsu_mode_name(mode), v->reason);
	report(&r, v->result != RESULT_FAIL,
	       first_failure[0] ? first_failure : "an experiment's verdict failed");
}

bool suite_mode_selected(const struct suite *s, unsigned mode)
{
	return s->config->xsu & XSU_MODE_BIT(mode);
}

/* The verdict v for every selected mode the experiment has. */
static void skip_all_modes(struct suite *s, const struct experiment *e, const struct exp_verdict *v)
{
	for (unsigned mode = 0; mode < XSU_MODE_COUNT; mode++)
		if (suite_mode_selected(s, mode) &&
		    (e->measure ? mode == XSU_MODE_OFF : exp_has_mode(e, mode)))
			suite_emit_verdict(s, e, mode, mode_sched_name(s, e, mode), v);
}

/* Without a sibling thread, an experiment cannot show anything: it is skipped, saying why. */
static void skip_without_sibling(struct suite *s, const struct experiment *e)
{
	struct exp_verdict v = { .result = RESULT_SKIP, .skip = "no_smt" };

	format_snprintf(v.reason, sizeof(v.reason),
			"core %u has no SMT sibling: the cross-hyperthread experiment cannot run",
			s->settings.pair->thread_count ? s->settings.pair->cpu[0]->apic_id : 0);
	skip_all_modes(s, e, &v);
}

/* One repetition: every selected run, then each mode's verdict of it into tallies[mode]. */
static void measure_repetition(struct suite *s, const struct experiment *e, unsigned rep,
			       struct exp_verdict_tally *tallies)
{
	struct exp_results *results = &s->results;

	memset(results, 0, sizeof(*results));
	results->exp = e;
	results->rep = rep;
	for (unsigned i = 0; i < e->nr_runs; i++) {
		const struct exp_run *run = &e->runs[i];
		struct exp_run_result *res = &results->runs[i];
		if (!exp_run_selected(run, s->config->xsu))
			continue;
		struct measurement *m = exp_run_setup(run, &s->settings, &s->run, res);
		emit_exp(s, e, res);
		summary_run_started(&s->summary, e->name, phase_names[run->phase],
				    xsu_mode_name(run->xsu));
		if (m)
			exp_run_measure(m, res);
		if (!res->done) {
			kprintf("  the run could not be measured: %s\n", res->error);
			record_warn("experiment", e->name, phase_names[run->phase], "", NULL,
				    res->error ? res->error : "the run could not be measured");
			continue;
		}
		exp_annotate(results, i);
		emit_counts(s, e, res);
		emit_end(s, e, res);
	}
	for (unsigned mode = 0; mode < XSU_MODE_COUNT; mode++) {
		struct exp_verdict v;
		if (suite_mode_selected(s, mode) && exp_judge(results, mode, &s->machine, &v))
			exp_verdict_add(&tallies[mode], &v, rep, s->config->repeat);
	}
}

static void run_experiment(struct suite *s, const struct experiment *e)
{
	struct exp_verdict_tally tallies[XSU_MODE_COUNT];

	memset(tallies, 0, sizeof(tallies));
	for (unsigned rep = 0; rep < s->config->repeat; rep++)
		measure_repetition(s, e, rep, tallies);
	for (unsigned mode = 0; mode < XSU_MODE_COUNT; mode++) {
		struct exp_verdict_tally *t = &tallies[mode];
		if (!t->seen)
			continue;
		if (s->config->repeat > 1 && t->verdict.result == RESULT_PASS) {
			char passed[64];
			if (t->skipped)
				format_snprintf(passed, sizeof(passed),
						" (repetitions: %u passed, %u skipped)", t->passed,
						t->skipped);
			else
				format_snprintf(passed, sizeof(passed), " (all %u repetitions)",
						t->passed);
			size_t len = strlen(t->verdict.reason);
			format_snprintf(t->verdict.reason + len, sizeof(t->verdict.reason) - len,
					"%s", passed);
		}
		suite_emit_verdict(s, e, mode, mode_sched_name(s, e, mode), &t->verdict);
	}
}

/* ---- the selection -------------------------------------------------------------------------- */

/* Every experiment exp= can name: the thesis's table, then those that make their own runs. */
static const struct experiment *experiment_at(unsigned i)
{
	return i < experiment_count    ? &experiments[i]
	       : i == experiment_count ? &survey_experiment
				       : NULL;
}

const char *const *suite_experiment_names(void)
{
	static const char *names[EXP_NAMES_MAX + 1];

	for (unsigned i = 0; i < EXP_NAMES_MAX && experiment_at(i); i++)
		names[i] = experiment_at(i)->name;
	return names;
}

/* Without counters nothing can be measured: every experiment is skipped, saying why. */
static void skip_without_pmu(struct suite *s, const struct experiment *e)
{
	struct exp_verdict v = { .result = RESULT_SKIP, .skip = "no_pmu" };

	format_snprintf(v.reason, sizeof(v.reason),
			"no counters to measure with: %s (pmu=model runs the experiments on the "
			"model PMU, which measures nothing real)",
			s->settings.pmu->choice.reason);
	skip_all_modes(s, e, &v);
}

static void run_selected_experiment(struct suite *s, const struct experiment *e)
{
	static struct exp_adapted adapted;

	e = exp_adapt(e, s->settings.pmu->info.uarch, &adapted);
	if (!s->settings.pmu->counts)
		skip_without_pmu(s, e);
	else if (s->settings.pair->thread_count < 2)
		skip_without_sibling(s, e);
	else if (e->measure)
		e->measure(e, s);
	else
		run_experiment(s, e);
}

void experiments_run(const struct payload_env *env, const struct payload_config *config)
{
	static struct suite suite;
	static struct workload_memory memory;
	static struct custom_run custom;
	static char cpu_name[64];
	struct suite *s = &suite;
	unsigned chosen = 0;

	s->config = config;
	s->machine = (struct exp_machine){
		.erratum = uarch_has_erratum(env->pmu->info.uarch),
		.model = env->pmu->model,
		.uarch = pmu_cpu_name(env->pmu, cpu_name, sizeof(cpu_name)),
		.threads = env->pair->thread_count,
	};
	s->settings = (struct exp_settings){
		.pmu = env->pmu,
		.pair = env->pair,
		.dur_ms = config->dur_ms,
		.mux_ms = config->mux_ms,
		.triad_reps = config->triad_reps,
		.sched = config->sched,
		.workloads = { .triad_kib = config->triad_kib, .chase_kib = config->chase_kib },
		.memory = &memory,
	};
	/* Given ht0= or ht1=, the run they define runs, whatever exp= says (none included). */
	const char *list = exp_selection(config);
	bool custom_ready = custom_build(config, &custom);
	for (unsigned i = 0; experiment_at(i); i++) {
		if (!exp_selected(list, experiment_at(i)))
			continue;
		chosen++;
		run_selected_experiment(s, experiment_at(i));
	}
	if (custom_ready) {
		chosen++;
		run_selected_experiment(s, &custom.exp);
	}
	summary_print(&s->summary);
	kprintf("\nexperiments: %u run, verdicts %u pass, %u fail, %u skip\n", chosen,
		s->tally[RESULT_PASS], s->tally[RESULT_FAIL], s->tally[RESULT_SKIP]);
}
