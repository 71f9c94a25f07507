/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exceptions and interrupts: the IDT, the frame every entry stub builds, handler registration and
 * the exception report that ends the boot instead of a triple fault.
 */
#ifndef KERNEL_TRAP_H
#define KERNEL_TRAP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/trap_frame.h"

typedef void (*trap_handler)(struct trap_frame *frame);

#define VECTOR_NMI 2
#define VECTOR_BREAKPOINT 3
#define VECTOR_INVALID_OPCODE 6
#define VECTOR_DOUBLE_FAULT 8
#define VECTOR_GENERAL_PROTECTION 13
#define VECTOR_PAGE_FAULT 14
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

/*
 * A fixup for #UD and #GP that faulted by design, and for a #PF taken at CPL 3: it answers the
 * instruction (moving frame->rip past it) and returns true, or returns false to let the fault
 * stand. For #UD and #GP the exception table (kernel/extable.h) is always consulted first; RDPMC
 * at CPL 3 under the model registers one (kernel/user_rdpmc.h), a SYSCALL that a hypervisor left
 * at CPL 3 another (kernel/syscall.c). At most TRAP_MAX_FIXUPS; registering one twice keeps one.
 */
typedef bool (*trap_fixup)(struct trap_frame *frame);
#define TRAP_MAX_FIXUPS 4
void trap_add_fixup(trap_fixup fixup);

/*
 * What ends the boot after an exception nobody handles: kmain registers kernel/end.h's, so that
 * the trap code below it never calls up into it. Before it is set, a fatal exception halts.
 */
typedef void (*trap_fatal)(const char *reason);
void trap_set_fatal(trap_fatal fatal);

/* Report an exception or interrupt nobody handles and end the boot (verdict fail). */
__attribute__((noreturn)) void trap_report_unexpected(struct trap_frame *frame);

/* Mask the legacy 8259 PICs, remapped out of the exception vectors. */
void pic_disable(void);

#endif
