// SPDX-License-Identifier: GPL-2.0
/*
 * copy: c[i] = a[i], one 8-byte load and one 8-byte store per element (a unit), over triad's
 * arrays (triad_kib each, by default larger than L2 and L3): memory bandwidth with half of
 * triad's loads per element and the same stores. The loop is written in assembly so that it
 * stays one load and one store per element: a compiler may vectorise or call memcpy instead.
 */
#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

/*
 * Per 1000 elements. The loop is five instructions (load, store, increment, compare, branch),
 * one of them a taken branch, and streams through the arrays in order as triad does; so its
 * loads hit and miss the caches as triad's do per load, after the thesis's Haswell figures
 * (ch. 7 and 8, triad on an i7-4770: per load 0.52 L1 hits, 0.055 L1 misses, 0.038 L2 misses,
 * and the rest, 0.426, hits a line fill buffer the prefetchers have already asked for). Cycles
 * are an estimate for a stream of one 8-byte load and one store: about 2 per element from
 * DRAM-backed arrays on a client part, where both siblings share the bandwidth.
 */
static const struct model_rate copy_rates[] = {
	{ .event = 0xd0, .umask = 0x81, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_STORES */
	{ .event = 0xd1, .umask = 0x01, .per_units = 520 },  /* MEM_LOAD_UOPS_RETIRED.L1_HIT */
	{ .event = 0xd1, .umask = 0x08, .per_units = 54 },   /* MEM_LOAD_UOPS_RETIRED.L1_MISS */
	{ .event = 0xd1, .umask = 0x10, .per_units = 38 },   /* MEM_LOAD_UOPS_RETIRED.L2_MISS */
	{ .event = 0xd1, .umask = 0x40, .per_units = 426 },  /* MEM_LOAD_UOPS_RETIRED.HIT_LFB */
	{ .event = 0xc4, .umask = 0x00, .per_units = 1000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 1000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x20, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
};

const struct model_profile copy_profile = {
	.name = "copy",
	.ring = MODEL_RING_USER,
	.instructions = 5000,
	.core_cycles = 2000,
	.ref_cycles = 2000,
	.rates = copy_rates,
	.nrates = sizeof(copy_rates) / sizeof(copy_rates[0]),
};

/*
 * Once per chunk, what the trace counts around the units: the time check, the chunk's bounds, the
 * loop's exit (one branch not taken, so one taken branch fewer than the elements count) and the
 * ledger's entry. Its cycles are left in the units' estimate.
 */
static const struct model_rate copy_chunk_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 14000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 11000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x10, .per_units = 7000 },  /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 7000 },  /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xd0, .umask = 0x81, .per_units = 9000 },  /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 2000 },  /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile copy_chunk_profile = {
	.name = "copy-chunk",
	.ring = MODEL_RING_USER,
	.instructions = 59000,
	.rates = copy_chunk_rates,
	.nrates = sizeof(copy_chunk_rates) / sizeof(copy_chunk_rates[0]),
};

/* Elements [from, to) of c = a, from < to. */
static void copy_chunk(uint64_t *c, const uint64_t *a, uint64_t from, uint64_t to)
{
	__asm__ volatile("1:\n\t"
			 "mov (%[a],%[i],8), %%rax\n\t"
			 "mov %%rax, (%[c],%[i],8)\n\t"
			 "add $1, %[i]\n\t"
			 "cmp %[to], %[i]\n\t"
			 "jb 1b"
			 : [i] "+r"(from)
			 : [a] "r"(a), [c] "r"(c), [to] "r"(to)
			 : "rax", "cc", "memory");
}

uint64_t copy_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	uint64_t *c = (uint64_t *)p->c;
	const uint64_t *a = (const uint64_t *)p->a;
	uint64_t units = 0;

	while (!workload_done(p, units)) {
		for (uint64_t from = 0, to; (to = workload_pass_chunk(p, units, from)); from = to) {
			copy_chunk(c, a, from, to);
			pmu_account(p, &copy_profile, to - from);
			pmu_account(p, &copy_chunk_profile, 1);
			units += to - from;
		}
	}
	p->units_done = units;
	p->checksum = c[p->elements / 2];
	return units;
}
