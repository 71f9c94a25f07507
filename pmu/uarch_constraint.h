/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The static constraint of one event: the fixed-counter events (pmu/regs.h), Linux's table of the
 * microarchitecture (pmu/uarch.h) and Intel's restriction (Intel's event data, pmu/event_table.h),
 * put together. Above both tables, so that neither depends on the other.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_UARCH_CONSTRAINT_H
#define PMU_UARCH_CONSTRAINT_H

#include "pmu/event.h"
#include "pmu/uarch.h"

/*
 * The static constraint of event e on u with gp general-purpose and fixed fixed-function counters
 * in use (gp is 4 with HT on and 8 with HT off on SNB-SKL). Follows Linux's
 * x86_get_event_constraints(): a fixed-counter event (regs_fixed_counter_for()) may use its fixed
 * counter and, when regs_fixed_event_gp_ok(), any GP counter; otherwise the first entry of Linux's
 * table that matches restricts the GP counters, and an event found in no entry may use every GP
 * counter. Corrupting events stay on the bottom four counters even with HT off.
 *
 * Then Intel's restriction (docs/event-names.md): where Intel's event data names fewer counters
 * than 0-3 for exactly this selection (event, unit mask, cmask, inv, edge, any), e.g.
 * MEM_TRANS_RETIRED.PRECISE_STORE on counter 3 of Ivy Bridge, only those counters remain; when
 * Linux's and Intel's counters have none in common, Intel's are used (Linux's entry was written
 * for another event of that code). Intel's "counters 0-3 with HT off" for events Linux lets use
 * all eight is not applied: the scheduling follows Linux there (test_uarch lists the cases).
 *
 * A mask of 0 means the event cannot be counted on this PMU at all.
 */
struct constraint uarch_constraint(const struct uarch *u, const struct pmu_event *e, unsigned gp,
				   unsigned fixed);

#endif
