// SPDX-License-Identifier: GPL-2.0
/*
 * triad: c[i] = a[i] + k * b[i], the memory-bound loop of the thesis (ch. 4 and 7: "a single-
 * threaded, very stable workload performing loads and stores"). The arrays are larger than L2
 * (and by default than L3), so loads miss the L1 and L2 caches at a steady rate.
 */
#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

/*
 * The events of one element, per 1000 elements. What the code does, as a trace of it counts
 * (selftest=profiles, docs/model.md "Traced and fitted"): the loop as compiled is 7 instructions
 * (two MOVSD, MULSD, ADDSD, ADD, CMP, JNE), two loads, one store, one conditional branch, taken
 * but at the chunk's end. Fitted, because no trace can give them: where the loads hit, after the
 * thesis's Haswell figures (ch. 7 and 8, triad on an i7-4770 over 10 s): 5.6G
 * MEM_UOPS_RETIRED.ALL_LOADS for 305M L1 misses, 213M L2 misses and 2.9G L1 hits, i.e. per two
 * loads 0.109, 0.076 and 1.04; and the cycles, an estimate.
 */
static const struct model_rate triad_rates[] = {
	{ .event = 0xd0, .umask = 0x81, .per_units = 2000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_STORES */
	{ .event = 0xd1, .umask = 0x01, .per_units = 1039 }, /* MEM_LOAD_UOPS_RETIRED.L1_HIT */
	{ .event = 0xd1, .umask = 0x08, .per_units = 109 },  /* MEM_LOAD_UOPS_RETIRED.L1_MISS */
	{ .event = 0xd1, .umask = 0x10, .per_units = 76 },   /* MEM_LOAD_UOPS_RETIRED.L2_MISS */
	/* The L1 misses that hit L2 (L1_MISS - L2_MISS), and an estimate of the L2 misses that hit
	 * the LLC (a quarter: what an 8 MiB LLC keeps of 12 MiB streamed); Sandy Bridge's experiments
	 * count these two where it documents no L1_MISS and L2_MISS. */
	{ .event = 0xd1, .umask = 0x02, .per_units = 33 },   /* MEM_LOAD_UOPS_RETIRED.L2_HIT */
	{ .event = 0xd1, .umask = 0x04, .per_units = 19 },   /* MEM_LOAD_UOPS_RETIRED.LLC_HIT */
	{ .event = 0xc4, .umask = 0x00, .per_units = 1000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 1000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x20, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
};

const struct model_profile triad_profile = {
	.name = "triad",
	.ring = MODEL_RING_USER,
	.instructions = 7000,
	.core_cycles = 4000,
	.ref_cycles = 4000,
	.rates = triad_rates,
	.nrates = sizeof(triad_rates) / sizeof(triad_rates[0]),
};

/*
 * Once per chunk, what the trace counts around the elements: the time check, the chunk's bounds,
 * the call of triad_chunk() with the load of k, the loop's exit (the one JNE not taken, so one
 * taken branch fewer than the elements count), the return, and the ledger's entries. Its cycles
 * are left in the elements' estimate.
 */
static const struct model_rate triad_chunk_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 16000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 12000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x02, .per_units = 1000 },  /* BR_INST_RETIRED.NEAR_CALL */
	{ .event = 0xc4, .umask = 0x08, .per_units = 1000 },  /* BR_INST_RETIRED.NEAR_RETURN */
	{ .event = 0xc4, .umask = 0x10, .per_units = 8000 },  /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 8000 },  /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xd0, .umask = 0x81, .per_units = 14000 }, /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 3000 },  /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile triad_chunk_profile = {
	.name = "triad-chunk",
	.ring = MODEL_RING_USER,
	.instructions = 65000,
	.rates = triad_chunk_rates,
	.nrates = sizeof(triad_chunk_rates) / sizeof(triad_chunk_rates[0]),
};

/*
 * Once per pass over the arrays, fitted to the thesis, which counts 644-772 mispredictions in 10 s
 * of 342 passes: two mispredicted branches and their cycles. What the pass's own code does (a few
 * instructions every triad_kib * 128 elements) is not counted.
 */
static const struct model_rate triad_pass_rates[] = {
	{ .event = 0xc5, .umask = 0x00, .per_units = 2000 }, /* BR_MISP_RETIRED.ALL_BRANCHES */
};

const struct model_profile triad_pass_profile = {
	.name = "triad-pass",
	.ring = MODEL_RING_USER,
	.core_cycles = 40000,
	.ref_cycles = 40000,
	.rates = triad_pass_rates,
	.nrates = sizeof(triad_pass_rates) / sizeof(triad_pass_rates[0]),
};

/* One chunk of the loop; noinline so that a pass really is a call (NEAR_CALL, NEAR_RETURN). */
static __attribute__((noinline)) void triad_chunk(double *c, const double *a, const double *b,
						  double k, uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++)
		c[i] = a[i] + k * b[i];
}

uint64_t triad_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	const double k = 3.0;
	uint64_t units = 0;

	while (!workload_done(p, units)) {
		for (uint64_t from = 0, to; (to = workload_pass_chunk(p, units, from)); from = to) {
			triad_chunk(p->c, p->a, p->b, k, from, to);
			pmu_account(p, &triad_profile, to - from);
			pmu_account(p, &triad_chunk_profile, 1);
			units += to - from;
		}
		pmu_account(p, &triad_pass_profile, 1);
	}
	p->units_done = units;
	p->checksum = (uint64_t)p->c[p->elements / 2];
	return units;
}
