// SPDX-License-Identifier: GPL-2.0
/*
 * CR0.EM off and CR0.MP on (no x87 emulation, WAIT honours TS), CR4.OSFXSR and OSXMMEXCPT (the OS
 * supports FXSAVE and SIMD exceptions), and where the plan says so (kernel/fpu_plan.c),
 * CR4.OSXSAVE and XCR0 = x87 | SSE | AVX.
 */
#include "kernel/cpu.h"
#include "kernel/fpu.h"

#define CR0_MP (1ull << 1)
#define CR0_EM (1ull << 2)
#define CR0_TS (1ull << 3)
#define CR0_NE (1ull << 5)
#define CR4_OSFXSR (1ull << 9)
#define CR4_OSXMMEXCPT (1ull << 10)
#define CR4_OSXSAVE (1ull << 18)

static void xsetbv(uint32_t index, uint64_t value)
{
	__asm__ volatile("xsetbv" ::"c"(index), "a"((uint32_t)value), "d"((uint32_t)(value >> 32)));
}

struct fpu_plan fpu_plan_this_cpu(void)
{
	struct fpu_cpuid c = { .max_leaf = cpuid(0, 0).eax, .l1 = cpuid(1, 0) };

	if (c.max_leaf >= 0xd) {
		c.d0 = cpuid(0xd, 0);
		c.d1 = cpuid(0xd, 1);
	}
	return fpu_plan_choose(&c);
}

void fpu_enable(const struct fpu_plan *plan)
{
	/* SSE2 is architectural in 64-bit mode: only XSAVE and AVX need asking for. */
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	if (plan->osxsave) {
		write_cr4(read_cr4() | CR4_OSXSAVE);
		xsetbv(0, plan->xcr0);
	}
	__asm__ volatile("fninit");
}
