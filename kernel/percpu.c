// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU data through IA32_GS_BASE (SDM vol. 3A, 3.4.4.1).
 */
#include <stddef.h>

#include "kernel/cpu.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"

#define IA32_GS_BASE 0xc0000101

struct percpu percpu[MAX_CPUS];
unsigned percpu_count = 1;

void percpu_install(struct percpu *p)
{
	p->self = p;
	wrmsr(IA32_GS_BASE, (uint64_t)(uintptr_t)p);
}

uint32_t this_cpu_index(void)
{
	uint32_t index;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(index) : "i"(offsetof(struct percpu, index)));
	return index;
}
