// SPDX-License-Identifier: GPL-2.0
/*
 * The greedy counter assignment of Linux's perf_assign_events() (arch/x86/events/core.c, the
 * perf_sched_* helpers; thesis 3.2 and its pseudocode; "The Linux perf Event Scheduling
 * Algorithm", step 4): most constrained events first, each on the first counter that is free.
 * Once an event has a counter it keeps it for the rest of the pass, which is what makes the
 * algorithm greedy and, for some constraint sets, worse than a maximum matching (thesis 6.1).
 */
#include "pmu/counters.h"
#include "pmu/sched.h"

/*
 * A stable insertion sort by weight gives Linux's visit order (n is at most SCHED_MAX_EVENTS and
 * usually 4 to 8, where this is cheaper than walking every weight from wmin to wmax).
 */
void sched_weight_order(const uint64_t *masks, unsigned n, uint8_t *order)
{
	uint8_t weight[SCHED_MAX_EVENTS];

	for (unsigned i = 0; i < n; i++) {
		unsigned w = sched_weight(masks[i]);
		unsigned j = i;

		while (j > 0 && weight[j - 1] > w) {
			weight[j] = weight[j - 1];
			order[j] = order[j - 1];
			j--;
		}
		weight[j] = (uint8_t)w;
		order[j] = (uint8_t)i;
	}
}

unsigned greedy_assign(const uint64_t *masks, unsigned n, unsigned gpmax, int8_t *assign)
{
	uint8_t order[SCHED_MAX_EVENTS];
	uint64_t used = 0;
	unsigned nr_gp = 0;

	if (n > SCHED_MAX_EVENTS)
		n = SCHED_MAX_EVENTS;
	for (unsigned i = 0; i < n; i++)
		assign[i] = SCHED_NO_COUNTER;
	sched_weight_order(masks, n, order);

	for (unsigned k = 0; k < n; k++) {
		unsigned e = order[k];
		uint64_t fixed_free = masks[e] & PMU_FIXED_BITS & ~used;
		uint64_t gp_free = masks[e] & PMU_GP_BITS & ~used;
		unsigned counter;

		if (fixed_free) {
			/* Fixed counters first (Linux since 3.3, perf_sched_find_counter). */
			counter = sched_first_bit(fixed_free);
		} else if (gp_free && nr_gp < gpmax) {
			counter = sched_first_bit(gp_free);
			nr_gp++;
		} else {
			/* The pass stops here: this event and every later one stay unassigned. */
			return n - k;
		}
		used |= 1ull << counter;
		assign[e] = (int8_t)counter;
	}
	return 0;
}
