// SPDX-License-Identifier: GPL-2.0
/*
 * Register values of the architectural PMU (see pmu/regs.h).
 */
#include <stddef.h>

#include "pmu/counters.h"
#include "pmu/msr.h"
#include "pmu/regs.h"

uint64_t regs_perfevtsel(const struct pmu_event *e, unsigned flags)
{
	uint64_t v = (uint64_t)e->event | (uint64_t)e->umask << PERFEVTSEL_UMASK_SHIFT |
		     (uint64_t)e->cmask << PERFEVTSEL_CMASK_SHIFT;

	if (e->usr)
		v |= PERFEVTSEL_USR;
	if (e->os)
		v |= PERFEVTSEL_OS;
	if (e->edge)
		v |= PERFEVTSEL_EDGE;
	if (e->any)
		v |= PERFEVTSEL_ANY;
	if (e->inv)
		v |= PERFEVTSEL_INV;
	if (flags & REGS_INT)
		v |= PERFEVTSEL_INT;
	if (flags & REGS_EN)
		v |= PERFEVTSEL_EN;
	return v;
}

struct perfevtsel_fields regs_perfevtsel_decode(uint64_t v)
{
	struct perfevtsel_fields f = {
		.event = (uint8_t)(v & PERFEVTSEL_EVENT_MASK),
		.umask = (uint8_t)((v & PERFEVTSEL_UMASK_MASK) >> PERFEVTSEL_UMASK_SHIFT),
		.cmask = (uint8_t)((v & PERFEVTSEL_CMASK_MASK) >> PERFEVTSEL_CMASK_SHIFT),
		.usr = (v & PERFEVTSEL_USR) != 0,
		.os = (v & PERFEVTSEL_OS) != 0,
		.edge = (v & PERFEVTSEL_EDGE) != 0,
		.inv = (v & PERFEVTSEL_INV) != 0,
		.any = (v & PERFEVTSEL_ANY) != 0,
		.intr = (v & PERFEVTSEL_INT) != 0,
		.en = (v & PERFEVTSEL_EN) != 0,
	};
	return f;
}

unsigned regs_fixed_field(const struct pmu_event *e, bool pmi)
{
	unsigned f = 0;

	if (e->os)
		f |= FIXED_CTRL_OS;
	if (e->usr)
		f |= FIXED_CTRL_USR;
	if (e->any)
		f |= FIXED_CTRL_ANY;
	if (pmi)
		f |= FIXED_CTRL_PMI;
	return f;
}

uint64_t regs_fixed_ctrl_set(uint64_t ctrl, unsigned j, unsigned field)
{
	unsigned shift = j * FIXED_CTRL_FIELD_BITS;

	ctrl &= ~(0xfull << shift);
	return ctrl | (uint64_t)(field & 0xf) << shift;
}

unsigned regs_fixed_ctrl_get(uint64_t ctrl, unsigned j)
{
	return (unsigned)(ctrl >> (j * FIXED_CTRL_FIELD_BITS)) & 0xf;
}

uint64_t regs_fixed_ctrl_valid(unsigned fixed)
{
	return fixed >= 16 ? ~0ull : (1ull << (fixed * FIXED_CTRL_FIELD_BITS)) - 1;
}

uint64_t regs_global_all(unsigned gp, unsigned fixed)
{
	uint64_t m = PMU_GP_MASK(gp);

	for (unsigned j = 0; j < fixed && PMU_FIXED_BASE + j < 64; j++)
		m |= PMU_FIXED_BIT(j);
	return m;
}

uint64_t regs_width_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

uint64_t regs_preload(uint64_t n, unsigned width)
{
	return (0 - n) & regs_width_mask(width);
}

uint64_t regs_legacy_pmc_write(uint64_t value, unsigned width)
{
	uint64_t low = value & 0xffffffffull;

	if (low & 0x80000000ull)
		low |= ~0xffffffffull;
	return low & regs_width_mask(width);
}

bool regs_preload_fits_legacy(uint64_t value, unsigned width)
{
	return (value & ~regs_width_mask(width)) == 0 &&
	       regs_legacy_pmc_write(value, width) == value;
}

uint32_t regs_counter_msr(unsigned idx, bool full_width)
{
	if (regs_idx_is_fixed(idx))
		return IA32_FIXED_CTR(idx - PMU_FIXED_BASE);
	return full_width ? IA32_A_PMC(idx) : IA32_PMC(idx);
}

const char *regs_msr_name(uint32_t msr)
{
	static const char *const evtsel[PMU_MAX_GP] = {
		"IA32_PERFEVTSEL0", "IA32_PERFEVTSEL1", "IA32_PERFEVTSEL2", "IA32_PERFEVTSEL3",
		"IA32_PERFEVTSEL4", "IA32_PERFEVTSEL5", "IA32_PERFEVTSEL6", "IA32_PERFEVTSEL7",
	};
	static const char *const pmc[PMU_MAX_GP] = {
		"IA32_PMC0", "IA32_PMC1", "IA32_PMC2", "IA32_PMC3",
		"IA32_PMC4", "IA32_PMC5", "IA32_PMC6", "IA32_PMC7",
	};
	static const char *const a_pmc[PMU_MAX_GP] = {
		"IA32_A_PMC0", "IA32_A_PMC1", "IA32_A_PMC2", "IA32_A_PMC3",
		"IA32_A_PMC4", "IA32_A_PMC5", "IA32_A_PMC6", "IA32_A_PMC7",
	};
	static const char *const fixed[PMU_MAX_FIXED] = {
		"IA32_FIXED_CTR0",
		"IA32_FIXED_CTR1",
		"IA32_FIXED_CTR2",
	};
	static const struct {
		uint32_t msr;
		const char *name;
	} global[] = {
		{ IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL" },
		{ IA32_PERF_GLOBAL_STATUS, "IA32_PERF_GLOBAL_STATUS" },
		{ IA32_PERF_GLOBAL_OVF_CTRL, "IA32_PERF_GLOBAL_OVF_CTRL" },
		{ IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL" },
		{ IA32_DEBUGCTL, "IA32_DEBUGCTL" },
		{ IA32_PEBS_ENABLE, "IA32_PEBS_ENABLE" },
		{ MSR_TSX_FORCE_ABORT, "MSR_TSX_FORCE_ABORT" },
	};

	if (msr >= IA32_PERFEVTSEL0 && msr < IA32_PERFEVTSEL(PMU_MAX_GP))
		return evtsel[msr - IA32_PERFEVTSEL0];
	if (msr >= IA32_PMC0 && msr < IA32_PMC(PMU_MAX_GP))
		return pmc[msr - IA32_PMC0];
	if (msr >= IA32_A_PMC0 && msr < IA32_A_PMC(PMU_MAX_GP))
		return a_pmc[msr - IA32_A_PMC0];
	if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR(PMU_MAX_FIXED))
		return fixed[msr - IA32_FIXED_CTR0];
	for (unsigned k = 0; k < sizeof(global) / sizeof(global[0]); k++)
		if (global[k].msr == msr)
			return global[k].name;
	return NULL;
}

bool regs_msr_is_counter(uint32_t msr)
{
	return (msr >= IA32_PMC0 && msr < IA32_PMC(PMU_MAX_GP)) ||
	       (msr >= IA32_A_PMC0 && msr < IA32_A_PMC(PMU_MAX_GP)) ||
	       (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR(PMU_MAX_FIXED));
}

uint32_t regs_rdpmc_ecx(unsigned idx)
{
	if (regs_idx_is_fixed(idx))
		return RDPMC_FIXED | (idx - PMU_FIXED_BASE);
	return idx;
}

/*
 * SDM vol. 3B, table 18-2: fixed counter 0 counts INST_RETIRED.ANY, 1 CPU_CLK_UNHALTED.CORE, 2
 * CPU_CLK_UNHALTED.REF. The first two are also architectural GP events (table 18-1: 0x00c0
 * INST_RETIRED.ANY_P, 0x003c CPU_CLK_UNHALTED.THREAD_P). 0x0300 is the pseudo-encoding Linux and
 * perf give reference cycles, which have no GP encoding of their own (Linux intel_pmu_init gives
 * every fixed-event constraint the GP counters except this one).
 */
static const struct {
	uint16_t code; /* 0xUUEE */
	bool gp_ok;    /* a GP counter can count it too */
} fixed_events[PMU_MAX_FIXED] = {
	{ 0x00c0, true },
	{ 0x003c, true },
	{ 0x0300, false },
};

uint16_t regs_fixed_event_code(unsigned j)
{
	return j < PMU_MAX_FIXED ? fixed_events[j].code : 0;
}

bool regs_fixed_event_gp_ok(unsigned j)
{
	return j < PMU_MAX_FIXED && fixed_events[j].gp_ok;
}

bool regs_fixed_counter_for(const struct pmu_event *e, unsigned *j)
{
	/* A fixed counter counts the plain event only (Linux FIXED_EVENT_FLAGS). */
	if (e->edge || e->inv || e->cmask)
		return false;
	for (*j = 0; *j < PMU_MAX_FIXED; (*j)++)
		if (pmu_event_code(e) == fixed_events[*j].code)
			return true;
	return false;
}
