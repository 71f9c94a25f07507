/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading counters from ring 3, as LiMiT does (Demme and Sethumadhavan, ISCA 2011): a workload
 * reads a counter the kernel has programmed with one RDPMC before a region and one after, and the
 * difference is what the region counted, without a system call. On real counters the read is the
 * instruction itself (the kernel sets CR4.PCE); under the model PMU it faults and the kernel
 * answers it from the model (kernel/user_rdpmc.h), so the same code runs under QEMU.
 *
 * A counter is named as RDPMC's ECX takes it (SDM vol. 2B, RDPMC): GP counter i is i, fixed
 * counter j is RDPMC_FIXED | j. The region must not span a multiplexing tick that reprograms the
 * counter: the kernel does not save a region's counter for it, as LiMiT's kernel patch does.
 */
#ifndef TESTS_BENCH_RDPMC_H
#define TESTS_BENCH_RDPMC_H

#include <stdint.h>

#include "pmu/msr.h"

/* The counters' width on SNB-SKL, GP and fixed (CPUID.0AH EAX[23:16], EDX[12:5]): a region's
 * difference is taken modulo 2^48, so that a counter that wraps inside it still reads right. */
#define RDPMC_WIDTH 48

static inline uint64_t rdpmc_read(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

struct rdpmc_region {
	uint32_t counter;
	uint64_t start;
};

/* Start a region on counter (RDPMC's ECX). */
static inline void rdpmc_region_begin(struct rdpmc_region *r, uint32_t counter)
{
	r->counter = counter;
	r->start = rdpmc_read(counter);
}

/* End it: what the counter counted since rdpmc_region_begin(). */
static inline uint64_t rdpmc_region_end(const struct rdpmc_region *r)
{
	return (rdpmc_read(r->counter) - r->start) & ((1ull << RDPMC_WIDTH) - 1);
}

#endif
