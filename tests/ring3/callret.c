// SPDX-License-Identifier: GPL-2.0
/*
 * A call/return loop: one unit is one call of a small function and its return. On real hardware
 * BR_INST_RETIRED.NEAR_CALL and NEAR_RETURN count one per unit (plus a few around the loop), so
 * the counters can be checked without knowing anything else about the machine.
 */
#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

static const struct model_rate callret_rates[] = {
	{ .event = 0xc4, .umask = 0x02, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_CALL */
	{ .event = 0xc4, .umask = 0x08, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_RETURN */
	{ .event = 0xc4, .umask = 0x00, .per_units = 3000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
};

const struct model_profile callret_profile = {
	.name = "callret",
	.ring = MODEL_RING_USER,
	.instructions = 8000,
	.core_cycles = 6000,
	.ref_cycles = 6000,
	.rates = callret_rates,
	.nrates = sizeof(callret_rates) / sizeof(callret_rates[0]),
};

static __attribute__((noinline)) uint64_t leaf(uint64_t x)
{
	__asm__ volatile("" : "+r"(x)); /* keep the call: nothing to fold */
	return x * 3 + 1;
}

uint64_t callret_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	uint64_t units = 0, x = p->thread;

	while (!workload_done(p, units)) {
		uint64_t n = workload_chunk(p, units);
		for (uint64_t i = 0; i < n; i++)
			x = leaf(x);
		pmu_account(p, &callret_profile, n);
		units += n;
	}
	p->units_done = units;
	p->checksum = x;
	return units;
}
