/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls from ring 3 (kernel/lib/syscall_abi.h) through SYSCALL and SYSRET.
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include <stdbool.h>
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

/*
 * A look at every system call before its handler (NULL: none): true when it took the call, and
 * then the frame is what returns to ring 3 (a bundle's code that made a SYSCALL ends there:
 * tests/owncode/bench_exec.h). One at a time.
 */
typedef bool (*syscall_filter)(struct trap_frame *frame);
void syscall_set_filter(syscall_filter filter);

/*
 * SYSCALL on this CPU (IA32_EFER.SCE): off while code that is not the kernel's runs at CPL 0,
 * where a SYSCALL would enter as if from CPL 3 (kernel/syscall.c) and now raises #UD (SDM vol. 2B,
 * SYSCALL); on again after it. syscall_cpu_init() leaves it on.
 */
void syscall_allow(bool on);

/* The entry (kernel/syscall_entry.asm), IA32_LSTAR's value; selftest=syscall-cpl3 jumps to it from
 * ring 3, as a SYSCALL that did not leave CPL 3 does. */
void syscall_entry(void);

#endif
