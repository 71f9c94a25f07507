/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-3 half of the RDPMC boot check (tests/checks/rdpmc_check.h): time one RDPMC read, and
 * read a known region of work through the API of tests/ring3/rdpmc.h.
 */
#ifndef TESTS_RING3_RDPMC_CHECK_H
#define TESTS_RING3_RDPMC_CHECK_H

#include <stdint.h>

#include "tests/ring3/workload.h"

/* Reads timed on each thread (and empty pairs timed before them). */
#define RDPMC_CHECK_READS 2000

struct rdpmc_check_slot {
	/* In, set by the kernel. */
	struct workload_params work; /* the region's known work: callret, work.max_units units */
	uint32_t counter;	     /* what the timed reads and the region read (RDPMC's ECX) */
	uint32_t instructions; /* the counter of INST_RETIRED.ANY, read around the region too */
	uint64_t reads;	       /* reads to time, at most RDPMC_CHECK_READS */
	/* Out. */
	uint64_t empty_tsc;	 /* the cheapest empty timing pair, TSC cycles */
	uint64_t sum, min, max;	 /* TSC cycles per read, the empty pair subtracted */
	uint64_t region_counted; /* the counter's difference over the region */
	uint64_t region_instructions;
	/* Each read's cost in TSC cycles (at most 2^32 - 1), sorted: cost[reads / 2] is the median,
	 * which a read the host or an interrupt held up does not move as it moves the mean. */
	uint32_t cost[RDPMC_CHECK_READS];
};

/* Two slots, one per thread, on user pages. */
extern struct rdpmc_check_slot rdpmc_check_slots[2];

/* arg: the thread index. */
uint64_t rdpmc_check_run(uint64_t arg);

#endif
