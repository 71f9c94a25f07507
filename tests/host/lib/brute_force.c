// SPDX-License-Identifier: GPL-2.0
/*
 * Brute-force references for the scheduler tests (see brute_force.h).
 */
#include "tests/host/lib/brute_force.h"
#include "tests/workloads/random_data.h"

#define GP_BITS 0x00000000ffffffffull

static unsigned popcount(uint64_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static bool search(const uint64_t *masks, unsigned n, unsigned gpmax, unsigned i, uint64_t used,
		   unsigned gp_used, unsigned need)
{
	uint64_t reachable = 0, options;
	unsigned live = 0, capacity, gp_left = gpmax - gp_used;

	if (need == 0)
		return true;
	if (n - i < need)
		return false;
	/* Bound: the events left that still have a free counter, and the free counters they
	 * reach, limit what can be added. */
	for (unsigned j = i; j < n; j++) {
		uint64_t m = masks[j] & ~used;

		if (m) {
			live++;
			reachable |= m;
		}
	}
	capacity = popcount(reachable & ~GP_BITS);
	capacity +=
		popcount(reachable & GP_BITS) < gp_left ? popcount(reachable & GP_BITS) : gp_left;
	if (live < need || capacity < need)
		return false;

	for (options = masks[i] & ~used; options; options &= options - 1) {
		uint64_t bit = options & -options;
		bool gp = (bit & GP_BITS) != 0;

		if (gp && gp_used >= gpmax)
			continue;
		if (search(masks, n, gpmax, i + 1, used | bit, gp_used + gp, need - 1))
			return true;
	}
	return search(masks, n, gpmax, i + 1, used, gp_used, need); /* event i left out */
}

bool brute_can_schedule(const uint64_t *masks, unsigned n, unsigned gpmax, unsigned need)
{
	return search(masks, n, gpmax, 0, 0, 0, need);
}

unsigned brute_max_scheduled(const uint64_t *masks, unsigned n, unsigned gpmax)
{
	unsigned best = 0;

	while (best < n && brute_can_schedule(masks, n, gpmax, best + 1))
		best++;
	return best;
}

int brute_check_assignment(const uint64_t *masks, unsigned n, unsigned gpmax, const int8_t *assign)
{
	uint64_t used = 0;
	unsigned gp = 0;
	int scheduled = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t bit;

		if (assign[i] == -1)
			continue;
		if (assign[i] < 0 || assign[i] >= 64)
			return -1;
		bit = 1ull << assign[i];
		if (!(masks[i] & bit) || (used & bit))
			return -1;
		used |= bit;
		gp += (bit & GP_BITS) != 0;
		scheduled++;
	}
	return gp <= gpmax ? scheduled : -1;
}

uint64_t brute_random(uint64_t *state)
{
	return random_next(state);
}
