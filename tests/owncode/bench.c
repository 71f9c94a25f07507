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

static void base_codegen(struct bench_codegen *g, enum bench_program p, unsigned t)
{
	memset(g, 0, sizeof(*g));
	g->program = p;
	g->b = &st.b;
	memcpy(g->area, st.area[t], sizeof(g->area));
	g->data = (uint64_t)(uintptr_t)st.data[t];
	g->model = st.pmu->model;
}

/* Program p into slot s of the buffer (each slot a fixed share of it). */
static bool generate(const struct bench_codegen *g, unsigned s)
{
	uint64_t share = st.code_size / BENCH_PROGRAMS & ~63ull;
	uint64_t at = st.code + s * share;

	st.entry[s] = at;
	return bench_codegen(g, (uint8_t *)(uintptr_t)at, at, (uint32_t)share, &st.layout[s]);
}

/* What the buffer must hold: the largest program in each of the slots. */
static uint64_t buffer_need(void)
{
	struct bench_codegen g;
	uint32_t n = st.b.params.unroll_count;

	base_codegen(&g, BENCH_PROGRAM_MEASURE, 0);
	g.copies = st.b.params.flags & BUNDLE_BASIC_MODE ? n : 2 * n;
	return 2 * PAGE_SIZE + BENCH_PROGRAMS * ((bench_codegen_size(&g) + 4095) & ~4095ull);
}

/* one_time_init, then under the model the trace of the parts and of the sibling's part (with
 * bench_trace=off the code counts nothing under the model: profiles of no events). */
static bool prepare(void)
{
	struct bench_codegen g;
	enum model_ring ring = st.b.params.ring ? MODEL_RING_USER : MODEL_RING_KERNEL;
	static const struct bench_counts nothing;

	base_codegen(&g, BENCH_PROGRAM_ONCE, 0);
	if (!generate(&g, BENCH_SLOT_ONCE) ||
	    !bench_exec_run(&st.x, 0, st.entry[BENCH_SLOT_ONCE], &st.layout[BENCH_SLOT_ONCE],
			    st.b.params.ring, true))
		return false;
	bench_cycles_profile(ring, &profiles.cycles);
	for (unsigned t = 0; t < 2; t++)
		bench_trace_profile(&nothing, t ? MODEL_RING_USER : ring, "bench code (untraced)",
				    profiles.rates[t], &profiles.code[t]);
	if (!st.pmu->model || st.untraced)
		return true;
	base_codegen(&g, BENCH_PROGRAM_TRACE, 0);
	if (!generate(&g, BENCH_SLOT_TRACE) ||
	    !bench_exec_trace(&st.x, st.entry[BENCH_SLOT_TRACE], &st.layout[BENCH_SLOT_TRACE],
			      st.b.params.ring))
		return false;
	st.traced = st.x.tracer.part[BUNDLE_PART_CODE];
	st.trace_steps = st.x.tracer.steps;
	bench_trace_profile(&st.traced, ring, "bench code", profiles.rates[0], &profiles.code[0]);
	if (st.b.params.sibling != BUNDLE_SIBLING_CODE)
		return true;
	base_codegen(&g, BENCH_PROGRAM_TRACE_SIBLING, 1);
	g.data = (uint64_t)(uintptr_t)st.data[0];
	if (!generate(&g, BENCH_SLOT_TRACE) ||
	    !bench_exec_trace(&st.x, st.entry[BENCH_SLOT_TRACE], &st.layout[BENCH_SLOT_TRACE], 3))
		return false;
	bench_trace_profile(&st.x.tracer.part[BUNDLE_PART_SIBLING], MODEL_RING_USER,
			    "bench sibling", profiles.rates[1], &profiles.code[1]);
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
	return NULL;
}

/*
 * At CPL 0 interrupts are off and no tick can end a part that does not finish: the sibling keeps
 * thread 0's time limit with an NMI (bench_exec_watch()), so thread 0 prepares on the pair.
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

	if (st.b.params.ring == 3)
		return prepare();
	/* once, the trace and the sibling's trace, each within its limit, and the margin */
	if (!pair_run(&j, rdtsc() + 4 * st.x.limit_tsc) && !st.x.fault.set)
		bench_exec_note(&st.x, 0, "timeout", 0, false);
	return pj.ok;
}

static void run_bundle(void)
{
	bench_exec_begin(&st.x);
	if (prepared()) {
		bench_plan(&st);
		for (unsigned p = 0; p < st.plan.passes && !st.x.fault.set; p++)
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
	memset(st.results, 0, sizeof(st.results));
	memset(&st.traced, 0, sizeof(st.traced));
	st.trace_steps = 0;
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
	kprintf("bench %u: %u pass(es), %llu ms%s\n", index, st.plan.passes,
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
