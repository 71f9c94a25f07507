/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmu_account(profile, n): a workload adds n more units of work to its ledger
 * (pmu/model_ledger.h), which the model PMU reads; the real counters need nothing, and the ledger
 * costs a load and a store per chunk.
 */
#ifndef TESTS_RING3_ACCOUNT_H
#define TESTS_RING3_ACCOUNT_H

#include <stdint.h>

#include "pmu/model_profile.h"
#include "tests/ring3/user.h"
#include "tests/ring3/workload.h"

static inline void pmu_account(struct workload_params *p, const struct model_profile *profile,
			       uint64_t n)
{
	if (n)
		model_ledger_add(&p->ledger, profile, n);
}

static inline uint64_t user_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* True when the workload should stop (the kernel's deadline or unit limit). */
static inline int workload_done(const struct workload_params *p, uint64_t units)
{
	if (p->max_units && units >= p->max_units)
		return 1;
	return p->deadline_tsc && user_rdtsc() >= p->deadline_tsc;
}

/* The units of the next chunk, with `units` done: chunk_units, but never past max_units. */
static inline uint64_t workload_chunk(const struct workload_params *p, uint64_t units)
{
	if (p->max_units && p->max_units - units < p->chunk_units)
		return p->max_units - units;
	return p->chunk_units;
}

/*
 * For a workload that passes over its data (p->elements units): where the next chunk of a pass
 * that has reached `from` ends, with `units` done; never past the pass's end. 0 when the pass is
 * over, or the workload done.
 */
static inline uint64_t workload_pass_chunk(const struct workload_params *p, uint64_t units,
					   uint64_t from)
{
	if (from >= p->elements || workload_done(p, units))
		return 0;
	uint64_t to = from + workload_chunk(p, units);
	return to < p->elements ? to : p->elements;
}

#endif
