// SPDX-License-Identifier: GPL-2.0
/*
 * The real MSR backend (see pmu/backend_hw.h): the instructions themselves.
 */
#include <stddef.h>

#include "pmu/backend_hw.h"

/* SDM vol. 2B: RDMSR/WRMSR take the MSR in ECX and the value in EDX:EAX. */
static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t value)
{
	__asm__ volatile("wrmsr"
			 :
			 : "c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
			 : "memory");
}

/* RDPMC: ECX selects the counter (GP i, or RDPMC_FIXED | j); the value comes in EDX:EAX. */
static inline uint64_t rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t hw_read(void *ctx, uint32_t msr)
{
	(void)ctx;
	return rdmsr(msr);
}

static void hw_write(void *ctx, uint32_t msr, uint64_t value)
{
	(void)ctx;
	wrmsr(msr, value);
}

static bool hw_read_pmc(void *ctx, uint32_t ecx, uint64_t *value)
{
	const struct pmu_hw_ctx *hw = ctx;

	/* Never executed before the kernel has found RDPMC to work here (#UD under TCG). */
	if (!hw->rdpmc_ok)
		return false;
	*value = rdpmc(ecx);
	return true;
}

struct msr_backend pmu_backend_hw(struct pmu_hw_ctx *ctx)
{
	struct msr_backend b = {
		.name = "hw",
		.read = hw_read,
		.write = hw_write,
		.read_pmc = hw_read_pmc,
		.ctx = ctx,
	};
	return b;
}

void pmu_hw_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)ctx;
	__asm__ volatile("cpuid"
			 : "=a"(out->eax), "=b"(out->ebx), "=c"(out->ecx), "=d"(out->edx)
			 : "a"(leaf), "c"(subleaf));
}

bool pmu_hw_rdmsr_probe(void *ctx, uint32_t msr, uint64_t *value)
{
	const struct pmu_hw_ctx *hw = ctx;

	/*
	 * HOOK (exception fixup): with the kernel's #GP-safe rdmsr wired into ctx->rdmsr_safe, any
	 * MSR may be probed. Without it, only architecturally guaranteed MSRs may be read here.
	 */
	if (hw && hw->rdmsr_safe)
		return hw->rdmsr_safe(msr, value);
	*value = rdmsr(msr);
	return true;
}
