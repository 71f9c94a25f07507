/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Segments: a GDT and a 64-bit TSS per CPU (SDM vol. 3A, 3.4.5 and 8.7). The selector order suits
 * SYSCALL/SYSRET too: user data right below user code.
 */
#ifndef KERNEL_GDT_H
#define KERNEL_GDT_H

#include <stdint.h>

#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_USER_DS (0x18 | 3)
#define GDT_USER_CS (0x20 | 3)
#define GDT_TSS 0x28
#define GDT_ENTRIES 7 /* null, kernel code/data, user data/code, TSS (two slots) */

/* Interrupt stack table slots (1-based, as the IDT gate's IST field). */
#define IST_DOUBLE_FAULT 1
#define IST_NMI 2
#define IST_MACHINE_CHECK 3

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct cpu_tables {
	uint64_t gdt[GDT_ENTRIES];
	struct tss64 tss;
} __attribute__((aligned(16)));

/*
 * Fill and load this CPU's GDT and TSS: stack_top is RSP0 (the stack used when an interrupt
 * arrives at CPL 3), ist_tops[0..2] the tops of the #DF, NMI and #MC stacks.
 */
void gdt_load(struct cpu_tables *t, uint64_t stack_top, const uint64_t ist_tops[3]);

#endif
