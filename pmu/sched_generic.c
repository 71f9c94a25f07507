// SPDX-License-Identifier: GPL-2.0
/*
 * The generic layer of perf_events scheduling (thesis 3.1 and fig. 3.1; "The Linux perf Event
 * Scheduling Algorithm", "The Scheduling Algorithm"): groups are added one at a time, each time
 * rescheduling the whole window of accepted groups plus the new one, pinned groups before
 * flexible ones, and the pass ends at the first flexible group that does not fit.
 */
#include "pmu/sched.h"

/* The window of accepted groups, in the order Linux's cpuc->event_list would hold it. */
struct window {
	uint8_t event[SCHED_MAX_EVENTS];
	uint64_t mask[SCHED_MAX_EVENTS];
	int8_t prev[SCHED_MAX_EVENTS];
	int8_t assign[SCHED_MAX_EVENTS]; /* the last schedule that succeeded */
	unsigned size;
};

/*
 * Whether group g fits beside the window: appended, the whole window scheduled again (the greedy
 * algorithm sees one list and may move earlier events; thesis fig. 3.1/3.2). When it does, it
 * stays in the window.
 */
static bool try_group(const struct sched_generic_params *params, const uint64_t *masks,
		      const int8_t *previous, unsigned nr_events, unsigned limit,
		      const struct sched_group *g, struct window *w, unsigned *passes)
{
	int8_t attempt[SCHED_MAX_EVENTS];
	unsigned size = w->size + g->count;

	if (size > limit || g->first + g->count > nr_events)
		return false;
	for (unsigned j = 0; j < g->count; j++) {
		unsigned e = g->first + j;

		w->event[w->size + j] = (uint8_t)e;
		w->mask[w->size + j] = masks[e];
		w->prev[w->size + j] = previous[e];
	}
	(*passes)++;
	if (sched_events(params->algorithm, w->mask, w->prev, size, params->gpmax, attempt) != 0)
		return false;
	for (unsigned s = 0; s < size; s++)
		w->assign[s] = attempt[s];
	w->size = size;
	return true;
}

void sched_generic(const struct sched_generic_params *params, const uint64_t *masks,
		   const int8_t *previous, unsigned nr_events, const struct sched_group *order,
		   unsigned nr_groups, struct sched_generic_result *result)
{
	struct window w = { .size = 0 };
	unsigned passed = 0;
	unsigned limit =
		params->max_events < SCHED_MAX_EVENTS ? params->max_events : SCHED_MAX_EVENTS;

	for (unsigned i = 0; i < SCHED_MAX_EVENTS; i++)
		result->counter[i] = SCHED_NO_COUNTER;
	result->accepted = 0;
	result->failed = 0;
	result->passes = 0;
	result->flexible_failed = false;
	if (nr_groups > SCHED_MAX_EVENTS)
		nr_groups = SCHED_MAX_EVENTS;

	for (unsigned k = 0; k < nr_groups; k++) {
		const struct sched_group *g = &order[k];

		if (params->past_first_failure && params->max_passed &&
		    passed + g->count > params->max_passed)
			break;
		passed += g->count;
		if (try_group(params, masks, previous, nr_events, limit, g, &w, &result->passes)) {
			result->accepted |= 1u << k;
			continue;
		}
		result->failed |= 1u << k;
		if (g->pinned)
			continue; /* error state; the other groups still get their chance */
		result->flexible_failed = true;
		if (!params->past_first_failure)
			break;
	}

	for (unsigned s = 0; s < w.size; s++)
		result->counter[w.event[s]] = w.assign[s];
	result->nr_scheduled = w.size;
}
