/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls from ring 3 (kernel/syscall_abi.h).
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include <stdint.h>

#include "kernel/syscall_abi.h"
#include "kernel/trap.h"

typedef int64_t (*syscall_handler)(struct trap_frame *frame, uint64_t a0, uint64_t a1, uint64_t a2);

void syscall_init(void);
void syscall_register(unsigned number, syscall_handler handler);

#endif
