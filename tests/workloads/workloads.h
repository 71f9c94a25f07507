/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload library: one table of the workloads a sibling can run (`work0=`, `work1=`), each
 * with its ring-3 loop (tests/ring3/), what one unit of it counts under the model PMU, and the
 * set-up that prepares its memory at CPL 0 before any counter runs. Adding a workload is its
 * loop and profile in a file of tests/ring3/ and its entry in the table of workloads.c (with its
 * set-up there when it has data to prepare). tests/host/test_workloads.c checks every entry.
 */
#ifndef TESTS_WORKLOADS_WORKLOADS_H
#define TESTS_WORKLOADS_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tests/ring3/user.h"
#include "tests/ring3/workload.h"

/* What the command line says about the workloads' sizes. */
struct workload_settings {
	uint32_t triad_kib; /* each of triad's (and copy's) arrays */
	uint32_t chase_kib; /* chase's working set */
};

struct workload {
	const char *name;     /* as work0= takes it */
	const char *stresses; /* one line: what it stresses */
	user_function entry;  /* the ring-3 loop */
	/* What one unit counts under the model PMU (the loop reports its units with it). */
	const struct model_profile *profile;
	/*
	 * Prepare a thread's parameters in user memory (arrays, tables) at CPL 0, once, before any
	 * counter runs. False when there is no memory for it. NULL: nothing to prepare.
	 */
	bool (*setup)(struct workload_params *p, const struct workload_settings *s);
	bool internal; /* used by the boot checks only: not offered to work0= */
	/* A unit halts until the next tick (SYS_HALT): a caller that must answer between calls
	 * (a bundle's sibling loop) takes one unit a call. */
	bool halts;
};

extern const struct workload workloads[];
extern const unsigned workload_count;

/* By name, or NULL (internal ones included). */
const struct workload *workload_by_name(const char *name);

/* What work0= accepts, NULL-terminated. */
const char *const *workload_names(void);

#define WORKLOAD_MAX 16

/* chase: the profile of where its loads hit, for a set of kib KiB per thread (chase_levels). */
const struct model_profile *chase_profile_for(uint32_t kib);

/*
 * Units between a workload's ledger entries and time checks (struct workload_params.chunk_units).
 * On real counters the ledger only gives the run's units: long chunks keep the loop's own overhead
 * out of the counts. The model PMU accounts a chunk's events when the workload enters it, so a
 * chunk is its resolution in time: 256 triad elements are some microseconds under TCG, well
 * within the steps of a core-wide handover (pmu/model.h).
 */
#define WORKLOAD_CHUNK_UNITS 4096
#define WORKLOAD_CHUNK_UNITS_MODEL 256

/* branchy's table: 4096 words, 32 KiB, 262,144 random branches before it repeats. */
#define BRANCHY_WORDS 4096

/* The parameters prepared so far, per thread and workload: user memory is never freed, so each
 * is prepared once and reused. Owned by the caller, zeroed before the first use. */
struct workload_memory {
	struct workload_params *prepared[2][WORKLOAD_MAX];
};

/*
 * Thread thread's parameters for w, prepared on first use (NULL when there is no memory). The
 * caller sets the per-run fields (deadline, unit limit, account, thread) before each run.
 */
struct workload_params *workload_prepare(struct workload_memory *m, const struct workload *w,
					 unsigned thread, const struct workload_settings *s);

#endif
