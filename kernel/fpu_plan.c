// SPDX-License-Identifier: GPL-2.0
/*
 * The vector-state decision: AVX through XSAVE where the CPU offers it and enabling it cannot
 * hang the machine; SSE alone otherwise.
 */
#include "kernel/fpu_plan.h"

#define CPUID_1_ECX_XSAVE (1u << 26)
#define CPUID_1_ECX_AVX (1u << 28)
#define CPUID_1_ECX_HYPERVISOR (1u << 31)
#define XCR0_AVX_STATE (XCR0_X87 | XCR0_SSE | XCR0_AVX)

struct fpu_plan fpu_plan_choose(const struct fpu_cpuid *c)
{
	struct fpu_plan plan = { 0 };

	/*
	 * AVX needs XSAVE, leaf 0x0D, and x87, SSE and AVX state among the XCR0 bits the CPU
	 * supports (SDM vol. 1, 14.3; Linux fpu__init_system_xstate() gives XSAVE up in the same
	 * cases). Without AVX there is nothing to gain from CR4.OSXSAVE.
	 */
	if (!(c->l1.ecx & CPUID_1_ECX_AVX) || !(c->l1.ecx & CPUID_1_ECX_XSAVE) ||
	    c->max_leaf < 0xd || (c->d0.eax & XCR0_AVX_STATE) != XCR0_AVX_STATE)
		return plan;
	/*
	 * QEMU's TCG (seen with 7.2: target/i386 cr4_reserved_bits()) takes CR4.OSXSAVE for a
	 * reserved bit unless CPUID.(EAX=0DH,ECX=1):EAX is non-zero, i.e. unless one of XSAVEOPT,
	 * XSAVEC, XGETBV1 or XSAVES is offered (its Opteron_G4/G5 models offer XSAVE and AVX
	 * without them). It answers the write with an SVM VMEXIT even outside a guest, which
	 * re-executes the MOV to CR4 for ever with the global interrupt flag clear: no interrupt,
	 * NMI or watchdog can end it. Real CPUs with AVX but none of those (AMD family 15h) take
	 * the write, so the rule applies only under a hypervisor.
	 */
	if ((c->l1.ecx & CPUID_1_ECX_HYPERVISOR) && c->d1.eax == 0) {
		plan.skipped = "AVX stays off: the CPU offers XSAVE without XSAVEOPT, XSAVEC, "
			       "XGETBV1 or XSAVES under a hypervisor, where QEMU's TCG hangs on "
			       "setting CR4.OSXSAVE; the workloads use SSE";
		return plan;
	}
	plan.osxsave = true;
	plan.xcr0 = XCR0_AVX_STATE;
	plan.avx = true;
	return plan;
}
