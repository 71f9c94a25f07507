// SPDX-License-Identifier: GPL-2.0
/*
 * The table of workloads (their set-ups are setup.c), found by name, and their parameters prepared
 * once per thread.
 */
#include <string.h>

#include "kernel/format.h"
#include "kernel/user.h"
#include "tests/workloads/setup.h"
#include "tests/workloads/workloads.h"

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
