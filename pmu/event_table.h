/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel's events of one part (pmu/intel_events.h unpacked): iteration, look-up by name and by
 * selection. The API other code uses to walk a microarchitecture's documented events, e.g. every
 * documented unit mask of 0xD0-0xD3:
 *
 *	struct event_iter it;
 *	struct event_info info;
 *
 *	for (event_iter_start(&it, u); event_iter_next(&it, &info);)
 *		if (info.event >= 0xd0 && info.event <= 0xd3 && info.msr == INTEL_MSR_NONE)
 *			...;
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_EVENT_TABLE_H
#define PMU_EVENT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/event.h"
#include "pmu/intel_events.h"
#include "pmu/uarch.h"

/* One of Intel's events, as its data describes it. */
struct event_info {
	const char *name; /* Intel's name, "MEM_UOPS_RETIRED.ALL_LOADS" */
	/*
	 * The PERFEVTSEL encoding (SDM vol. 3B, figure 18-1). A fixed-counter-only event gets the
	 * code the scheduler knows it by (pmu/regs.h: 0x00c0, 0x003c, 0x0300), not Intel's 0x00.
	 */
	uint8_t event, umask, cmask;
	bool inv, edge, any;
	uint8_t counters; /* GP counters Intel allows with HT on (bit i: counter i); 0: fixed */
	uint8_t counters_ht_off; /* ... and with HT off */
	int8_t fixed;		 /* the fixed counter Intel names, or -1 */
	uint8_t pebs;		 /* 0 no, 1 yes, 2 precise distribution */
	bool taken_alone, deprecated;
	enum intel_event_msr msr; /* the extra MSR it needs; INTEL_MSR_NONE: PERFEVTSEL alone */
	const char *errata;	  /* Intel's errata list, "HSD29,HSM30", or NULL */
	uint8_t parts; /* INTEL_PART_*: which parts of the microarchitecture document it */
};

/*
 * Intel's data of u's part: the entry of intel_event_sources[] whose part is u's part name, or NULL
 * when none was imported (the generic PMU, Ice Lake) or u is NULL. The generated data lists the
 * parts, so a struct uarch needs nothing else to have Intel's names.
 */
const struct intel_event_source *event_table_source(const struct uarch *u);

struct event_iter {
	const struct intel_event_source *source; /* NULL: no events */
	unsigned next;
};

/* Iterate over Intel's events of u's part, in name order, those that need an extra MSR included.
 * A microarchitecture without imported names (generic, Ice Lake) has none. */
void event_iter_start(struct event_iter *it, const struct uarch *u);
bool event_iter_next(struct event_iter *it, struct event_info *info);

/* Intel's event named name[0..len) on u's part: case-insensitive, ':' matching '.'. */
bool event_table_find(const struct uarch *u, const char *name, size_t len, struct event_info *info);

/* The first of Intel's events of u's part whose encoding is exactly e's selection (event, unit
 * mask, cmask, inv, edge, any). */
bool event_table_match(const struct uarch *u, const struct pmu_event *e, struct event_info *info);

/*
 * Whether Intel's data of u's part lists an event of this event select and unit mask (whatever its
 * counter mask, inv, edge and AnyThread: nanoBench's configs write those as modifiers of the
 * same code). False also when u has no imported names (event_table_source() is NULL): ask that
 * first.
 */
bool event_table_has(const struct uarch *u, uint8_t event, uint8_t umask);

/* The selection info names, into e (event, unit mask, cmask, edge, inv, any); the rest of e is
 * left as it is. */
void event_info_to_event(const struct event_info *info, struct pmu_event *e);

/* "MSR_PEBS_LD_LAT_THRESHOLD (0x3F6)" and the like: what an event with this msr needs. */
const char *event_msr_name(enum intel_event_msr msr);

/* Whether name[0..len) is one of the offcore-response events (OFFCORE_RESPONSE*), which need
 * MSR_OFFCORE_RSP_0/1 and are therefore not in the C tables. */
bool event_is_offcore_response(const char *name, size_t len);

/* Case-insensitive name comparison with ':' and '.' the same: entry against text[0..len). */
bool event_name_equal(const char *entry, const char *text, size_t len);

/* The character as names compare it: lower case, '.' as ':'. */
int event_name_fold(int c);

/* The unit-mask part of name ("ALL_LOADS" of "MEM_UOPS_RETIRED.ALL_LOADS") when its event part is
 * event[0..len) (compared as names are), or NULL. */
const char *event_name_umask_of(const char *name, const char *event, size_t len);

#endif
