/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MSR and RDPMC access that survives a CPU or hypervisor without the register: a #GP or #UD on the
 * instruction is caught through the exception fixup table (kernel/extable.h) and reported as a
 * false return. Note that QEMU's TCG returns 0 for unknown MSRs instead of faulting, so presence
 * is never decided from a successful read (QEMU 7.2, target/i386/tcg/sysemu/misc_helper.c,
 * helper_rdmsr).
 */
#ifndef KERNEL_MSR_H
#define KERNEL_MSR_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/extable.h"

static inline bool rdmsr_safe(uint32_t msr, uint64_t *value)
{
	uint32_t lo = 0, hi = 0, ok;

	__asm__ volatile("movl $0, %[ok]\n"
			 "1: rdmsr\n\t"
			 "movl $1, %[ok]\n"
			 "2:\n\t" EXTABLE_ENTRY(1b, 2b)
			 : [ok] "=&r"(ok), "+a"(lo), "+d"(hi)
			 : "c"(msr));
	*value = ok ? (uint64_t)hi << 32 | lo : 0;
	return ok;
}

/* WRMSR of an MSR that may not exist or may refuse the value (a reserved bit): false on #GP. */
static inline bool wrmsr_safe(uint32_t msr, uint64_t value)
{
	uint32_t ok;

	__asm__ volatile("movl $0, %[ok]\n"
			 "1: wrmsr\n\t"
			 "movl $1, %[ok]\n"
			 "2:\n\t" EXTABLE_ENTRY(1b, 2b)
			 : [ok] "=&r"(ok)
			 : "c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
			 : "memory");
	return ok;
}

/* RDPMC: ECX = counter index, with bit 30 set for a fixed-function counter (SDM vol. 2B). */
static inline bool rdpmc_safe(uint32_t counter, uint64_t *value)
{
	uint32_t lo = 0, hi = 0, ok;

	__asm__ volatile("movl $0, %[ok]\n"
			 "1: rdpmc\n\t"
			 "movl $1, %[ok]\n"
			 "2:\n\t" EXTABLE_ENTRY(1b, 2b)
			 : [ok] "=&r"(ok), "+a"(lo), "+d"(hi)
			 : "c"(counter));
	*value = ok ? (uint64_t)hi << 32 | lo : 0;
	return ok;
}

#endif
