// SPDX-License-Identifier: GPL-2.0
/*
 * schedsim --list: the named events of one microarchitecture with their static constraints, laid
 * out as the thesis's simulator lists them (7.2: CODE | CONSTRAINTS | NAME).
 */
#include <stdio.h>
#include <string.h>

#include "pmu/event_names.h"
#include "tools/src/schedsim/schedsim.h"

int list_events(const struct uarch *u, unsigned gp, unsigned fixed)
{
	sim_print_processor(u, gp, fixed);
	printf("---------------------------------------------------------------\n");
	printf("%-14s # %-14s # %s\n", "CODE", "CONSTRAINTS", "NAME");
	for (const struct event_name *n = event_names; n->name; n++) {
		struct pmu_event e;
		struct constraint c;

		if (!event_name_on(n, u))
			continue;
		memset(&e, 0, sizeof(e));
		event_name_to_event(n, &e);
		e.usr = e.os = true;
		c = uarch_constraint(u, &e, gp, fixed);
		printf("0x%012llx | 0x%012llx | %s%s\n", sim_event_code(&e),
		       (unsigned long long)c.mask, n->name, c.corrupting ? " (corrupting)" : "");
	}
	return 0;
}
