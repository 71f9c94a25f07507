/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The performance-monitoring MSRs by their SDM names, and the MSR backend: the only way the driver
 * touches them. Two backends exist: the real instructions (kernel/pmu_backend_hw.c, kernel only) and the
 * model PMU (pmu/model.c), which emulates the same registers for machines without a PMU (QEMU).
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_MSR_H
#define PMU_MSR_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Intel SDM vol. 4, table 2-2 (architectural MSRs), and vol. 3B, 18.2 (architectural performance
 * monitoring). Counter i of the general-purpose kind is IA32_PMCi with its event select
 * IA32_PERFEVTSELi; IA32_A_PMCi is the full-width write alias of IA32_PMCi, present when
 * IA32_PERF_CAPABILITIES[13] is set (SDM vol. 3B, 18.2.6 "Full-Width Writes to Performance
 * Counter Registers").
 */
#define MSR_SMI_COUNT 0x034u	 /* SMIs since reset, read-only (SDM vol. 4, table 2-20 on) */
#define IA32_BIOS_SIGN_ID 0x08bu /* microcode update signature: the revision in bits 63:32 */
#define IA32_PMC0 0x0c1u
#define MSR_TSX_FORCE_ABORT 0x10fu /* Skylake microcode, CPUID.(EAX=7,ECX=0):EDX[13] */
#define IA32_PERFEVTSEL0 0x186u
#define IA32_DEBUGCTL 0x1d9u   /* LBR, BTS and the freeze-on-PMI bits (SDM vol. 3B, 17.4.1) */
#define IA32_FIXED_CTR0 0x309u /* INST_RETIRED.ANY */
#define IA32_FIXED_CTR1 0x30au /* CPU_CLK_UNHALTED.CORE */
#define IA32_FIXED_CTR2 0x30bu /* CPU_CLK_UNHALTED.REF */
#define IA32_PERF_CAPABILITIES 0x345u /* exists when CPUID.01H:ECX.PDCM[15] = 1 */
#define IA32_FIXED_CTR_CTRL 0x38du
#define IA32_PERF_GLOBAL_STATUS 0x38eu	 /* read-only: overflow bits */
#define IA32_PERF_GLOBAL_CTRL 0x38fu	 /* enable bits, same layout as the status */
#define IA32_PERF_GLOBAL_OVF_CTRL 0x390u /* write 1 to clear a status bit */
#define IA32_PEBS_ENABLE 0x3f1u		 /* PEBS per counter (SDM vol. 3B, 18.3.1.1.1) */
#define IA32_A_PMC0 0x4c1u

#define IA32_PMC(i) (IA32_PMC0 + (i))
#define IA32_PERFEVTSEL(i) (IA32_PERFEVTSEL0 + (i))
#define IA32_FIXED_CTR(j) (IA32_FIXED_CTR0 + (j))
#define IA32_A_PMC(i) (IA32_A_PMC0 + (i))

/* IA32_PERF_CAPABILITIES[13]: IA32_A_PMCx accept writes of the full counter width. */
#define PERF_CAP_FW_WRITE (1ull << 13)

/*
 * IA32_DEBUGCTL bits a kernel that owns the PMU must not inherit (SDM vol. 3B, 17.4.1, figure
 * 17-3): LBR recording, branch trace messages and the branch trace store (which writes records to
 * memory the firmware chose), and the two bits that freeze the LBR or the counters on a PMI.
 */
#define DEBUGCTL_LBR (1ull << 0)
#define DEBUGCTL_TR (1ull << 6)
#define DEBUGCTL_BTS (1ull << 7)
#define DEBUGCTL_FREEZE_LBRS_ON_PMI (1ull << 11)
#define DEBUGCTL_FREEZE_PERFMON_ON_PMI (1ull << 12)

/* MSR_TSX_FORCE_ABORT[0]: every RTM transaction aborts, and GP counter 3 counts for perfmon. */
#define TSX_FORCE_ABORT_RTM (1ull << 0)

/* RDPMC's ECX: GP counter i is i, fixed counter j is (1 << 30) | j (SDM vol. 2B, RDPMC). */
#define RDPMC_FIXED (1u << 30)

/*
 * An MSR backend. read and write act on the registers of one logical CPU (the one ctx stands for:
 * the current CPU for the real instructions, one emulated thread for the model). read_pmc is
 * optional: when non-NULL it reads a counter with RDPMC (ECX as above) and returns false when
 * RDPMC is not usable, in which case the driver falls back to reading the counter MSR.
 *
 * Neither read nor write reports failure: the driver touches only MSRs that enumeration said
 * exist. The real backend would take a #GP on anything else; the model counts such accesses in
 * its fault counter so that tests can prove none happen.
 */
struct msr_backend {
	const char *name; /* "hw" or "model": the pmu record's "backend" */
	uint64_t (*read)(void *ctx, uint32_t msr);
	void (*write)(void *ctx, uint32_t msr, uint64_t value);
	bool (*read_pmc)(void *ctx, uint32_t ecx, uint64_t *value);
	void *ctx;
};

static inline uint64_t msr_read(const struct msr_backend *b, uint32_t msr)
{
	return b->read(b->ctx, msr);
}

static inline void msr_write(const struct msr_backend *b, uint32_t msr, uint64_t value)
{
	b->write(b->ctx, msr, value);
}

#endif
