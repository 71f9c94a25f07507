// SPDX-License-Identifier: GPL-2.0
/*
 * alu: integer and vector arithmetic in registers, nothing else: no load or store inside the
 * loop, one predictable branch per unit. The core's execution units are what it stresses, and
 * the memory events a sibling counts are its own alone. The loop is written in assembly so that
 * the compiler keeps every value in a register. A unit is one pass through the block below.
 */
#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

/*
 * Per 1000 passes. A pass is 10 instructions: four integer ones (IMUL, ADD, XOR, ROL), four SSE2
 * ones (PADDQ, PXOR, PSHUFD, PADDD), the decrement and the branch back, taken but once per chunk.
 * Both chains carry a dependency from pass to pass through four steps, IMUL's 3 cycles and ADD's 1
 * on the integer side, four 1-cycle vector steps on the other, so a pass takes about 4 cycles.
 * No loads and no stores: the only memory the workload touches is its parameters, once per
 * chunk of 4096 passes, and the model counts none of it.
 */
static const struct model_rate alu_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 1000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 1000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x20, .per_units = 1000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
};

const struct model_profile alu_profile = {
	.name = "alu",
	.ring = MODEL_RING_USER,
	.instructions = 10000,
	.core_cycles = 4000,
	.ref_cycles = 4000,
	.rates = alu_rates,
	.nrates = sizeof(alu_rates) / sizeof(alu_rates[0]),
};

/*
 * Once per chunk, what the trace counts around the units: the time check, the chunk's bounds, the
 * loop's exit (one branch not taken, so one taken branch fewer than the passes count), the state
 * kept across chunks and the ledger's entry. Its cycles are left in the units' estimate.
 */
static const struct model_rate alu_chunk_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 12000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 10000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x10, .per_units = 5000 },  /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 7000 },  /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xd0, .umask = 0x81, .per_units = 8000 },  /* MEM_UOPS_RETIRED.ALL_LOADS */
	{ .event = 0xd0, .umask = 0x82, .per_units = 2000 },  /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile alu_chunk_profile = {
	.name = "alu-chunk",
	.ring = MODEL_RING_USER,
	.instructions = 53000,
	.rates = alu_chunk_rates,
	.nrates = sizeof(alu_chunk_rates) / sizeof(alu_chunk_rates[0]),
};

typedef long long alu_vector __attribute__((vector_size(16)));

/* The state carried from pass to pass: two integers and three vectors. */
struct alu_state {
	uint64_t x, y;
	alu_vector v0, v1, v2;
};

/* n > 0 passes. */
static void alu_chunk(struct alu_state *s, uint64_t n)
{
	uint64_t x = s->x, y = s->y;
	alu_vector v0 = s->v0, v1 = s->v1, v2 = s->v2;
	const uint64_t multiplier = 0x9e3779b97f4a7c15ull; /* odd: x * m loses no information */

	__asm__ volatile(
		"1:\n\t"
		"imul %[m], %[x]\n\t"
		"add %[y], %[x]\n\t"
		"xor %[x], %[y]\n\t"
		"rol $13, %[y]\n\t"
		"paddq %[v1], %[v0]\n\t"
		"pxor %[v0], %[v1]\n\t"
		"pshufd $0x4e, %[v1], %[v2]\n\t"
		"paddd %[v2], %[v0]\n\t"
		"sub $1, %[n]\n\t"
		"jnz 1b"
		: [x] "+r"(x), [y] "+r"(y), [v0] "+x"(v0), [v1] "+x"(v1), [v2] "+x"(v2), [n] "+r"(n)
		: [m] "r"(multiplier)
		: "cc");
	s->x = x;
	s->y = y;
	s->v0 = v0;
	s->v1 = v1;
	s->v2 = v2;
}

uint64_t alu_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	struct alu_state s = { .x = p->thread + 1, .y = 7, .v0 = { 1, 2 }, .v1 = { 3, 4 } };
	uint64_t units = 0;

	while (!workload_done(p, units)) {
		uint64_t n = workload_chunk(p, units);
		alu_chunk(&s, n);
		pmu_account(p, &alu_profile, n);
		pmu_account(p, &alu_chunk_profile, 1);
		units += n;
	}
	p->units_done = units;
	p->checksum = s.x ^ s.y ^ (uint64_t)s.v0[0] ^ (uint64_t)s.v0[1];
	return units;
}
