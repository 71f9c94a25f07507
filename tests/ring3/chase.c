// SPDX-License-Identifier: GPL-2.0
/*
 * chase: pointer chasing, node = *node, around a random cycle through every node of the set (one
 * node per 64-byte line, chase_kib per thread, linked by the set-up with Sattolo's algorithm).
 * Each load's address is the previous load's result, so the loads cannot overlap, and the order
 * is random, so no prefetcher can guess the next line: every load goes to the level of the memory
 * hierarchy the set fits in and waits for that level's whole latency. A unit is one load.
 */
#include <stdint.h>

#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

/*
 * What every unit does, whatever the size: the loop is three instructions (the load, a
 * decrement, a branch back), so 1 load and 1 taken conditional branch, predicted right but for
 * the last of each chunk. Where the load hits, and so the cycles, is the level's profile below.
 */
static const struct model_rate chase_rates[] = {
	{ .event = 0xd0, .umask = 0x81, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xc4, .umask = 0x00, .per_units = 1000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 1000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x20, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
};

const struct model_profile chase_profile = {
	.name = "chase",
	.ring = MODEL_RING_USER,
	.instructions = 3000,
	.rates = chase_rates,
	.nrates = sizeof(chase_rates) / sizeof(chase_rates[0]),
};

/*
 * Once per chunk, what the trace counts around the units: the time check, the chunk's bounds, the
 * loop's exit (one branch not taken, so one taken branch fewer than the loads count) and the
 * ledger's two entries (the unit's and the level's). Its cycles are left in the units' estimate.
 */
static const struct model_rate chase_chunk_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 20000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 18000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x10, .per_units = 9000 },  /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 11000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xd0, .umask = 0x81, .per_units = 13000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 3000 },  /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile chase_chunk_profile = {
	.name = "chase-chunk",
	.ring = MODEL_RING_USER,
	.instructions = 81000,
	.rates = chase_chunk_rates,
	.nrates = sizeof(chase_chunk_rates) / sizeof(chase_chunk_rates[0]),
};

/* The set fits in L1D: every load hits it, at the 4-5 cycle load-to-use latency of SNB-HSW. */
static const struct model_rate chase_l1_rates[] = {
	{ .event = 0xd1, .umask = 0x01, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L1_HIT */
};

/* The set fits in L2, not in L1D: every load misses L1 and hits L2, about 12 cycles. */
static const struct model_rate chase_l2_rates[] = {
	{ .event = 0xd1, .umask = 0x08, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L1_MISS */
	{ .event = 0xd1, .umask = 0x02, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L2_HIT */
};

/* The set fits in L3, not in L2: misses L1 and L2, hits L3, about 35 cycles on client parts. */
static const struct model_rate chase_l3_rates[] = {
	{ .event = 0xd1, .umask = 0x08, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L1_MISS */
	{ .event = 0xd1, .umask = 0x10, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L2_MISS */
	{ .event = 0xd1, .umask = 0x04, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L3_HIT */
};

/*
 * The set is larger than L3: every load misses L1, L2 and L3 and waits for DRAM, 60-80 ns or
 * about 250 cycles at 3.4 GHz, page walks included (the lines of a large set lie on more pages
 * than the TLBs hold).
 */
static const struct model_rate chase_memory_rates[] = {
	{ .event = 0xd1, .umask = 0x08, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L1_MISS */
	{ .event = 0xd1, .umask = 0x10, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L2_MISS */
	{ .event = 0xd1, .umask = 0x20, .per_units = 1000 }, /* MEM_LOAD_UOPS_RETIRED.L3_MISS */
};

#define LEVEL_PROFILE(level_name, level_rates, cycles)                                             \
	{                                                                                          \
		.name = (level_name), .ring = MODEL_RING_USER, .core_cycles = (cycles),            \
		.ref_cycles = (cycles), .rates = (level_rates),                                    \
		.nrates = sizeof(level_rates) / sizeof((level_rates)[0]),                          \
	}

const struct model_profile chase_l1_profile = LEVEL_PROFILE("chase-l1", chase_l1_rates, 5000);
const struct model_profile chase_l2_profile = LEVEL_PROFILE("chase-l2", chase_l2_rates, 12000);
const struct model_profile chase_l3_profile = LEVEL_PROFILE("chase-l3", chase_l3_rates, 35000);
const struct model_profile chase_memory_profile =
	LEVEL_PROFILE("chase-memory", chase_memory_rates, 250000);

/*
 * Which level a set of chase_kib KiB per thread lives in, against the caches of the Sandy
 * Bridge to Haswell client parts: 32 KiB L1D and 256 KiB L2 per core, 6-8 MiB L3 (3 MiB on some
 * Core i3). Both hyperthreads of the core share all three, and both may chase a set of this size,
 * so a set counts as fitting a level when it fills at most half of it: 16 KiB, 128 KiB, 3 MiB
 * (half of the smallest 6 MiB L3). A set between half and all of a level hits it partly on the
 * real machine; the model then takes the next level out, so the default 16 MiB set, twice the
 * largest L3, misses everywhere, as the thesis's arrays do. The hardware's adjacent-line
 * prefetcher turns a few percent of the misses into hits; the model counts none.
 */
const struct chase_level chase_levels[] = {
	{ .max_kib = 16, .profile = &chase_l1_profile },
	{ .max_kib = 128, .profile = &chase_l2_profile },
	{ .max_kib = 3072, .profile = &chase_l3_profile },
	{ .max_kib = UINT32_MAX, .profile = &chase_memory_profile },
};

/* n > 0 loads along the chain from node; returns where it stopped. */
static uint64_t *chase_chunk(uint64_t *node, uint64_t n)
{
	__asm__ volatile("1:\n\t"
			 "mov (%[node]), %[node]\n\t"
			 "sub $1, %[n]\n\t"
			 "jnz 1b"
			 : [node] "+r"(node), [n] "+r"(n)
			 :
			 : "cc", "memory");
	return node;
}

uint64_t chase_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	uint64_t *node = p->chain;
	uint64_t units = 0;

	while (!workload_done(p, units)) {
		uint64_t n = workload_chunk(p, units);
		node = chase_chunk(node, n);
		pmu_account(p, &chase_profile, n);
		if (p->sized_profile)
			pmu_account(p, p->sized_profile, n);
		pmu_account(p, &chase_chunk_profile, 1);
		units += n;
	}
	p->units_done = units;
	p->checksum = (uint64_t)(uintptr_t)node;
	return units;
}
