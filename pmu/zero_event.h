/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An event that never occurs on a thread of this kernel, per microarchitecture.
 *
 * Whatever a counter selecting it reads came from somewhere else: on a part with the
 * BJ122/BV98/HSD29 erratum, from a corrupting event on the sibling's counter of the same index
 * (thesis 4.2: the "really zero" LBR inserts read 137,641,709). So it is what the leak catcher of
 * xsu=core counts (pmu/xsu_core.c), and what a survey of the leak puts on the sibling counter.
 * Each microarchitecture names its own (struct uarch .zero_event, in pmu/uarch_tables.c with the
 * reason it is zero).
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_ZERO_EVENT_H
#define PMU_ZERO_EVENT_H

#include <stddef.h>

#include "pmu/event.h"
#include "pmu/uarch.h"

/*
 * The never-occurring event of u, counted at every privilege level (a leak arrives whatever the
 * sibling runs), or NULL when u has none (the generic architectural PMU: its events all occur).
 */
static inline const struct pmu_event *uarch_zero_event(const struct uarch *u)
{
	return u ? u->zero_event : NULL;
}

#endif
