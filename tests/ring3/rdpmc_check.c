// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-3 half of the RDPMC boot check (tests/ring3/rdpmc_check.h).
 */
#include "tests/ring3/rdpmc.h"
#include "tests/ring3/rdpmc_check.h"

struct rdpmc_check_slot rdpmc_check_slots[2];

/*
 * The TSC, ordered with what comes before and after it: RDTSC does not wait for earlier
 * instructions, nor later ones for it, unless fenced (SDM vol. 2B, RDTSC: LFENCE before and after).
 */
static inline uint64_t fenced_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
	return (uint64_t)hi << 32 | lo;
}

/*
 * The cost of one read, as nanoBench measures a piece of code: time it between two fenced RDTSCs
 * many times, and subtract what the timing costs by itself, the cheapest of as many empty pairs.
 */
static void time_reads(struct rdpmc_check_slot *s)
{
	uint64_t empty = UINT64_MAX;

	for (uint64_t i = 0; i < s->reads; i++) {
		uint64_t t0 = fenced_rdtsc();
		uint64_t t1 = fenced_rdtsc();
		if (t1 - t0 < empty)
			empty = t1 - t0;
	}
	s->empty_tsc = empty;
	s->sum = 0;
	s->min = UINT64_MAX;
	s->max = 0;
	for (uint64_t i = 0; i < s->reads; i++) {
		uint64_t t0 = fenced_rdtsc();
		rdpmc_read(s->counter);
		uint64_t t1 = fenced_rdtsc();
		uint64_t cost = t1 - t0 > empty ? t1 - t0 - empty : 0;
		s->sum += cost;
		s->min = cost < s->min ? cost : s->min;
		s->max = cost > s->max ? cost : s->max;
		s->cost[i] = cost < UINT32_MAX ? (uint32_t)cost : UINT32_MAX;
	}
}

/* Shell sort with Ciura's gaps: a few dozen thousand steps for the check's reads, no recursion. */
static void sort_costs(uint32_t *cost, uint64_t n)
{
	static const uint64_t gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };

	for (unsigned g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
		uint64_t gap = gaps[g];
		for (uint64_t i = gap; i < n; i++) {
			uint32_t v = cost[i];
			uint64_t j = i;
			for (; j >= gap && cost[j - gap] > v; j -= gap)
				cost[j] = cost[j - gap];
			cost[j] = v;
		}
	}
}

uint64_t rdpmc_check_run(uint64_t arg)
{
	struct rdpmc_check_slot *s = &rdpmc_check_slots[arg & 1];
	struct rdpmc_region counted, instructions;

	if (s->reads > RDPMC_CHECK_READS)
		s->reads = RDPMC_CHECK_READS;
	time_reads(s);
	sort_costs(s->cost, s->reads);
	rdpmc_region_begin(&counted, s->counter, rdpmc_width(&s->work, s->counter));
	rdpmc_region_begin(&instructions, s->instructions, rdpmc_width(&s->work, s->instructions));
	callret_run((uint64_t)(uintptr_t)&s->work);
	s->region_instructions = rdpmc_region_end(&instructions);
	s->region_counted = rdpmc_region_end(&counted);
	return s->region_counted;
}
