/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring 3: workloads run at CPL 3 so that events counted with `:u`, as the thesis measures,
 * exclude the kernel's own tick handler.
 */
#ifndef KERNEL_USER_H
#define KERNEL_USER_H

#include <stdint.h>

/*
 * Run entry(arg0, arg1) at CPL 3 on the given user stack, with interrupts enabled (the tick must
 * reach the workload), until it makes the exit system call; returns the value passed to it. The
 * code must lie on user pages (the .user sections, or memory given to paging_allow_user()).
 */
uint64_t user_call(uint64_t entry, uint64_t arg0, uint64_t arg1, uint64_t user_stack_top);

/* From the handler of an exception taken at CPL 3 inside user_call(): abandon the ring-3 code
 * there and then; user_call() returns result. */
__attribute__((noreturn)) void user_call_abort(uint64_t result);

/* A user stack of size bytes (with a guard page below); returns its top or 0. */
uint64_t user_stack_alloc(uint64_t size);

/* Zeroed memory that CPL 3 may use (workload parameters, arrays); its address, or 0. */
uint64_t user_memory_alloc(uint64_t bytes);

/* Make the workloads' code and data (the .user sections) reachable from CPL 3. */
void user_init(void);

/*
 * This CPU's part of ring 3: CR0.AM, so that code at CPL 3 that sets EFLAGS.AC gets #AC for an
 * unaligned access, as under Linux (SDM vol. 3A, 2.5 and 6.15, interrupt 17). The kernel's own
 * ring-3 code never sets AC; code of your own may (tests/owncode), and its #AC ends its bundle.
 */
void user_cpu_init(void);

#endif
