// SPDX-License-Identifier: GPL-2.0
/*
 * The real MSR backend (see kernel/pmu_backend_hw.h) on the kernel's own instructions: kernel/cpu.h for
 * RDMSR, WRMSR and CPUID, kernel/msr.h for the reads that may fault.
 */
#include <stddef.h>

#include "kernel/cpu.h"
#include "kernel/msr.h"
#include "kernel/pmu_backend_hw.h"

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
	(void)ctx;
	return rdpmc_safe(ecx, value);
}

struct msr_backend pmu_backend_hw(void)
{
	struct msr_backend b = {
		.name = "hw",
		.read = hw_read,
		.write = hw_write,
		.read_pmc = hw_read_pmc,
	};
	return b;
}

void pmu_hw_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)ctx;
	*out = cpuid(leaf, subleaf);
}

bool pmu_hw_rdmsr_probe(void *ctx, uint32_t msr, uint64_t *value)
{
	(void)ctx;
	return rdmsr_safe(msr, value);
}

bool pmu_hw_wrmsr_safe(void *ctx, uint32_t msr, uint64_t value)
{
	(void)ctx;
	return wrmsr_safe(msr, value);
}
