/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel's core events, as data: the C form of pmu/intel_core_events.txt, which tools/perfmon-import
 * makes from Intel's perfmon event files. The C tables are generated at build time
 * (tools/src/eventgen, pmu/pmu.mk) into build/gen/pmu/intel_core_events.c; this header is their
 * layout. Code outside pmu/event_table.c reads them through pmu/event_table.h.
 *
 * One array per microarchitecture holds the events of its client part and of its server part
 * (SNB-EP, IVB-EP, HSX, BDX, SKX): an event both document alike is one entry for both parts, one
 * they document differently is an entry per part. The offcore-response events (two event selects,
 * MSR_OFFCORE_RSP_0/1) are not in the C tables: the parser refuses their names by prefix.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_INTEL_EVENTS_H
#define PMU_INTEL_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/* Which parts of a microarchitecture an entry is documented for (intel_event.parts). */
#define INTEL_PART_CLIENT 0x1
#define INTEL_PART_SERVER 0x2

/* The extra MSR an event needs besides IA32_PERFEVTSELx (Intel's MSRIndex). */
enum intel_event_msr {
	INTEL_MSR_NONE,
	INTEL_MSR_LOAD_LATENCY, /* MSR_PEBS_LD_LAT_THRESHOLD, 0x3F6 */
	INTEL_MSR_FRONTEND,	/* MSR_PEBS_FRONTEND, 0x3F7 */
};

/*
 * One event, packed: 10 bytes. A fixed-counter-only event (Intel's "Fixed counter N", event select
 * 0x00) keeps Intel's event and unit mask; fixed says which counter it is.
 */
struct intel_event {
	uint16_t name;		 /* offset of its name in intel_event_names */
	uint8_t event;		 /* event select, PERFEVTSEL[7:0] */
	uint8_t umask;		 /* unit mask, PERFEVTSEL[15:8] */
	uint8_t cmask;		 /* counter mask, PERFEVTSEL[31:24] */
	uint8_t counters;	 /* GP counters Intel allows with HT on: bit i is counter i */
	uint8_t counters_ht_off; /* ... and with HT off */
	uint8_t errata;		 /* index in intel_event_errata[]; 0: none */
	uint8_t inv : 1;	 /* PERFEVTSEL[23] */
	uint8_t edge : 1;	 /* PERFEVTSEL[18] */
	uint8_t any : 1;	 /* AnyThread, PERFEVTSEL[21] */
	uint8_t taken_alone : 1; /* Intel's TakenAlone */
	uint8_t deprecated : 1;	 /* Intel's Deprecated */
	uint8_t pebs : 2;	 /* Intel's PEBS: 0 no, 1 yes, 2 precise distribution */
	uint8_t parts : 2;	 /* INTEL_PART_* */
	uint8_t fixed : 2;	 /* fixed counter + 1; 0: a GP event */
	uint8_t msr : 2;	 /* enum intel_event_msr */
};

/*
 * Intel's data of one part: the file its names come from, and its entries of its
 * microarchitecture's events. Made from the table's part lines, one entry per line: this list is
 * how a struct uarch (pmu/uarch_tables.c) reaches its Intel events, by its part name
 * (event_table_source(), pmu/event_table.h).
 */
struct intel_event_source {
	const char *part;		  /* "haswell-x", as its struct uarch's .part names it */
	const char *file;		  /* "haswellx_core.json" */
	const char *version;		  /* Intel's Version of that file, "29" */
	const char *date;		  /* its DatePublished, "2024-07-16" */
	const struct intel_event *events; /* the microarchitecture's, both parts', sorted by name */
	uint16_t count;
	uint8_t role;	  /* INTEL_PART_CLIENT or _SERVER: this part's events have it in .parts */
	uint16_t offcore; /* this part's offcore-response events, left out of events[] */
};

/* Every name, each ending in NUL: intel_event_names + intel_event.name is one. */
extern const char intel_event_names[];
/* Errata lists ("HSD29,HSM30"), index 0 unused. */
extern const char *const intel_event_errata[];
/* Every part, terminated by an entry whose part is NULL. */
extern const struct intel_event_source intel_event_sources[];
/* "6dadedf3 2026-08": the commit and date of Intel's perfmon data the tables come from. */
extern const char intel_event_perfmon[];

#endif
