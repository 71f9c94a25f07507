// SPDX-License-Identifier: GPL-2.0
/*
 * What the firmware left in the PMU, and taking it over (see pmu/firmware.h).
 */
#include <stddef.h>
#include <string.h>

#include "pmu/counters.h"
#include "pmu/firmware.h"
#include "pmu/msr.h"
#include "pmu/regs.h"

/* The names the record uses, as the SDM spells them (regs_msr_name()). */
static void add(struct pmu_msr_snapshot *s, uint32_t msr, bool exists, pmu_rdmsr_safe_fn read,
		void *ctx)
{
	struct pmu_msr_value *v = &s->msrs[s->n++];

	v->name = regs_msr_name(msr);
	v->msr = msr;
	v->value = 0;
	v->valid = exists && read(ctx, msr, &v->value);
	if (!v->valid)
		v->value = 0;
}

void pmu_msr_snapshot_take(struct pmu_msr_snapshot *s, const struct pmu_geometry *g,
			   pmu_rdmsr_safe_fn read, void *ctx)
{
	/* The global registers and the fixed control come with version 2 (SDM vol. 3B, 18.2.2). */
	bool v2 = g->version >= 2;
	unsigned gp = g->gp < PMU_MAX_GP ? g->gp : PMU_MAX_GP;

	memset(s, 0, sizeof(*s));
	add(s, IA32_PERF_GLOBAL_CTRL, v2, read, ctx);
	add(s, IA32_PERF_GLOBAL_STATUS, v2, read, ctx);
	add(s, IA32_FIXED_CTR_CTRL, v2 && g->fixed, read, ctx);
	for (unsigned i = 0; i < gp; i++)
		add(s, IA32_PERFEVTSEL(i), true, read, ctx);
	add(s, IA32_DEBUGCTL, true, read, ctx);
	add(s, IA32_PEBS_ENABLE, true, read, ctx);
	if (g->tsx_force_abort)
		add(s, MSR_TSX_FORCE_ABORT, true, read, ctx);
}

bool pmu_msr_snapshot_get(const struct pmu_msr_snapshot *s, uint32_t msr, uint64_t *value)
{
	for (unsigned k = 0; k < s->n; k++)
		if (s->msrs[k].msr == msr && s->msrs[k].valid) {
			*value = s->msrs[k].value;
			return true;
		}
	return false;
}

unsigned pmu_firmware_counters(const struct pmu_msr_snapshot *s, const struct pmu_geometry *g,
			       const char **names, unsigned max)
{
	unsigned n = 0;
	uint64_t v;

	for (unsigned i = 0; i < g->gp && i < PMU_MAX_GP; i++)
		if (pmu_msr_snapshot_get(s, IA32_PERFEVTSEL(i), &v) && (v & PERFEVTSEL_EN)) {
			if (n < max)
				names[n] = regs_msr_name(IA32_PMC(i));
			n++;
		}
	if (!pmu_msr_snapshot_get(s, IA32_FIXED_CTR_CTRL, &v))
		return n;
	for (unsigned j = 0; j < g->fixed && j < PMU_MAX_FIXED; j++)
		if (regs_fixed_ctrl_get(v, j) & (FIXED_CTRL_OS | FIXED_CTRL_USR)) {
			if (n < max)
				names[n] = regs_msr_name(IA32_FIXED_CTR(j));
			n++;
		}
	return n;
}

/*
 * Clear the bits of msr in `bits`; returns the bits that were set, or sets *failed when the
 * write faults or does not hold. An MSR that cannot be read is left alone.
 */
static uint64_t clear_bits(uint32_t msr, const char *name, uint64_t bits, pmu_rdmsr_safe_fn read,
			   pmu_wrmsr_safe_fn write, void *ctx, const char **failed)
{
	uint64_t v, after;

	if (!read(ctx, msr, &v) || !(v & bits))
		return 0;
	if (!write(ctx, msr, v & ~bits) || !read(ctx, msr, &after) || (after & bits)) {
		*failed = name;
		return 0;
	}
	return v & bits;
}

/*
 * Write back the whole global status, as Linux's intel_pmu_reset() does: every bit it shows is
 * cleared, the version-4 freeze bits with the overflow bits (a status that names bits this version
 * does not have cannot be read, so none is written that the MSR would refuse).
 */
static uint64_t clear_status(pmu_rdmsr_safe_fn read, pmu_wrmsr_safe_fn write, void *ctx,
			     const char **failed)
{
	uint64_t v, after;

	if (!read(ctx, IA32_PERF_GLOBAL_STATUS, &v) || !v)
		return 0;
	if (!write(ctx, IA32_PERF_GLOBAL_OVF_CTRL, v) ||
	    !read(ctx, IA32_PERF_GLOBAL_STATUS, &after) || (after & v)) {
		*failed = "IA32_PERF_GLOBAL_STATUS";
		return 0;
	}
	return v;
}

struct pmu_takeover pmu_firmware_takeover(pmu_rdmsr_safe_fn read, pmu_wrmsr_safe_fn write,
					  void *ctx)
{
	struct pmu_takeover t = { 0, 0, 0, NULL };

	t.debugctl_cleared = clear_bits(IA32_DEBUGCTL, "IA32_DEBUGCTL", DEBUGCTL_FIRMWARE_BITS,
					read, write, ctx, &t.failed);
	t.pebs_cleared = clear_bits(IA32_PEBS_ENABLE, "IA32_PEBS_ENABLE", ~0ull, read, write, ctx,
				    &t.failed);
	t.status_cleared = clear_status(read, write, ctx, &t.failed);
	return t;
}

bool pmu_microcode_revision(const struct pmu_info *info, pmu_rdmsr_safe_fn read,
			    pmu_wrmsr_safe_fn write, pmu_cpuid_fn cpuid, void *ctx,
			    uint32_t *revision)
{
	struct cpuid_regs r;
	uint64_t v;

	*revision = 0;
	if (!info->intel || info->hypervisor || !write(ctx, IA32_BIOS_SIGN_ID, 0))
		return false;
	/* CPUID leaf 1 makes the CPU load the revision into the MSR (SDM vol. 3A, 9.11.7.1). */
	cpuid(ctx, CPUID_SIGNATURE, 0, &r);
	if (!read(ctx, IA32_BIOS_SIGN_ID, &v))
		return false;
	*revision = (uint32_t)(v >> 32);
	return *revision != 0;
}
