// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU data through IA32_GS_BASE (SDM vol. 3A, 3.4.4.1), ring 3's GS base kept in
 * IA32_KERNEL_GS_BASE while the kernel runs (kernel/percpu.h).
 */
#include <stddef.h>

#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"

#define IA32_GS_BASE 0xc0000101
#define IA32_KERNEL_GS_BASE 0xc0000102

struct percpu percpu[MAX_CPUS];
unsigned percpu_count = 1;

void percpu_install(struct percpu *p)
{
	p->self = p;
	wrmsr(IA32_GS_BASE, (uint64_t)(uintptr_t)p);
	wrmsr(IA32_KERNEL_GS_BASE, 0);
}

uint32_t this_cpu_index(void)
{
	uint32_t index;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(index) : "i"(offsetof(struct percpu, index)));
	return index;
}
