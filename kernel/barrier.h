/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sense-reversing barrier (Mellor-Crummey and Scott, "Algorithms for Scalable Synchronization
 * on Shared-Memory Multiprocessors", 1991): the last party to arrive resets the count and flips
 * the shared sense, which releases the others; the flipped sense makes the barrier reusable at
 * once. The last arrival also publishes a TSC time for everyone to start at. Every wait has a
 * deadline, so a thread that never arrives cannot hang the others.
 */
#ifndef KERNEL_BARRIER_H
#define KERNEL_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/cpu.h"

struct barrier {
	uint32_t parties;
	volatile uint32_t remaining;
	volatile uint32_t sense;
	volatile uint64_t start_tsc; /* set by the last arrival: when the released parties begin */
};

static inline void barrier_init(struct barrier *b, uint32_t parties)
{
	b->parties = parties;
	b->remaining = parties;
	b->sense = 0;
	b->start_tsc = 0;
}

/*
 * Wait for every party. *local_sense is the caller's own, starting at 0. The last to arrive sets
 * start_tsc = its TSC + lead. Returns false if deadline_tsc passes first (the barrier is then
 * unusable: a party is missing).
 */
static inline bool barrier_wait(struct barrier *b, uint32_t *local_sense, uint64_t lead_tsc,
				uint64_t deadline_tsc)
{
	uint32_t sense = !*local_sense;

	*local_sense = sense;
	if (__atomic_sub_fetch(&b->remaining, 1, __ATOMIC_ACQ_REL) == 0) {
		b->start_tsc = rdtsc() + lead_tsc;
		__atomic_store_n(&b->remaining, b->parties, __ATOMIC_RELAXED);
		__atomic_store_n(&b->sense, sense, __ATOMIC_RELEASE);
		return true;
	}
	while (__atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != sense) {
		if (rdtsc() > deadline_tsc)
			return false;
		cpu_relax();
	}
	return true;
}

#endif
