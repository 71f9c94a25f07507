/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the firmware left in the PMU, and taking the PMU over from it.
 *
 * Before the kernel programs anything it records what the PMU MSRs hold (the `pmu` record's
 * "msrs"), because firmware that uses the counters itself corrupts measurements: Linux checks at
 * boot whether the BIOS left counters enabled (arch/x86/events/core.c, check_hw_exists: "Broken
 * BIOS detected, complain to your hardware vendor"; seen on Ivy Bridge boards with
 * IA32_FIXED_CTR_CTRL = 0x330) and overwrites them silently. This kernel names them
 * ("firmware_counters") and then takes the PMU over: the driver releases every counter, and
 * pmu_firmware_takeover() clears what the driver does not own, IA32_DEBUGCTL's LBR, BTS and
 * freeze-on-PMI bits, IA32_PEBS_ENABLE, and whatever IA32_PERF_GLOBAL_STATUS still shows, written
 * back whole as Linux's intel_pmu_reset() does: from version 4 that includes the freeze bits a
 * PMI left (CTR_FRZ stops every counter until it is cleared, SDM vol. 3B, 18.2.4.1).
 *
 * Every access goes through "safe" functions that return false instead of raising #GP (the
 * kernel's exception fixup, or the model's fault check): a PEBS_ENABLE that does not exist, under
 * a hypervisor, is reported as unreadable instead of stopping the boot. Note that QEMU's TCG reads
 * unknown MSRs as 0 without a fault (kernel/msr.h), so a value of 0 under TCG says nothing.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_FIRMWARE_H
#define PMU_FIRMWARE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/enumerate.h"
#include "pmu/msr.h"

/* Write an MSR that may not exist or may refuse the value: false instead of a #GP. */
typedef bool (*pmu_wrmsr_safe_fn)(void *ctx, uint32_t msr, uint64_t value);

/* The global registers, one selector per GP counter, DEBUGCTL, PEBS_ENABLE, TSX_FORCE_ABORT. */
#define PMU_SNAPSHOT_MAX (6 + PMU_MAX_GP)

struct pmu_msr_value {
	const char *name; /* as the SDM spells it: "IA32_PERFEVTSEL0" */
	uint32_t msr;
	bool valid; /* read without a fault */
	uint64_t value;
};

/* The PMU MSRs of one logical CPU, in the order the record lists them. */
struct pmu_msr_snapshot {
	unsigned n;
	struct pmu_msr_value msrs[PMU_SNAPSHOT_MAX];
};

/*
 * Read IA32_PERF_GLOBAL_CTRL, IA32_PERF_GLOBAL_STATUS, IA32_FIXED_CTR_CTRL, IA32_PERFEVTSELx for
 * each of g's GP counters, IA32_DEBUGCTL, IA32_PEBS_ENABLE and, where g has it,
 * MSR_TSX_FORCE_ABORT. The global registers and the fixed control exist from version 2 on; on an
 * older PMU (or none) they are not read and are marked not valid.
 */
void pmu_msr_snapshot_take(struct pmu_msr_snapshot *s, const struct pmu_geometry *g,
			   pmu_rdmsr_safe_fn read, void *ctx);

/* The value of msr in s; false when s does not hold it or it could not be read. */
bool pmu_msr_snapshot_get(const struct pmu_msr_snapshot *s, uint32_t msr, uint64_t *value);

/*
 * The counters s shows enabled by someone else, by name ("IA32_PMC0", "IA32_FIXED_CTR1"), into
 * names[0..max-1]; returns how many there are (possibly more than max). As Linux's
 * check_hw_exists: a GP counter whose IA32_PERFEVTSELx has EN set, a fixed counter whose
 * IA32_FIXED_CTR_CTRL field counts at some privilege level (OS or USR). IA32_PERF_GLOBAL_CTRL is
 * not consulted: its power-on value enables every GP counter (SDM vol. 3B, 18.2.2).
 */
unsigned pmu_firmware_counters(const struct pmu_msr_snapshot *s, const struct pmu_geometry *g,
			       const char **names, unsigned max);

/* The IA32_DEBUGCTL bits a kernel that owns the PMU clears (pmu/msr.h). */
#define DEBUGCTL_FIRMWARE_BITS                                                                     \
	(DEBUGCTL_LBR | DEBUGCTL_TR | DEBUGCTL_BTS | DEBUGCTL_FREEZE_LBRS_ON_PMI |                 \
	 DEBUGCTL_FREEZE_PERFMON_ON_PMI)

/* What pmu_firmware_takeover() found and did. */
struct pmu_takeover {
	uint64_t debugctl_cleared; /* DEBUGCTL_FIRMWARE_BITS that were set and are now clear */
	uint64_t pebs_cleared;	   /* IA32_PEBS_ENABLE bits that were set and are now clear */
	uint64_t status_cleared; /* IA32_PERF_GLOBAL_STATUS bits that were set and are now clear */
	const char *failed;	 /* NULL, or the MSR that could not be cleared */
};

/*
 * On the logical CPU read and write stand for: clear DEBUGCTL_FIRMWARE_BITS in IA32_DEBUGCTL and
 * every bit of IA32_PEBS_ENABLE, writing only what is set, and read each back; then write what
 * IA32_PERF_GLOBAL_STATUS reads to IA32_PERF_GLOBAL_OVF_CTRL (STATUS_RESET from version 4), whole,
 * and read the status again. An MSR that cannot
 * be read is left alone (a CPU or hypervisor without it); one that cannot be written, or does not
 * keep the value, is named in failed.
 */
struct pmu_takeover pmu_firmware_takeover(pmu_rdmsr_safe_fn read, pmu_wrmsr_safe_fn write,
					  void *ctx);

/*
 * The microcode revision of the calling CPU, as the SDM's procedure reads it (vol. 3A, 9.11.7.1;
 * Linux intel_get_microcode_revision): write 0 to IA32_BIOS_SIGN_ID, execute CPUID leaf 1, read
 * the revision from bits 63:32. False, and *revision 0, when the CPU is not GenuineIntel (AMD
 * keeps its patch level elsewhere in that MSR), under a hypervisor (the revision is then the
 * hypervisor's invention: QEMU's TCG says 1), when an access faults, or when the revision reads 0
 * (no update loaded, or a hypervisor that hides its bit).
 */
bool pmu_microcode_revision(const struct pmu_info *info, pmu_rdmsr_safe_fn read,
			    pmu_wrmsr_safe_fn write, pmu_cpuid_fn cpuid, void *ctx,
			    uint32_t *revision);

#endif
