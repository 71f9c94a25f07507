/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exceptions and interrupts: the IDT, the frame every entry stub builds, handler registration and
 * the exception report that ends a run instead of a triple fault.
 */
#ifndef KERNEL_TRAP_H
#define KERNEL_TRAP_H

#include <stdint.h>

/* As kernel/isr.asm leaves it on the stack, lowest address first. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

typedef void (*trap_handler)(struct trap_frame *frame);

#define VECTOR_NMI 2
#define VECTOR_INVALID_OPCODE 6
#define VECTOR_DOUBLE_FAULT 8
#define VECTOR_GENERAL_PROTECTION 13
#define VECTOR_MACHINE_CHECK 18
/* The 8259 PICs are remapped to 0x20-0x2f and masked; IRQ 7 and 15 can still be spurious. */
#define VECTOR_PIC_BASE 0x20
#define VECTOR_SPURIOUS_APIC 0xff

/* Build the IDT (once, on the boot CPU) and load it (on every CPU). */
void idt_init(void);
void idt_load(void);

/* Route a vector to a handler; dpl3 lets `int vector` reach it from CPL 3. */
void trap_register(uint8_t vector, trap_handler handler, int dpl3);

/* Called by the entry stubs. */
void trap_dispatch(struct trap_frame *frame);

/* Report an exception or interrupt nobody handles and end the run (verdict fail). */
__attribute__((noreturn)) void trap_report_unexpected(struct trap_frame *frame);

/* Mask the legacy 8259 PICs, remapped out of the exception vectors. */
void pic_disable(void);

#endif
