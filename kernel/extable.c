// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up exception fixups (kernel/extable.h). The table is small (a handful of MSR and RDPMC
 * sites), so a linear search is enough.
 */
#include "kernel/extable.h"
#include "kernel/trap_frame.h"

extern const struct extable_entry __extable_start[], __extable_end[];

bool extable_fixup(struct trap_frame *frame)
{
	for (const struct extable_entry *e = __extable_start; e < __extable_end; e++) {
		if (e->instruction == frame->rip) {
			frame->rip = e->continuation;
			return true;
		}
	}
	return false;
}
