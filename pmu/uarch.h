/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Microarchitecture descriptions: which CPUs a table applies to, how many counters they have,
 * which events are statically constrained to which counters, and which erratum corrupts
 * counts across hyperthreads. The tables themselves are data, in uarch_tables.c.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_UARCH_H
#define PMU_UARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/event.h"

/*
 * One index space for every counter, as Linux's idxmsk: bit i (i < 32) is general-purpose counter
 * i (IA32_PMCi / IA32_PERFEVTSELi), bit 32 + j is fixed-function counter j (IA32_FIXED_CTRj).
 */
#define PMU_FIXED_BASE 32
#define PMU_MAX_GP 8
#define PMU_MAX_FIXED 3
/* Every GP counter index and every fixed counter index of the space. */
#define PMU_GP_BITS 0x00000000ffffffffull
#define PMU_FIXED_BITS 0xffffffff00000000ull
/* GP counters 0..n-1, and fixed counter j. */
#define PMU_GP_MASK(n) ((n) >= PMU_FIXED_BASE ? PMU_GP_BITS : (1ull << (n)) - 1)
#define PMU_FIXED_BIT(j) (1ull << (PMU_FIXED_BASE + (j)))

enum uarch_id {
	UARCH_GENERIC,
	UARCH_SANDYBRIDGE,
	UARCH_IVYBRIDGE,
	UARCH_HASWELL,
	UARCH_BROADWELL,
	UARCH_SKYLAKE,
};

/*
 * How a constraint-table entry matches an event (Linux: INTEL_EVENT_CONSTRAINT and
 * INTEL_UEVENT_CONSTRAINT). The fixed-counter events are in no table: pmu/regs.h knows them.
 */
enum constraint_match {
	MATCH_EVENT,	   /* event select only, any unit mask */
	MATCH_EVENT_UMASK, /* event select and unit mask */
};

/* The counter-pair exclusion of the HT erratum applies (thesis ch. 4; Linux INTEL_EXCLEVT). */
#define CONSTRAINT_CORRUPTING 0x1

struct event_constraint {
	uint16_t code; /* 0xUUEE; the unit mask is ignored for MATCH_EVENT */
	uint8_t match; /* enum constraint_match */
	uint8_t flags; /* CONSTRAINT_* */
	uint64_t mask; /* GP counters allowed (idxmsk) */
};

struct uarch {
	enum uarch_id id;
	const char *name;	  /* "haswell": schedsim's -u and the pmu record's "uarch" */
	const char *display_name; /* "Haswell", as schedsim prints "Processor Name" */
	const uint8_t *models;	  /* Intel family 6 model numbers, terminated by 0 */
	uint8_t gp_ht_on;	  /* GP counters per logical CPU with HT on ... */
	uint8_t gp_ht_off;	  /* ... and with HT off (SDM vol. 3B, 18.3.8: 8 on SNB-HSW) */
	uint8_t fixed;		  /* fixed-function counters */
	const char *erratum;	  /* "HSD29"; NULL when the part has no cross-HT corruption */
	const struct event_constraint *constraints; /* terminated by an entry with mask 0 */
};

/* The generic architectural PMU: no model tables, fixed counters as CPUID 0x0A reports them. */
extern const struct uarch uarch_generic;

/* All descriptions, generic first, terminated by NULL. */
extern const struct uarch *const uarch_all[];

/* By name ("haswell", case-insensitive), or NULL. */
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

/*
 * The static constraint of event e on u with gp general-purpose and fixed fixed-function counters
 * in use (gp is 4 with HT on and 8 with HT off on SNB-HSW). Follows Linux's
 * x86_get_event_constraints(): a fixed-counter event (regs_fixed_counter_for()) may use its fixed
 * counter and, when regs_fixed_event_gp_ok(), any GP counter; otherwise a table entry restricts
 * the GP counters, and an event found in no table may use every GP counter. Corrupting events
 * stay on the bottom four counters even with HT off. A mask of 0 means the event cannot be
 * counted on this PMU at all.
 */
struct constraint uarch_constraint(const struct uarch *u, const struct pmu_event *e, unsigned gp,
				   unsigned fixed);

#endif
