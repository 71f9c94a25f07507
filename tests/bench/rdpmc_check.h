/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-3 half of the RDPMC boot check (tests/checks/rdpmc_check.h): time one RDPMC read, and
 * read a known region of work through the API of tests/bench/rdpmc.h.
 */
#ifndef TESTS_BENCH_RDPMC_CHECK_H
#define TESTS_BENCH_RDPMC_CHECK_H

#include <stdint.h>

#include "tests/bench/workload.h"

struct rdpmc_check_slot {
	/* In, set by the kernel. */
	struct workload_params work; /* the region's known work: callret, work.max_units units */
	uint32_t counter;	     /* what the timed reads and the region read (RDPMC's ECX) */
	uint32_t instructions; /* the counter of INST_RETIRED.ANY, read around the region too */
	uint64_t reads;	       /* reads to time, and empty pairs to time before them */
	/* Out. */
	uint64_t empty_tsc;	 /* the cheapest empty timing pair, TSC cycles */
	uint64_t sum, min, max;	 /* TSC cycles per read, the empty pair subtracted */
	uint64_t region_counted; /* the counter's difference over the region */
	uint64_t region_instructions;
};

/* Two slots, one per thread, on user pages. */
extern struct rdpmc_check_slot rdpmc_check_slots[2];

/* arg: the thread index. */
uint64_t rdpmc_check_run(uint64_t arg);

#endif
