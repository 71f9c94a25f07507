/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls from ring 3 (kernel/lib/syscall_abi.h) through SYSCALL and SYSRET.
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include <stdint.h>

#include "kernel/lib/syscall_abi.h"
#include "kernel/trap.h"

/* A handler gets the frame the entry built, as an interrupt's handler does; its status goes
 * back in RAX. */
typedef enum syscall_status (*syscall_handler)(struct trap_frame *frame, uint64_t a0, uint64_t a1,
					       uint64_t a2);

/*
 * Program this CPU's SYSCALL MSRs: IA32_EFER.SCE, IA32_STAR (from the GDT's selectors),
 * IA32_LSTAR (kernel/syscall_entry.asm), IA32_FMASK. Every CPU that runs ring-3 code calls it;
 * NULL, or why the CPU refused.
 */
const char *syscall_cpu_init(void);

void syscall_register(unsigned number, syscall_handler handler);

/* The entry (kernel/syscall_entry.asm), IA32_LSTAR's value; selftest=syscall-cpl3 jumps to it from
 * ring 3, as a SYSCALL that did not leave CPL 3 does. */
void syscall_entry(void);

#endif
