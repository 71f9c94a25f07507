/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real MSR backend: rdmsr, wrmsr and rdpmc on the current logical CPU, and the cpuid and
 * MSR-probe functions enumeration asks for. Kernel only (pmu/pmu.mk lists it in PMU_KERNEL_ONLY):
 * every call acts on the CPU it runs on, so the driver of a logical CPU runs on that CPU.
 */
#ifndef PMU_BACKEND_HW_H
#define PMU_BACKEND_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/enumerate.h"
#include "pmu/msr.h"

/*
 * One per logical CPU, owned by the kernel. rdpmc_ok is set once RDPMC is known to work on this
 * CPU: RDPMC raises #UD under QEMU's TCG (REFERENCES.md), so the kernel probes it under its #UD
 * fixup, and where it fails the driver reads the counter MSRs instead.
 */
struct pmu_hw_ctx {
	bool rdpmc_ok;
};

/* The backend for the current CPU; ctx must outlive it. */
struct msr_backend pmu_backend_hw(struct pmu_hw_ctx *ctx);

/* A pmu_cpuid_fn executing CPUID (ctx unused). */
void pmu_hw_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/* A pmu_rdmsr_safe_fn (ctx unused): a #GP on the read returns false through the fixup. */
bool pmu_hw_rdmsr_probe(void *ctx, uint32_t msr, uint64_t *value);

#endif
