// SPDX-License-Identifier: GPL-2.0
/*
 * A loop without mispredictions: a counted loop of integer work whose only branch is always
 * taken until the end of a long chunk. BR_MISP_RETIRED stays near zero on real hardware.
 */
#include "tests/bench/account.h"
#include "tests/bench/workload.h"

static const struct model_rate nomispredict_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 1000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x20, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
};

const struct model_profile nomispredict_profile = {
	.name = "nomispredict",
	.ring = MODEL_RING_USER,
	.instructions = 5000,
	.core_cycles = 2000,
	.ref_cycles = 2000,
	.rates = nomispredict_rates,
	.nrates = sizeof(nomispredict_rates) / sizeof(nomispredict_rates[0]),
};

uint64_t nomispredict_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	uint64_t units = 0, chunk = p->chunk_units ? p->chunk_units : 65536, x = 1;

	while (!workload_done(p, units)) {
		for (uint64_t i = 0; i < chunk; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		pmu_account(p, &nomispredict_profile, chunk);
		units += chunk;
	}
	p->units_done = units;
	p->checksum = x;
	return units;
}
