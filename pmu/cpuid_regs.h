/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What CPUID returns: the register type shared by the kernel (kernel/cpu.h) and the pure decoders
 * that take CPUID values as input (pmu/enumerate.h).
 */
#ifndef PMU_CPUID_REGS_H
#define PMU_CPUID_REGS_H

#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

#endif
