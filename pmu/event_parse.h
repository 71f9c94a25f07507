/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing event lists as users type them to perf stat -e, schedsim -e and the kernel command
 * line:
 *
 *   list     := item { ',' item }
 *   item     := event | '{' event { ',' event } '}' [ ':' modifiers ]
 *   event    := raw | pmu | symbolic, each followed by [ ':' modifiers ]
 *   raw      := 'r' hex digits: the PERFEVTSEL selection bits, 0xUUEE plus edge (bit 18),
 *               any (21), inv (23) and cmask (31:24), e.g. r81d0, r1570148 (USR, OS, INT and
 *               EN may be present and are ignored, as perf does; pin control and bits above
 *               31 are refused)
 *   pmu      := 'cpu/' term { ',' term } '/' [ modifiers ]
 *   term     := event=N | umask=N | cmask=N | config=N | inv[=N] | edge[=N] | any[=N]
 *   symbolic := a name of pmu/event_names.h for the microarchitecture: Intel's (UOPS_ISSUED.ANY),
 *               in any case and with ':' or '.' (uops_issued.any, UOPS_ISSUED:ANY), perf's
 *               (branch-misses, L1-dcache-loads), libpfm4's few (L1D_PEND_MISS:OCCURRENCES)
 *   modifiers:= ':'-separated: letters u (count at user level), k (kernel level), D (pinned),
 *               both levels when neither u nor k is given; and, on an event, the PERFEVTSEL
 *               filters over the name's own: cmask=N, inv[=0|1], edge[=0|1]
 *               (UOPS_ISSUED.ANY:u:cmask=1:inv); a group's letters apply to its members
 *
 * Every event of a group gets the group's number; a lone event is a group of its own. Pinned is
 * a property of a whole group, so D is only accepted on a lone event or after a group's '}'.
 *
 * A bad list is refused with a message naming the bad part and its place in the text.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_EVENT_PARSE_H
#define PMU_EVENT_PARSE_H

#include "pmu/event.h"
#include "pmu/uarch.h"

/* Room for an unknown unit mask's message, which lists the event's unit masks. */
#define EVENT_PARSE_MESSAGE_MAX 512

struct event_parse_error {
	unsigned offset; /* where the bad part starts in the text */
	unsigned length; /* how long it is (0 at the end of the text) */
	char message[EVENT_PARSE_MESSAGE_MAX];
};

/*
 * Parse text into events[0..max-1], resolving names for microarchitecture u (NULL: only names
 * common to all), their number into *count. False, with *error filled in (and *count 0), when the
 * list is bad.
 */
bool event_parse_list(const char *text, const struct uarch *u, struct pmu_event *events,
		      unsigned max, unsigned *count, struct event_parse_error *error);

#endif
