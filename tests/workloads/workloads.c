// SPDX-License-Identifier: GPL-2.0
/*
 * The table of workloads, and their set-ups (CPL 0, before any counter runs).
 */
#include <string.h>

#include "kernel/format.h"
#include "kernel/user.h"
#include "tests/workloads/workloads.h"

/* The IEEE 754 double of an integer below 2^52, by integer arithmetic: kernel code has no SSE. */
static uint64_t double_bits(uint64_t k)
{
	if (!k)
		return 0;
	unsigned e = 63 - (unsigned)__builtin_clzll(k);
	return (uint64_t)(1023 + e) << 52 | ((k << (52 - e)) & ((1ull << 52) - 1));
}

/*
 * triad's arrays, written here once: written by triad itself they were megabytes of stores at
 * CPL 3 inside every measured run, which real counters counted and the model was not told about.
 * The values are small integers, so that c[i] = a[i] + k * b[i] stays exact.
 */
static bool triad_setup(struct workload_params *p, const struct workload_settings *s)
{
	uint64_t elements = (uint64_t)s->triad_kib * 1024 / sizeof(double);
	uint64_t bytes = elements * sizeof(double);
	uint64_t arrays = user_memory_alloc(3 * bytes);

	if (!arrays)
		return false;
	p->a = (double *)(uintptr_t)arrays;
	p->b = (double *)(uintptr_t)(arrays + bytes);
	p->c = (double *)(uintptr_t)(arrays + 2 * bytes);
	p->elements = elements;
	for (uint64_t i = 0; i < elements; i++) {
		((uint64_t *)p->a)[i] = double_bits(i & 1023);
		((uint64_t *)p->b)[i] = double_bits((i * 7) & 1023);
	}
	return true;
}

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
		.name = "idle",
		.stresses = "nothing: the thread does nothing measurable",
		.entry = idle_run,
		.profile = &idle_profile,
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

const char *workload_names_text(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < workload_count && len + 1 < size; i++) {
		if (workloads[i].internal)
			continue;
		format_snprintf(buf + len, size - len, "%s%s", len ? "|" : "", workloads[i].name);
		len = strlen(buf);
	}
	return buf;
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
	p->chunk_units = 4096;
	if (w->setup && !w->setup(p, s))
		return NULL;
	*slot = p;
	return p;
}
