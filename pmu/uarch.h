/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Microarchitecture descriptions. A microarchitecture is one table entry: everything the code
 * knows of a part is reached from its struct uarch (a server part, SNB-EP to SKX, has one of its
 * own): the CPUs it applies to, its counters, Linux's static constraints, the cross-HT erratum and
 * the events it corrupts (the constraint entries marked CONSTRAINT_CORRUPTING), the event that
 * never occurs on it (pmu/zero_event.h), its hand-written event names (pmu/event_names.h) and, by
 * its part name, Intel's events of that part (pmu/event_table.h). The entries are data, in
 * uarch_tables.c.
 *
 * Adding a microarchitecture touches two files: its entries in pmu/uarch_tables.c (a struct uarch
 * per part, listed in uarch_all[]) and Intel's events of its parts, pmu/intel_core_events.txt,
 * which tools/perfmon-import --part PART ... writes and `make` compiles (tools/src/eventgen).
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_UARCH_H
#define PMU_UARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/event.h"

struct event_name;

/*
 * The microarchitectures that code outside the tables recognises: the generic PMU (the pmu
 * record's "unknown", schedsim's listing) and Sandy Bridge (the model PMU's shares, the
 * experiments' stand-in events). Every other entry leaves .id out (UARCH_OTHER); a server part has
 * its client's id. Nothing else depends on it: the tables are reached through the entry.
 */
enum uarch_id {
	UARCH_OTHER,
	UARCH_GENERIC,
	UARCH_SANDYBRIDGE,
};

/*
 * How a constraint-table entry matches an event (Linux: INTEL_EVENT_CONSTRAINT and
 * INTEL_UEVENT_CONSTRAINT). The fixed-counter events are in no table: pmu/regs.h knows them.
 */
enum constraint_match {
	MATCH_EVENT,	   /* event select only, any unit mask (INTEL_EVENT_CONSTRAINT) */
	MATCH_EVENT_UMASK, /* event select and unit mask (INTEL_UEVENT_CONSTRAINT) */
	MATCH_UMASK_BITS,  /* event select, and every unit-mask bit of code set (INTEL_UBIT_...) */
	MATCH_EVENT_RANGE, /* event selects code..last, any unit mask (INTEL_EVENT_CONSTRAINT_RANGE) */
};

/* The counter-pair exclusion of the HT erratum applies (thesis ch. 4; Linux INTEL_EXCLEVT). */
#define CONSTRAINT_CORRUPTING 0x1

struct event_constraint {
	uint16_t code; /* 0xUUEE; the unit mask is ignored for MATCH_EVENT and MATCH_EVENT_RANGE */
	uint8_t match; /* enum constraint_match */
	uint8_t flags; /* CONSTRAINT_* */
	uint8_t last;  /* MATCH_EVENT_RANGE: the last event select of the range */
	uint64_t mask; /* GP counters allowed (idxmsk) */
};

struct uarch {
	enum uarch_id id;
	const char *name;	  /* the microarchitecture, "haswell": the pmu record's "uarch" */
	const char *part;	  /* this part, "haswell-x": schedsim's -u; Intel's events' part */
	const char *display_name; /* "Haswell-EP", as schedsim prints "Processor Name" */
	const uint8_t *models;	  /* Intel family 6 model numbers, terminated by 0 */
	uint8_t gp_ht_on;	  /* GP counters per logical CPU with HT on ... */
	uint8_t gp_ht_off;	  /* ... and with HT off (SDM vol. 3B, 18.3.8: 8 on SNB-SKL) */
	uint8_t fixed;		  /* fixed-function counters the kernel drives */
	const char *erratum;	  /* "HSD29"; NULL when the part has no cross-HT corruption */
	/* Linux's, its corrupting events marked; terminated by an entry with mask 0 */
	const struct event_constraint *constraints;
	/* The event that never occurs here (pmu/zero_event.h); NULL: none known */
	const struct pmu_event *zero_event;
	/* Its hand-written names besides perf's common ones (pmu/event_names.h), up to a NULL
	 * name; NULL: none */
	const struct event_name *event_names;
};

/* The generic architectural PMU: no model tables, fixed counters as CPUID 0x0A reports them. */
extern const struct uarch uarch_generic;

/* All descriptions, generic first, terminated by NULL. */
extern const struct uarch *const uarch_all[];

/* By part name ("haswell", "haswell-x", case-insensitive), or NULL. */
const struct uarch *uarch_by_name(const char *name);

/* By CPUID vendor/family/model; the generic description when the model is not in a table. */
const struct uarch *uarch_by_model(bool intel, unsigned family, unsigned model);

/* GP counters per logical CPU with HT on (ht) or off (SDM vol. 3B, 18.3.8). */
static inline unsigned uarch_gp(const struct uarch *u, bool ht)
{
	return ht ? u->gp_ht_on : u->gp_ht_off;
}

/* True when this microarchitecture has the cross-HT corruption erratum. */
static inline bool uarch_has_erratum(const struct uarch *u)
{
	return u->erratum != 0;
}

/* The static constraint of one event (no XSU, no sibling state). */
struct constraint {
	uint64_t mask;	 /* counters the event may use (idxmsk) */
	bool corrupting; /* needs XSU exclusion when the erratum applies and HT is on */
};

/* Only Linux's table (the first entry that matches, no fixed counters, no Intel restriction):
 * the mask of every GP counter of the space when no entry matches. */
struct constraint uarch_linux_constraint(const struct uarch *u, const struct pmu_event *e);

/*
 * Whether e is one of the erratum's corrupting events on u: the microarchitecture's table marks it
 * (Linux INTEL_EXCLEVT_CONSTRAINT; 0xD0-0xD3 on Sandy Bridge, Ivy Bridge and Haswell). The one
 * definition: the scheduler, the model PMU and the count records all ask this.
 */
bool uarch_event_corrupting(const struct uarch *u, const struct pmu_event *e);

#endif
