/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupt vectors the kernel uses. Higher vectors have higher priority (SDM vol. 3A, 10.8.3);
 * all sit above the exceptions and the remapped 8259 range (0x20-0x2f).
 */
#ifndef KERNEL_VECTORS_H
#define KERNEL_VECTORS_H

#define VECTOR_TICK 0xe0     /* the APIC timer: the multiplexing tick (kernel/tick.c) */
#define VECTOR_TICK_IPI 0xe1 /* IPI: a tick another CPU raises (kernel/tick.c, tick_send) */
#define VECTOR_WAKE 0xf0     /* IPI: work is waiting for an idle AP (kernel/smp.c) */
/* VECTOR_SPURIOUS_APIC 0xff is in kernel/trap.h. System calls use SYSCALL, no vector
 * (kernel/syscall.c). */

#endif
