// SPDX-License-Identifier: GPL-2.0
/*
 * selftest=profiles: traces of the built-in workloads (tests/profiles/profiles.h).
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/lib/crc32.h"
#include "kernel/lib/format.h"
#include "kernel/pair.h"
#include "kernel/record.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/trap.h"
#include "kernel/user.h"
#include "pmu/model.h"
#include "tests/lib/check.h"
#include "tests/owncode/trace.h"
#include "tests/profiles/edges.h"
#include "tests/profiles/profiles.h"
#include "tests/ring3/traced.h"
#include "tests/workloads/workloads.h"

#define RFLAGS_TF (1ull << 8)
#define VECTOR_DEBUG 1
/* What a trace may take before it is called runaway: branchy's longest run is 21,000 steps. */
#define STEPS_MAX 4000000
/* The tick that wakes idle's halts (nothing else needs it; it does not disturb a trace: an
 * interrupt comes between two instructions, and the #DB of the first has been taken). */
#define TICK_MS 1

/* Small data, the same whatever the command line says: the code's path does not depend on the
 * sizes as long as a run stays inside one pass over the data (2n units). */
static const struct workload_settings sizes = { .triad_kib = 4, .chase_kib = 16 };

static const struct {
	uint64_t units, chunk;
} runs[] = {
	{ PROFILES_TRACE_UNITS, PROFILES_TRACE_UNITS },
	{ 2 * PROFILES_TRACE_UNITS, 2 * PROFILES_TRACE_UNITS },
	{ 2 * PROFILES_TRACE_UNITS, PROFILES_TRACE_UNITS },
};

extern char __user_start[], __user_text_end[];

/* The trace under way: the #DB handler's state. */
static struct {
	const struct model_profile *unit; /* the workload's profile: its units end the trace */
	const struct model_ledger *ledger;
	uint64_t target; /* units after which the next time check ends it */
	uint64_t prev;	 /* the RIP of the previous #DB, 0 before the first */
	bool stopped;
	const char *error;
	struct trace_edges edges;
} tr;

static uint64_t units_done(void)
{
	for (unsigned s = 0; s < MODEL_LEDGER_SLOTS; s++)
		if (__atomic_load_n(&tr.ledger->profile[s], __ATOMIC_ACQUIRE) == tr.unit)
			return __atomic_load_n(&tr.ledger->units[s], __ATOMIC_ACQUIRE);
	return 0;
}

/* The instruction at rip is RDTSC (0F 31): every workload checks the time there between chunks
 * (workload_done(), idle's loop), so a trace that ends at one ends between two chunks. */
static bool time_check(uint64_t rip)
{
	const uint8_t *insn = (const uint8_t *)(uintptr_t)rip;

	return insn[0] == 0x0f && insn[1] == 0x31;
}

static void debug_handler(struct trap_frame *f)
{
	if ((f->cs & 3) != 3) {
		/* SYSCALL clears TF (IA32_FMASK) before the kernel's first instruction. */
		tr.error = "a #DB at CPL 0: the trace stepped into the kernel";
		f->rflags &= ~RFLAGS_TF;
		return;
	}
	if (time_check(f->rip) && units_done() >= tr.target) {
		tr.stopped = true;
		user_call_abort(0);
	}
	if (tr.prev)
		trace_edges_add(&tr.edges, tr.prev, f->rip);
	tr.prev = f->rip;
	if (tr.edges.steps >= STEPS_MAX) {
		tr.error = "the trace ran past its limit of steps without reaching its units";
		user_call_abort(0);
	}
}

/* One traced run of w over p: units in chunks of chunk. */
static void trace_run(const struct workload *w, struct workload_params *p, struct traced_call *call,
		      uint64_t units, uint64_t chunk)
{
	memset(&p->ledger, 0, sizeof(p->ledger));
	p->units_done = 0;
	p->chunk_units = chunk;
	p->max_units = 0; /* as an experiment's run: the time check ends it */
	p->deadline_tsc = UINT64_MAX;
	p->thread = 0;
	*call = (struct traced_call){ w->entry, (uint64_t)(uintptr_t)p };
	tr.unit = w->profile;
	tr.ledger = &p->ledger;
	tr.target = units;
	tr.prev = 0;
	tr.stopped = false;
	tr.error = NULL;
	trace_edges_reset(&tr.edges);
	user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)traced_call,
		  (uint64_t)(uintptr_t)call, this_cpu()->user_stack_top);
	if (!tr.error && !tr.stopped)
		tr.error = "the workload returned before its units were done";
	if (!tr.error && tr.edges.lost)
		tr.error = "more distinct edges than the trace's table holds";
}

/* The ledger's profiles and units, and what the model counts for them (docs/records.md). */
static void record_model(struct record *r, const struct model_ledger *l)
{
	record_begin_array(r, "ledger");
	for (unsigned s = 0; s < MODEL_LEDGER_SLOTS && l->profile[s]; s++) {
		record_begin_object(r, NULL);
		record_string(r, "profile", l->profile[s]->name);
		record_uint(r, "units", l->units[s]);
		record_end_object(r);
	}
	record_end_array(r);
	record_begin_object(r, "model");
	for (unsigned i = 0; i < bench_trace_event_count; i++) {
		const struct bench_trace_event *t = &bench_trace_events[i];
		struct pmu_event e = { .event = t->event, .umask = t->umask, .usr = true };
		uint64_t count = 0;
		char code[8];
		model_truth(l, &e, &count);
		format_snprintf(code, sizeof(code), "0x%02x%02x", t->umask, t->event);
		record_uint(r, code, count);
	}
	record_end_object(r);
}

/* The edges, sorted, as integer triples: from less the previous from (the first less base),
 * to less from, count. */
static void record_edges(struct record *r, struct trace_edges *t)
{
	unsigned n = trace_edges_sort(t);
	uint64_t prev = n ? t->slot[0].from : 0;

	record_hex(r, "base", prev);
	record_begin_array(r, "edges");
	for (unsigned i = 0; i < n; i++) {
		record_uint(r, NULL, t->slot[i].from - prev);
		record_int(r, NULL, (int64_t)(t->slot[i].to - t->slot[i].from));
		record_uint(r, NULL, t->slot[i].count);
		prev = t->slot[i].from;
	}
	record_end_array(r);
}

static bool trace_record(const struct workload *w, const struct model_ledger *l, uint64_t units,
			 uint64_t chunk)
{
	static struct record r;
	uint64_t start = (uint64_t)(uintptr_t)__user_start;
	uint64_t end = (uint64_t)(uintptr_t)__user_text_end;

	record_begin(&r, "trace");
	record_string(&r, "workload", w->name);
	record_uint(&r, "units", units);
	record_uint(&r, "chunk_units", chunk);
	record_uint(&r, "chunks", units / chunk);
	record_uint(&r, "steps", tr.edges.steps);
	record_string(&r, "error", tr.error);
	record_begin_object(&r, "code");
	record_hex(&r, "start", start);
	record_hex(&r, "end", end);
	record_hex(&r, "crc32", crc32_ieee(0, __user_start, end - start));
	record_end_object(&r);
	record_model(&r, l);
	record_edges(&r, &tr.edges);
	record_json(&r);
	if (r.truncated)
		return report(&r, false,
			      "selftest=profiles: a trace's edges do not fit in its record");
	return report(&r, !tr.error, "selftest=profiles: a workload's trace is not whole");
}

/* The parameters of w with the self-test's own data (never those of the experiments: user memory
 * is not freed, and workload_prepare() keeps one set per thread for the whole boot). */
static struct workload_params *own_params(const struct workload *w)
{
	struct workload_params *p =
		(struct workload_params *)(uintptr_t)user_memory_alloc(sizeof(*p));

	if (p && w->setup && !w->setup(p, &sizes))
		return NULL;
	return p;
}

static void profiles_thread(unsigned thread, void *arg)
{
	struct traced_call *call = arg;
	bool ok = true;

	if (thread != 0)
		return;
	tick_start(TICK_MS, NULL, NULL);
	trap_register(VECTOR_DEBUG, debug_handler, 0);
	for (unsigned i = 0; i < workload_count && ok; i++) {
		const struct workload *w = &workloads[i];
		struct workload_params *p = own_params(w);
		if (!p) {
			ok = report(NULL, false,
				    "selftest=profiles: no user memory for a workload");
			break;
		}
		for (unsigned k = 0; k < sizeof(runs) / sizeof(runs[0]) && ok; k++) {
			trace_run(w, p, call, runs[k].units, runs[k].chunk);
			ok = trace_record(w, &p->ledger, runs[k].units, runs[k].chunk);
		}
		kprintf("selftest=profiles: %s traced%s\n", w->name, ok ? "" : ": not whole");
	}
	trap_register(VECTOR_DEBUG, NULL, 0);
	tick_stop();
}

void profiles_run(const struct payload_env *env)
{
	struct traced_call *call =
		(struct traced_call *)(uintptr_t)user_memory_alloc(sizeof(struct traced_call));
	struct pair_job job = { .fn = profiles_thread, .arg = call };

	(void)env;
	if (!call) {
		report(NULL, false, "selftest=profiles: no user memory for the trace");
		return;
	}
	kprintf("selftest=profiles: tracing each workload's code, %u units and twice that\n",
		PROFILES_TRACE_UNITS);
	if (!pair_run(&job, tsc_hz() * 300))
		report(NULL, false, job.error);
}
