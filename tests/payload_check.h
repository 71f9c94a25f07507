/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload's keys checked against the machine, before the boot record (the check of its
 * cmdline_table, kernel/cmdline.h): every part of an event list (ht0=, ht1=) against this CPU's
 * tables and counters, the workload and experiment names, and the tick against the run's length.
 * A part that is not taken is named in a warning and left out of the settings, so that the boot
 * record's configuration shows exactly what is taken; a bad name gives way to the default.
 *
 * Pure code (host-tested and fuzzed): the machine and the names come as arguments.
 */
#ifndef TESTS_PAYLOAD_CHECK_H
#define TESTS_PAYLOAD_CHECK_H

#include "kernel/cmdline.h"
#include "pmu/enumerate.h"
#include "pmu/uarch.h"
#include "tests/lib/payload_config.h"

/* What the check needs to know of the machine and of the payload. */
struct payload_machine {
	const struct uarch *uarch;
	const struct pmu_geometry *geometry;
	const char *const *workloads;	/* what work0=, work1=, survey_work= take; NULL ends it */
	const char *const *experiments; /* what exp= takes besides all, none and custom */
};

/* What an event list accepts, as its warnings say. */
#define PAYLOAD_EVENTS_ACCEPTED                                                                    \
	"event names (branches, MEM_UOPS_RETIRED.ALL_LOADS), raw codes (r81d0), "                  \
	"cpu/event=0xd0,umask=0x81/, {groups}, modifiers :u :k :D"

/* The check of config against m: warnings (at most max) and how many there were. */
unsigned payload_check(struct payload_config *config, const struct payload_machine *m,
		       struct cmdline_warning *warnings, unsigned max);

/* The length of the part of an event list at text: up to the first comma outside braces and
 * outside a cpu/.../ term list. */
size_t payload_list_part(const char *text);

#endif
