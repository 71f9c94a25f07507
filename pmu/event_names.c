// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-written event names, as data. Intel's own names are not here: they come from Intel's
 * event data (pmu/intel_core_events.txt, pmu/event_table.h).
 *
 * Sources:
 * - perf's generic hardware events: Linux 6.1 arch/x86/events/intel/core.c,
 *   intel_perfmon_event_map (ref-cycles is Linux's pseudo encoding 0x0300 for fixed counter 2),
 *   and the stalled-cycles events intel_pmu_init() sets for Sandy Bridge (both) and Ivy Bridge
 *   (front end only); Linux defines none from Haswell on. perf's aliases (cpu-cycles,
 *   branch-instructions, idle-cycles-*) are perf's tools/perf/util/parse-events.c names;
 * - perf's cache events: the same file, snb_hw_cache_event_ids (Sandy Bridge and Ivy Bridge, whose
 *   dTLB-load-misses Linux sets to 0x8108), hsw_hw_cache_event_ids (Haswell and Broadwell),
 *   skl_hw_cache_event_ids (Skylake, and Ice Lake without iTLB-loads). Only the events Linux
 *   defines there are listed; 0x01b7 is Linux's offcore-response encoding (LLC-*, node-*), which
 *   needs MSR_OFFCORE_RSP_0/1;
 * - the architectural events (Intel SDM vol. 3B, table 18-1, with the names of Intel's event
 *   files), for the parts without an imported Intel table: the generic PMU and Ice Lake;
 * - libpfm4's names that the thesis and its simulator use and Intel's data lacks, as aliases of
 *   Intel's names (libpfm4 4.13, lib/events/intel_*_events.h; test_libpfm4 checks them).
 */
#include <stddef.h>

#include "pmu/event_names.h"

#define GEN UARCH_BIT(UARCH_GENERIC)
#define SNB UARCH_BIT(UARCH_SANDYBRIDGE)
#define IVB UARCH_BIT(UARCH_IVYBRIDGE)
#define HSW UARCH_BIT(UARCH_HASWELL)
#define BDW UARCH_BIT(UARCH_BROADWELL)
#define SKL UARCH_BIT(UARCH_SKYLAKE)
#define ICL UARCH_BIT(UARCH_ICELAKE)

/* One entry per line: the tables read better that way than as the formatter lays them out. */
/* clang-format off */
#define PERF(nm, c) { .name = (nm), .code = (c), .kind = EVENT_NAME_PERF }
#define STALLED(nm, c, ua)                                                                         \
	{ .name = (nm), .code = (c), .cmask = 1, .flags = EVENT_NAME_INV, .uarchs = (ua),          \
	  .kind = EVENT_NAME_PERF }
#define CACHE(nm, c, ua) { .name = (nm), .code = (c), .uarchs = (ua), .kind = EVENT_NAME_PERF_CACHE }
#define OFFCORE(nm, ua)                                                                            \
	{ .name = (nm), .code = 0x01b7, .flags = EVENT_NAME_OFFCORE, .uarchs = (ua),               \
	  .kind = EVENT_NAME_PERF_CACHE }
#define ARCH(nm, c) { .name = (nm), .code = (c), .uarchs = GEN | ICL, .kind = EVENT_NAME_ARCH }

const struct event_name event_names[] = {
	/* perf's generic hardware events: the same encoding on every Intel PMU. */
	PERF("cycles", 0x003c),
	PERF("cpu-cycles", 0x003c),
	PERF("instructions", 0x00c0),
	PERF("cache-references", 0x4f2e),
	PERF("cache-misses", 0x412e),
	PERF("branches", 0x00c4),
	PERF("branch-instructions", 0x00c4),
	PERF("branch-misses", 0x00c5),
	PERF("bus-cycles", 0x013c),
	PERF("ref-cycles", 0x0300),
	/* UOPS_ISSUED.ANY,c=1,i=1 and UOPS_DISPATCHED.THREAD,c=1,i=1 (Linux's comments). */
	STALLED("stalled-cycles-frontend", 0x010e, SNB | IVB),
	STALLED("idle-cycles-frontend", 0x010e, SNB | IVB),
	STALLED("stalled-cycles-backend", 0x01b1, SNB),
	STALLED("idle-cycles-backend", 0x01b1, SNB),

	/* perf's cache events, snb_hw_cache_event_ids (Sandy Bridge, Ivy Bridge). On both
	 * microarchitectures L1-dcache-loads and -stores (0xD0) are corrupting events. */
	CACHE("L1-dcache-loads", 0xf1d0, SNB | IVB),
	CACHE("L1-dcache-load-misses", 0x0151, SNB | IVB),
	CACHE("L1-dcache-stores", 0xf2d0, SNB | IVB),
	CACHE("L1-dcache-store-misses", 0x0851, SNB | IVB),
	CACHE("L1-dcache-prefetch-misses", 0x024e, SNB | IVB),
	CACHE("L1-icache-load-misses", 0x0280, SNB | IVB),
	CACHE("dTLB-loads", 0x81d0, SNB | IVB),
	CACHE("dTLB-load-misses", 0x0108, SNB),
	CACHE("dTLB-load-misses", 0x8108, IVB),
	CACHE("dTLB-stores", 0x82d0, SNB | IVB),
	CACHE("dTLB-store-misses", 0x0149, SNB | IVB),
	CACHE("iTLB-loads", 0x1085, SNB | IVB),
	CACHE("iTLB-load-misses", 0x0185, SNB | IVB),
	OFFCORE("LLC-prefetches", SNB | IVB),
	OFFCORE("LLC-prefetch-misses", SNB | IVB),
	OFFCORE("node-prefetches", SNB | IVB),
	OFFCORE("node-prefetch-misses", SNB | IVB),

	/* hsw_hw_cache_event_ids (Haswell, Broadwell): on Haswell L1-dcache-loads is
	 * MEM_UOPS_RETIRED.ALL_LOADS, a corrupting event of HSD29. */
	CACHE("L1-dcache-loads", 0x81d0, HSW | BDW),
	CACHE("L1-dcache-load-misses", 0x0151, HSW | BDW),
	CACHE("L1-dcache-stores", 0x82d0, HSW | BDW),
	CACHE("L1-icache-load-misses", 0x0280, HSW | BDW),
	CACHE("dTLB-loads", 0x81d0, HSW | BDW),
	CACHE("dTLB-load-misses", 0x0108, HSW | BDW),
	CACHE("dTLB-stores", 0x82d0, HSW | BDW),
	CACHE("dTLB-store-misses", 0x0149, HSW | BDW),
	CACHE("iTLB-loads", 0x6085, HSW | BDW),
	CACHE("iTLB-load-misses", 0x0185, HSW | BDW),

	/* skl_hw_cache_event_ids (Skylake; Ice Lake without iTLB-loads). */
	CACHE("L1-dcache-loads", 0x81d0, SKL | ICL),
	CACHE("L1-dcache-load-misses", 0x0151, SKL | ICL),
	CACHE("L1-dcache-stores", 0x82d0, SKL | ICL),
	CACHE("L1-icache-load-misses", 0x0283, SKL | ICL),
	CACHE("dTLB-loads", 0x81d0, SKL | ICL),
	CACHE("dTLB-load-misses", 0x0e08, SKL | ICL),
	CACHE("dTLB-stores", 0x82d0, SKL | ICL),
	CACHE("dTLB-store-misses", 0x0e49, SKL | ICL),
	CACHE("iTLB-loads", 0x2085, SKL),
	CACHE("iTLB-load-misses", 0x0e85, SKL | ICL),

	/* Every table: branches, and the offcore-response LLC and node events. */
	CACHE("branch-loads", 0x00c4, SNB | IVB | HSW | BDW | SKL | ICL),
	CACHE("branch-load-misses", 0x00c5, SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("LLC-loads", SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("LLC-load-misses", SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("LLC-stores", SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("LLC-store-misses", SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("node-loads", SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("node-load-misses", SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("node-stores", SNB | IVB | HSW | BDW | SKL | ICL),
	OFFCORE("node-store-misses", SNB | IVB | HSW | BDW | SKL | ICL),

	/* The architectural events where no Intel table is imported (generic PMU, Ice Lake). */
	ARCH("INST_RETIRED.ANY", 0x00c0),
	ARCH("INST_RETIRED.ANY_P", 0x00c0),
	ARCH("CPU_CLK_UNHALTED.THREAD", 0x003c),
	ARCH("CPU_CLK_UNHALTED.THREAD_P", 0x003c),
	ARCH("CPU_CLK_UNHALTED.REF_TSC", 0x0300),
	ARCH("CPU_CLK_UNHALTED.REF_XCLK", 0x013c),
	ARCH("LONGEST_LAT_CACHE.REFERENCE", 0x4f2e),
	ARCH("LONGEST_LAT_CACHE.MISS", 0x412e),
	ARCH("BR_INST_RETIRED.ALL_BRANCHES", 0x00c4),
	ARCH("BR_MISP_RETIRED.ALL_BRANCHES", 0x00c5),

	{ .name = NULL },
};

/* libpfm4's names (thesis 7.1, 7.2 and its simulator's examples). */
const struct event_alias event_aliases[] = {
	{ "BR_INST_RETIRED", "BR_INST_RETIRED.ALL_BRANCHES", 0 },
	{ "BR_MISP_RETIRED", "BR_MISP_RETIRED.ALL_BRANCHES", 0 },
	{ "UOPS_RETIRED:ANY", "UOPS_RETIRED.ALL", 0 },
	{ "L2_LINES_IN:ANY", "L2_LINES_IN.ALL", 0 },
	{ "L1D_PEND_MISS:OCCURRENCES", "L1D_PEND_MISS.PENDING_CYCLES", EVENT_NAME_EDGE },
	{ NULL, NULL, 0 },
};
/* clang-format on */
