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

/* An instruction that reads EDX:EAX for the index in ECX and may fault (RDMSR, RDPMC): true and
 * the value, or false and 0. */
#define READ_EDX_EAX_SAFE(insn, index, value)                                                      \
	({                                                                                         \
		uint32_t lo_ = 0, hi_ = 0, ok_;                                                    \
		__asm__ volatile("movl $0, %[ok]\n"                                                \
				 "1: " insn "\n\t"                                                 \
				 "movl $1, %[ok]\n"                                                \
				 "2:\n\t" EXTABLE_ENTRY(1b, 2b)                                    \
				 : [ok] "=&r"(ok_), "+a"(lo_), "+d"(hi_)                           \
				 : "c"(index));                                                    \
		*(value) = ok_ ? (uint64_t)hi_ << 32 | lo_ : 0;                                    \
		ok_ != 0;                                                                          \
	})

static inline bool rdmsr_safe(uint32_t msr, uint64_t *value)
{
	return READ_EDX_EAX_SAFE("rdmsr", msr, value);
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
	return READ_EDX_EAX_SAFE("rdpmc", counter, value);
}

#endif
