// SPDX-License-Identifier: GPL-2.0
/*
 * The suite: selection, memory for the workloads, records and tables, verdicts.
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/format.h"
#include "kernel/pair.h"
#include "kernel/pmu_core.h"
#include "kernel/record_stream.h"
#include "kernel/run.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "pmu/event_names.h"
#include "tests/experiments/runner.h"
#include "tests/experiments/suite.h"
#include "tests/experiments/summary.h"
#include "tests/experiments/verdict.h"

static const char *const phase_names[] = {
	[PHASE_MEASURE] = "measure",
	[PHASE_BASELINE] = "baseline",
	[PHASE_ALONE] = "alone",
	[PHASE_LIMIT] = "limit",
};
static const char *const workload_names[] = {
	[WORKLOAD_TRIAD] = "triad",
	[WORKLOAD_IDLE] = "idle",
};

static struct exp_settings settings;
static struct exp_results results;
static unsigned tally[3];
static struct summary summary;

static bool selected(const char *list, const char *name)
{
	return !strcmp(list, "all") || exp_list_contains(list, name);
}

static const char *sched_name(const struct exp_run *run)
{
	return exp_run_sched(run, settings.sched) == SCHED_GREEDY ? "greedy" : "hk";
}

/*
 * The `sched` of a verdict: the scheduler its mode's runs used, or "both" when they used
 * different ones, as a rule comparing the schedulers does (docs/records.md, `verdict`).
 */
static const char *mode_sched_name(const struct experiment *e, bool xsu_on)
{
	const struct exp_run *first = NULL;

	for (unsigned i = 0; i < e->nr_runs; i++) {
		const struct exp_run *run = &e->runs[i];
		if (!exp_run_in_mode(run, xsu_on))
			continue;
		if (!first)
			first = run;
		else if (exp_run_sched(run, settings.sched) != exp_run_sched(first, settings.sched))
			return "both";
	}
	return sched_name(first ? first : &e->runs[0]);
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

static void run_keys(struct record *r, const struct experiment *e, const struct exp_run *run)
{
	record_string(r, "exp", e->name);
	record_string(r, "phase", phase_names[run->phase]);
	record_string(r, "xsu", run->xsu ? "on" : "off");
	record_string(r, "sched", sched_name(run));
}

/* A run starts: res holds its lists as the runner parsed them (exp_run_setup). */
static void emit_exp(const struct experiment *e, const struct exp_run_result *res)
{
	static struct record r;
	const struct exp_run *run = res->run;

	record_begin(&r, "exp");
	run_keys(&r, e, run);
	record_string(&r, "title", e->title);
	record_string(&r, "section", e->section);
	record_string(&r, "rule", e->rule_text);
	record_begin_array(&r, "threads");
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		const struct exp_thread *th = &run->thread[t];
		const struct exp_thread_result *tr = &res->thread[t];
		record_begin_object(&r, NULL);
		record_uint(&r, "thread", t);
		record_uint(&r, "apic", the_pair.cpu[t]->apic_id);
		record_begin_array(&r, "events");
		for (unsigned i = 0; i < tr->nr_events; i++)
			record_string(&r, NULL, tr->counts[i].event.name);
		record_end_array(&r);
		record_uint(&r, "offset_ns", th->offset_ms * 1000000ull);
		record_string(&r, "workload", workload_names[th->workload]);
		record_end_object(&r);
	}
	record_end_array(&r);
	record_uint(&r, "duration_ns", settings.dur_ms * 1000000ull);
	record_uint(&r, "mux_ms", settings.mux_ms);
	record_begin_object(&r, "params");
	record_uint(&r, "triad_kib", settings.triad_elements * sizeof(double) / 1024);
	record_uint(&r, "triad_reps", settings.triad_reps);
	record_end_object(&r);
	if (e->rule == RULE_BASELINE) {
		record_begin_object(&r, "tolerance");
		record_uint(&r, "pct", EXP_TOLERANCE_PCT);
		record_uint(&r, "abs", EXP_TOLERANCE_ABS);
		record_end_object(&r);
	}
	record_emit(&r);
	kprintf("\n== %s, %s, XSU %s, %s: %s\n", e->name, phase_names[run->phase],
		run->xsu ? "on" : "off", sched_name(run), e->title);
	summary_run_started(&summary, e->name, phase_names[run->phase], run->xsu);
}

static void emit_counts(const struct experiment *e, const struct exp_run_result *res)
{
	const struct exp_run *run = res->run;

	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		const struct exp_thread_result *tr = &res->thread[t];
		kprintf("  HT%u (APIC %u), %llu units of %s:\n", t, the_pair.cpu[t]->apic_id,
			(unsigned long long)tr->units, workload_names[run->thread[t].workload]);
		for (unsigned i = 0; i < tr->nr_events; i++) {
			const struct exp_count *c = &tr->counts[i];
			static struct record r;
			char code[8], counter[12];
			format_snprintf(code, sizeof(code), "0x%04x", pmu_event_code(&c->event));
			counter_name(c->last_counter, counter, sizeof(counter));
			record_begin(&r, "count");
			run_keys(&r, e, run);
			record_uint(&r, "thread", t);
			record_uint(&r, "apic", the_pair.cpu[t]->apic_id);
			record_string(&r, "event", c->event.name);
			record_string(&r, "code", code);
			record_string(&r, "name", event_name_for(&c->event, the_pmu.info.uarch));
			record_bool(&r, "corrupting", c->corrupting);
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
			record_emit(&r);
			if (c->reading.counted)
				kprintf("  %'20llu  %-12s [%3u.%02u%%]%s\n",
					(unsigned long long)c->reading.scaled, c->event.name,
					c->reading.percent / 100, c->reading.percent % 100,
					c->has_baseline &&
							c->reading.scaled >
								c->baseline + c->tolerance &&
							!c->corrupting
						? "  <- corrupted"
						: "");
			else
				kprintf("  %20s  %-12s\n", "<not counted>", c->event.name);
		}
	}
}

static void emit_end(const struct experiment *e, const struct exp_run_result *res)
{
	static struct record r;
	uint64_t exposure = 0;

	record_begin(&r, "exp_end");
	run_keys(&r, e, res->run);
	record_uint(&r, "elapsed_ns", tsc_to_ns(res->elapsed_tsc));
	record_begin_array(&r, "ticks");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		record_uint(&r, NULL, res->thread[t].ticks);
	record_end_array(&r);
	record_begin_array(&r, "units");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		record_uint(&r, NULL, res->thread[t].units);
	record_end_array(&r);
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		exposure += res->thread[t].exposure;
	if (the_pmu.model)
		record_uint(&r, "exposure", exposure);
	else
		record_null(&r, "exposure");
	record_uint(&r, "invariant_violations",
		    res->thread[0].invariant_violations + res->thread[1].invariant_violations);
	record_uint(&r, "skew_tsc", res->skew_tsc);
	record_emit(&r);
	if (the_pmu.model)
		kprintf("  exposure: %llu ticks in which a corrupting event shared a counter index "
			"with the sibling\n",
			(unsigned long long)exposure);
}

static void emit_verdict(const struct experiment *e, bool xsu_on, const char *sched,
			 const struct exp_verdict *v)
{
	static struct record r;
	static const char *const results_text[] = { "pass", "fail", "skip" };

	record_begin(&r, "verdict");
	record_string(&r, "exp", e->name);
	record_string(&r, "xsu", xsu_on ? "on" : "off");
	record_string(&r, "sched", sched);
	record_string(&r, "result", results_text[v->result]);
	record_string(&r, "reason", v->reason);
	if (v->result == RESULT_SKIP)
		record_string(&r, "skip", v->skip);
	record_uint(&r, "exposure", v->exposure);
	record_uint(&r, "checked", v->checked);
	record_uint(&r, "corrupted", v->corrupted);
	record_emit(&r);
	kprintf("%s %s, XSU %s: %s\n",
		v->result == RESULT_PASS   ? "PASS"
		: v->result == RESULT_FAIL ? "FAIL"
					   : "SKIP",
		e->name, xsu_on ? "on" : "off", v->reason);
	tally[v->result]++;
	summary_verdict(&summary, e->name, xsu_on, sched, v->result);
	if (v->result == RESULT_FAIL) {
		/* The end record gives the first failure's reason: say which experiment it was. */
		static char first_failure[sizeof(v->reason) + 64];
		if (!run_failed())
			format_snprintf(first_failure, sizeof(first_failure), "%s, XSU %s: %s",
					e->name, xsu_on ? "on" : "off", v->reason);
		run_fail(first_failure[0] ? first_failure : "an experiment's verdict failed");
	}
}

/* Without a sibling thread, an experiment cannot show anything: it is skipped, saying why. */
static void skip_without_sibling(const struct experiment *e, const struct config *config)
{
	struct exp_verdict v = { .result = RESULT_SKIP, .skip = "no_smt" };

	format_snprintf(v.reason, sizeof(v.reason),
			"core %u has no SMT sibling: the cross-hyperthread experiment cannot run",
			the_pair.thread_count ? the_pair.cpu[0]->apic_id : 0);
	for (unsigned mode = 0; mode < 2; mode++) {
		bool xsu_on = mode == 1;
		if ((xsu_on && config->xsu == XSU_MODE_OFF) ||
		    (!xsu_on && config->xsu == XSU_MODE_ON))
			continue;
		if (exp_has_mode(e, xsu_on))
			emit_verdict(e, xsu_on, mode_sched_name(e, xsu_on), &v);
	}
}

static bool mode_selected(const struct config *config, const struct exp_run *run)
{
	if (exp_run_is_reference(run) || config->xsu == XSU_MODE_BOTH)
		return true;
	return run->xsu == (config->xsu == XSU_MODE_ON);
}

static void run_experiment(const struct experiment *e, const struct config *config,
			   const struct exp_machine *machine)
{
	memset(&results, 0, sizeof(results));
	results.exp = e;
	for (unsigned i = 0; i < e->nr_runs; i++) {
		const struct exp_run *run = &e->runs[i];
		struct exp_run_result *res = &results.runs[i];
		if (!mode_selected(config, run))
			continue;
		bool ready = exp_run_setup(run, &settings, res);
		emit_exp(e, res);
		if (ready)
			exp_run_measure(res);
		if (!res->done) {
			kprintf("  the run could not be measured: %s\n", res->error);
			record_warn("experiment", e->name, phase_names[run->phase], "", NULL,
				    res->error ? res->error : "the run could not be measured");
			continue;
		}
		exp_annotate(&results, i);
		emit_counts(e, res);
		emit_end(e, res);
	}
	for (unsigned mode = 0; mode < 2; mode++) {
		struct exp_verdict v;
		bool xsu_on = mode == 1;
		if (exp_judge(&results, xsu_on, machine, &v))
			emit_verdict(e, xsu_on, mode_sched_name(e, xsu_on), &v);
	}
}

/* The IEEE 754 double of an integer below 2^52, by integer arithmetic: kernel code has no SSE. */
static uint64_t double_bits(uint64_t k)
{
	if (!k)
		return 0;
	unsigned e = 63 - (unsigned)__builtin_clzll(k);
	return (uint64_t)(1023 + e) << 52 | ((k << (52 - e)) & ((1ull << 52) - 1));
}

/*
 * Parameters and triad's arrays for each thread, in memory ring 3 may use. triad's inputs are
 * written here, once, before any counter runs: written by triad itself they were megabytes of
 * stores at CPL 3 inside every measured run, which real counters counted and the model was not
 * told about. The values are small integers, so that c[i] = a[i] + k * b[i] stays exact.
 */
static bool allocate_workload_memory(const struct config *config)
{
	settings.triad_elements = (uint64_t)config->triad_kib * 1024 / sizeof(double);
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		uint64_t bytes = settings.triad_elements * sizeof(double);
		struct workload_params *p =
			(struct workload_params *)(uintptr_t)user_memory_alloc(sizeof(*p));
		uint64_t arrays = user_memory_alloc(3 * bytes);
		if (!p || !arrays)
			return false;
		p->a = (double *)(uintptr_t)arrays;
		p->b = (double *)(uintptr_t)(arrays + bytes);
		p->c = (double *)(uintptr_t)(arrays + 2 * bytes);
		p->elements = settings.triad_elements;
		p->chunk_units = 4096;
		for (uint64_t i = 0; i < p->elements; i++) {
			((uint64_t *)p->a)[i] = double_bits(i & 1023);
			((uint64_t *)p->b)[i] = double_bits((i * 7) & 1023);
		}
		settings.params[t] = p;
	}
	return true;
}

void experiments_run(const struct config *config)
{
	struct exp_machine machine = {
		.erratum = uarch_has_erratum(the_pmu.info.uarch),
		.model = the_pmu.model,
		.uarch = the_pmu.info.uarch->id == UARCH_GENERIC ? "unknown"
								 : the_pmu.info.uarch->name,
		.threads = the_pair.thread_count,
	};
	unsigned chosen = 0;

	if (!strcmp(config->exp, "none"))
		return;
	settings.dur_ms = config->dur_ms;
	settings.mux_ms = config->mux_ms;
	settings.triad_reps = config->triad_reps;
	settings.sched = config->sched == SCHED_MODE_HK ? SCHED_HOPCROFT_KARP : SCHED_GREEDY;
	if (the_pair.thread_count == 2 && !allocate_workload_memory(config)) {
		run_fail("no memory for the workloads' arrays (triad_kib too large?)");
		return;
	}
	for (unsigned i = 0; i < experiment_count; i++) {
		const struct experiment *e = &experiments[i];
		if (!selected(config->exp, e->name))
			continue;
		chosen++;
		if (the_pair.thread_count < 2)
			skip_without_sibling(e, config);
		else
			run_experiment(e, config, &machine);
	}
	summary_print(&summary);
	kprintf("\nexperiments: %u run, verdicts %u pass, %u fail, %u skip\n", chosen,
		tally[RESULT_PASS], tally[RESULT_FAIL], tally[RESULT_SKIP]);
}
