// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolic event names, as data.
 *
 * Sources:
 * - perf's generic hardware events: Linux arch/x86/events/intel/core.c, intel_perfmon_event_map
 *   (ref-cycles is Linux's pseudo encoding 0x0300 for fixed counter 2);
 * - the rest: Intel SDM vol. 3B, chapter 19 (events of 2nd, 3rd and 4th generation Core and
 *   6th generation), as Intel's perfmon event files (SNB/IVB/HSW/BDW/SKL *_core.json, fields
 *   EventCode/UMask/CounterMask/EdgeDetect) and libpfm4 name them. The thesis uses the events of
 *   chapters 4, 7, 8 and 7.2, the Linux article those of its examples; both are here.
 * Where an encoding differs between microarchitectures (CYCLE_ACTIVITY, the TLB walk events),
 * each variant is a separate entry that says which microarchitectures it is for. Events that
 * exist only from some generation on (RTM/HLE from Haswell, Skylake's renamed memory events)
 * are limited to those generations.
 */
#include "pmu/event_names.h"

#define SNB UARCH_BIT(UARCH_SANDYBRIDGE)
#define IVB UARCH_BIT(UARCH_IVYBRIDGE)
#define HSW UARCH_BIT(UARCH_HASWELL)
#define BDW UARCH_BIT(UARCH_BROADWELL)
#define SKL UARCH_BIT(UARCH_SKYLAKE)

#define E(nm, c)                                                                                   \
	{                                                                                          \
		.name = (nm), .code = (c)                                                          \
	}
#define EC(nm, c, cm, fl, ua)                                                                      \
	{                                                                                          \
		.name = (nm), .code = (c), .cmask = (cm), .flags = (fl), .uarchs = (ua)            \
	}
#define EU(nm, c, ua)                                                                              \
	{                                                                                          \
		.name = (nm), .code = (c), .uarchs = (ua)                                          \
	}

const struct event_name event_names[] = {
	/* perf's generic hardware events on Intel (intel_perfmon_event_map). */
	E("cycles", 0x003c),
	E("cpu-cycles", 0x003c),
	E("instructions", 0x00c0),
	E("cache-references", 0x4f2e),
	E("cache-misses", 0x412e),
	E("branches", 0x00c4),
	E("branch-instructions", 0x00c4),
	E("branch-misses", 0x00c5),
	E("bus-cycles", 0x013c),
	E("ref-cycles", 0x0300),

	/* Architectural events and their fixed-counter forms (SDM vol. 3B, 18.2). */
	E("CPU_CLK_UNHALTED:THREAD_P", 0x003c),
	E("CPU_CLK_UNHALTED:THREAD", 0x003c),
	E("CPU_CLK_UNHALTED:REF_TSC", 0x0300),
	E("CPU_CLK_UNHALTED:REF_XCLK", 0x013c),
	E("INST_RETIRED:ANY_P", 0x00c0),
	E("INST_RETIRED:ANY", 0x00c0),
	E("INST_RETIRED:PREC_DIST", 0x01c0),
	E("LONGEST_LAT_CACHE:REFERENCE", 0x4f2e),
	E("LONGEST_LAT_CACHE:MISS", 0x412e),

	/* Branches (thesis ch. 4 and 7: 0x00c5, 0x02c4, 0x10c4, 0x08c4). */
	E("BR_INST_RETIRED", 0x00c4),
	E("BR_INST_RETIRED:ALL_BRANCHES", 0x00c4),
	E("BR_INST_RETIRED:CONDITIONAL", 0x01c4),
	E("BR_INST_RETIRED:NEAR_CALL", 0x02c4),
	E("BR_INST_RETIRED:NEAR_RETURN", 0x08c4),
	E("BR_INST_RETIRED:NOT_TAKEN", 0x10c4),
	E("BR_INST_RETIRED:NEAR_TAKEN", 0x20c4),
	E("BR_INST_RETIRED:FAR_BRANCH", 0x40c4),
	E("BR_MISP_RETIRED", 0x00c5),
	E("BR_MISP_RETIRED:ALL_BRANCHES", 0x00c5),
	E("BR_MISP_RETIRED:CONDITIONAL", 0x01c5),
	E("BR_MISP_RETIRED:NEAR_TAKEN", 0x20c5),

	/* Thesis 4.2 and 7.1: LBR inserts, zero when the LBR is unused. */
	E("ROB_MISC_EVENTS:LBR_INSERTS", 0x20cc),
	E("UOPS_RETIRED:ALL", 0x01c2),
	E("UOPS_RETIRED:ANY", 0x01c2),
	E("UOPS_RETIRED:RETIRE_SLOTS", 0x02c2),

	/* Thesis 7.2, the simulator's examples. */
	E("L2_LINES_IN:ANY", 0x07f1),
	E("L2_LINES_IN:ALL", 0x07f1),
	E("L2_LINES_IN:I", 0x01f1),
	E("L2_LINES_IN:S", 0x02f1),
	E("L2_LINES_IN:E", 0x04f1),
	E("L1D_PEND_MISS:PENDING", 0x0148),
	EC("L1D_PEND_MISS:PENDING_CYCLES", 0x0148, 1, 0, 0),
	EC("L1D_PEND_MISS:OCCURRENCES", 0x0148, 1, EVENT_NAME_EDGE, 0),

	/* CYCLE_ACTIVITY: the unit masks were renumbered after Sandy Bridge. */
	EC("CYCLE_ACTIVITY:CYCLES_L2_PENDING", 0x01a3, 1, 0, SNB | IVB | HSW | BDW),
	EC("CYCLE_ACTIVITY:CYCLES_L1D_PENDING", 0x02a3, 2, 0, SNB),
	EC("CYCLE_ACTIVITY:CYCLES_NO_DISPATCH", 0x04a3, 4, 0, SNB),
	EC("CYCLE_ACTIVITY:STALLS_L2_PENDING", 0x05a3, 5, 0, SNB | IVB | HSW | BDW),
	EC("CYCLE_ACTIVITY:STALLS_L1D_PENDING", 0x06a3, 6, 0, SNB),
	EC("CYCLE_ACTIVITY:CYCLES_LDM_PENDING", 0x02a3, 2, 0, IVB | HSW | BDW),
	EC("CYCLE_ACTIVITY:CYCLES_NO_EXECUTE", 0x04a3, 4, 0, IVB | HSW | BDW),
	EC("CYCLE_ACTIVITY:STALLS_LDM_PENDING", 0x06a3, 6, 0, IVB | HSW | BDW),
	EC("CYCLE_ACTIVITY:CYCLES_L1D_PENDING", 0x08a3, 8, 0, IVB | HSW | BDW),
	EC("CYCLE_ACTIVITY:STALLS_L1D_PENDING", 0x0ca3, 12, 0, IVB | HSW | BDW),
	EC("CYCLE_ACTIVITY:CYCLES_L2_MISS", 0x01a3, 1, 0, SKL),
	EC("CYCLE_ACTIVITY:STALLS_TOTAL", 0x04a3, 4, 0, SKL),
	EC("CYCLE_ACTIVITY:STALLS_L2_MISS", 0x05a3, 5, 0, SKL),
	EC("CYCLE_ACTIVITY:CYCLES_L1D_MISS", 0x08a3, 8, 0, SKL),
	EC("CYCLE_ACTIVITY:STALLS_L1D_MISS", 0x0ca3, 12, 0, SKL),

	/* The corrupting events of BJ122/BV98/HSD29 (thesis fig. 4.1 and ch. 7, 8). */
	E("MEM_UOPS_RETIRED:ALL_LOADS", 0x81d0),
	E("MEM_UOPS_RETIRED:ALL_STORES", 0x82d0),
	E("MEM_UOPS_RETIRED:STLB_MISS_LOADS", 0x11d0),
	E("MEM_UOPS_RETIRED:STLB_MISS_STORES", 0x12d0),
	E("MEM_UOPS_RETIRED:LOCK_LOADS", 0x21d0),
	E("MEM_UOPS_RETIRED:SPLIT_LOADS", 0x41d0),
	E("MEM_UOPS_RETIRED:SPLIT_STORES", 0x42d0),
	E("MEM_LOAD_UOPS_RETIRED:L1_HIT", 0x01d1),
	E("MEM_LOAD_UOPS_RETIRED:L2_HIT", 0x02d1),
	E("MEM_LOAD_UOPS_RETIRED:L3_HIT", 0x04d1),
	E("MEM_LOAD_UOPS_RETIRED:LLC_HIT", 0x04d1),
	E("MEM_LOAD_UOPS_RETIRED:L1_MISS", 0x08d1),
	E("MEM_LOAD_UOPS_RETIRED:L2_MISS", 0x10d1),
	E("MEM_LOAD_UOPS_RETIRED:L3_MISS", 0x20d1),
	E("MEM_LOAD_UOPS_RETIRED:LLC_MISS", 0x20d1),
	E("MEM_LOAD_UOPS_RETIRED:HIT_LFB", 0x40d1),
	E("MEM_LOAD_UOPS_LLC_HIT_RETIRED:XSNP_MISS", 0x01d2),
	E("MEM_LOAD_UOPS_LLC_HIT_RETIRED:XSNP_HIT", 0x02d2),
	E("MEM_LOAD_UOPS_LLC_HIT_RETIRED:XSNP_HITM", 0x04d2),
	E("MEM_LOAD_UOPS_LLC_HIT_RETIRED:XSNP_NONE", 0x08d2),
	E("MEM_LOAD_UOPS_L3_HIT_RETIRED:XSNP_MISS", 0x01d2),
	E("MEM_LOAD_UOPS_L3_HIT_RETIRED:XSNP_HIT", 0x02d2),
	E("MEM_LOAD_UOPS_L3_HIT_RETIRED:XSNP_HITM", 0x04d2),
	E("MEM_LOAD_UOPS_L3_HIT_RETIRED:XSNP_NONE", 0x08d2),
	E("MEM_LOAD_UOPS_LLC_MISS_RETIRED:LOCAL_DRAM", 0x01d3),
	E("MEM_LOAD_UOPS_L3_MISS_RETIRED:LOCAL_DRAM", 0x01d3),
	E("MEM_TRANS_RETIRED:LOAD_LATENCY", 0x01cd),

	/* Skylake's names for the same codes (no erratum there; Linux article, last section). */
	EU("MEM_INST_RETIRED:ALL_LOADS", 0x81d0, SKL),
	EU("MEM_INST_RETIRED:ALL_STORES", 0x82d0, SKL),
	EU("MEM_LOAD_RETIRED:L1_HIT", 0x01d1, SKL),
	EU("MEM_LOAD_RETIRED:L2_HIT", 0x02d1, SKL),
	EU("MEM_LOAD_RETIRED:L3_HIT", 0x04d1, SKL),
	EU("MEM_LOAD_RETIRED:L1_MISS", 0x08d1, SKL),
	EU("MEM_LOAD_RETIRED:L2_MISS", 0x10d1, SKL),
	EU("MEM_LOAD_RETIRED:L3_MISS", 0x20d1, SKL),
	EU("MEM_LOAD_RETIRED:FB_HIT", 0x40d1, SKL),

	/* Transactional memory, from Haswell on (thesis 7.1: 0x01c9, 0x04c8). */
	EU("RTM_RETIRED:START", 0x01c9, HSW | BDW | SKL),
	EU("RTM_RETIRED:COMMIT", 0x02c9, HSW | BDW | SKL),
	EU("RTM_RETIRED:ABORTED", 0x04c9, HSW | BDW | SKL),
	EU("HLE_RETIRED:START", 0x01c8, HSW | BDW | SKL),
	EU("HLE_RETIRED:COMMIT", 0x02c8, HSW | BDW | SKL),
	EU("HLE_RETIRED:ABORTED", 0x04c8, HSW | BDW | SKL),

	/* Page walks (Linux article, Haswell examples): Haswell widened the unit mask. */
	EU("DTLB_LOAD_MISSES:WALK_COMPLETED", 0x0208, SNB),
	EU("DTLB_STORE_MISSES:WALK_COMPLETED", 0x0249, SNB),
	EU("ITLB_MISSES:WALK_COMPLETED", 0x0285, SNB),
	EU("DTLB_LOAD_MISSES:WALK_COMPLETED", 0x0e08, HSW | BDW | SKL),
	EU("DTLB_LOAD_MISSES:WALK_COMPLETED_4K", 0x0208, HSW | BDW | SKL),
	EU("DTLB_STORE_MISSES:WALK_COMPLETED", 0x0e49, HSW | BDW | SKL),
	EU("DTLB_STORE_MISSES:WALK_COMPLETED_4K", 0x0249, HSW | BDW | SKL),
	EU("ITLB_MISSES:WALK_COMPLETED", 0x0e85, HSW | BDW | SKL),
	EU("ITLB_MISSES:WALK_COMPLETED_4K", 0x0285, HSW | BDW | SKL),

	{ .name = NULL },
};
