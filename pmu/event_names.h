/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbolic event names: the table (data, event_names.c) and its look-up.
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

/* One bit per enum uarch_id, for event_name.uarchs. */
#define UARCH_BIT(id) (1u << (id))

struct event_name {
	/*
	 * Intel's name with ':' between the event and the unit mask, as libpfm4 and the thesis
	 * write it ("MEM_UOPS_RETIRED:ALL_LOADS"); users may also write it in lower case and with
	 * '.' as Intel's documents and perf do ("mem_uops_retired.all_loads"). perf's generic
	 * hardware events keep perf's spelling ("branch-misses").
	 */
	const char *name;
	uint16_t code; /* 0xUUEE: unit mask and event select */
	uint8_t cmask;
	uint8_t flags;	/* EVENT_NAME_* */
	uint8_t uarchs; /* UARCH_BIT()s this encoding is for; 0: the same on every table */
};

/* The table, terminated by an entry whose name is NULL. */
extern const struct event_name event_names[];

/*
 * Whether entry n applies to u: a common entry (uarchs 0) always, a variant only on the
 * microarchitectures it is written for. u may be NULL: only common entries apply.
 */
bool event_name_on(const struct event_name *n, const struct uarch *u);

/*
 * The selection entry n names, into e: event select, unit mask, counter mask, edge and inv. The
 * other fields of e (privilege levels, group, name) are left as they are.
 */
void event_name_to_event(const struct event_name *n, struct pmu_event *e);

/*
 * The entry for name[0..len-1] on u (case-insensitive, '.' matching ':'): the entry written for
 * u when the encoding differs between microarchitectures, otherwise the common one. NULL when
 * there is none for u; *elsewhere is then set when the name exists for another
 * microarchitecture (so the error can say so). u may be NULL: only common entries match.
 */
const struct event_name *event_name_lookup(const char *name, size_t len, const struct uarch *u,
					   bool *elsewhere);

/*
 * The reverse: the full name ("EVENT:UMASK") of the selection in e on u (event select, unit mask,
 * counter mask, edge, inv), or NULL when the table has none.
 */
const char *event_name_for(const struct pmu_event *e, const struct uarch *u);

/* Whether some entry's event part (before ':') is name[0..len-1]: "unknown unit mask" vs
 * "unknown event" in error messages. */
bool event_name_event_known(const char *name, size_t len);

#endif
