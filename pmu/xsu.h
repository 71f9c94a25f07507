/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XSU: the cross-hyperthread exclusion that keeps the BJ122/BV98/HSD29 erratum from corrupting
 * counts (thesis chapter 5; Linux 4.1-rc7, arch/x86/kernel/cpu/perf_event_intel.c,
 * intel_{start,commit,stop}_scheduling, intel_get_excl_constraints, intel_put_excl_constraints).
 *
 * A corrupting event (0xD0-0xD3) counting on GP counter i of one thread leaks into counter i of
 * the sibling thread (thesis 4.1). XSU keeps, per physical core, a state for every counter of
 * each thread, like the MSI cache-coherence protocol keeps one per cache line (thesis 5.1,
 * fig. 5.1): the pair of sibling counters i is
 *   Unused    nothing of the sibling's counts on its counter i;
 *   Shared    the sibling counts a non-corrupting event there;
 *   eXclusive the sibling counts a corrupting event there.
 * state[t][i] is the state that constrains thread t on its counter i (thesis fig. 5.2: "the XSU
 * state of C_0 of HT_1 is updated to X" when HT_0 puts a corrupting event on C_0; Linux 4.1
 * keeps the same view, excl_cntrs->states[tid].state[]).
 *
 * Dynamic constraint (thesis 5.2, fig. 5.3): static constraint AND
 *   corrupting event:     counters in state U only;
 *   non-corrupting event: counters in state U or S.
 * Fixed counters are only ever marked S (no corrupting event can use one), so they never block.
 *
 * The per-core states are shared by the two threads and protected by a lock that the caller owns
 * (the run's core lock). Every function here, except xsu_init, must be called with that lock
 * held. A scheduling pass is a transaction (Linux's start/commit/stop):
 *
 *	lock(core lock)
 *	xsu_start(states, thread, &txn);          // begin; the sibling's view is frozen
 *	xsu_release(&txn, i) for each counter i this thread stops using (schedule-out)
 *	dynamic masks: the static mask AND xsu_mask(states, thread, corrupting)
 *	... assign counters (pmu/sched.h) ...
 *	xsu_commit(&txn, counter, corrupting) for each event that got a counter
 *	xsu_stop(&txn);                           // publish the sibling's new view
 *	unlock(core lock)
 *
 * The multiplexer (pmu/mux.c) knows nothing of this: it schedules through the hooks of struct
 * sched_hooks (pmu/sched.h), and xsu_hooks and xsu_hooks_limit below are Linux's XSU without and
 * with 4.1-rc7's half-of-the-counters limit behind them, as Linux's intel_pmu hooks are behind
 * struct x86_pmu.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_XSU_H
#define PMU_XSU_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/sched.h"

/* Counter indices the state covers: every GP counter and every fixed counter (idxmsk space). */
#define XSU_MAX_COUNTERS SCHED_TXN_COUNTERS
#define XSU_THREADS 2

enum xsu_state {
	XSU_UNUSED = 0,
	XSU_SHARED = 1,
	XSU_EXCLUSIVE = 2,
};

/* A physical core's XSU states (Linux's struct intel_excl_cntrs). */
struct xsu_states {
	uint8_t state[XSU_THREADS][XSU_MAX_COUNTERS]; /* enum xsu_state; see above */
	bool has_exclusive[XSU_THREADS];	      /* thread t has an enabled corrupting event */
};

/* Everything Unused, no exclusive event. Called once per core before either thread starts. */
void xsu_init(struct xsu_states *core);

/* The state that constrains thread's counter (what its sibling holds there). */
static inline enum xsu_state xsu_state_of(const struct xsu_states *core, unsigned thread,
					  unsigned counter)
{
	return (enum xsu_state)core->state[thread][counter];
}

/*
 * The XSU mask of thread for an event (thesis fig. 5.3): the counters, over every index the state
 * covers, that a corrupting (or non-corrupting) event may use given the sibling's holdings.
 */
uint64_t xsu_mask(const struct xsu_states *core, unsigned thread, bool corrupting);

/* Dynamic constraint = static constraint AND XSU mask (thesis 5.1). */
uint64_t xsu_dynamic_constraint(const struct xsu_states *core, unsigned thread,
				uint64_t static_mask, bool corrupting);

/*
 * Record whether thread has an enabled corrupting event (Linux has_exclusive[tid], set when the
 * constraint of such an event is taken and cleared when the last one is released).
 */
void xsu_set_has_exclusive(struct xsu_states *core, unsigned thread, bool has_exclusive);

/*
 * The GP counters the slow path may use under the starvation limit: gp / 2 while either thread
 * has a corrupting event, gp otherwise (Linux 4.1-rc7 x86_schedule_events, "Do not allow
 * scheduling of more than half the available generic counters"; exclusive_present is
 * has_exclusive[0] | has_exclusive[1]).
 */
unsigned xsu_limit_gpmax(const struct xsu_states *core, unsigned gp);

/* The transaction (struct sched_txn, pmu/sched.h: states is the struct xsu_states, next the
 * sibling's view being built, as published at start, then released and committed). See the
 * sequence at the top of this file. */
void xsu_start(struct xsu_states *core, unsigned thread, struct sched_txn *txn);
void xsu_release(struct sched_txn *txn, unsigned counter);
void xsu_commit(struct sched_txn *txn, unsigned counter, bool corrupting);
void xsu_stop(struct sched_txn *txn);

/*
 * What one thread has programmed, as idxmsk bit sets: counters with an enabled event, and the
 * subset of those that count a corrupting event.
 */
struct xsu_usage {
	uint64_t enabled;
	uint64_t corrupting;
};

/*
 * The property XSU exists for: no corrupting event counts on a GP counter whose sibling counter
 * counts anything (thesis 4.1, fig. 4.2). Independent of the states: it looks only at what the
 * two threads have programmed.
 */
bool xsu_no_corruption(struct xsu_usage thread0, struct xsu_usage thread1);

/*
 * The invariant the kernel checks after every reschedule (and the tests after every step), with
 * the core lock held and no transaction open: xsu_no_corruption() holds, and each thread's
 * states are exactly what its sibling has programmed (X for a corrupting event, S for any other,
 * U for an idle counter), so neither a lost release nor a stale commit can go unnoticed.
 */
bool xsu_invariant(const struct xsu_states *core, struct xsu_usage thread0,
		   struct xsu_usage thread1);

/*
 * Core-wide XSU's leak catchers (thesis ch. 8): the sibling's GP counters that count the catcher
 * opposite what a thread holds, one behind each GP counter of its corrupting events. The joint
 * schedule (pmu/xsu_core.c) and a bundle's joint passes (pmu/xsu_passes.c) place them so.
 */
static inline uint8_t xsu_catchers(struct xsu_usage holder)
{
	return (uint8_t)(holder.corrupting & PMU_GP_MASK(PMU_MAX_GP));
}

/*
 * Linux's XSU as the multiplexer's scheduling hooks (struct sched_hooks, pmu/sched.h): dynamic
 * constraints from the sibling's states and the transaction around every pass; _limit adds
 * 4.1-rc7's half-of-the-GP-counters limit. The hooks' states are a struct xsu_states.
 */
extern const struct sched_hooks xsu_hooks, xsu_hooks_limit;

#endif
