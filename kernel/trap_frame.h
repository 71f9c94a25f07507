/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame every interrupt and exception entry stub builds (kernel/isr.asm), and the SYSCALL entry
 * too (kernel/syscall_entry.asm), apart from the trap code, so that what reads or moves a frame (the exception table, the system calls, the RDPMC
 * emulation) depends on its layout only.
 */
#ifndef KERNEL_TRAP_FRAME_H
#define KERNEL_TRAP_FRAME_H

#include <stdint.h>

/* A system call's frame (kernel/syscall_entry.asm): no IDT vector, kernel/layout.inc's number. */
#define SYSCALL_FRAME_VECTOR 0x100

/* As kernel/isr.asm and kernel/syscall_entry.asm leave it on the stack, lowest address first. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code; /* vector: SYSCALL_FRAME_VECTOR for a system call's frame */
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

#endif
