/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Brute-force references for the scheduler tests: exhaustive search over assignments, sharing no
 * code with pmu/ beyond the idxmsk layout. Host-only (recursive, slow on purpose).
 */
#ifndef TESTS_HOST_LIB_BRUTE_FORCE_H
#define TESTS_HOST_LIB_BRUTE_FORCE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Is there an assignment of distinct counters to at least `need` of the n events, each within
 * its mask, using at most gpmax GP counters (bits 0-31)? Exhaustive depth-first search with a
 * counting bound.
 */
bool brute_can_schedule(const uint64_t *masks, unsigned n, unsigned gpmax, unsigned need);

/* The largest number of the n events that can be scheduled together (a maximum matching). */
unsigned brute_max_scheduled(const uint64_t *masks, unsigned n, unsigned gpmax);

/*
 * assign[] (as pmu/sched.h returns it) is a valid schedule of the n events: distinct counters,
 * each in its event's mask, at most gpmax of them GP. Returns the number of events scheduled, or
 * -1 if the assignment is invalid.
 */
int brute_check_assignment(const uint64_t *masks, unsigned n, unsigned gpmax, const int8_t *assign);

/* A small deterministic generator (xorshift64*), so a failure names its instance. */
uint64_t brute_random(uint64_t *state);

#endif
