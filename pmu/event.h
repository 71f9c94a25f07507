/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hardware event as the user names it and as the scheduler and the driver see it.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_EVENT_H
#define PMU_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#define PMU_EVENT_NAME_MAX 64

/*
 * The fields of IA32_PERFEVTSELx that select what is counted and when (Intel SDM vol. 3B,
 * 18.2.1.1 "Architectural Performance Monitoring Version 1 Facilities", figure 18-1), plus what
 * perf's command line adds: the pinned modifier and event groups.
 */
struct pmu_event {
	uint8_t event;	 /* event select, PERFEVTSEL[7:0] */
	uint8_t umask;	 /* unit mask, PERFEVTSEL[15:8] */
	uint8_t cmask;	 /* counter mask, PERFEVTSEL[31:24] */
	bool edge;	 /* edge detect, PERFEVTSEL[18] */
	bool inv;	 /* invert the counter-mask comparison, PERFEVTSEL[23] */
	bool any;	 /* AnyThread, PERFEVTSEL[21] */
	bool usr;	 /* count at CPL 1-3, PERFEVTSEL[16] (perf's :u) */
	bool os;	 /* count at CPL 0, PERFEVTSEL[17] (perf's :k) */
	bool pinned;	 /* perf's :D: scheduled before every flexible group, never rotated out */
	uint8_t precise; /* perf's :p, :pp, :ppp (:P the most): for sampling; counting ignores it */
	uint16_t group;	 /* groups are numbered from 0 in list order; {a,b} share one number */
	char name[PMU_EVENT_NAME_MAX]; /* as the user wrote it, e.g. "r20cc:u" */
};

/* Event select and unit mask as one number, 0xUUEE, the way perf's rUUEE and the thesis write it. */
static inline uint16_t pmu_event_code(const struct pmu_event *e)
{
	return (uint16_t)((unsigned)e->umask << 8 | e->event);
}

/* Whether an event corrupts the sibling's counter is the microarchitecture's business:
 * uarch_event_corrupting() (pmu/uarch.h). */

#endif
