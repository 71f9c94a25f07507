// SPDX-License-Identifier: GPL-2.0
/*
 * branchy: one conditional branch on each bit of random words (made by the set-up), taken when
 * the bit is 0 and not taken when it is 1, so its direction is a coin toss no predictor can
 * learn: about half of them are mispredicted. A unit is one word, 64 such branches. The branches
 * are written in assembly so that they stay branches (a compiler turns `if (bit) n++` into
 * arithmetic or a CMOV, which never mispredicts).
 */
#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

/*
 * Per 1000 words. The unrolled body of one word is a load, then 64 times `shr; jnc` with an `add`
 * that runs when the branch falls through (half the time), then the loop's increment, compare and
 * branch back: 1 + 128 + 32 + 3 = 164 instructions and 65 conditional branches, of which 32 are
 * mispredicted (half of the 64 random ones; the loop branch is predicted right but once per
 * chunk). Taken: the 32 random ones that jump plus the loop branch, 33; not taken, 32. The words
 * are read in order from a 32 KiB table, which the L1 prefetcher keeps ahead of, so the load
 * hits L1. At a misprediction penalty of about 16 cycles on SNB-HSW, the 32 mispredictions cost
 * about 512 cycles of the word's 550. The table repeats every 262,144 branches, far more history
 * than a branch predictor holds, so it stays unpredictable pass after pass.
 */
static const struct model_rate branchy_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 65000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 65000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x10, .per_units = 32000 }, /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 33000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xc5, .umask = 0x00, .per_units = 32000 }, /* BR_MISP_RETIRED.ALL_BRANCHES */
	{ .event = 0xc5, .umask = 0x01, .per_units = 32000 }, /* BR_MISP_RETIRED.CONDITIONAL */
	{ .event = 0xd0, .umask = 0x81, .per_units = 1000 },  /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd1, .umask = 0x01, .per_units = 1000 },  /* MEM_LOAD_UOPS_RETIRED.L1_HIT */
};

const struct model_profile branchy_profile = {
	.name = "branchy",
	.ring = MODEL_RING_USER,
	.instructions = 164000,
	.core_cycles = 550000,
	.ref_cycles = 550000,
	.rates = branchy_rates,
	.nrates = sizeof(branchy_rates) / sizeof(branchy_rates[0]),
};

/*
 * Once per chunk, what the trace counts around the units: the time check, the chunk's bounds, the
 * loop's exit (one branch not taken) and the ledger's entry. Its cycles are left in the units'
 * estimate.
 */
static const struct model_rate branchy_chunk_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 14000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 11000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x10, .per_units = 7000 },  /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 7000 },  /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xd0, .umask = 0x81, .per_units = 10000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 2000 },  /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile branchy_chunk_profile = {
	.name = "branchy-chunk",
	.ring = MODEL_RING_USER,
	.instructions = 62000,
	.rates = branchy_chunk_rates,
	.nrates = sizeof(branchy_chunk_rates) / sizeof(branchy_chunk_rates[0]),
};

/* Words [from, to), from < to; returns how many of their bits were 1 (branches not taken). */
static uint64_t branchy_chunk(const uint64_t *words, uint64_t from, uint64_t to)
{
	uint64_t ones = 0;

	__asm__ volatile("1:\n\t"
			 "mov (%[words],%[i],8), %%rax\n\t"
			 ".rept 64\n\t"
			 "shr $1, %%rax\n\t" /* CF: the bit shifted out */
			 "jnc 2f\n\t"	     /* the random branch: taken when the bit is 0 */
			 "add $1, %[ones]\n"
			 "2:\n\t"
			 ".endr\n\t"
			 "add $1, %[i]\n\t"
			 "cmp %[to], %[i]\n\t"
			 "jb 1b"
			 : [i] "+r"(from), [ones] "+r"(ones)
			 : [words] "r"(words), [to] "r"(to)
			 : "rax", "cc", "memory");
	return ones;
}

uint64_t branchy_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	uint64_t units = 0, ones = 0;

	while (!workload_done(p, units)) {
		for (uint64_t from = 0, to; (to = workload_pass_chunk(p, units, from)); from = to) {
			ones += branchy_chunk(p->words, from, to);
			pmu_account(p, &branchy_profile, to - from);
			pmu_account(p, &branchy_chunk_profile, 1);
			units += to - from;
		}
	}
	p->units_done = units;
	p->checksum = ones;
	return units;
}
