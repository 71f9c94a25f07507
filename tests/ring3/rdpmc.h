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
#ifndef TESTS_RING3_RDPMC_H
#define TESTS_RING3_RDPMC_H

#include <stdint.h>

#include "pmu/msr.h"
#include "tests/ring3/workload.h"

/*
 * RDPMC is not a serializing instruction (SDM vol. 2B, RDPMC): without a fence it may execute
 * before earlier instructions of the region have completed, or after later ones have begun, and
 * the compiler may move memory accesses across it. So a read is `lfence; rdpmc; lfence` with a
 * memory clobber, as the SDM recommends for RDTSC: the first LFENCE waits for what came before,
 * the second keeps what follows from starting early.
 */
static inline uint64_t rdpmc_read(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdpmc\n\tlfence"
			 : "=a"(lo), "=d"(hi)
			 : "c"(counter)
			 : "memory");
	return (uint64_t)hi << 32 | lo;
}

/*
 * A region: a counter, its width in bits (CPUID.0AH: EAX[23:16] for GP counters, EDX[12:5] for
 * fixed ones; the kernel passes them in struct workload_params), and its value at the start. The
 * difference is taken modulo 2^width, so that a counter that wraps inside the region reads right.
 */
struct rdpmc_region {
	uint32_t counter;
	unsigned width;
	uint64_t start;
};

/* The width of counter (RDPMC's ECX) as the kernel found it. */
static inline unsigned rdpmc_width(const struct workload_params *p, uint32_t counter)
{
	return counter & RDPMC_FIXED ? p->fixed_width : p->gp_width;
}

/* Start a region on counter (RDPMC's ECX), width bits wide. */
static inline void rdpmc_region_begin(struct rdpmc_region *r, uint32_t counter, unsigned width)
{
	r->counter = counter;
	r->width = width;
	r->start = rdpmc_read(counter);
}

/* End it: what the counter counted since rdpmc_region_begin(). */
static inline uint64_t rdpmc_region_end(const struct rdpmc_region *r)
{
	uint64_t mask = r->width >= 64 ? ~0ull : (1ull << r->width) - 1;

	return (rdpmc_read(r->counter) - r->start) & mask;
}

#endif
