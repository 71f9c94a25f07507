// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-written event names every part has, as data. Intel's own names are not here: they come
 * from Intel's event data (pmu/intel_core_events.txt, pmu/event_table.h); the names of one
 * microarchitecture (perf's cache and stalled-cycles events, the architectural events) are its
 * struct uarch's, in pmu/uarch_tables.c.
 *
 * Sources:
 * - perf's generic hardware events: Linux 6.1 arch/x86/events/intel/core.c,
 *   intel_perfmon_event_map (ref-cycles is Linux's pseudo encoding 0x0300 for fixed counter 2).
 *   perf's aliases (cpu-cycles, branch-instructions) are perf's tools/perf/util/parse-events.c
 *   names;
 * - libpfm4's names that the thesis and its simulator use and Intel's data lacks, as aliases of
 *   Intel's names (libpfm4 4.13, lib/events/intel_*_events.h; test_libpfm4 checks them).
 */
#include <stddef.h>

#include "pmu/event_names.h"

/* One entry per line: the tables read better that way than as the formatter lays them out. */
/* clang-format off */
#define PERF(nm, c) { .name = (nm), .code = (c), .kind = EVENT_NAME_PERF }

/* perf's generic hardware events: the same encoding on every Intel PMU. */
const struct event_name event_names_common[] = {
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
