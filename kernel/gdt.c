// SPDX-License-Identifier: GPL-2.0
/*
 * GDT and TSS per CPU. Descriptor formats: SDM vol. 3A, 3.4.5 (segment descriptors), 7.2.3
 * (TSS descriptor in 64-bit mode, 16 bytes), 6.14.5 (interrupt stack table).
 */
#include <string.h>

#include "kernel/gdt.h"

/* Code/data descriptors: base and limit are ignored in 64-bit mode except for the flags. */
#define DESC_PRESENT (1ull << 47)
#define DESC_DPL3 (3ull << 45)
#define DESC_CODE_DATA (1ull << 44) /* S: not a system segment */
#define DESC_EXECUTABLE (1ull << 43)
#define DESC_RW (1ull << 41)   /* readable code / writable data */
#define DESC_LONG (1ull << 53) /* L: 64-bit code */
#define DESC_GRANULARITY (1ull << 55)
#define DESC_LIMIT_MAX (0xffffull | (0xfull << 48))

#define KERNEL_CODE (DESC_PRESENT | DESC_CODE_DATA | DESC_EXECUTABLE | DESC_RW | DESC_LONG)
#define KERNEL_DATA (DESC_PRESENT | DESC_CODE_DATA | DESC_RW | DESC_GRANULARITY | DESC_LIMIT_MAX)
#define USER_CODE (KERNEL_CODE | DESC_DPL3)
#define USER_DATA (KERNEL_DATA | DESC_DPL3)

#define TSS_TYPE_AVAILABLE (0x9ull << 40)

void gdt_load(struct cpu_tables *t, uint64_t stack_top, const uint64_t ist_tops[3])
{
	memset(t, 0, sizeof(*t));
	t->gdt[GDT_KERNEL_CS >> 3] = KERNEL_CODE;
	t->gdt[GDT_KERNEL_DS >> 3] = KERNEL_DATA;
	t->gdt[GDT_USER_DS >> 3] = USER_DATA;
	t->gdt[GDT_USER_CS >> 3] = USER_CODE;

	t->tss.rsp[0] = stack_top;
	t->tss.ist[IST_DOUBLE_FAULT - 1] = ist_tops[0];
	t->tss.ist[IST_NMI - 1] = ist_tops[1];
	t->tss.ist[IST_MACHINE_CHECK - 1] = ist_tops[2];
	t->tss.iomap_base = sizeof(t->tss); /* no I/O permission bitmap: CPL 3 gets no ports */

	uint64_t base = (uint64_t)(uintptr_t)&t->tss;
	uint64_t limit = sizeof(t->tss) - 1;
	t->gdt[GDT_TSS >> 3] = (limit & 0xffff) | ((base & 0xffffff) << 16) | TSS_TYPE_AVAILABLE |
			       DESC_PRESENT | ((limit >> 16 & 0xf) << 48) |
			       ((base >> 24 & 0xff) << 56);
	t->gdt[(GDT_TSS >> 3) + 1] = base >> 32;

	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) pointer = { sizeof(t->gdt) - 1, (uint64_t)(uintptr_t)t->gdt };

	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movl %2, %%eax\n\t"
			 "movl %%eax, %%ds\n\t"
			 "movl %%eax, %%es\n\t"
			 "movl %%eax, %%ss\n\t"
			 "ltr %w3"
			 :
			 : "m"(pointer), "i"(GDT_KERNEL_CS), "i"(GDT_KERNEL_DS), "r"(GDT_TSS)
			 : "rax", "memory");
}
