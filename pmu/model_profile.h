/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a unit of a workload's work produces, for the model PMU. A workload reports its progress
 * with pmu_account(profile, n) ("n more units done"); under the model backend that becomes
 * model_account(), which turns the profile's rates into events and adds them to every counter
 * selecting them (pmu/model.h). Under the real backend the call does nothing.
 *
 * Rates are events per MODEL_RATE_UNITS units, so that fractional rates are exact: the model
 * carries the remainder per logical CPU and per event, and after N units in any number of calls
 * a counter has seen exactly floor(N * rate / MODEL_RATE_UNITS) events.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_MODEL_PROFILE_H
#define PMU_MODEL_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#define MODEL_RATE_UNITS 1000

/* Rates must stay below this, so that the model's arithmetic cannot overflow. */
#define MODEL_RATE_MAX (1ull << 40)

/* The privilege level the work runs at: it counts where USR (CPL > 0) or OS (CPL 0) is set. */
enum model_ring {
	MODEL_RING_USER,
	MODEL_RING_KERNEL,
};

/*
 * One event a workload produces, as the selection that counts it: a GP counter counts it when its
 * IA32_PERFEVTSELx has exactly this event select, unit mask, counter mask, edge and inv.
 */
struct model_rate {
	uint8_t event;
	uint8_t umask;
	uint8_t cmask;
	bool edge;
	bool inv;
	uint64_t per_units; /* events per MODEL_RATE_UNITS units */
};

struct model_profile {
	const char *name;
	enum model_ring ring;
	/*
	 * The three fixed-counter events, per MODEL_RATE_UNITS units. INST_RETIRED.ANY also counts
	 * on a GP counter selecting 0x00c0 and CPU_CLK_UNHALTED.CORE on one selecting 0x003c (their
	 * architectural encodings); CPU_CLK_UNHALTED.REF counts on fixed counter 2 only.
	 */
	uint64_t instructions;
	uint64_t core_cycles;
	uint64_t ref_cycles;
	const struct model_rate *rates; /* any other events */
	unsigned nrates;
};

#endif
