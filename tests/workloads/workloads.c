// SPDX-License-Identifier: GPL-2.0
/*
 * The table of workloads (tests/workloads/workloads.h): each one's ring-3 loop and profile (its
 * file in tests/ring3/), and its set-up at CPL 0, before any counter runs; found by name, their
 * parameters prepared once per thread. A new workload is its file in tests/ring3/ and its entry
 * here (with its set-up when it has data to prepare).
 */
#include <stdint.h>
#include <string.h>

#include "kernel/lib/format.h"
#include "kernel/user.h"
#include "tests/workloads/random_data.h"
#include "tests/workloads/workloads.h"

/* A workload's ring-3 loop and the events one unit of it counts under the model (tests/ring3/). */
#define WORKLOAD_LOOP(name)                                                                        \
	uint64_t name##_run(uint64_t arg);                                                         \
	extern const struct model_profile name##_profile

WORKLOAD_LOOP(triad);
WORKLOAD_LOOP(copy);
WORKLOAD_LOOP(chase);
WORKLOAD_LOOP(branchy);
WORKLOAD_LOOP(alu);
WORKLOAD_LOOP(idle);
WORKLOAD_LOOP(callret);

/* ---- the set-ups: each prepares a thread's data in user memory, false when there is none ---- */

/* Fixed seeds: the same set-up every run, so that runs compare. */
#define CHASE_SEED 0x636861736563796cull   /* "chasecyl" */
#define BRANCHY_SEED 0x6272616e63687921ull /* "branchy!" */

/* The IEEE 754 double of an integer below 2^52, by integer arithmetic: kernel code has no SSE. */
static uint64_t double_bits(uint64_t k)
{
	if (!k)
		return 0;
	unsigned e = 63 - (unsigned)__builtin_clzll(k);
	return (uint64_t)(1023 + e) << 52 | ((k << (52 - e)) & ((1ull << 52) - 1));
}

/*
 * count arrays of triad_kib each: a, b and c, or a and c without b. The source arrays are
 * written here once: written by the workload itself they were megabytes of stores at CPL 3
 * inside every measured run, which real counters counted and the model was not told about. The
 * values are small integers, so that c[i] = a[i] + k * b[i] stays exact.
 */
static bool arrays_setup(struct workload_params *p, const struct workload_settings *s,
			 unsigned count)
{
	uint64_t elements = (uint64_t)s->triad_kib * 1024 / sizeof(double);
	uint64_t bytes = elements * sizeof(double);
	uint64_t arrays = user_memory_alloc(count * bytes);

	if (!arrays)
		return false;
	p->a = (double *)(uintptr_t)arrays;
	p->b = count > 2 ? (double *)(uintptr_t)(arrays + bytes) : NULL;
	p->c = (double *)(uintptr_t)(arrays + (count - 1) * bytes);
	p->elements = elements;
	for (uint64_t i = 0; i < elements; i++) {
		((uint64_t *)p->a)[i] = double_bits(i & 1023);
		if (p->b)
			((uint64_t *)p->b)[i] = double_bits((i * 7) & 1023);
	}
	return true;
}

static bool triad_setup(struct workload_params *p, const struct workload_settings *s)
{
	return arrays_setup(p, s, 3);
}

static bool copy_setup(struct workload_params *p, const struct workload_settings *s)
{
	return arrays_setup(p, s, 2);
}

const struct model_profile *chase_profile_for(uint32_t kib)
{
	const struct chase_level *level = chase_levels;

	while (level->max_kib < kib)
		level++;
	return level->profile;
}

static bool chase_setup(struct workload_params *p, const struct workload_settings *s)
{
	uint64_t bytes = (uint64_t)s->chase_kib * 1024;
	uint64_t nodes = bytes / CHASE_NODE_BYTES;
	uint64_t base = nodes ? user_memory_alloc(bytes) : 0;

	if (!base)
		return false;
	random_cycle_build((uint64_t *)(uintptr_t)base, nodes, CHASE_NODE_BYTES / sizeof(uint64_t),
			   CHASE_SEED);
	p->chain = (uint64_t *)(uintptr_t)base;
	p->elements = nodes;
	p->sized_profile = chase_profile_for(s->chase_kib);
	return true;
}

static bool branchy_setup(struct workload_params *p, const struct workload_settings *s)
{
	uint64_t words = user_memory_alloc(BRANCHY_WORDS * sizeof(uint64_t));

	(void)s;
	if (!words)
		return false;
	random_words_fill((uint64_t *)(uintptr_t)words, BRANCHY_WORDS, BRANCHY_SEED);
	p->words = (const uint64_t *)(uintptr_t)words;
	p->elements = BRANCHY_WORDS;
	return true;
}

/* ---- the table ------------------------------------------------------------------------------ */

const struct workload workloads[] = {
	{
		.name = "triad",
		.stresses = "memory bandwidth: c[i] = a[i] + k * b[i] over arrays larger than the "
			    "caches (the thesis's workload)",
		.entry = triad_run,
		.profile = &triad_profile,
		.setup = triad_setup,
	},
	{
		.name = "copy",
		.stresses = "memory bandwidth, stores: c[i] = a[i] over triad's arrays",
		.entry = copy_run,
		.profile = &copy_profile,
		.setup = copy_setup,
	},
	{
		.name = "chase",
		.stresses = "memory latency: dependent loads around a random cycle of chase_kib, "
			    "missing every cache level the set does not fit in",
		.entry = chase_run,
		.profile = &chase_profile,
		.setup = chase_setup,
	},
	{
		.name = "branchy",
		.stresses = "the branch predictor: branches on random bits, half of them "
			    "mispredicted",
		.entry = branchy_run,
		.profile = &branchy_profile,
		.setup = branchy_setup,
	},
	{
		.name = "alu",
		.stresses = "the execution units: integer and vector arithmetic in registers, no "
			    "memory traffic",
		.entry = alu_run,
		.profile = &alu_profile,
	},
	{
		.name = "idle",
		.stresses = "nothing: the thread halts until each tick",
		.entry = idle_run,
		.profile = &idle_profile,
		.halts = true,
	},
	{
		.name = "callret",
		.stresses = "calls and returns, one pair per unit (the PMU check)",
		.entry = callret_run,
		.profile = &callret_profile,
		.internal = true,
	},
};

const unsigned workload_count = sizeof(workloads) / sizeof(workloads[0]);
_Static_assert(sizeof(workloads) / sizeof(workloads[0]) <= WORKLOAD_MAX, "raise WORKLOAD_MAX");

const struct workload *workload_by_name(const char *name)
{
	for (unsigned i = 0; i < workload_count; i++)
		if (!strcmp(workloads[i].name, name))
			return &workloads[i];
	return NULL;
}

const char *const *workload_names(void)
{
	static const char *names[WORKLOAD_MAX + 1];
	unsigned n = 0;

	for (unsigned i = 0; i < workload_count; i++)
		if (!workloads[i].internal)
			names[n++] = workloads[i].name;
	return names;
}

struct workload_params *workload_prepare(struct workload_memory *m, const struct workload *w,
					 unsigned thread, const struct workload_settings *s)
{
	struct workload_params **slot = &m->prepared[thread][w - workloads];

	if (*slot)
		return *slot;
	struct workload_params *p =
		(struct workload_params *)(uintptr_t)user_memory_alloc(sizeof(*p));
	if (!p)
		return NULL;
	p->chunk_units = WORKLOAD_CHUNK_UNITS;
	if (w->setup && !w->setup(p, s))
		return NULL;
	*slot = p;
	return p;
}
