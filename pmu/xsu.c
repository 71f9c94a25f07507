// SPDX-License-Identifier: GPL-2.0
/*
 * The XSU protocol (thesis chapter 5; Linux 4.1-rc7 intel_*_excl_* and *_scheduling): per-core
 * counter states, dynamic constraints, the scheduling transaction and the invariant.
 */
#include <string.h>

#include "pmu/counters.h"
#include "pmu/uarch.h"
#include "pmu/xsu.h"

void xsu_init(struct xsu_states *core)
{
	memset(core, 0, sizeof(*core));
}

uint64_t xsu_mask(const struct xsu_states *core, unsigned thread, bool corrupting)
{
	uint64_t mask = 0;

	/* Thesis fig. 5.3: X blocks everything; S blocks corrupting events; U blocks nothing. */
	for (unsigned i = 0; i < XSU_MAX_COUNTERS; i++) {
		enum xsu_state s = xsu_state_of(core, thread, i);

		if (s == XSU_UNUSED || (s == XSU_SHARED && !corrupting))
			mask |= 1ull << i;
	}
	return mask;
}

uint64_t xsu_dynamic_constraint(const struct xsu_states *core, unsigned thread,
				uint64_t static_mask, bool corrupting)
{
	return static_mask & xsu_mask(core, thread, corrupting);
}

void xsu_set_has_exclusive(struct xsu_states *core, unsigned thread, bool has_exclusive)
{
	core->has_exclusive[thread] = has_exclusive;
}

unsigned xsu_limit_gpmax(const struct xsu_states *core, unsigned gp)
{
	if (core->has_exclusive[0] || core->has_exclusive[1])
		return gp / 2;
	return gp;
}

void xsu_start(struct xsu_states *core, unsigned thread, struct sched_txn *txn)
{
	/* Linux intel_start_scheduling(): the sibling's states are copied and changed in private
	 * until the pass is over, so the sibling never sees a half-made schedule. */
	txn->states = core;
	txn->thread = thread;
	memcpy(txn->next, core->state[thread ^ 1], sizeof(txn->next));
}

void xsu_release(struct sched_txn *txn, unsigned counter)
{
	/* Linux intel_put_excl_constraints(): an event scheduled out frees its pair. */
	if (counter < XSU_MAX_COUNTERS)
		txn->next[counter] = XSU_UNUSED;
}

void xsu_commit(struct sched_txn *txn, unsigned counter, bool corrupting)
{
	/* Linux intel_commit_scheduling(): the sibling sees X behind a corrupting event, S behind
	 * any other. */
	if (counter < XSU_MAX_COUNTERS)
		txn->next[counter] = corrupting ? XSU_EXCLUSIVE : XSU_SHARED;
}

void xsu_stop(struct sched_txn *txn)
{
	/* Linux intel_stop_scheduling(): publish. */
	struct xsu_states *core = txn->states;

	memcpy(core->state[txn->thread ^ 1], txn->next, sizeof(txn->next));
}

bool xsu_no_corruption(struct xsu_usage thread0, struct xsu_usage thread1)
{
	/* Only GP counters leak; fixed counters never count a corrupting event (0xD0-0xD3). */
	return !(thread0.corrupting & thread1.enabled & PMU_GP_BITS) &&
	       !(thread1.corrupting & thread0.enabled & PMU_GP_BITS);
}

/* Thread `holder`'s usage seen in the states of its sibling. */
static bool states_match(const struct xsu_states *core, unsigned holder, struct xsu_usage use)
{
	for (unsigned i = 0; i < XSU_MAX_COUNTERS; i++) {
		uint64_t bit = 1ull << i;
		enum xsu_state want = XSU_UNUSED;

		if (use.corrupting & bit)
			want = XSU_EXCLUSIVE;
		else if (use.enabled & bit)
			want = XSU_SHARED;
		if (xsu_state_of(core, holder ^ 1, i) != want)
			return false;
	}
	return true;
}

bool xsu_invariant(const struct xsu_states *core, struct xsu_usage thread0,
		   struct xsu_usage thread1)
{
	if ((thread0.corrupting & ~thread0.enabled) || (thread1.corrupting & ~thread1.enabled))
		return false;
	return xsu_no_corruption(thread0, thread1) && states_match(core, 0, thread0) &&
	       states_match(core, 1, thread1);
}

/* ---- Linux's XSU as the multiplexer's scheduling hooks (pmu/sched.h) ---------------------- */

/* Linux intel_start_scheduling(); the states that constrain this thread do not change until
 * its pass is over, so the masks of both kinds of event are made once. */
static void hook_start(struct sched_txn *txn, void *states, unsigned thread)
{
	xsu_start(states, thread, txn);
	txn->allowed[0] = xsu_mask(states, thread, false);
	txn->allowed[1] = xsu_mask(states, thread, true);
	xsu_set_has_exclusive(states, thread, false);
}

/* Linux intel_get_excl_constraints(): the event's own word says whether it needs the exclusion,
 * and a thread that asks for such an event has one (has_exclusive, before gpmax reads it). */
static uint64_t hook_allowed(struct sched_txn *txn, const struct constraint *c)
{
	if (c->corrupting)
		xsu_set_has_exclusive(txn->states, txn->thread, true);
	return txn->allowed[c->corrupting];
}

static void hook_commit(struct sched_txn *txn, unsigned counter, const struct constraint *c)
{
	xsu_commit(txn, counter, c->corrupting);
}

static unsigned hook_gpmax(const struct sched_txn *txn, unsigned gp)
{
	(void)txn;
	return gp;
}

static unsigned hook_limit_gpmax(const struct sched_txn *txn, unsigned gp)
{
	return xsu_limit_gpmax(txn->states, gp);
}

const struct sched_hooks xsu_hooks = {
	.start = hook_start,
	.put = xsu_release,
	.allowed = hook_allowed,
	.gpmax = hook_gpmax,
	.commit = hook_commit,
	.stop = xsu_stop,
};

const struct sched_hooks xsu_hooks_limit = {
	.start = hook_start,
	.put = xsu_release,
	.allowed = hook_allowed,
	.gpmax = hook_limit_gpmax,
	.commit = hook_commit,
	.stop = xsu_stop,
};
