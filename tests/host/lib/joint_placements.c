// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive joint placements for core-wide XSU (see joint_placements.h).
 */
#include <string.h>

#include "tests/host/lib/brute_force.h"
#include "tests/host/lib/joint_placements.h"

#define GP_BITS 0x00000000ffffffffull
#define FIXED_BITS 0xffffffff00000000ull

unsigned joint_group_index(const struct mux_thread *t0, unsigned thread, unsigned group)
{
	return thread ? t0->nr_groups + group : group;
}

/* Does this subset of thread t's groups fit, non-corrupting events on `open`, corrupting ones on
 * `exclusive`? */
static int fits(const struct mux_thread *t, uint32_t groups, uint64_t open, uint64_t exclusive)
{
	uint64_t masks[MUX_MAX_EVENTS];
	unsigned n = 0;

	for (unsigned g = 0; g < t->nr_groups; g++) {
		if (!(groups & (1u << g)))
			continue;
		for (unsigned j = 0; j < t->groups[g].count; j++) {
			const struct mux_event *e = &t->events[t->groups[g].first + j];

			masks[n++] =
				e->constraint.mask & (e->constraint.corrupting ? exclusive : open);
		}
	}
	return brute_can_schedule(masks, n, 64, n);
}

static uint32_t enabled_groups(const struct mux_thread *t)
{
	uint32_t all = 0;

	for (unsigned g = 0; g < t->nr_groups; g++)
		if (t->events[t->groups[g].first].state != MUX_EVENT_ERROR)
			all |= 1u << g;
	return all;
}

/* Add set unless a kept set contains it; drop the kept sets it contains. */
static int keep_maximal(uint64_t *sets, unsigned n, unsigned max, uint64_t set)
{
	unsigned out = 0;

	for (unsigned i = 0; i < n; i++)
		if ((sets[i] & set) == set)
			return (int)n;
	for (unsigned i = 0; i < n; i++)
		if ((sets[i] & set) != sets[i])
			sets[out++] = sets[i];
	if (out >= max)
		return -1;
	sets[out++] = set;
	return (int)out;
}

/* The maximal subsets of thread t's enabled groups that fit, as global bits. */
static unsigned thread_maximal(const struct mux_thread *t, unsigned shift, uint64_t open,
			       uint64_t exclusive, uint64_t *out)
{
	uint32_t all = enabled_groups(t);
	unsigned n = 0;

	/* Larger subsets first, so that only maximal ones are kept without a second pass. */
	for (int size = __builtin_popcount(all); size >= 0; size--) {
		for (uint32_t s = all;; s = (s - 1) & all) {
			if (__builtin_popcount(s) == size) {
				bool covered = false;

				for (unsigned i = 0; i < n && !covered; i++)
					covered = ((out[i] >> shift) & s) == s;
				if (!covered && fits(t, s, open, exclusive))
					out[n++] = (uint64_t)s << shift;
			}
			if (!s)
				break;
		}
	}
	return n;
}

int joint_maximal_sets(const struct mux_thread *t0, const struct mux_thread *t1, uint64_t *sets,
		       unsigned max)
{
	unsigned gp = t0->config.gp < t1->config.gp ? t0->config.gp : t1->config.gp;
	unsigned fixed = t0->config.fixed < t1->config.fixed ? t0->config.fixed : t1->config.fixed;
	uint64_t fixed_mask = ((1ull << fixed) - 1) << 32;
	unsigned labellings = 1, n = 0;
	uint64_t part[2][1u << 10]; /* C(12, 6) = 924 maximal subsets at most */

	if (t0->nr_groups + t1->nr_groups > JOINT_MAX_GROUPS || t0->nr_groups > 12 ||
	    t1->nr_groups > 12)
		return -1;
	for (unsigned i = 0; i < gp; i++)
		labellings *= 3;
	for (unsigned l = 0; l < labellings; l++) {
		uint64_t exclusive[2] = { 0, 0 }, shared = 0;
		unsigned np[2];
		int kept = (int)n;

		for (unsigned i = 0, v = l; i < gp; i++, v /= 3) {
			if (v % 3 == 0)
				shared |= 1ull << i;
			else
				exclusive[v % 3 - 1] |= 1ull << i;
		}
		np[0] = thread_maximal(t0, 0, shared | exclusive[0] | fixed_mask, exclusive[0],
				       part[0]);
		np[1] = thread_maximal(t1, t0->nr_groups, shared | exclusive[1] | fixed_mask,
				       exclusive[1], part[1]);
		for (unsigned a = 0; a < np[0] && kept >= 0; a++)
			for (unsigned b = 0; b < np[1] && kept >= 0; b++)
				kept = keep_maximal(sets, (unsigned)kept, max,
						    part[0][a] | part[1][b]);
		if (kept < 0)
			return -1;
		n = (unsigned)kept;
	}
	return (int)n;
}
