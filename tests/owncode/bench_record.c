// SPDX-License-Identifier: GPL-2.0
/*
 * The `bench` and `bench_result` records (docs/records.md), every key in every record.
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "kernel/record.h"
#include "kernel/record_stream.h"
#include "pmu/counters.h"
#include "pmu/cpu_names.h"
#include "tests/owncode/aggregate.h"
#include "tests/owncode/bench_state.h"

static void options(struct record *r, const struct bundle_params *p)
{
	record_begin_object(r, "options");
	record_uint(r, "unroll_count", p->unroll_count);
	record_uint(r, "loop_count", p->loop_count);
	record_uint(r, "n_measurements", p->n_measurements);
	record_uint(r, "warm_up_count", p->warm_up_count);
	record_uint(r, "initial_warm_up_count", p->initial_warm_up_count);
	record_uint(r, "alignment_offset", p->alignment_offset);
	record_string(r, "aggregate", bundle_aggregate_name(p->aggregate));
	record_bool(r, "basic_mode", p->flags & BUNDLE_BASIC_MODE);
	record_bool(r, "no_normalization", p->flags & BUNDLE_NO_NORMALIZATION);
	record_bool(r, "usr", p->flags & BUNDLE_USR);
	record_bool(r, "os", p->flags & BUNDLE_OS);
	record_bool(r, "fixed_counters", p->flags & BUNDLE_FIXED_COUNTERS);
	record_bool(r, "range", p->flags & BUNDLE_RANGE);
	record_bool(r, "remove_empty_events", p->flags & BUNDLE_REMOVE_EMPTY);
	record_bool(r, "verbose", p->flags & BUNDLE_VERBOSE);
	record_bool(r, "df", p->flags & BUNDLE_DF);
	record_bool(r, "no_mem", p->flags & BUNDLE_NO_MEM);
	record_string(r, "xsu", xsu_mode_name(p->xsu));
	record_uint(r, "ring", p->ring);
	record_string(r, "sibling", bundle_sibling_name(p->sibling));
	record_string(r, "sibling_work", p->sibling_work);
	record_end_object(r);
}

static void parts(struct record *r, const struct bundle *b)
{
	record_begin_object(r, "parts");
	for (unsigned p = 0; p < BUNDLE_PARTS; p++)
		record_uint(r, bundle_part_name(p), b->part[p].size);
	record_end_object(r);
}

void bench_record_bundle(const struct bench_state *s, unsigned index, const struct boot_module *m,
			 enum bundle_status status, const char *reason)
{
	static struct record r;
	bool header = status != BUNDLE_TRUNCATED && status != BUNDLE_BAD_MAGIC;
	bool read = status == BUNDLE_OK;
	const uint8_t *h = (const uint8_t *)(uintptr_t)m->base;

	record_begin(&r, "bench");
	record_uint(&r, "bench", index);
	record_string(&r, "source", s->source);
	record_string(&r, "name", m->name[0] ? m->name : NULL);
	record_uint(&r, "size", m->size);
	if (header) {
		char crc[16];
		format_snprintf(crc, sizeof(crc), "0x%08x",
				h[16] | h[17] << 8 | h[18] << 16 | (uint32_t)h[19] << 24);
		record_string(&r, "crc32", crc);
		record_uint(&r, "version", (unsigned)(h[8] | h[9] << 8));
	} else {
		record_null(&r, "crc32");
		record_null(&r, "version");
	}
	record_string(&r, "error", reason);
	if (read) {
		options(&r, &s->b.params);
		parts(&r, &s->b);
		record_begin_array(&r, "events");
		record_uint(&r, NULL, s->b.event_count[0]);
		record_uint(&r, NULL, s->b.event_count[1]);
		record_end_array(&r);
		record_uint(&r, "repetitions", bundle_repetitions(&s->b.params));
	} else {
		record_null(&r, "options");
		record_null(&r, "parts");
		record_null(&r, "events");
		record_null(&r, "repetitions");
	}
	record_emit(&r);
}

static void fault(struct record *r, const struct bench_fault *f)
{
	if (!f) {
		record_null(r, "fault");
		return;
	}
	record_begin_object(r, "fault");
	record_string(r, "vector", f->vector);
	record_string(r, "part", bundle_part_name(f->part));
	if (f->has_offset)
		record_uint(r, "offset", f->offset);
	else
		record_null(r, "offset");
	record_end_object(r);
}

/* HT0's value: nanoBench's, the run sets' aggregates' difference per repetition, into *value;
 * false when there are no runs. Sorts copies of the counts. */
static bool ht0_value(const struct bench_state *s, const struct bench_result *res, int64_t agg[2],
		      int64_t *value)
{
	int64_t sorted[BUNDLE_MAX_MEASUREMENTS];
	const struct bundle_params *p = &s->b.params;
	bool whole = p->flags & BUNDLE_NO_NORMALIZATION;

	if (!res->kept)
		return false;
	for (unsigned k = 0; k < 2; k++) {
		memcpy(sorted, res->runs[k], res->kept * sizeof(sorted[0]));
		agg[k] = bench_run_aggregate(sorted, res->kept, p->aggregate, whole);
	}
	*value = bench_run_difference(agg[1], agg[0], bundle_repetitions(p));
	return true;
}

/* A count that went backwards is named, never printed: why, or NULL when it did not. */
static const char *went_backwards(const struct bench_state *s, unsigned t,
				  const struct bench_result *res, char *buf, size_t size)
{
	int64_t agg[2], v;

	if (res->written)
		return "went backwards: its counter read lower at the end of a run than at its "
		       "start (no 48-bit counter wraps in a bundle: firmware or SMM code wrote "
		       "it), "
		       "so no count can be trusted";
	if (t == 0 && ht0_value(s, res, agg, &v) && v < 0) {
		format_snprintf(buf, size,
				"went backwards: the runs with 2N copies counted less than those "
				"with N (%s of their counts %lld.%02lld against %lld.%02lld): what "
				"one copy does is lost in the noise",
				bundle_aggregate_name(s->b.params.aggregate),
				(long long)(agg[1] / 100), (long long)(agg[1] % 100),
				(long long)(agg[0] / 100), (long long)(agg[0] % 100));
		return buf;
	}
	if (t == 0 || !bench_backwards_too_many(res->backwards, res->n + res->backwards))
		return NULL;
	format_snprintf(buf, size,
			"went backwards: in %u of %u measurements the longer run counted less "
			"than the shorter one (below zero per copy): what one copy does is lost in "
			"the noise",
			res->backwards, res->n + res->backwards);
	return buf;
}

/* The refusal of an event the CPU's list does not have, naming the CPU. */
static const char *absent(const struct bench_state *s, const struct bundle_event *e, char *buf,
			  size_t size)
{
	const char *cpu = cpu_name(&s->pmu->info);

	format_snprintf(
		buf, size,
		"refused: no such event on %s: Intel's list of its events "
		"(pmu/intel_core_events.txt) has no event select 0x%02x with unit mask 0x%02x",
		cpu ? cpu : "this CPU", (unsigned)(uint8_t)e->evtsel,
		(unsigned)(uint8_t)(e->evtsel >> 8));
	return buf;
}

/* Not modelled on a CPU the kernel has no list of events for, naming the CPU. */
static const char *unknown_cpu(const struct bench_state *s, const struct bundle_event *e, char *buf,
			       size_t size)
{
	const struct pmu_info *i = &s->pmu->info;
	const char *cpu = cpu_name(i);

	format_snprintf(
		buf, size,
		"not modelled: the kernel has no list of %s's events (family %u, model "
		"0x%02x), so what %s counts there is not known; only the architectural events "
		"(SDM vol. 3B, 18.2.1.2) are modelled",
		cpu ? cpu : "this CPU", i->family, i->model, e->spec);
	return buf;
}

/* The event's count comes from the trace of HT0's runs (not the TSC, not LBR_INSERTS). */
static bool from_trace(const struct bench_state *s, unsigned t, const struct bundle_event *e)
{
	return s->pmu->model && t == 0 && !bench_trace_needs_none(e) &&
	       (e->kind == BUNDLE_EVENT_FIXED || bench_trace_modelled(e->evtsel));
}

/* Why a counted event of thread t has no value under the model; NULL when it has one. */
static const char *unmodelled(const struct bench_state *s, unsigned t, const struct bundle_event *e,
			      const struct bench_result *res, char *buf, size_t size)
{
	if (s->untraced && !bench_trace_needs_none(e))
		return "not modelled: bench_trace=off: the code ran untraced, as on a real "
		       "machine, and only the cycles (the TSC) and LBR_INSERTS need no trace";
	if (res->unknown_cpu)
		return unknown_cpu(s, e, buf, size);
	if (s->pmu->model && e->kind == BUNDLE_EVENT_GP && !bench_trace_modelled(e->evtsel))
		return "not modelled: a trace of the code gives instructions, branches, calls, "
		       "returns, loads and stores; cycles come from the TSC";
	if (s->trace_failed && from_trace(s, t, e))
		return s->trace_failed;
	return NULL;
}

/* Why thread t's event e has no value; NULL when it has one. */
static const char *no_value(const struct bench_state *s, unsigned t, const struct bundle_event *e,
			    const struct bench_result *res, char *buf, size_t size)
{
	/* The thread's own fault names why its events did not count; the bundle's otherwise. */
	const struct bench_fault *f = s->x.thread[t].set ? &s->x.thread[t] : &s->x.fault;

	if (e->kind == BUNDLE_EVENT_REFUSED)
		return e->reason;
	if (res->absent)
		return absent(s, e, buf, size);
	if (res->refused) {
		format_snprintf(buf, size, "refused: %s", res->refused);
		return buf;
	}
	if (!res->counted && f->set) {
		format_snprintf(buf, size,
				"fault: the bundle ended (%s in part %s) before it counted",
				f->vector, bundle_part_name(f->part));
		return buf;
	}
	if (!res->counted)
		return "counter restriction: no counter of this PMU can count it (.CTR= or "
		       "counters the sibling holds)";
	const char *why = unmodelled(s, t, e, res, buf, size);
	return why ? why : went_backwards(s, t, res, buf, size);
}

static void counter(struct record *r, const struct bench_result *res)
{
	char name[16];

	if (!res->counted) {
		record_null(r, "counter");
		record_null(r, "pass");
		return;
	}
	if (res->counter == BENCH_COUNTER_TSC)
		format_snprintf(name, sizeof(name), "tsc");
	else if (res->counter >= PMU_FIXED_BASE)
		format_snprintf(name, sizeof(name), "fixed%d", res->counter - PMU_FIXED_BASE);
	else
		format_snprintf(name, sizeof(name), "gp%d", res->counter);
	record_string(r, "counter", name);
	record_uint(r, "pass", (unsigned)res->pass);
}

/* HT0's run sets: the aggregate, smallest and largest count of each (`runs`). */
static void run_sets(struct record *r, const struct bench_state *s, const struct bench_result *res)
{
	int64_t sorted[BUNDLE_MAX_MEASUREMENTS];
	static const char *const names[2] = { "short", "long" };
	bool whole = s->b.params.flags & BUNDLE_NO_NORMALIZATION;

	record_begin_object(r, "runs");
	for (unsigned k = 0; k < 2; k++) {
		memcpy(sorted, res->runs[k], res->kept * sizeof(sorted[0]));
		record_begin_object(r, names[k]);
		record_fixed(r, "agg",
			     bench_run_aggregate(sorted, res->kept, s->b.params.aggregate, whole),
			     2);
		record_uint(r, "min", sorted[0]);
		record_uint(r, "max", sorted[res->kept - 1]);
		record_end_object(r);
	}
	record_end_object(r);
}

static void numbers(struct record *r, const struct bench_state *s, unsigned t,
		    const struct bench_result *res, bool valued)
{
	int64_t sorted[BUNDLE_MAX_MEASUREMENTS], agg[2], value = 0;
	unsigned n = valued ? res->n : 0;

	record_begin_array(r, "values");
	for (unsigned i = 0; i < n; i++) {
		record_fixed(r, NULL, res->values[i], 2);
		sorted[i] = res->values[i];
	}
	record_end_array(r);
	if (t == 0 && valued && ht0_value(s, res, agg, &value))
		record_fixed(r, "value", value, 2);
	else if (t == 1 && n)
		record_fixed(r, "value", bench_aggregate(sorted, n, s->b.params.aggregate), 2);
	else
		record_null(r, "value");
	if (n) {
		record_fixed(r, "min", bench_aggregate(sorted, n, BUNDLE_MIN), 2);
		record_fixed(r, "max", bench_aggregate(sorted, n, BUNDLE_MAX), 2);
	} else {
		record_null(r, "min");
		record_null(r, "max");
	}
	if (t == 0 && valued && res->kept)
		run_sets(r, s, res);
	else
		record_null(r, "runs");
}

static void result(const struct bench_state *s, unsigned index, unsigned t, uint32_t i)
{
	static struct record r;
	struct bundle_event e;
	char buf[256];
	const struct bench_result *res = &s->results[t][i];

	bundle_event(&s->b, t, i, &e);
	const char *why = no_value(s, t, &e, res, buf, sizeof(buf));
	bool valued = !why && (t ? res->n : res->kept);
	if (!why && !valued)
		why = "fault: the bundle ended before a measurement was kept";
	record_begin(&r, "bench_result");
	record_uint(&r, "bench", index);
	record_uint(&r, "thread", t);
	record_uint(&r, "index", i);
	record_string(&r, "event", e.spec);
	record_string(&r, "name", e.name);
	if (e.kind == BUNDLE_EVENT_GP && res->counted)
		record_hex(&r, "evtsel", e.evtsel);
	else
		record_null(&r, "evtsel");
	counter(&r, res);
	numbers(&r, s, t, res, valued);
	record_bool(&r, "modelled", valued && s->pmu->model);
	record_string(&r, "reason", valued ? NULL : why);
	record_string(&r, "note", valued && from_trace(s, t, &e) ? s->trace_note : NULL);
	record_uint(&r, "backwards", res->backwards);
	if (res->counted && s->overlap[res->pass] >= 0) {
		record_uint(&r, "overlap_pct", (unsigned)s->overlap[res->pass]);
		record_uint(&r, "alone_again", s->alone_again[res->pass]);
	} else {
		record_null(&r, "overlap_pct");
	}
	fault(&r, bench_exec_fault(&s->x));
	record_emit(&r);
}

/* -verbose: every run's count of HT0's event i, nanoBench's "all performance counter readings". */
static void counts(const struct bench_state *s, unsigned index, uint32_t i)
{
	static struct record r;
	static const char *const names[2] = { "short", "long" };
	const struct bench_result *res = &s->results[0][i];

	record_begin(&r, "bench_counts");
	record_uint(&r, "bench", index);
	record_uint(&r, "thread", 0);
	record_uint(&r, "index", i);
	for (unsigned k = 0; k < 2; k++) {
		record_begin_array(&r, names[k]);
		for (unsigned m = 0; m < res->kept; m++)
			record_uint(&r, NULL, (uint64_t)res->runs[k][m]);
		record_end_array(&r);
	}
	record_emit(&r);
}

void bench_record_results(const struct bench_state *s, unsigned index)
{
	for (unsigned t = 0; t < 2; t++)
		for (uint32_t i = 0; i < s->b.event_count[t]; i++) {
			result(s, index, t, i);
			if (t == 0 && (s->b.params.flags & BUNDLE_VERBOSE) && s->results[0][i].kept)
				counts(s, index, i);
		}
}
