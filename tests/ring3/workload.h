/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads the siblings run at CPL 3, and what the kernel tells them.
 *
 * A workload does its work in chunks of units (a triad element, a call/return pair, ...). After
 * each chunk it adds the chunk to its ledger (pmu/model_ledger.h: a store, no system call; the
 * model PMU reads it, the real counters need nothing) and checks the time; it stops at
 * deadline_tsc or after max_units, whichever comes first, and returns the units done.
 *
 * Each workload declares the events one unit produces as a model profile (pmu/model_profile.h).
 * Small per-pass events (the call into the loop, its exit misprediction) have their own profile,
 * reported once per pass, so that rates stay exact integers per MODEL_RATE_UNITS units.
 */
#ifndef TESTS_RING3_WORKLOAD_H
#define TESTS_RING3_WORKLOAD_H

#include <stdint.h>

#include "pmu/model_ledger.h"
#include "pmu/model_profile.h"

struct workload_params {
	/* Set by the kernel. */
	uint64_t chunk_units;  /* units between ledger entries and time checks; not 0 */
	uint64_t deadline_tsc; /* stop once the TSC passes this; 0 for no deadline */
	uint64_t max_units;    /* stop after this many units; 0 for no limit */
	uint32_t thread;       /* which sibling runs it (0 or 1) */
	uint32_t gp_width;     /* the counters' widths (CPUID.0AH), for RDPMC regions */
	uint32_t fixed_width;
	/* Set up once (tests/workloads/): */
	/* The units of one pass over the workload's data (triad's and copy's elements, chase's
	 * nodes, branchy's words; 0 for alu and idle, which have none): triad_reps counts passes. */
	uint64_t elements;
	/* What one unit counts besides the table's profile, when that depends on the size of the
	 * workload's data (chase: where each load hits); chosen by the set-up. NULL: nothing. */
	const struct model_profile *sized_profile;
	/* triad: c[i] = a[i] + k * b[i]; copy: c[i] = a[i]; the kernel fills a and b */
	double *a, *b, *c;
	/* chase: the first node of a random cycle through `elements` nodes of one cache line each;
	 * word 0 of every node holds the address of the next */
	uint64_t *chain;
	/* branchy: `elements` random words, one branch on each of their bits */
	const uint64_t *words;
	/* Filled in by the workload. */
	struct model_ledger ledger; /* its work so far, per profile; the kernel clears it */
	uint64_t units_done;
	uint64_t checksum; /* something derived from the results, so the work cannot be skipped */
};

/*
 * A workload's ring-3 entry point NAME_run (arg is the address of a struct workload_params in user
 * memory) and its events per unit for the model, NAME_profile (in user memory, named in its
 * ledger), are declared where they are used: the table (tests/workloads/workloads.c),
 * and for callret, which the boot checks run directly, here.
 */
uint64_t callret_run(uint64_t arg);
extern const struct model_profile callret_profile;

/* chase: its profiles by the cache level its set fits in (tests/ring3/chase.c). */
extern const struct model_profile chase_l1_profile, chase_l2_profile, chase_l3_profile,
	chase_memory_profile;

/* chase: bytes per node, one cache line, so that every load touches a line of its own. */
#define CHASE_NODE_BYTES 64

/*
 * chase: which profile a set of how many KiB per thread follows (tests/ring3/chase.c says why):
 * the first level whose max_kib is at least the set's; the last has max_kib UINT32_MAX.
 */
struct chase_level {
	uint32_t max_kib;
	const struct model_profile *profile;
};
extern const struct chase_level chase_levels[];

#endif
