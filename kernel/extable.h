/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exception fixups: an instruction that may fault (RDMSR of an MSR the CPU lacks, RDPMC under a
 * hypervisor without a PMU) is listed with a continuation address; the trap handler resumes
 * there instead of reporting the exception. Entries live in the .extable section.
 */
#ifndef KERNEL_EXTABLE_H
#define KERNEL_EXTABLE_H

#include <stdbool.h>
#include <stdint.h>

struct extable_entry {
	uint64_t instruction;
	uint64_t continuation;
};

/* Emits an entry: if the instruction at label `from` faults, continue at label `to`. */
#define EXTABLE_ENTRY(from, to)                                                                    \
	".pushsection .extable, \"a\"\n\t.balign 8\n\t.quad " #from ", " #to "\n\t.popsection\n\t"

struct trap_frame;

/* True (and frame->rip moved) when the faulting instruction has a fixup. */
bool extable_fixup(struct trap_frame *frame);

#endif
