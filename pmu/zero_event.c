// SPDX-License-Identifier: GPL-2.0
/*
 * The never-occurring event of each microarchitecture (see pmu/zero_event.h), as data.
 */
#include <stddef.h>

#include "pmu/zero_event.h"

struct zero_event {
	enum uarch_id uarch;
	struct pmu_event event;
};

/*
 * ROB_MISC_EVENTS.LBR_INSERTS (event 0xCC, unit mask 0x20): "cases of saving new LBR records by
 * hardware". It counts only while the last branch record is on (IA32_DEBUGCTL.LBR, Intel SDM
 * vol. 3B, 17.4.1), and this kernel never turns it on: it writes IA32_DEBUGCTL nowhere. Intel's
 * event data gives it the same encoding on Sandy Bridge (and Jaketown), Ivy Bridge (Ivytown),
 * Haswell (Haswell-X), Broadwell and Skylake, on any of the counters 0-3, the counters the
 * erratum concerns; the thesis uses it as its zero event (4.2, 7.1).
 */
#define LBR_INSERTS                                                                                \
	{                                                                                          \
		.event = 0xcc, .umask = 0x20, .usr = true, .os = true, .name = "r20cc"             \
	}

static const struct zero_event zero_events[] = {
	{ UARCH_SANDYBRIDGE, LBR_INSERTS }, { UARCH_IVYBRIDGE, LBR_INSERTS },
	{ UARCH_HASWELL, LBR_INSERTS },	    { UARCH_BROADWELL, LBR_INSERTS },
	{ UARCH_SKYLAKE, LBR_INSERTS },
};

const struct pmu_event *uarch_zero_event(const struct uarch *u)
{
	for (size_t i = 0; u && i < sizeof(zero_events) / sizeof(zero_events[0]); i++)
		if (zero_events[i].uarch == u->id)
			return &zero_events[i].event;
	return NULL;
}
