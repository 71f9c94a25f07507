/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real MSR backend: rdmsr, wrmsr and rdpmc on the current logical CPU, and the cpuid and
 * MSR-probe functions enumeration asks for. Kernel only (kernel/kernel.mk):
 * every call acts on the CPU it runs on, so the driver of a logical CPU runs on that CPU.
 */
#ifndef KERNEL_PMU_BACKEND_HW_H
#define KERNEL_PMU_BACKEND_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/enumerate.h"
#include "pmu/firmware.h"
#include "pmu/msr.h"

/*
 * The backend for the current CPU. Its read_pmc executes RDPMC under the #UD/#GP fixup and says
 * false where RDPMC does not work (a hypervisor may refuse it), so the driver reads the MSR.
 */
struct msr_backend pmu_backend_hw(void);

/* A pmu_cpuid_fn executing CPUID (ctx unused). */
void pmu_hw_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/* A pmu_rdmsr_safe_fn (ctx unused): a #GP on the read returns false through the fixup. */
bool pmu_hw_rdmsr_probe(void *ctx, uint32_t msr, uint64_t *value);

/* A pmu_wrmsr_safe_fn (ctx unused): a #GP on the write returns false through the fixup. */
bool pmu_hw_wrmsr_safe(void *ctx, uint32_t msr, uint64_t value);

#endif
