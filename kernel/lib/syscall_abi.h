/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system calls of ring-3 workloads: SYSCALL with the number in RAX and the arguments in RDI,
 * RSI, RDX; the result comes back in RAX. RCX and R11 are lost (SYSCALL keeps RIP and RFLAGS
 * there), every other register is kept. Shared by the kernel and the workloads.
 */
#ifndef KERNEL_LIB_SYSCALL_ABI_H
#define KERNEL_LIB_SYSCALL_ABI_H

enum syscall_number {
	SYS_EXIT = 0, /* (result): leave ring 3; user_call() returns result */
	SYS_HALT = 2, /* (): HLT until the next interrupt; SYSCALL_REFUSED at once when no
			      * timer is armed to bring one */
	SYS_COUNT
};

/* What a system call that comes back gives in RAX: a status, never a negative number. */
enum syscall_status {
	SYSCALL_DONE = 0,    /* it did what was asked */
	SYSCALL_REFUSED = 1, /* it could not (its comment above says when) */
	SYSCALL_UNKNOWN = 2, /* no system call has that number */
};

#endif
