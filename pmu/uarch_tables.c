// SPDX-License-Identifier: GPL-2.0
/*
 * Microarchitecture tables, as data.
 *
 * Sources:
 * - model numbers: Intel SDM vol. 4, table 2-1 (CPUID signatures), as Linux's
 *   arch/x86/include/asm/intel-family.h names them, and Intel's perfmon mapfile.csv;
 * - counter counts: Intel SDM vol. 3B, 18.3.8 (4 GP counters per logical processor with HT on,
 *   8 with HT off, 3 fixed counters on Sandy Bridge to Skylake); Ice Lake has 8 GP counters per
 *   logical processor whatever HT (and a fourth fixed counter, SLOTS, that the kernel does not use);
 * - constraints: Linux 6.1 (6.1.192), arch/x86/events/intel/core.c,
 *   intel_{snb,ivb,hsw,bdw,skl,icl}_event_constraints, entry by entry and in Linux's order
 *   (test_uarch compares them with a transcription of Linux's tables). Intel's event data has its
 *   own counter fields (Counter, CounterHTOff), which are not the same restrictions: Intel pins
 *   some events Linux leaves free (MEM_TRANS_RETIRED.PRECISE_STORE on Ivy Bridge to counter 3) and
 *   keeps many events on counters 0-3 with HT off where Linux allows all eight. uarch_constraint()
 *   says which of Intel's restrictions apply on top of these tables;
 * - errata: 2nd gen. Core desktop specification update BJ122, 3rd gen. BV98, 4th gen. HSD29
 *   (the thesis writes HSD129); Linux applies no workaround from Broadwell on;
 * - the zero event: see lbr_inserts below;
 * - event names: Intel's perfmon event files, one per part (pmu/intel_core_events.txt), reached by
 *   the part's name; the hand-written names of each microarchitecture: perf's cache events of
 *   Linux 6.1 arch/x86/events/intel/core.c, snb_hw_cache_event_ids (Sandy Bridge and Ivy Bridge,
 *   whose dTLB-load-misses Linux sets to 0x8108), hsw_hw_cache_event_ids (Haswell and Broadwell),
 *   skl_hw_cache_event_ids (Skylake, and Ice Lake without iTLB-loads): only the events Linux
 *   defines there, 0x01b7 being Linux's offcore-response encoding (LLC-*, node-*), which needs
 *   MSR_OFFCORE_RSP_0/1; the stalled-cycles events intel_pmu_init() sets for Sandy Bridge (both)
 *   and Ivy Bridge (front end only), Linux defining none from Haswell on (perf's aliases
 *   idle-cycles-* are perf's tools/perf/util/parse-events.c names); the architectural events
 *   (Intel SDM vol. 3B, table 18-1, with the names of Intel's event files) for the parts without
 *   an imported Intel table, the generic PMU and Ice Lake. perf's generic hardware events, the
 *   same everywhere, are in pmu/event_names.c.
 * Linux's tables start with the fixed-counter events (FIXED_EVENT_CONSTRAINT), the same three in
 * every table; they are not repeated here: uarch_constraint() takes them from pmu/regs.c.
 */
#include <stddef.h>

#include "pmu/event_names.h"
#include "pmu/uarch.h"

/* One table entry per line reads better than the formatter's layout. Intel's name of each entry
 * is in a comment, as in Linux's tables. */
/* clang-format off */
#define EVENT(c, m) { .code = (c), .match = MATCH_EVENT, .mask = (m) }
#define UEVENT(c, m) { .code = (c), .match = MATCH_EVENT_UMASK, .mask = (m) }
#define UBIT(c, m) { .code = (c), .match = MATCH_UMASK_BITS, .mask = (m) }
#define RANGE(first, l, m) { .code = (first), .match = MATCH_EVENT_RANGE, .last = (l), .mask = (m) }
/* A corrupting event (Linux INTEL_EXCLEVT_CONSTRAINT, thesis figure 4.1): any GP counter of the
 * bottom four, XSU-exclusive. */
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

/* Linux intel_snb_event_constraints; Linux lists 0x04a3 and 0x02a3 twice, so do we. */
static const struct event_constraint snb_constraints[] = {
	UEVENT(0x04a3, 0xf), /* CYCLE_ACTIVITY.CYCLES_NO_DISPATCH */
	UEVENT(0x05a3, 0xf), /* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	UEVENT(0x02a3, 0x4), /* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	UEVENT(0x06a3, 0x4), /* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	EVENT(0x48, 0x4),    /* L1D_PEND_MISS.PENDING */
	UEVENT(0x01c0, 0x2), /* INST_RETIRED.PREC_DIST */
	EVENT(0xcd, 0x8),    /* MEM_TRANS_RETIRED.LOAD_LATENCY */
	UEVENT(0x04a3, 0xf), /* CYCLE_ACTIVITY.CYCLES_NO_DISPATCH */
	UEVENT(0x02a3, 0x4), /* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
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
 * counters (they matter with HT off) but need no exclusion. 0xA3 is an INTEL_UBIT_EVENT_CONSTRAINT:
 * every unit mask with bit 3 set (CYCLES_L1D_MISS 0x08a3, STALLS_L1D_MISS 0x0ca3, ...) is pinned
 * to counter 2, not 0x08a3 alone.
 */
static const struct event_constraint bdw_constraints[] = {
	UEVENT(0x0148, 0x4), /* L1D_PEND_MISS.PENDING */
	UBIT(0x08a3, 0x4),   /* CYCLE_ACTIVITY.CYCLES_L1D_MISS and every umask with bit 3 */
	EVENT(0xd0, 0xf),    /* MEM_UOPS_RETIRED.* */
	EVENT(0xd1, 0xf),    /* MEM_LOAD_UOPS_RETIRED.* */
	EVENT(0xd2, 0xf),    /* MEM_LOAD_UOPS_L3_HIT_RETIRED.* */
	EVENT(0xcd, 0xf),    /* MEM_TRANS_RETIRED.* */
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

/*
 * Linux intel_icl_event_constraints, the GP part: with 8 GP counters per thread, many events may
 * use only the bottom four. Not modelled: the fixed entries beyond the three architectural ones
 * (0x01c0 and 0x0100 on fixed counter 0, SLOTS on fixed counter 3) and the topdown metrics.
 */
static const struct event_constraint icl_constraints[] = {
	RANGE(0x03, 0x0a, 0xf), RANGE(0x1f, 0x28, 0xf),
	EVENT(0x32, 0xf), /* SW_PREFETCH_ACCESS.* */
	RANGE(0x48, 0x56, 0xf), RANGE(0x60, 0x8b, 0xf),
	UEVENT(0x04a3, 0xff), /* CYCLE_ACTIVITY.STALLS_TOTAL */
	UEVENT(0x10a3, 0xff), /* CYCLE_ACTIVITY.CYCLES_MEM_ANY */
	UEVENT(0x14a3, 0xff), /* CYCLE_ACTIVITY.STALLS_MEM_ANY */
	EVENT(0xa3, 0xf),     /* CYCLE_ACTIVITY.* */
	RANGE(0xa8, 0xb0, 0xf), RANGE(0xb7, 0xbd, 0xf),
	RANGE(0xd0, 0xe6, 0xf), EVENT(0xef, 0xf),
	RANGE(0xf0, 0xf4, 0xf), END,
};

/*
 * The zero event of every part from Sandy Bridge to Skylake: ROB_MISC_EVENTS.LBR_INSERTS (event
 * 0xCC, unit mask 0x20), "cases of saving new LBR records by hardware". It counts only while the
 * last branch record is on (IA32_DEBUGCTL.LBR, Intel SDM vol. 3B, 17.4.1), and this kernel never
 * turns it on: it writes IA32_DEBUGCTL nowhere. Intel's event data gives it the same encoding on
 * Sandy Bridge (and Jaketown), Ivy Bridge (Ivytown), Haswell (Haswell-X), Broadwell and Skylake,
 * on any of the counters 0-3, the counters the erratum concerns; the thesis uses it as its zero
 * event (4.2, 7.1).
 */
static const struct pmu_event lbr_inserts = {
	.event = 0xcc,
	.umask = 0x20,
	.usr = true,
	.os = true,
	.name = "r20cc",
};

/* One name per line: the tables read better that way than as the formatter lays them out. */
/* clang-format off */
#define STALLED(nm, c)                                                                             \
	{ .name = (nm), .code = (c), .cmask = 1, .flags = EVENT_NAME_INV, .kind = EVENT_NAME_PERF }
#define CACHE(nm, c) { .name = (nm), .code = (c), .kind = EVENT_NAME_PERF_CACHE }
#define OFFCORE(nm)                                                                                \
	{ .name = (nm), .code = 0x01b7, .flags = EVENT_NAME_OFFCORE, .kind = EVENT_NAME_PERF_CACHE }
#define ARCH(nm, c) { .name = (nm), .code = (c), .kind = EVENT_NAME_ARCH }
#define END_NAMES { .name = NULL }

/* UOPS_ISSUED.ANY,c=1,i=1 and UOPS_DISPATCHED.THREAD,c=1,i=1 (Linux's comments). */
#define STALLED_FRONTEND                                                                           \
	STALLED("stalled-cycles-frontend", 0x010e), STALLED("idle-cycles-frontend", 0x010e)
#define STALLED_BACKEND                                                                            \
	STALLED("stalled-cycles-backend", 0x01b1), STALLED("idle-cycles-backend", 0x01b1)

/* snb_hw_cache_event_ids. On both microarchitectures L1-dcache-loads and -stores (0xD0) are
 * corrupting events. */
#define SNB_CACHE(dtlb_load_misses)                                                                \
	CACHE("L1-dcache-loads", 0xf1d0),                                                          \
	CACHE("L1-dcache-load-misses", 0x0151),                                                    \
	CACHE("L1-dcache-stores", 0xf2d0),                                                         \
	CACHE("L1-dcache-store-misses", 0x0851),                                                   \
	CACHE("L1-dcache-prefetch-misses", 0x024e),                                                \
	CACHE("L1-icache-load-misses", 0x0280),                                                    \
	CACHE("dTLB-loads", 0x81d0),                                                               \
	CACHE("dTLB-load-misses", (dtlb_load_misses)),                                             \
	CACHE("dTLB-stores", 0x82d0),                                                              \
	CACHE("dTLB-store-misses", 0x0149),                                                        \
	CACHE("iTLB-loads", 0x1085),                                                               \
	CACHE("iTLB-load-misses", 0x0185),                                                         \
	OFFCORE("LLC-prefetches"),                                                                 \
	OFFCORE("LLC-prefetch-misses"),                                                            \
	OFFCORE("node-prefetches"),                                                                \
	OFFCORE("node-prefetch-misses")

/* skl_hw_cache_event_ids up to the iTLB events, which Ice Lake's table lacks in part. */
#define SKL_CACHE_L1_DTLB                                                                          \
	CACHE("L1-dcache-loads", 0x81d0),                                                          \
	CACHE("L1-dcache-load-misses", 0x0151),                                                    \
	CACHE("L1-dcache-stores", 0x82d0),                                                         \
	CACHE("L1-icache-load-misses", 0x0283),                                                    \
	CACHE("dTLB-loads", 0x81d0),                                                               \
	CACHE("dTLB-load-misses", 0x0e08),                                                         \
	CACHE("dTLB-stores", 0x82d0),                                                              \
	CACHE("dTLB-store-misses", 0x0e49)

/* Every one of Linux's tables: branches, and the offcore-response LLC and node events. */
#define EVERY_CACHE                                                                                \
	CACHE("branch-loads", 0x00c4),                                                             \
	CACHE("branch-load-misses", 0x00c5),                                                       \
	OFFCORE("LLC-loads"),                                                                      \
	OFFCORE("LLC-load-misses"),                                                                \
	OFFCORE("LLC-stores"),                                                                     \
	OFFCORE("LLC-store-misses"),                                                               \
	OFFCORE("node-loads"),                                                                     \
	OFFCORE("node-load-misses"),                                                               \
	OFFCORE("node-stores"),                                                                    \
	OFFCORE("node-store-misses")

/* The architectural events, where no Intel table is imported (generic PMU, Ice Lake). */
#define ARCH_EVENTS                                                                                \
	ARCH("INST_RETIRED.ANY", 0x00c0),                                                          \
	ARCH("INST_RETIRED.ANY_P", 0x00c0),                                                        \
	ARCH("CPU_CLK_UNHALTED.THREAD", 0x003c),                                                   \
	ARCH("CPU_CLK_UNHALTED.THREAD_P", 0x003c),                                                 \
	ARCH("CPU_CLK_UNHALTED.REF_TSC", 0x0300),                                                  \
	ARCH("CPU_CLK_UNHALTED.REF_XCLK", 0x013c),                                                 \
	ARCH("LONGEST_LAT_CACHE.REFERENCE", 0x4f2e),                                               \
	ARCH("LONGEST_LAT_CACHE.MISS", 0x412e),                                                    \
	ARCH("BR_INST_RETIRED.ALL_BRANCHES", 0x00c4),                                              \
	ARCH("BR_MISP_RETIRED.ALL_BRANCHES", 0x00c5)

static const struct event_name generic_names[] = {
	ARCH_EVENTS,
	END_NAMES,
};

static const struct event_name snb_names[] = {
	STALLED_FRONTEND,
	STALLED_BACKEND,
	SNB_CACHE(0x0108),
	EVERY_CACHE,
	END_NAMES,
};

static const struct event_name ivb_names[] = {
	STALLED_FRONTEND,
	SNB_CACHE(0x8108),
	EVERY_CACHE,
	END_NAMES,
};

/* hsw_hw_cache_event_ids (Haswell, Broadwell): on Haswell L1-dcache-loads is
 * MEM_UOPS_RETIRED.ALL_LOADS, a corrupting event of HSD29. */
static const struct event_name hsw_names[] = {
	CACHE("L1-dcache-loads", 0x81d0),
	CACHE("L1-dcache-load-misses", 0x0151),
	CACHE("L1-dcache-stores", 0x82d0),
	CACHE("L1-icache-load-misses", 0x0280),
	CACHE("dTLB-loads", 0x81d0),
	CACHE("dTLB-load-misses", 0x0108),
	CACHE("dTLB-stores", 0x82d0),
	CACHE("dTLB-store-misses", 0x0149),
	CACHE("iTLB-loads", 0x6085),
	CACHE("iTLB-load-misses", 0x0185),
	EVERY_CACHE,
	END_NAMES,
};

static const struct event_name skl_names[] = {
	SKL_CACHE_L1_DTLB,
	CACHE("iTLB-loads", 0x2085),
	CACHE("iTLB-load-misses", 0x0e85),
	EVERY_CACHE,
	END_NAMES,
};

static const struct event_name icl_names[] = {
	SKL_CACHE_L1_DTLB,
	CACHE("iTLB-load-misses", 0x0e85),
	EVERY_CACHE,
	ARCH_EVENTS,
	END_NAMES,
};
/* clang-format on */

static const uint8_t no_models[] = { 0 };
/* SANDYBRIDGE 0x2A; SANDYBRIDGE_X 0x2D (SNB-EP, Jaketown). */
static const uint8_t snb_models[] = { 0x2a, 0 };
static const uint8_t snbx_models[] = { 0x2d, 0 };
/* IVYBRIDGE 0x3A; IVYBRIDGE_X 0x3E (IVB-EP, Ivytown). */
static const uint8_t ivb_models[] = { 0x3a, 0 };
static const uint8_t ivbx_models[] = { 0x3e, 0 };
/* HASWELL 0x3C, HASWELL_L 0x45 (ULT), HASWELL_G 0x46 (GT3e); HASWELL_X 0x3F (HSX). */
static const uint8_t hsw_models[] = { 0x3c, 0x45, 0x46, 0 };
static const uint8_t hswx_models[] = { 0x3f, 0 };
/* BROADWELL 0x3D, BROADWELL_G 0x47; BROADWELL_X 0x4F (BDX) and BROADWELL_D 0x56 (BDW-DE: Intel
 * has a file of its own for it, not imported; BDX's names are used). */
static const uint8_t bdw_models[] = { 0x3d, 0x47, 0 };
static const uint8_t bdwx_models[] = { 0x4f, 0x56, 0 };
/* SKYLAKE_L 0x4E, SKYLAKE 0x5E, KABYLAKE_L 0x8E, KABYLAKE 0x9E, COMETLAKE 0xA5/0xA6; SKYLAKE_X 0x55
 * (SKX; its steppings 5 and later are Cascade Lake, whose own names are not imported). Linux
 * drives all of them with the Skylake tables. */
static const uint8_t skl_models[] = { 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6, 0 };
static const uint8_t sklx_models[] = { 0x55, 0 };
/* ICELAKE_L 0x7E, ICELAKE 0x7D, ICELAKE_X 0x6A (QEMU's Icelake-Server), ICELAKE_D 0x6C,
 * TIGERLAKE_L 0x8C, TIGERLAKE 0x8D, ROCKETLAKE 0xA7: Linux drives all of them with the Ice Lake
 * tables. */
static const uint8_t icl_models[] = { 0x7e, 0x7d, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7, 0 };

const struct uarch uarch_generic = {
	.id = UARCH_GENERIC,
	.name = "generic",
	.part = "generic",
	.display_name = "Generic architectural PMU",
	.models = no_models,
	.gp_ht_on = 4,
	.gp_ht_off = 4,
	.fixed = 3,
	.erratum = NULL,
	.constraints = generic_constraints,
	.event_names = generic_names,
};

/*
 * The parts of one microarchitecture differ in part name, display name and models only; a server
 * part points at its client's tables. (Intel's events of each part are found by its part name.)
 */
#define SNB_COMMON                                                                                 \
	.id = UARCH_SANDYBRIDGE, .name = "sandybridge", .gp_ht_on = 4, .gp_ht_off = 8, .fixed = 3, \
	.erratum = "BJ122", .constraints = snb_constraints, .zero_event = &lbr_inserts,            \
	.event_names = snb_names
#define IVB_COMMON                                                                                 \
	.name = "ivybridge", .gp_ht_on = 4, .gp_ht_off = 8, .fixed = 3, .erratum = "BV98",         \
	.constraints = ivb_constraints, .zero_event = &lbr_inserts, .event_names = ivb_names
#define HSW_COMMON                                                                                 \
	.name = "haswell", .gp_ht_on = 4, .gp_ht_off = 8, .fixed = 3, .erratum = "HSD29",          \
	.constraints = hsw_constraints, .zero_event = &lbr_inserts, .event_names = hsw_names
#define BDW_COMMON                                                                                 \
	.name = "broadwell", .gp_ht_on = 4, .gp_ht_off = 8, .fixed = 3, .erratum = NULL,           \
	.constraints = bdw_constraints, .zero_event = &lbr_inserts, .event_names = hsw_names
#define SKL_COMMON                                                                                 \
	.name = "skylake", .gp_ht_on = 4, .gp_ht_off = 8, .fixed = 3, .erratum = NULL,             \
	.constraints = skl_constraints, .zero_event = &lbr_inserts, .event_names = skl_names

static const struct uarch uarch_sandybridge = {
	SNB_COMMON,
	.part = "sandybridge",
	.display_name = "Sandy Bridge",
	.models = snb_models,
};

static const struct uarch uarch_sandybridge_x = {
	SNB_COMMON,
	.part = "sandybridge-x",
	.display_name = "Sandy Bridge-EP",
	.models = snbx_models,
};

static const struct uarch uarch_ivybridge = {
	IVB_COMMON,
	.part = "ivybridge",
	.display_name = "Ivy Bridge",
	.models = ivb_models,
};

static const struct uarch uarch_ivybridge_x = {
	IVB_COMMON,
	.part = "ivybridge-x",
	.display_name = "Ivy Bridge-EP",
	.models = ivbx_models,
};

static const struct uarch uarch_haswell = {
	HSW_COMMON,
	.part = "haswell",
	.display_name = "Haswell",
	.models = hsw_models,
};

static const struct uarch uarch_haswell_x = {
	HSW_COMMON,
	.part = "haswell-x",
	.display_name = "Haswell-EP",
	.models = hswx_models,
};

static const struct uarch uarch_broadwell = {
	BDW_COMMON,
	.part = "broadwell",
	.display_name = "Broadwell",
	.models = bdw_models,
};

static const struct uarch uarch_broadwell_x = {
	BDW_COMMON,
	.part = "broadwell-x",
	.display_name = "Broadwell-EP/DE",
	.models = bdwx_models,
};

static const struct uarch uarch_skylake = {
	SKL_COMMON,
	.part = "skylake",
	.display_name = "Skylake",
	.models = skl_models,
};

static const struct uarch uarch_skylake_x = {
	SKL_COMMON,
	.part = "skylake-x",
	.display_name = "Skylake-SP",
	.models = sklx_models,
};

/* Ice Lake: Linux's scheduling rules; no Intel event names imported (raw codes, perf's names and
 * the architectural events only), no zero event known. */
static const struct uarch uarch_icelake = {
	.name = "icelake",
	.part = "icelake",
	.display_name = "Ice Lake",
	.models = icl_models,
	.gp_ht_on = 8,
	.gp_ht_off = 8,
	.fixed = 3,
	.erratum = NULL,
	.constraints = icl_constraints,
	.event_names = icl_names,
};

/* clang-format off */
const struct uarch *const uarch_all[] = {
	&uarch_generic,
	&uarch_sandybridge, &uarch_sandybridge_x, &uarch_ivybridge, &uarch_ivybridge_x,
	&uarch_haswell, &uarch_haswell_x, &uarch_broadwell, &uarch_broadwell_x,
	&uarch_skylake, &uarch_skylake_x, &uarch_icelake, NULL,
};
/* clang-format on */
