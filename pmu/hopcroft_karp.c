// SPDX-License-Identifier: GPL-2.0
/*
 * Counter assignment as a maximum bipartite matching, with the Hopcroft-Karp algorithm (thesis
 * chapter 6: events X and counters Y are the two sides, a constraint bit is an edge, fig. 6.2 is
 * the algorithm and fig. 6.4 the iterative depth-first search used here instead of recursion).
 *
 * Kernel requirements (thesis 6.4.2): no recursion and no allocation. The graph is the masks
 * themselves (an event's adjacency is its constraint bitmask), and every array lives on the
 * stack, bounded by SCHED_MAX_EVENTS events and SCHED_MAX_COUNTERS counters: about 650 bytes at
 * the deepest point, the depth-first search's stack included (gcc -fstack-usage). A whole
 * multiplexing tick (mux_tick down to the depth-first search) stays under 2 KiB.
 *
 * Four things go beyond the textbook algorithm, none of which changes the fact that the result
 * is a maximum matching:
 *  - Fixed counters first. The matching is first made maximum over the fixed counters alone, then
 *    over all counters. Augmenting paths never unmatch a counter, so the fixed counters stay
 *    covered. This is Linux's preference for fixed counters, and it is what makes the gpmax limit
 *    exact: among maximum matchings this one uses the fewest GP counters, and a matching that
 *    uses more GP counters than allowed is cut back to gpmax of them, which leaves as many events
 *    scheduled as the best assignment within the limit can have (see hk_assign).
 *  - A first-fit start. Before the first phase, events in list order take a free counter.
 *    Hopcroft-Karp may start from any matching; when this one is already perfect the phases are
 *    skipped. (Starting in the greedy algorithm's weight order succeeds more often, 64% of the
 *    4-counter sweep against 40%, but sorting costs more than the phases it saves: make bench.)
 *  - Layers as bitmasks. The breadth-first search handles a whole layer at a time: the counters
 *    it reaches are the OR of its events' masks, the next layer the events matched to them.
 *  - The counters still to be tried at each level of the depth-first search are a shrinking
 *    mask, and "is a free counter adjacent" is one AND.
 */
#include "pmu/counters.h"
#include "pmu/sched.h"

struct hk_graph {
	const uint64_t *masks;
	unsigned n;
	uint64_t allowed;   /* counters the current stage may use */
	uint64_t matched;   /* counters that have an event */
	int8_t *pair_event; /* counter of event x, or SCHED_NO_COUNTER: the caller's assign[] */
	/* Event on counter y; only read for y in matched, so never needs initialising. */
	int8_t pair_counter[SCHED_MAX_COUNTERS];
	/* The BFS layering (fig. 6.2 distance[]): dist[x] is valid for the events in layered;
	 * an event outside it has distance infinity. */
	uint32_t layered;
	uint8_t dist[SCHED_MAX_EVENTS];
	unsigned dist_free; /* layer at which a free counter is reached (fig. 6.2 distance[free]) */
};

static void hk_match(struct hk_graph *g, unsigned x, unsigned y)
{
	g->pair_event[x] = (int8_t)y;
	g->pair_counter[y] = (int8_t)x;
	g->matched |= 1ull << y;
}

/*
 * Breadth-first search from the free events, layering the events by the length of the shortest
 * alternating path that reaches them (fig. 6.2, BFS), a whole layer at a time: the counters a
 * layer reaches are the OR of its masks, and the next layer is the events matched to them.
 * Stops at the first layer that reaches a free counter. Returns whether one was reached, i.e.
 * whether an augmenting path exists.
 */
static bool hk_bfs(struct hk_graph *g, uint32_t free_events)
{
	uint32_t frontier = free_events, seen = free_events;
	uint64_t free = g->allowed & ~g->matched;
	unsigned layer = 0;

	while (frontier) {
		uint64_t reach = 0;
		uint32_t next = 0;

		for (uint32_t f = frontier; f; f &= f - 1) {
			unsigned x = (unsigned)__builtin_ctz(f);

			g->dist[x] = (uint8_t)layer;
			reach |= g->masks[x];
		}
		reach &= g->allowed;
		if (reach & free) {
			g->dist_free = layer + 1;
			g->layered = seen;
			return true;
		}
		for (uint64_t r = reach & g->matched; r; r &= r - 1)
			next |= 1u << g->pair_counter[sched_first_bit(r)];
		frontier = next & ~seen;
		seen |= frontier;
		layer++;
	}
	return false;
}

/*
 * Depth-first search for a shortest augmenting path from the free event root along the BFS
 * layers, without recursion (fig. 6.4): the stack holds the events of the path so far, with, for
 * each, the counters not tried yet and the counter through which the path went on. When a free
 * counter is reached at the last layer the whole path is flipped; an event whose counters all
 * lead nowhere is taken out of the layering (distance = infinity) so no later search retries it.
 */
static bool hk_dfs(struct hk_graph *g, unsigned root)
{
	uint8_t event[SCHED_MAX_EVENTS];
	uint8_t via[SCHED_MAX_EVENTS];
	uint64_t untried[SCHED_MAX_EVENTS];
	int top = 0;

	event[0] = (uint8_t)root;
	untried[0] = g->masks[root] & g->allowed;
	while (top >= 0) {
		unsigned x = event[top];
		bool descended = false;

		if (g->dist[x] + 1u == g->dist_free) {
			uint64_t free = untried[top] & ~g->matched;

			if (free) {
				/* Augment: every event on the stack moves to the counter it went
				 * through, and the last one takes the free counter. */
				via[top] = (uint8_t)sched_first_bit(free);
				for (int i = 0; i <= top; i++)
					hk_match(g, event[i], via[i]);
				return true;
			}
		} else {
			while (untried[top]) {
				unsigned y = sched_first_bit(untried[top]);
				unsigned z;

				untried[top] &= untried[top] - 1;
				if (!(g->matched & (1ull << y)))
					continue; /* a free counter, but not at the shortest length */
				z = (unsigned)g->pair_counter[y];
				if ((g->layered & (1u << z)) && g->dist[z] == g->dist[x] + 1) {
					via[top] = (uint8_t)y;
					top++;
					event[top] = (uint8_t)z;
					untried[top] = g->masks[z] & g->allowed;
					descended = true;
					break;
				}
			}
		}
		if (!descended) {
			g->layered &= ~(1u << x);
			top--;
		}
	}
	return false;
}

/*
 * Make the matching maximum over the counters in allowed. Returns the number of matched events.
 */
static unsigned hk_stage(struct hk_graph *g, uint64_t allowed)
{
	const uint64_t *masks = g->masks;
	int8_t *pair_event = g->pair_event;
	uint64_t matched = g->matched; /* a local: stores through int8_t * alias everything */
	uint32_t free_events = 0;
	unsigned size = 0;

	/* Greedy start: fixed counters first, then the first free GP counter, in list order. */
	for (unsigned x = 0; x < g->n; x++) {
		uint64_t free = masks[x] & allowed & ~matched;

		if (pair_event[x] != SCHED_NO_COUNTER) {
			size++;
		} else if (free) {
			uint64_t fixed = free & PMU_FIXED_BITS;
			unsigned y = sched_first_bit(fixed ? fixed : free);

			pair_event[x] = (int8_t)y;
			matched |= 1ull << y;
			size++;
		} else if (masks[x] & allowed) {
			free_events |= 1u << x;
		}
	}
	g->matched = matched;
	if (!free_events)
		return size;

	/* The phases need the other direction of the matching too. */
	g->allowed = allowed;
	for (unsigned x = 0; x < g->n; x++)
		if (pair_event[x] != SCHED_NO_COUNTER)
			g->pair_counter[pair_event[x]] = (int8_t)x;

	/* Phases (fig. 6.2): at most about 2*sqrt(|V|) of them, each adding at least one edge. */
	while (free_events && hk_bfs(g, free_events)) {
		for (uint32_t f = free_events; f; f &= f - 1) {
			unsigned x = (unsigned)__builtin_ctz(f);

			if (hk_dfs(g, x)) {
				free_events &= ~(1u << x);
				size++;
			}
		}
	}
	return size;
}

unsigned hk_assign(const uint64_t *masks, unsigned n, unsigned gpmax, int8_t *assign)
{
	struct hk_graph g;
	uint64_t any = 0;
	unsigned size, gp_used;

	if (n > SCHED_MAX_EVENTS)
		n = SCHED_MAX_EVENTS;
	g.masks = masks;
	g.n = n;
	g.matched = 0;
	g.pair_event = assign;
	for (unsigned x = 0; x < n; x++) {
		assign[x] = SCHED_NO_COUNTER;
		any |= masks[x];
	}
	if (any & PMU_FIXED_BITS)
		hk_stage(&g, PMU_FIXED_BITS);
	size = hk_stage(&g, ~0ull);

	/*
	 * The gpmax limit. This matching covers as many fixed counters as any matching can (r), so
	 * with m events matched no assignment within the limit schedules more than
	 * r + min(m - r, gpmax): keeping the fixed counters and gpmax of the GP counters reaches that.
	 * Events on GP counters beyond the limit are dropped from the end of the list.
	 */
	gp_used = sched_weight(g.matched & PMU_GP_BITS);
	for (unsigned x = n; gp_used > gpmax && x-- > 0;) {
		if (assign[x] != SCHED_NO_COUNTER && assign[x] < PMU_FIXED_BASE) {
			assign[x] = SCHED_NO_COUNTER;
			gp_used--;
			size--;
		}
	}
	return n - size;
}
