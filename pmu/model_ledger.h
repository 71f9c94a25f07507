/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A workload's ledger: the units of work it has done so far, per profile (pmu/model_profile.h),
 * in memory that the kernel reads. The workload is its only writer and adds to it after every
 * chunk, at CPL 3 with a plain store (no system call); the model PMU reads both threads' ledgers
 * before every change of counter state and every read (pmu/model.h, model_sync()), so the events
 * of a chunk land in the counters that were enabled when the chunk was done, and a run's true
 * count of an event is the ledger's units times the profile's rate (model_truth()), whatever the
 * kernel enabled meanwhile.
 *
 * The writer publishes a profile before its units (release), the reader reads them in that order
 * (acquire); an aligned 64-bit store is atomic on x86-64, so a reader sees a total that was true
 * at some moment, never a torn one.
 *
 * Pure code: compiled unchanged into the kernel, into ring-3 workloads and into host tools.
 */
#ifndef PMU_MODEL_LEDGER_H
#define PMU_MODEL_LEDGER_H

#include <stdint.h>

#include "pmu/model_profile.h"

/* Profiles one workload reports: triad and chase use two (per unit, per pass or per level). */
#define MODEL_LEDGER_SLOTS 4

struct model_ledger {
	const struct model_profile *profile[MODEL_LEDGER_SLOTS]; /* NULL: the slot is free */
	uint64_t units[MODEL_LEDGER_SLOTS];			 /* done, in all, since reset */
	uint64_t unslotted; /* units of profiles that found no free slot: the kernel says so */
};

/* The slot of profile p, claimed when p has none yet; MODEL_LEDGER_SLOTS when none is free. */
static inline unsigned model_ledger_slot(struct model_ledger *l, const struct model_profile *p)
{
	for (unsigned s = 0; s < MODEL_LEDGER_SLOTS; s++) {
		const struct model_profile *q = __atomic_load_n(&l->profile[s], __ATOMIC_RELAXED);
		if (q == p)
			return s;
		if (!q) {
			__atomic_store_n(&l->profile[s], p, __ATOMIC_RELEASE);
			return s;
		}
	}
	return MODEL_LEDGER_SLOTS;
}

/* The workload has done `total` units of slot's profile since the reset (one store). */
static inline void model_ledger_put(struct model_ledger *l, unsigned slot, uint64_t total)
{
	if (slot < MODEL_LEDGER_SLOTS)
		__atomic_store_n(&l->units[slot], total, __ATOMIC_RELEASE);
}

/* n more units of profile p. */
static inline void model_ledger_add(struct model_ledger *l, const struct model_profile *p,
				    uint64_t n)
{
	unsigned s = model_ledger_slot(l, p);

	if (s < MODEL_LEDGER_SLOTS)
		model_ledger_put(l, s, __atomic_load_n(&l->units[s], __ATOMIC_RELAXED) + n);
	else
		l->unslotted += n;
}

/* Every unit done so far, all profiles together: the workload's progress (pmu/mux.h's work clock
 * reads it; a per-pass or per-chunk profile adds one unit a pass or a chunk of hundreds, too few
 * to matter, and in step with the units). */
static inline uint64_t model_ledger_units(const struct model_ledger *l)
{
	uint64_t units = __atomic_load_n(&l->unslotted, __ATOMIC_RELAXED);

	for (unsigned s = 0; s < MODEL_LEDGER_SLOTS; s++)
		units += __atomic_load_n(&l->units[s], __ATOMIC_ACQUIRE);
	return units;
}

#endif
