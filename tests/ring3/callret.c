// SPDX-License-Identifier: GPL-2.0
/*
 * A call/return loop: one unit is one call of a small function and its return. On real hardware
 * BR_INST_RETIRED.NEAR_CALL and NEAR_RETURN count one per unit (plus a few around the loop), so
 * the counters can be checked without knowing anything else about the machine.
 */
#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

/*
 * Per 1000 calls, as a trace of the code counts them (selftest=profiles, docs/model.md): the loop
 * as compiled is 7 instructions, CALL, the leaf's LEA and RET, then ADD, MOV, CMP, JNE: three
 * branches, all taken (the JNE but at the chunk's end), and the stack's one write (CALL) and one
 * read (RET). The cycles are an estimate.
 */
static const struct model_rate callret_rates[] = {
	{ .event = 0xc4, .umask = 0x02, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_CALL */
	{ .event = 0xc4, .umask = 0x08, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_RETURN */
	{ .event = 0xc4, .umask = 0x00, .per_units = 3000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 1000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x20, .per_units = 3000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xd0, .umask = 0x81, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile callret_profile = {
	.name = "callret",
	.ring = MODEL_RING_USER,
	.instructions = 7000,
	.core_cycles = 6000,
	.ref_cycles = 6000,
	.rates = callret_rates,
	.nrates = sizeof(callret_rates) / sizeof(callret_rates[0]),
};

/*
 * Once per chunk, what the trace counts around the units: the time check, the chunk's bounds, the
 * loop's exit (one branch not taken) and the ledger's entry. Its cycles are left in the units'
 * estimate.
 */
static const struct model_rate callret_chunk_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 12000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 10000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x10, .per_units = 6000 },  /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 6000 },  /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xd0, .umask = 0x81, .per_units = 8000 },  /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 2000 },  /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile callret_chunk_profile = {
	.name = "callret-chunk",
	.ring = MODEL_RING_USER,
	.instructions = 50000,
	.rates = callret_chunk_rates,
	.nrates = sizeof(callret_chunk_rates) / sizeof(callret_chunk_rates[0]),
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
		pmu_account(p, &callret_chunk_profile, 1);
		units += n;
	}
	p->units_done = units;
	p->checksum = x;
	return units;
}
