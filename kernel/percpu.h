/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU data, reached through the GS base (IA32_GS_BASE). Workloads at CPL 3 never load GS, so
 * the base stays put and the kernel needs no SWAPGS on entry.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stdint.h>

#include "kernel/gdt.h"

#define MAX_CPUS 64

/* Stack sizes: the normal kernel stack and the IST stacks of #DF, NMI and #MC (kernel/gdt.c). */
#define KERNEL_STACK_SIZE (16 * 1024)
#define IST_STACK_SIZE (8 * 1024)

struct percpu {
	struct percpu *self; /* first: this_cpu() reads %gs:0 */
	uint32_t index;	     /* 0 is the boot CPU */
	uint32_t apic_id;
	uint64_t stack_top;	  /* kernel stack (TSS RSP0 for entries from CPL 3) */
	uint32_t exception_depth; /* nested exceptions while reporting one */
	uint32_t reserved;
	struct cpu_tables tables; /* GDT and TSS */
};

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

/* The boot CPU's per-CPU data, usable before anything is allocated. */
extern struct percpu percpu_boot;

/* Make p this CPU's per-CPU data (writes IA32_GS_BASE). */
void percpu_install(struct percpu *p);

#endif
