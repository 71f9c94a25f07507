/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event scheduling: which counter each event gets.
 *
 * Three layers, as in Linux (thesis chapter 3, "The Linux perf Event Scheduling Algorithm"):
 *
 *  1. The assignment algorithm, Linux's perf_assign_events(): given the constraint masks of n
 *     events, give each event a counter. Two interchangeable implementations with the same entry
 *     point and result shape, selectable per run:
 *       greedy_assign()  Linux's greedy first match (sched_greedy.c);
 *       hk_assign()      Hopcroft-Karp maximum bipartite matching (hopcroft_karp.c, thesis ch. 6).
 *  2. x86_schedule_events(): the fast path (keep every event on its previous counter while that
 *     is still allowed and free), then the assignment algorithm on the slow path
 *     (sched_events(), sched.c).
 *  3. The generic layer, ctx_pinned_sched_in()/ctx_flexible_sched_in(): groups are passed down
 *     one at a time as a growing window, pinned groups before flexible ones, and the first
 *     flexible group that fails stops the pass (sched_generic(), sched_generic.c).
 *
 * Masks are in the idxmsk space of pmu/counters.h: bit i < 32 is general-purpose (GP) counter i,
 * bit PMU_FIXED_BASE + j is fixed counter j. A counter is named by its bit index.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests. Nothing here
 * allocates, locks, prints or recurses; every buffer is on the caller's or the callee's stack
 * and bounded by SCHED_MAX_EVENTS.
 */
#ifndef PMU_SCHED_H
#define PMU_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"

/* Events one scheduling call handles (per thread); also the most groups. */
#define SCHED_MAX_EVENTS 32
/* Counter indices are idxmsk bit positions. */
#define SCHED_MAX_COUNTERS 64
/* assign[i] of an event that got no counter. */
#define SCHED_NO_COUNTER (-1)

/*
 * The counter-assignment algorithm: the one enum of the concept, spelled "greedy" and "hk" from
 * the command line (`sched=`) to the records and the report.
 */
enum sched_algorithm {
	SCHED_GREEDY, /* Linux perf_assign_events(): weight order, first free counter */
	SCHED_HK,     /* Hopcroft-Karp maximum bipartite matching (thesis ch. 6) */
	SCHED_ALGORITHM_COUNT
};

/* The spellings, for tables that need them as constants (the command line's choices). */
#define SCHED_NAME_GREEDY "greedy"
#define SCHED_NAME_HK "hk"

/* "greedy" or "hk"; "?" for a value out of range. */
const char *sched_algorithm_name(unsigned algorithm);
/* For prose (schedsim's header): "greedy" or "Hopcroft-Karp". */
const char *sched_algorithm_title(unsigned algorithm);

/* The weight of a constraint: how many counters it allows (Linux hweight64 of idxmsk). */
static inline unsigned sched_weight(uint64_t mask)
{
	/* SWAR population count: the kernel is built without -mpopcnt and without libgcc helpers
	 * on the hot path. */
	mask = mask - ((mask >> 1) & 0x5555555555555555ull);
	mask = (mask & 0x3333333333333333ull) + ((mask >> 2) & 0x3333333333333333ull);
	mask = (mask + (mask >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((mask * 0x0101010101010101ull) >> 56);
}

/* Lowest set bit's index; mask must not be 0. */
static inline unsigned sched_first_bit(uint64_t mask)
{
	return (unsigned)__builtin_ctzll(mask);
}

/*
 * Layer 1: assign counters to the n events whose constraints are masks[0..n-1], using at most
 * gpmax general-purpose counters. assign[i] receives the counter of event i or SCHED_NO_COUNTER.
 * Returns the number of events left without a counter: 0 means every event was scheduled (the
 * shape of Linux's perf_assign_events(), which returns sched.state.unassigned).
 *
 * greedy_assign: Linux's algorithm exactly (arch/x86/events/core.c, perf_sched_find_counter):
 * events by increasing weight, list order within a weight; an event whose mask has fixed
 * counters takes the first free one, otherwise the first free GP counter in index order, failing
 * once gpmax GP counters are in use; the first event that finds nothing stops the pass, and it
 * and every later event in that order stay unassigned. (The overlap backtracking of a few AMD
 * constraints is not needed for Intel tables and not implemented.)
 *
 * hk_assign: a maximum matching between events and counters (thesis 6.2-6.4), iterative, with
 * the gpmax limit honoured exactly: the result schedules as many events as any assignment that
 * uses at most gpmax GP counters can. When that is fewer than n, assign[] still holds such a
 * maximum assignment.
 */
unsigned greedy_assign(const uint64_t *masks, unsigned n, unsigned gpmax, int8_t *assign);
unsigned hk_assign(const uint64_t *masks, unsigned n, unsigned gpmax, int8_t *assign);
unsigned sched_assign(enum sched_algorithm algorithm, const uint64_t *masks, unsigned n,
		      unsigned gpmax, int8_t *assign);

/*
 * The order the greedy algorithm visits events in: increasing weight, list order within a
 * weight (Linux walks the weights from wmin to wmax and, for each, the events in index order).
 * order[0..n-1] receives event indices.
 */
void sched_weight_order(const uint64_t *masks, unsigned n, uint8_t *order);

/*
 * Layer 2, Linux's x86_schedule_events(): the fast path first, then the slow path.
 *
 * previous[i] is the counter event i last ran on (Linux hwc->idx), or SCHED_NO_COUNTER if it
 * never ran. The fast path walks the events in list order and keeps each on its previous counter
 * while that counter is in its mask and not taken by an earlier event; it gives up at the first
 * event where that fails. If every event passed, that is the schedule (as in Linux, the gpmax
 * limit is not applied to the fast path). Otherwise the chosen algorithm assigns all n events
 * from scratch. Returns the number of events left without a counter.
 */
unsigned sched_events(enum sched_algorithm algorithm, const uint64_t *masks, const int8_t *previous,
		      unsigned n, unsigned gpmax, int8_t *assign);

/*
 * The scheduling hooks (Linux's struct x86_pmu: start_scheduling, get_event_constraints,
 * put_event_constraints, commit_scheduling, stop_scheduling): how a thread's schedule is
 * constrained by whatever it shares with its sibling. The multiplexer (pmu/mux.c) calls them
 * around every pass and knows nothing of what is behind them: sched_hooks_none (every counter the
 * static constraint allows), and Linux's XSU with and without the half limit (pmu/xsu.h). As in
 * Linux, what an event needs of the hooks they learn from the event itself: its static
 * constraint (struct constraint, pmu/uarch.h), which says what the microarchitecture's tables
 * say of it.
 *
 * A pass is a transaction: start, put for every counter the thread gives up, allowed for the
 * dynamic constraint of every event that takes part, gpmax for the slow path, commit for every
 * counter an event got, stop.
 */
#define SCHED_TXN_COUNTERS (PMU_FIXED_BASE + PMU_MAX_FIXED)

struct constraint;

/* What the hooks keep during one pass, on the caller's stack (Linux keeps it in cpu_hw_events). */
struct sched_txn {
	void *states;			  /* the hooks' state, shared with the sibling */
	unsigned thread;		  /* whose pass it is: 0 or 1 */
	uint8_t next[SCHED_TXN_COUNTERS]; /* the view the pass builds (XSU: the sibling's states) */
	uint64_t allowed[2]; /* XSU: what the sibling's states allow each kind of event */
};

struct sched_hooks {
	/* Open the pass of `thread` over the state shared with the sibling. */
	void (*start)(struct sched_txn *txn, void *states, unsigned thread);
	/* An event gives up `counter` (it is scheduled out). */
	void (*put)(struct sched_txn *txn, unsigned counter);
	/* The counters an event of static constraint c may use beside it (its dynamic constraint
	 * is c->mask AND this); every event that takes part in the pass is asked for, once. */
	uint64_t (*allowed)(struct sched_txn *txn, const struct constraint *c);
	/* The GP counters the slow path may use, of gp (after every allowed of the pass). */
	unsigned (*gpmax)(const struct sched_txn *txn, unsigned gp);
	/* An event of static constraint c got `counter`. */
	void (*commit)(struct sched_txn *txn, unsigned counter, const struct constraint *c);
	/* Close the pass: publish what it committed. */
	void (*stop)(struct sched_txn *txn);
};

/* No sibling to share with: static constraints, every GP counter (XSU off). */
extern const struct sched_hooks sched_hooks_none;

/*
 * Layer 3: the generic layer.
 *
 * A group is a run of consecutive events in the caller's event array, scheduled all or nothing.
 * sched_generic() receives the groups in scheduling order: every pinned group first, then the
 * flexible groups in their current (rotated) order. It grows a window of accepted groups: each
 * group in turn is appended to the accepted events and the whole window is scheduled with
 * sched_events() (so the greedy algorithm sees one list, in window order, and may move earlier
 * events; thesis fig. 3.1/3.2). If that succeeds the group is accepted; otherwise:
 *  - a pinned group is marked failed (the caller puts it in the error state, as Linux's
 *    ctx_pinned_sched_in() does) and the next group is tried;
 *  - a flexible group ends the pass: no later group is tried (Linux's ctx_flexible_sched_in()
 *    with can_add_hw = 0), and flexible_failed tells the caller to rotate at the next tick.
 * The assignment of the last successful window is the result (thesis 3.3).
 *
 * A window may hold at most max_events events (Linux's collect_events() refuses more than the
 * number of counters); a group that would exceed it fails like any other.
 *
 * past_first_failure is the variant of the generic layer from the thesis, section 7.2: a failing
 * flexible group is left out and the pass goes on with the next one, until max_passed events
 * (accepted or not; 0 = no limit) have been passed down. It exists for the simulator's
 * experiments, not for the kernel.
 */
struct sched_group {
	uint8_t first; /* index of the group's first event in the caller's arrays */
	uint8_t count; /* number of events, at least 1 */
	bool pinned;
};

struct sched_generic_params {
	enum sched_algorithm algorithm;
	unsigned gpmax;	     /* GP counters the slow path may use (halved by XSU's limit) */
	unsigned max_events; /* largest window: the number of counters, GP plus fixed */
	bool past_first_failure;
	unsigned max_passed; /* with past_first_failure: events passed down at most; 0 = all */
};

struct sched_generic_result {
	int8_t counter[SCHED_MAX_EVENTS]; /* per event index; SCHED_NO_COUNTER when not scheduled */
	uint32_t accepted;		  /* bit k: order[k] was scheduled */
	uint32_t failed;		  /* bit k: order[k] was tried and failed */
	unsigned nr_scheduled;		  /* events scheduled */
	unsigned passes;		  /* windows tried (calls of sched_events) */
	bool flexible_failed;		  /* a flexible group did not fit: multiplexing is needed */
};

/*
 * Schedule the groups order[0..nr_groups-1] over the events whose dynamic constraint masks and
 * previous counters are masks[] and previous[] (indexed by event, nr_events of them).
 */
void sched_generic(const struct sched_generic_params *params, const uint64_t *masks,
		   const int8_t *previous, unsigned nr_events, const struct sched_group *order,
		   unsigned nr_groups, struct sched_generic_result *result);

#endif
