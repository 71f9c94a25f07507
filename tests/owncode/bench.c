// SPDX-License-Identifier: GPL-2.0
/*
 * The bundles of your own code, one after another (tests/owncode/bench.h): memory, programs,
 * the trace, the passes. Their records are tests/owncode/bench_record.c's.
 */
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/lib/format.h"
#include "kernel/console.h"
#include "kernel/pair.h"
#include "kernel/page_alloc.h"
#include "kernel/paging.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "pmu/zero_event.h"
#include "tests/owncode/bench.h"
#include "tests/owncode/bench_exec.h"
#include "tests/owncode/bench_state.h"
#include "tests/workloads/workloads.h"

static struct bench_state st;
/* The model's profiles of the code and the sibling, in kernel memory that ring 3 cannot write
 * (kernel/pmu.c trusts this range while bundles run: pmu_trust_profiles()). */
static struct bench_profiles profiles;

/* Areas (5 MiB per thread) once per boot; the buffer for data and programs, grown as needed. */
static bool memory(uint64_t need)
{
	static uint64_t areas[2], buffer, size;

	for (unsigned t = 0; t < 2; t++)
		if (!areas[t] && !(areas[t] = user_memory_alloc(BENCH_AREAS * BENCH_AREA_SIZE)))
			return false;
	if (size < need) {
		buffer = user_memory_alloc(need);
		size = buffer ? need : 0;
	}
	if (!buffer)
		return false;
	for (unsigned t = 0; t < 2; t++)
		for (unsigned a = 0; a < BENCH_AREAS; a++)
			st.area[t][a] = areas[t] + a * BENCH_AREA_SIZE + BENCH_AREA_SIZE / 2;
	st.data[0] = (struct bench_data *)(uintptr_t)buffer;
	st.data[1] = (struct bench_data *)(uintptr_t)(buffer + PAGE_SIZE);
	st.code = buffer + 2 * PAGE_SIZE;
	st.code_size = need - 2 * PAGE_SIZE;
	return true;
}

void bench_base_codegen(const struct bench_state *s, struct bench_codegen *g, enum bench_program p,
			unsigned t)
{
	memset(g, 0, sizeof(*g));
	g->program = p;
	g->b = &s->b;
	memcpy(g->area, s->area[t], sizeof(g->area));
	g->data = (uint64_t)(uintptr_t)s->data[t];
	g->model = s->pmu->model;
}

bool bench_generate(struct bench_state *s, const struct bench_codegen *g, unsigned slot)
{
	uint64_t share = s->code_size / BENCH_PROGRAMS & ~63ull;
	uint64_t at = s->code + slot * share;

	s->entry[slot] = at;
	return bench_codegen(g, (uint8_t *)(uintptr_t)at, at, (uint32_t)share, &s->layout[slot]);
}

/* What the buffer must hold: the largest program in each of the slots. */
static uint64_t buffer_need(void)
{
	struct bench_codegen g;
	uint32_t n = st.b.params.unroll_count;

	bench_base_codegen(&st, &g, BENCH_PROGRAM_MEASURE, 0);
	g.copies = st.b.params.flags & BUNDLE_BASIC_MODE ? n : 2 * n;
	g.reads = BENCH_MAX_READS;
	return 2 * PAGE_SIZE + BENCH_PROGRAMS * ((bench_codegen_size(&g) + 4095) & ~4095ull);
}

/* Under the model the sibling's part traced once: HT1's profile of a copy of it. */
static bool trace_sibling(void)
{
	struct bench_codegen g;

	if (st.b.params.sibling != BUNDLE_SIBLING_CODE)
		return true;
	bench_base_codegen(&st, &g, BENCH_PROGRAM_TRACE_SIBLING, 1);
	g.data = (uint64_t)(uintptr_t)st.data[0];
	st.x.trace_cap = 0;
	if (!bench_generate(&st, &g, BENCH_SLOT_TRACE) ||
	    !bench_exec_trace(&st.x, st.entry[BENCH_SLOT_TRACE], &st.layout[BENCH_SLOT_TRACE], 3))
		return false;
	bench_trace_profile(&st.x.tracer.part[BUNDLE_PART_SIBLING], 1, MODEL_RING_USER,
			    "bench sibling", profiles.rates[3], &profiles.rep[1]);
	return true;
}

/* one_time_init, then under the model the traces of HT0's runs and of the sibling's part (with
 * bench_trace=off the code counts nothing under the model: profiles of no events). */
static bool prepare(void)
{
	struct bench_codegen g;
	enum model_ring ring = st.b.params.ring ? MODEL_RING_USER : MODEL_RING_KERNEL;
	static const struct bench_counts nothing;

	bench_base_codegen(&st, &g, BENCH_PROGRAM_ONCE, 0);
	if (!bench_generate(&st, &g, BENCH_SLOT_ONCE) ||
	    !bench_exec_run(&st.x, 0, st.entry[BENCH_SLOT_ONCE], &st.layout[BENCH_SLOT_ONCE],
			    st.b.params.ring, true))
		return false;
	bench_cycles_profile(ring, &profiles.cycles);
	bench_trace_profile(&nothing, 1, MODEL_RING_USER, "bench nothing", profiles.rates[4],
			    &profiles.none);
	for (unsigned k = 0; k < 2; k++) {
		bench_trace_profile(&nothing, 1, ring, "bench run (untraced)", profiles.rates[k],
				    &profiles.run[k]);
		bench_trace_profile(&nothing, 1, k ? MODEL_RING_USER : ring,
				    "bench copy (untraced)", profiles.rates[2 + k],
				    &profiles.rep[k]);
	}
	if (!st.pmu->model || st.untraced)
		return true;
	return bench_trace_runs(&st) && trace_sibling();
}

/* Room for each thread's results (some 2.4 KiB an event: nanoBench's configs hold hundreds), in
 * kernel memory, grown as bundles need it; zeroed. */
static bool results_memory(void)
{
	static struct bench_result *room;
	static uint64_t held;
	uint64_t n = (uint64_t)st.b.event_count[0] + st.b.event_count[1];

	st.results[0] = st.results[1] = NULL;
	if (!n)
		return true;
	if (n > held) {
		uint64_t at = page_alloc(n * sizeof(*room), PAGE_SIZE);
		if (!at)
			return false;
		room = (struct bench_result *)(uintptr_t)at;
		held = n;
	}
	memset(room, 0, (size_t)n * sizeof(*room));
	st.results[0] = room;
	st.results[1] = room + st.b.event_count[0];
	return true;
}

/* The sibling's workload, prepared once per boot in user memory. */
static struct workload_params *sibling_work(const struct payload_config *cfg)
{
	static struct workload_memory memory;
	const struct workload *w = workload_by_name(st.b.params.sibling_work);
	struct workload_settings s = { cfg->triad_kib, cfg->chase_kib };

	if (!w)
		return NULL;
	struct workload_params *p = workload_prepare(&memory, w, 1, &s);
	if (!p)
		return NULL;
	p->chunk_units = st.pmu->model ? WORKLOAD_CHUNK_UNITS_MODEL : WORKLOAD_CHUNK_UNITS;
	st.work_halts = w->halts;
	/* A halt a call: the loop answers HT0 within a tick (a chunk of them took longer than
	 * HT0 waits: -sibling_work idle always timed out). */
	if (w->halts)
		p->chunk_units = 1;
	p->max_units = p->chunk_units; /* one chunk per call: the loop polls in between */
	p->deadline_tsc = 0;
	p->thread = 1;
	p->gp_width = st.pmu->geometry.gp_width;
	p->fixed_width = st.pmu->geometry.fixed_width;
	st.work_entry = (uint64_t)(uintptr_t)w->entry;
	return p;
}

/* Refuses what the bundle asks and the kernel cannot give; NULL when it can run. */
static const char *kernel_refusal(const struct payload_config *cfg)
{
	st.work = NULL;
	if (st.b.params.sibling == BUNDLE_SIBLING_WORK && !(st.work = sibling_work(cfg)))
		return workload_by_name(st.b.params.sibling_work)
			       ? "no memory for the sibling's workload"
			       : "a sibling workload the library does not have";
	if (st.b.params.sibling != BUNDLE_SIBLING_NONE && st.pair->thread_count < 2)
		return "a sibling's code or workload needs a sibling thread: this core has none";
	if (st.b.params.ring == 0 && st.pair->thread_count < 2)
		return "ring 0 needs the sibling thread to end a part that runs too long (an NMI): "
		       "this core has none";
	if (!memory(buffer_need()))
		return "a bundle larger than the memory for it";
	if (!results_memory())
		return "no memory for the results of this bundle's events";
	return NULL;
}

/*
 * Thread 0 of the pair prepares (the calling CPU need not be one of them: core=N), and at CPL 0,
 * where interrupts are off and no tick can end a part that does not finish, the sibling keeps
 * its time limit with an NMI (bench_exec_watch()).
 */
struct prepare_job {
	bool ok, done;
};

static void prepare_on(unsigned t, void *arg)
{
	struct prepare_job *pj = arg;

	if (t == 1) {
		bench_exec_watch(&st.x, &pj->done);
		return;
	}
	pj->ok = prepare();
	__atomic_store_n(&pj->done, true, __ATOMIC_RELEASE);
}

static bool prepared(void)
{
	struct prepare_job pj = { 0 };
	struct pair_job j = { .fn = prepare_on, .arg = &pj };

	/* once, the traces (two runs, two more of fewer copies) and the sibling's, each within its
	 * limit (a trace's BENCH_TRACE_TIME times it), and the margin */
	if (!pair_run(&j, (6 * BENCH_TRACE_TIME + 2) * st.x.limit_tsc) && !st.x.fault.set)
		bench_exec_note(&st.x, 0, "timeout", 0, false);
	return pj.ok;
}

static void run_bundle(void)
{
	bench_exec_begin(&st.x);
	if (prepared()) {
		bench_plan(&st);
		for (unsigned p = 0; p < st.passes && !st.x.fault.set; p++)
			bench_pass(&st, p);
	}
	bench_exec_end();
}

static void bench_one(unsigned index, const struct boot_module *m, const struct payload_config *cfg)
{
	const char *reason = NULL;
	uint64_t start = rdtsc();
	enum bundle_status s =
		bundle_parse((const void *)(uintptr_t)m->base, m->size, &st.b, &reason);

	memset(&st.x, 0, sizeof(st.x));
	memset(&st.plan, 0, sizeof(st.plan));
	st.passes = 0;
	st.results[0] = st.results[1] = NULL;
	st.trace_steps = 0;
	st.rep_units[0] = st.rep_units[1] = 0;
	st.trace_note = st.trace_failed = NULL;
	if (s == BUNDLE_OK)
		reason = kernel_refusal(cfg);
	bench_record_bundle(&st, index, m, s, reason);
	if (s != BUNDLE_OK || reason)
		return;
	st.untraced = st.pmu->model && !cfg->bench_trace;
	st.x.b = &st.b;
	st.x.pmu = st.pmu;
	st.x.limit_tsc = tsc_from_us((uint64_t)cfg->bench_ms * 1000);
	st.x.code_start = st.code;
	st.x.code_end = st.code + st.code_size;
	st.x.data[0] = st.data[0];
	st.x.data[1] = st.data[1];
	run_bundle();
	bench_record_results(&st, index);
	kprintf("bench %u: %u pass(es), %llu ms%s\n", index, st.passes,
		(unsigned long long)((rdtsc() - start) * 1000 / tsc_hz()),
		st.x.fault.set ? " (faulted)" : "");
}

void bench_run_all(const struct payload_env *env, const struct payload_config *cfg)
{
	const struct boot_info *boot = env->boot;

	if (!boot || !boot->module_count)
		return;
	st.pmu = env->pmu;
	st.pair = env->pair;
	st.source = boot->path == BOOT_PATH_MULTIBOOT2	 ? "multiboot2"
		    : boot->path == BOOT_PATH_MULTIBOOT1 ? "multiboot1"
							 : "uefi";
	st.profiles = &profiles;
	pmu_trust_profiles(&profiles, sizeof(profiles));
	for (unsigned i = 0; i < boot->module_count; i++)
		bench_one(i, &boot->modules[i], cfg);
	pmu_trust_profiles(NULL, 0);
}
