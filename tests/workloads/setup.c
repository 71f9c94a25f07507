// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads' set-ups (tests/workloads/setup.h), at CPL 0, before any counter runs.
 */
#include <stdint.h>

#include "kernel/user.h"
#include "tests/workloads/random_data.h"
#include "tests/workloads/setup.h"

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

bool triad_setup(struct workload_params *p, const struct workload_settings *s)
{
	return arrays_setup(p, s, 3);
}

bool copy_setup(struct workload_params *p, const struct workload_settings *s)
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

bool chase_setup(struct workload_params *p, const struct workload_settings *s)
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

bool branchy_setup(struct workload_params *p, const struct workload_settings *s)
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
