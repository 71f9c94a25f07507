// SPDX-License-Identifier: GPL-2.0
/*
 * Idle: the sibling spins on PAUSE and produces none of the measured events, for the runs where
 * one thread measures alone (thesis ch. 8). A unit is one PAUSE.
 */
#include "tests/bench/account.h"
#include "tests/bench/workload.h"

const struct model_profile idle_profile = {
	.name = "idle",
	.ring = MODEL_RING_USER,
	.instructions = 2000,
	.core_cycles = 100000,
	.ref_cycles = 100000,
	.rates = 0,
	.nrates = 0,
};

uint64_t idle_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	uint64_t units = 0;

	while (!workload_done(p, units)) {
		uint64_t n = workload_chunk(p, units);
		for (uint64_t i = 0; i < n; i++)
			__asm__ volatile("pause");
		pmu_account(p, &idle_profile, n);
		units += n;
	}
	p->units_done = units;
	return units;
}
