// SPDX-License-Identifier: GPL-2.0
/*
 * CR0.EM off and CR0.MP on (no x87 emulation, WAIT honours TS), CR4.OSFXSR and OSXMMEXCPT (the OS
 * supports FXSAVE and SIMD exceptions), and with XSAVE, CR4.OSXSAVE and XCR0 = x87 | SSE | AVX.
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
#define XCR0_X87 (1ull << 0)
#define XCR0_SSE (1ull << 1)
#define XCR0_AVX (1ull << 2)

static void xsetbv(uint32_t index, uint64_t value)
{
	__asm__ volatile("xsetbv" ::"c"(index), "a"((uint32_t)value), "d"((uint32_t)(value >> 32)));
}

bool fpu_enable(void)
{
	struct cpuid_regs leaf1 = cpuid(1, 0);
	bool xsave = (leaf1.ecx >> 26) & 1, avx = false;

	/* SSE2 is architectural in 64-bit mode: only XSAVE and AVX need asking for. */
	write_cr0((read_cr0() & ~(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	if (xsave) {
		write_cr4(read_cr4() | CR4_OSXSAVE);
		uint64_t supported = cpuid(0xd, 0).eax;
		uint64_t xcr0 = XCR0_X87 | XCR0_SSE;
		avx = ((leaf1.ecx >> 28) & 1) && (supported & XCR0_AVX);
		if (avx)
			xcr0 |= XCR0_AVX;
		xsetbv(0, xcr0 & (supported | XCR0_X87));
	}
	__asm__ volatile("fninit");
	return avx;
}
