// SPDX-License-Identifier: GPL-2.0
/*
 * Microarchitecture tables, as data.
 *
 * Sources:
 * - model numbers: Intel SDM vol. 4, table 2-1 (CPUID signatures), as Linux's
 *   arch/x86/include/asm/intel-family.h names them;
 * - counter counts: Intel SDM vol. 3B, 18.3.8 (4 GP counters per logical processor with HT on,
 *   8 with HT off, 3 fixed counters on Sandy Bridge to Skylake);
 * - constraints: Linux arch/x86/events/intel/core.c, intel_{snb,ivb,hsw,bdw,skl}_event_constraints
 *   (the same restrictions appear in Intel's perfmon event data as the Counter/CounterHTOff fields);
 * - errata: 2nd gen. Core desktop specification update BJ122, 3rd gen. BV98, 4th gen. HSD29
 *   (the thesis writes HSD129); Linux applies no workaround from Broadwell on.
 * Linux's tables start with the three fixed-counter events (FIXED_EVENT_CONSTRAINT), the same in
 * every table; they are not repeated here: uarch_constraint() takes them from pmu/regs.c.
 */
#include <stddef.h>

#include "pmu/uarch.h"

/* One table entry per line reads better than the formatter's layout. Intel's name of each entry
 * is in a comment, as in Linux's tables. */
/* clang-format off */
#define EVENT(c, m) { .code = (c), .match = MATCH_EVENT, .mask = (m) }
#define UEVENT(c, m) { .code = (c), .match = MATCH_EVENT_UMASK, .mask = (m) }
/* A corrupting event (thesis figure 4.1): any GP counter of the bottom four, XSU-exclusive. */
#define CORRUPTING(ev)                                                                             \
	{ .code = (ev), .match = MATCH_EVENT, .flags = CONSTRAINT_CORRUPTING, .mask = 0xf }
#define END { .mask = 0 }

/* The erratum's corrupting events: MEM_UOPS_RETIRED.*, MEM_LOAD_UOPS_RETIRED.*,
 * MEM_LOAD_UOPS_LLC_HIT_RETIRED.*, MEM_LOAD_UOPS_LLC_MISS_RETIRED.* (thesis figure 4.1). */
#define CORRUPTING_EVENTS CORRUPTING(0xd0), CORRUPTING(0xd1), CORRUPTING(0xd2), CORRUPTING(0xd3)

/* clang-format on */

/* The generic architectural PMU: no model-specific constraints. */
static const struct event_constraint generic_constraints[] = {
	END,
};

/* Linux intel_snb_event_constraints. */
static const struct event_constraint snb_constraints[] = {
	UEVENT(0x04a3, 0xf), /* CYCLE_ACTIVITY.CYCLES_NO_DISPATCH */
	UEVENT(0x05a3, 0xf), /* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	UEVENT(0x02a3, 0x4), /* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	UEVENT(0x06a3, 0x4), /* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	EVENT(0x48, 0x4),    /* L1D_PEND_MISS.PENDING */
	UEVENT(0x01c0, 0x2), /* INST_RETIRED.PREC_DIST */
	EVENT(0xcd, 0x8),    /* MEM_TRANS_RETIRED.LOAD_LATENCY */
	CORRUPTING_EVENTS,   /* 0xd0-0xd3, XSU-exclusive */
	END,
};

/* Linux intel_ivb_event_constraints. */
static const struct event_constraint ivb_constraints[] = {
	UEVENT(0x0148, 0x4), /* L1D_PEND_MISS.PENDING */
	UEVENT(0x0279, 0xf), /* IDQ.EMPTY */
	UEVENT(0x019c, 0xf), /* IDQ_UOPS_NOT_DELIVERED.CORE */
	UEVENT(0x02a3, 0xf), /* CYCLE_ACTIVITY.CYCLES_LDM_PENDING */
	UEVENT(0x04a3, 0xf), /* CYCLE_ACTIVITY.CYCLES_NO_EXECUTE */
	UEVENT(0x05a3, 0xf), /* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	UEVENT(0x06a3, 0xf), /* CYCLE_ACTIVITY.STALLS_LDM_PENDING */
	UEVENT(0x08a3, 0x4), /* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	UEVENT(0x0ca3, 0x4), /* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	UEVENT(0x01c0, 0x2), /* INST_RETIRED.PREC_DIST */
	CORRUPTING_EVENTS,   /* 0xd0-0xd3, XSU-exclusive */
	END,
};

/* Linux intel_hsw_event_constraints (thesis figure 5.12 shows its corrupting entries). */
static const struct event_constraint hsw_constraints[] = {
	UEVENT(0x0148, 0x4), /* L1D_PEND_MISS.PENDING */
	UEVENT(0x01c0, 0x2), /* INST_RETIRED.PREC_DIST */
	EVENT(0xcd, 0x8),    /* MEM_TRANS_RETIRED.LOAD_LATENCY */
	UEVENT(0x08a3, 0x4), /* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	UEVENT(0x0ca3, 0x4), /* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	UEVENT(0x04a3, 0xf), /* CYCLE_ACTIVITY.CYCLES_NO_EXECUTE */
	CORRUPTING_EVENTS,   /* 0xd0-0xd3, XSU-exclusive */
	END,
};

/*
 * Linux intel_bdw_event_constraints. No erratum: the memory events are limited to the bottom four
 * counters (they matter with HT off) but need no exclusion.
 */
static const struct event_constraint bdw_constraints[] = {
	UEVENT(0x0148, 0x4), /* L1D_PEND_MISS.PENDING */
	UEVENT(0x08a3, 0x4), /* CYCLE_ACTIVITY.CYCLES_L1D_MISS */
	EVENT(0xd0, 0xf),    /* MEM_UOPS_RETIRED.* */
	EVENT(0xd1, 0xf),    /* MEM_LOAD_UOPS_RETIRED.* */
	EVENT(0xd2, 0xf),    /* MEM_LOAD_UOPS_LLC_HIT_RETIRED.* */
	EVENT(0xcd, 0xf),    /* MEM_TRANS_RETIRED.LOAD_LATENCY */
	END,
};

/* Linux intel_skl_event_constraints: the reference part without the erratum. */
static const struct event_constraint skl_constraints[] = {
	UEVENT(0x01c0, 0x2), /* INST_RETIRED.PREC_DIST */
	EVENT(0xd0, 0xf),    /* MEM_INST_RETIRED.* */
	EVENT(0xd1, 0xf),    /* MEM_LOAD_RETIRED.* */
	EVENT(0xd2, 0xf),    /* MEM_LOAD_L3_HIT_RETIRED.* */
	EVENT(0xcd, 0xf),    /* MEM_TRANS_RETIRED.* */
	EVENT(0xc6, 0xf),    /* FRONTEND_RETIRED.* */
	END,
};

static const uint8_t no_models[] = { 0 };
/* SANDYBRIDGE 0x2A (client), SANDYBRIDGE_X 0x2D (SNB-EP, Jaketown). */
static const uint8_t snb_models[] = { 0x2a, 0x2d, 0 };
/* IVYBRIDGE 0x3A (client), IVYBRIDGE_X 0x3E (IVB-EP, Ivytown). */
static const uint8_t ivb_models[] = { 0x3a, 0x3e, 0 };
/* HASWELL 0x3C, HASWELL_X 0x3F (HSX), HASWELL_L 0x45 (ULT), HASWELL_G 0x46 (GT3e). */
static const uint8_t hsw_models[] = { 0x3c, 0x3f, 0x45, 0x46, 0 };
/* BROADWELL 0x3D, BROADWELL_G 0x47, BROADWELL_X 0x4F, BROADWELL_D 0x56. */
static const uint8_t bdw_models[] = { 0x3d, 0x47, 0x4f, 0x56, 0 };
/* SKYLAKE_L 0x4E, SKYLAKE 0x5E, SKYLAKE_X 0x55, KABYLAKE_L 0x8E, KABYLAKE 0x9E, COMETLAKE 0xA5/0xA6:
 * Linux drives all of them with the Skylake tables. */
static const uint8_t skl_models[] = { 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0 };

const struct uarch uarch_generic = {
	.id = UARCH_GENERIC,
	.name = "generic",
	.display_name = "Generic architectural PMU",
	.models = no_models,
	.gp_ht_on = 4,
	.gp_ht_off = 4,
	.fixed = 3,
	.erratum = NULL,
	.constraints = generic_constraints,
};

static const struct uarch uarch_sandybridge = {
	.id = UARCH_SANDYBRIDGE,
	.name = "sandybridge",
	.display_name = "Sandy Bridge",
	.models = snb_models,
	.gp_ht_on = 4,
	.gp_ht_off = 8,
	.fixed = 3,
	.erratum = "BJ122",
	.constraints = snb_constraints,
};

static const struct uarch uarch_ivybridge = {
	.id = UARCH_IVYBRIDGE,
	.name = "ivybridge",
	.display_name = "Ivy Bridge",
	.models = ivb_models,
	.gp_ht_on = 4,
	.gp_ht_off = 8,
	.fixed = 3,
	.erratum = "BV98",
	.constraints = ivb_constraints,
};

static const struct uarch uarch_haswell = {
	.id = UARCH_HASWELL,
	.name = "haswell",
	.display_name = "Haswell",
	.models = hsw_models,
	.gp_ht_on = 4,
	.gp_ht_off = 8,
	.fixed = 3,
	.erratum = "HSD29",
	.constraints = hsw_constraints,
};

static const struct uarch uarch_broadwell = {
	.id = UARCH_BROADWELL,
	.name = "broadwell",
	.display_name = "Broadwell",
	.models = bdw_models,
	.gp_ht_on = 4,
	.gp_ht_off = 8,
	.fixed = 3,
	.erratum = NULL,
	.constraints = bdw_constraints,
};

static const struct uarch uarch_skylake = {
	.id = UARCH_SKYLAKE,
	.name = "skylake",
	.display_name = "Skylake",
	.models = skl_models,
	.gp_ht_on = 4,
	.gp_ht_off = 8,
	.fixed = 3,
	.erratum = NULL,
	.constraints = skl_constraints,
};

/* clang-format off */
const struct uarch *const uarch_all[] = {
	&uarch_generic, &uarch_sandybridge, &uarch_ivybridge, &uarch_haswell,
	&uarch_broadwell, &uarch_skylake, NULL,
};
/* clang-format on */
