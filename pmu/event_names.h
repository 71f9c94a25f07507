/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbolic event names, as users type them: Intel's names (pmu/event_table.h, from Intel's event
 * data), perf's generic names as Linux maps them per microarchitecture, the architectural events
 * where no Intel table is imported, and a few libpfm4 names the thesis uses. The hand-written
 * names every part has, and libpfm4's, are data in event_names.c; those of one microarchitecture
 * are its struct uarch's (.event_names, pmu/uarch_tables.c); the look-ups are in event_lookup.c.
 *
 * Spelling: case-insensitive, ':' and '.' interchangeable (Intel and perf write
 * UOPS_ISSUED.ANY and uops_issued.any, libpfm4 UOPS_ISSUED:ANY).
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_EVENT_NAMES_H
#define PMU_EVENT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/event.h"
#include "pmu/uarch.h"

#define EVENT_NAME_EDGE 0x1 /* edge detect, PERFEVTSEL[18] */
#define EVENT_NAME_INV 0x2  /* invert cmask, PERFEVTSEL[23] */
#define EVENT_NAME_OFFCORE                                                                         \
	0x4 /* Linux's offcore-response encoding (0x01b7): needs MSR_OFFCORE_RSP */

enum event_name_kind {
	EVENT_NAME_PERF,       /* perf's generic hardware events (Linux intel_perfmon_event_map) */
	EVENT_NAME_PERF_CACHE, /* perf's cache events (Linux *_hw_cache_event_ids) */
	EVENT_NAME_ARCH,       /* architectural events (SDM vol. 3B, table 18-1) */
};

struct event_name {
	const char *name; /* "branch-misses", "L1-dcache-loads", "BR_INST_RETIRED.ALL_BRANCHES" */
	uint16_t code;	  /* 0xUUEE: unit mask and event select */
	uint8_t cmask;
	uint8_t flags; /* EVENT_NAME_* */
	uint8_t kind;  /* enum event_name_kind */
};

/*
 * The hand-written names every part has, and the only ones without a part: perf's generic hardware
 * events (the same encoding on every Intel PMU). Terminated by an entry whose name is NULL.
 */
extern const struct event_name event_names_common[];

/*
 * The i-th hand-written name of u (i from 0): event_names_common[], then u's own (u->event_names),
 * in that order; NULL past the last. With u NULL, the common names only.
 */
const struct event_name *event_name_hand_written(const struct uarch *u, unsigned i);

/* A libpfm4 name the thesis uses that Intel's data lacks, as one of Intel's names plus flags. */
struct event_alias {
	const char *name;   /* "L1D_PEND_MISS:OCCURRENCES" */
	const char *target; /* "L1D_PEND_MISS.PENDING_CYCLES" */
	uint8_t flags;	    /* EVENT_NAME_EDGE / _INV added to the target's selection */
};

/* Terminated by an entry whose name is NULL. */
extern const struct event_alias event_aliases[];

/* The selection entry n names, into e: event, unit mask, cmask, edge, inv (any cleared). */
void event_name_to_event(const struct event_name *n, struct pmu_event *e);

enum event_resolution {
	EVENT_UNKNOWN,	/* no such name on u */
	EVENT_RESOLVED, /* e holds its selection */
	EVENT_REFUSED,	/* the name is known but cannot be counted here: *reason says why */
};

/*
 * What name[0..len) means on u: Intel's names of u's part first, then perf's names, the
 * architectural ones and libpfm4's. On EVENT_RESOLVED the selection is in e (event, unit mask,
 * cmask, edge, inv, any; the rest of e untouched) and *canonical is the table's spelling. On
 * EVENT_REFUSED *reason completes "'<name>' ..." (e.g. "needs an offcore response MSR ...").
 */
enum event_resolution event_name_resolve(const char *name, size_t len, const struct uarch *u,
					 struct pmu_event *e, const char **canonical,
					 const char **reason);

/* The first part other than u on which name[0..len) resolves or is refused, or NULL. */
const struct uarch *event_name_elsewhere(const char *name, size_t len, const struct uarch *u);

/* Every name that resolves on u, one per call: start with *pos = 0; NULL at the end. */
const char *event_name_next(const struct uarch *u, unsigned *pos);

/*
 * Up to max names of u closest to name[0..len) (edit distance, case-insensitive, at most a quarter
 * of the name's length away), closest first, into out. Returns how many.
 */
unsigned event_name_suggest(const char *name, size_t len, const struct uarch *u, const char **out,
			    unsigned max);

/* Whether some name of u has name[0..len) as its event part (before the first ':' or '.'). */
bool event_name_event_known(const char *name, size_t len, const struct uarch *u);

/*
 * The reverse: the name of the selection in e on u (event, unit mask, cmask, edge, inv, any):
 * Intel's name where there is one, or NULL.
 */
const char *event_name_for(const struct pmu_event *e, const struct uarch *u);

/* Whether name[0..len) is one of perf's cache event names ("LLC-loads"), whatever the part. */
bool event_name_is_perf_cache(const char *name, size_t len);

#endif
