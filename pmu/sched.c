// SPDX-License-Identifier: GPL-2.0
/*
 * The choice of assignment algorithm, and Linux's x86_schedule_events(): the fast path that
 * keeps events where they were, and the slow path that runs the algorithm (thesis 3.2, last
 * paragraph; the Hopcroft-Karp integration replaces only the slow path, thesis 6.4.2).
 */
#include "pmu/sched.h"

const char *sched_algorithm_name(unsigned algorithm)
{
	static const char *const names[SCHED_ALGORITHM_COUNT] = { SCHED_NAME_GREEDY,
								  SCHED_NAME_HK };

	return algorithm < SCHED_ALGORITHM_COUNT ? names[algorithm] : "?";
}

const char *sched_algorithm_title(unsigned algorithm)
{
	return algorithm == SCHED_HK ? "Hopcroft-Karp" : sched_algorithm_name(algorithm);
}

unsigned sched_assign(enum sched_algorithm algorithm, const uint64_t *masks, unsigned n,
		      unsigned gpmax, int8_t *assign)
{
	if (algorithm == SCHED_HK)
		return hk_assign(masks, n, gpmax, assign);
	return greedy_assign(masks, n, gpmax, assign);
}

unsigned sched_events(enum sched_algorithm algorithm, const uint64_t *masks, const int8_t *previous,
		      unsigned n, unsigned gpmax, int8_t *assign)
{
	uint64_t used = 0;
	unsigned i;

	/*
	 * Fast path: every event keeps the counter it had, in list order, until one never ran, is no
	 * longer allowed there (its dynamic constraint may have changed), or finds it taken.
	 */
	for (i = 0; i < n; i++) {
		uint64_t bit;

		if (previous[i] == SCHED_NO_COUNTER)
			break;
		bit = 1ull << previous[i];
		if (!(masks[i] & bit) || (used & bit))
			break;
		used |= bit;
		assign[i] = previous[i];
	}
	if (i == n)
		return 0;
	return sched_assign(algorithm, masks, n, gpmax, assign);
}

/* ---- the hooks of a thread that shares nothing ----------------------------------------------- */

static void none_start(struct sched_txn *txn, void *states, unsigned thread)
{
	txn->states = states;
	txn->thread = thread;
}

static void none_counter(struct sched_txn *txn, unsigned counter)
{
	(void)txn;
	(void)counter;
}

static uint64_t none_allowed(struct sched_txn *txn, const struct constraint *c)
{
	(void)txn;
	(void)c;
	return ~0ull;
}

static unsigned none_gpmax(const struct sched_txn *txn, unsigned gp)
{
	(void)txn;
	return gp;
}

static void none_commit(struct sched_txn *txn, unsigned counter, const struct constraint *c)
{
	(void)txn;
	(void)counter;
	(void)c;
}

static void none_stop(struct sched_txn *txn)
{
	(void)txn;
}

const struct sched_hooks sched_hooks_none = {
	.start = none_start,
	.put = none_counter,
	.allowed = none_allowed,
	.gpmax = none_gpmax,
	.commit = none_commit,
	.stop = none_stop,
};
