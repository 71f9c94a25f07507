/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One schedule for both hyperthreads of a core under the XSU guarantee (xsu=core): given the
 * groups of both threads in one order with what each is worth, the best joint placement.
 * pmu/xsu_core.c builds the order (pinned groups, then the least served first) and the worths
 * (its fairness rule) and calls this on every tick.
 *
 * The constraint (thesis 4.1 and 5.1): a corrupting event on GP counter i of one thread may not
 * share index i with any event of the sibling. A joint placement therefore splits the GP indices
 * three ways: shared (S: only non-corrupting events, of both threads), exclusive to thread 0 (X0:
 * any event of thread 0, nothing of thread 1) and exclusive to thread 1 (X1). Given the split,
 * the threads no longer interact: thread t may put a non-corrupting event on S, X_t and its fixed
 * counters, a corrupting one on X_t, each within its static constraint. The sets of events a
 * thread can count together are then the independent sets of a transversal matroid, so adding
 * the groups in order, each when a matching still covers all its events (one augmenting path per
 * event, as in Hopcroft-Karp's phases, thesis 6.2), yields the set that is lexicographically best
 * for the order and, as worths do not increase along it, worth the most (Edmonds' greedy
 * algorithm). A group is all or nothing (Linux's group semantics), which a matroid does not
 * know: when the order has groups of several events, a second pass visits larger groups first
 * among those of equal worth, and the better of the two passes counts.
 *
 * Every joint placement that keeps the guarantee belongs to some split, so the best over the
 * splits is the best joint placement. "Best": the pinned groups lexicographically (none is ever
 * traded for any number of later ones), then the most worth of flexible groups placed, then the
 * lexicographically best set for the order. Few splits need trying:
 *  - an index may only be exclusive to a thread with a corrupting event allowed on it (another
 *    exclusive index would only take from the sibling), and no more of them than such events;
 *  - indices that every event treats alike (the same events allow both) are interchangeable, so
 *    only how many of them are S, X0 and X1 matters: with the usual tables the four GP indices
 *    form one or two classes, 15 or 30 splits rather than 81.
 * Up to EXHAUSTIVE_SPLITS splits (or when the caller asks), every split is tried, the hint (the
 * last tick's split) first. Beyond, the search starts from the hint and lets each class in turn
 * try all its (X0, X1) counts, the others held where the best split has them (coordinate
 * ascent); the caller asks for the whole search every few ticks, and it is made whenever a pinned
 * group would be left out (which would put it in the error state for good).
 *
 * What a thread places in a split does not depend on its sibling's events, only on how many of
 * the indices that *it* cannot tell apart are exclusive to it and to its sibling; many splits
 * share those counts (a thread's events tell fewer indices apart than both threads' do), and
 * each thread's part is computed once per count in a call. The answer is the same as
 * evaluating every split from scratch.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests. No allocation, no
 * recursion, no globals; about 4.2 KiB of stack (gcc -fstack-usage, kernel flags), 2 KiB of it
 * the table of each thread's parts.
 */
#ifndef PMU_CORE_SCHED_H
#define PMU_CORE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/sched.h"

/* Both threads' groups. */
#define CORE_SCHED_MAX_GROUPS (2 * SCHED_MAX_EVENTS)

/* One thread's events: static constraints in the idxmsk space (pmu/counters.h). */
struct core_sched_thread {
	unsigned nr_events;
	uint64_t mask[SCHED_MAX_EVENTS];
	uint32_t corrupting; /* bit e: event e needs the exclusion */
};

/*
 * A group: events first..first+count-1 of one thread, scheduled all or nothing. A flexible group
 * is worth count * worth (worth per event at most CORE_SCHED_MAX_WORTH, so that any sum fits).
 */
struct core_sched_group {
	uint8_t thread;
	uint8_t first;
	uint8_t count;
	uint64_t worth;
};

#define CORE_SCHED_MAX_WORTH (1ull << 52)

struct core_sched_input {
	unsigned gp;	/* GP counters per thread (at most PMU_MAX_GP) */
	unsigned fixed; /* fixed counters per thread (at most PMU_MAX_FIXED) */
	struct core_sched_thread thread[2];
	/*
	 * The groups to place: first the nr_pinned pinned groups, each more important than all
	 * that follow it; then the flexible groups, whose worth per event does not increase along
	 * the order. Events in no group here are not placed.
	 */
	unsigned nr_groups;
	unsigned nr_pinned;
	struct core_sched_group order[CORE_SCHED_MAX_GROUPS];
	uint8_t hint[2]; /* the split to try first: GP indices exclusive to thread 0 and 1 */
	bool exhaustive; /* try every split, however many there are */
};

struct core_sched_result {
	int8_t counter[2][SCHED_MAX_EVENTS]; /* idxmsk counter per event, or SCHED_NO_COUNTER */
	uint64_t accepted;		     /* bit 63 - k: order[k] was placed */
	uint8_t exclusive[2];		     /* the split chosen: GP indices exclusive to t */
	unsigned splits;		     /* splits tried, the hint included */
};

/* Place in's groups. Input beyond the bounds above (too many counters, events or groups, a group
 * outside its thread's events, a worth above CORE_SCHED_MAX_WORTH) places nothing. */
void core_sched(const struct core_sched_input *in, struct core_sched_result *out);

/* The bit of order[k] in core_sched_result.accepted. */
static inline uint64_t core_sched_rank_bit(unsigned k)
{
	return 1ull << (63 - k);
}

#endif
