/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which vector state the kernel turns on for the ring-3 workloads, decided from CPUID alone
 * before any control register is written (kernel/fpu.c writes them).
 *
 * SSE is architectural in 64-bit mode and needs only CR4.OSFXSR. AVX needs the XSAVE feature set:
 * CR4.OSXSAVE, then XCR0 with x87, SSE and AVX state (SDM vol. 1, 13.3 and 14.3). The kernel never
 * executes XSAVE itself, so it sets CR4.OSXSAVE only to use AVX, and only where that write is known
 * to be safe.
 *
 * Pure code (host-tested, tests/host/test_fpu_plan.c).
 */
#ifndef KERNEL_FPU_PLAN_H
#define KERNEL_FPU_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/cpuid_regs.h"

/* The CPUID leaves the decision reads. */
struct fpu_cpuid {
	uint32_t max_leaf;    /* CPUID.0:EAX */
	struct cpuid_regs l1; /* CPUID.1 */
	struct cpuid_regs d0; /* CPUID.(EAX=0DH,ECX=0): XCR0 bits the CPU supports in EAX */
	struct cpuid_regs d1; /* CPUID.(EAX=0DH,ECX=1): XSAVEOPT, XSAVEC, XGETBV1, XSAVES in EAX */
};

struct fpu_plan {
	bool osxsave;	     /* set CR4.OSXSAVE and load xcr0 */
	uint64_t xcr0;	     /* x87 | SSE | AVX when osxsave */
	bool avx;	     /* AVX usable at CPL 3 once the plan is applied */
	const char *skipped; /* the CPU has AVX but the kernel leaves it off: why; else NULL */
};

#define XCR0_X87 (1ull << 0)
#define XCR0_SSE (1ull << 1)
#define XCR0_AVX (1ull << 2)

struct fpu_plan fpu_plan_choose(const struct fpu_cpuid *c);

#endif
