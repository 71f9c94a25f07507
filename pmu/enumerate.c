// SPDX-License-Identifier: GPL-2.0
/*
 * PMU enumeration from raw CPUID values (see pmu/enumerate.h).
 */
#include <stddef.h>
#include <string.h>

#include "pmu/counters.h"
#include "pmu/enumerate.h"
#include "pmu/msr.h"
#include "pmu/regs.h"

void pmu_cpuid_collect(struct pmu_cpuid *c, pmu_cpuid_fn cpuid, pmu_rdmsr_safe_fn rdmsr, void *ctx)
{
	memset(c, 0, sizeof(*c));
	cpuid(ctx, CPUID_VENDOR, 0, &c->vendor);
	if (c->vendor.eax >= CPUID_SIGNATURE)
		cpuid(ctx, CPUID_SIGNATURE, 0, &c->signature);
	if (c->vendor.eax >= CPUID_EXT_FEATURES)
		cpuid(ctx, CPUID_EXT_FEATURES, 0, &c->ext_features);
	if (c->vendor.eax >= CPUID_PERFMON)
		cpuid(ctx, CPUID_PERFMON, 0, &c->perfmon);
	/*
	 * Leaf 0x80000000 exists on every x86-64 CPU; on a CPU without extended leaves it would
	 * return the data of the highest basic leaf, which the range check below rejects.
	 */
	cpuid(ctx, CPUID_EXT_MAX, 0, &c->ext_max);
	if (c->ext_max.eax >= CPUID_BRAND0 + 2 && c->ext_max.eax < CPUID_EXT_MAX + 0x10000)
		for (unsigned i = 0; i < 3; i++)
			cpuid(ctx, CPUID_BRAND0 + i, 0, &c->brand[i]);
	/* Leaves 0x40000000 and up belong to the hypervisor only when it says it is there. */
	if (c->signature.ecx & CPUID1_ECX_HYPERVISOR)
		cpuid(ctx, CPUID_HYPERVISOR, 0, &c->hypervisor);
	/* IA32_PERF_CAPABILITIES exists when PDCM is set (SDM vol. 3B, 18.2.6). */
	if ((c->signature.ecx & CPUID1_ECX_PDCM) && rdmsr)
		c->perf_caps_valid = rdmsr(ctx, IA32_PERF_CAPABILITIES, &c->perf_caps);
}

/* Four bytes of a register as they appear in a CPUID string: little-endian. */
static void put_le32(char *dst, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		dst[i] = (char)(v >> (8 * i));
}

/* Keep a CPUID string printable: it ends at the first NUL, and non-ASCII bytes become '?'. */
static void sanitise(char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			s[i] = '?';
	s[len] = 0;
}

static void decode_vendor(const struct pmu_cpuid *c, struct pmu_info *info)
{
	/* The vendor string is EBX, EDX, ECX in that order. */
	put_le32(info->vendor, c->vendor.ebx);
	put_le32(info->vendor + 4, c->vendor.edx);
	put_le32(info->vendor + 8, c->vendor.ecx);
	sanitise(info->vendor, 12);
	info->intel = strcmp(info->vendor, "GenuineIntel") == 0;
	info->max_leaf = c->vendor.eax;
}

/*
 * SDM vol. 2A, CPUID leaf 1, "Processor Version Information": the display family adds the
 * extended family only when the base family is 0xF; the display model adds the extended model
 * for families 6 and 0xF.
 */
static void decode_signature(const struct pmu_cpuid *c, struct pmu_info *info)
{
	uint32_t eax = info->max_leaf >= CPUID_SIGNATURE ? c->signature.eax : 0;
	uint32_t ecx = info->max_leaf >= CPUID_SIGNATURE ? c->signature.ecx : 0;
	unsigned base_family = (eax >> 8) & 0xf;
	unsigned ext_family = (eax >> 20) & 0xff;
	unsigned base_model = (eax >> 4) & 0xf;
	unsigned ext_model = (eax >> 16) & 0xf;

	info->family = base_family == 0xf ? base_family + ext_family : base_family;
	info->model = base_model;
	if (base_family == 0x6 || base_family == 0xf)
		info->model |= ext_model << 4;
	info->stepping = eax & 0xf;
	info->pdcm = (ecx & CPUID1_ECX_PDCM) != 0;
	info->hypervisor = (ecx & CPUID1_ECX_HYPERVISOR) != 0;
}

static void decode_brand(const struct pmu_cpuid *c, struct pmu_info *info)
{
	char raw[49];
	size_t skip = 0;

	info->brand[0] = 0;
	if (c->ext_max.eax < CPUID_BRAND0 + 2 || c->ext_max.eax >= CPUID_EXT_MAX + 0x10000)
		return;
	for (unsigned i = 0; i < 3; i++) {
		put_le32(raw + 16 * i, c->brand[i].eax);
		put_le32(raw + 16 * i + 4, c->brand[i].ebx);
		put_le32(raw + 16 * i + 8, c->brand[i].ecx);
		put_le32(raw + 16 * i + 12, c->brand[i].edx);
	}
	raw[48] = 0;
	/* Intel pads the string on the left on older parts ("       Intel(R) Core(TM)..."). */
	while (raw[skip] == ' ')
		skip++;
	memcpy(info->brand, raw + skip, 49 - skip);
	sanitise(info->brand, 48);
}

static void decode_hypervisor(const struct pmu_cpuid *c, struct pmu_info *info)
{
	info->hv_signature[0] = 0;
	if (!info->hypervisor)
		return;
	/* The signature is EBX, ECX, EDX (e.g. "TCGTCGTCGTCG" for QEMU's TCG). */
	put_le32(info->hv_signature, c->hypervisor.ebx);
	put_le32(info->hv_signature + 4, c->hypervisor.ecx);
	put_le32(info->hv_signature + 8, c->hypervisor.edx);
	sanitise(info->hv_signature, 12);
}

/* The number of the highest set bit plus one (fls), 0 for 0. */
static unsigned highest_bit_count(uint32_t v)
{
	unsigned n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/*
 * Fixed counters are described from version 2 on; version 1 has none. Linux's intel_pmu_init
 * assumes at least 3 for versions 2-4 outside a hypervisor, because early version-2 parts report
 * none (the Core 2 Extreme X6800: EDX = 0); from version 5 ECX is a bitmap of them.
 */
static void decode_fixed(const struct cpuid_regs *r, struct pmu_info *info)
{
	info->fixed_cpuid = info->version >= 2 ? r->edx & 0x1f : 0;
	info->fixed = info->fixed_cpuid;
	info->fixed_width = info->version >= 2 ? (r->edx >> 5) & 0xff : 0;
	if (info->version >= 2 && info->version <= 4 && !info->hypervisor && info->fixed < 3)
		info->fixed = 3;
	if (info->version >= 5 && highest_bit_count(r->ecx) > info->fixed)
		info->fixed = highest_bit_count(r->ecx);
	if (info->fixed && !info->fixed_width)
		info->fixed_width = info->gp_width;
}

/* SDM vol. 3B, 18.2 and CPUID leaf 0x0A. */
static void decode_perfmon(const struct pmu_cpuid *c, struct pmu_info *info)
{
	struct cpuid_regs r = { 0, 0, 0, 0 };

	if (info->max_leaf >= CPUID_PERFMON)
		r = c->perfmon;
	info->version = r.eax & 0xff;
	info->gp = (r.eax >> 8) & 0xff;
	info->gp_width = (r.eax >> 16) & 0xff;
	info->events_len = (r.eax >> 24) & 0xff;
	info->events_unavailable =
		info->events_len >= 32 ? r.ebx : r.ebx & ((1u << info->events_len) - 1);
	info->any_thread_deprecated =
		info->version >= 5 && (r.edx & CPUID0A_EDX_ANYTHREAD_DEPRECATED) != 0;
	decode_fixed(&r, info);
}

/*
 * Linux deploys its TSX_FORCE_ABORT hooks when the microcode enumerates the MSR and has not
 * turned TSX off for good (intel_pmu_init, the Skylake case).
 */
static void decode_ext_features(const struct pmu_cpuid *c, struct pmu_info *info)
{
	uint32_t edx = info->max_leaf >= CPUID_EXT_FEATURES ? c->ext_features.edx : 0;

	info->tsx_force_abort = info->intel && (edx & CPUID7_EDX_TSX_FORCE_ABORT) &&
				!(edx & CPUID7_EDX_RTM_ALWAYS_ABORT);
}

void pmu_info_decode(const struct pmu_cpuid *c, struct pmu_info *info)
{
	memset(info, 0, sizeof(*info));
	decode_vendor(c, info);
	decode_signature(c, info);
	decode_brand(c, info);
	decode_hypervisor(c, info);
	decode_perfmon(c, info);
	decode_ext_features(c, info);
	info->perf_caps_valid = info->pdcm && c->perf_caps_valid;
	info->perf_caps = info->perf_caps_valid ? c->perf_caps : 0;
	info->full_width = (info->perf_caps & PERF_CAP_FW_WRITE) != 0;
	info->uarch = uarch_by_model(info->intel, info->family, info->model);
}

bool pmu_info_arch_event(const struct pmu_info *info, enum pmu_arch_event ev)
{
	return (unsigned)ev < info->events_len && !(info->events_unavailable & (1u << ev));
}

struct pmu_geometry pmu_info_geometry(const struct pmu_info *info)
{
	struct pmu_geometry g = {
		.version = info->version,
		.gp = info->gp < PMU_MAX_GP ? info->gp : PMU_MAX_GP,
		.gp_width = info->gp_width,
		.fixed = info->fixed < PMU_MAX_FIXED ? info->fixed : PMU_MAX_FIXED,
		.fixed_width = info->fixed_width,
		.full_width = info->full_width,
		.any_thread_deprecated = info->any_thread_deprecated,
		.tsx_force_abort = info->tsx_force_abort && info->gp > PMU_TFA_COUNTER,
	};
	for (unsigned ev = 0; ev < 32; ev++)
		if (!pmu_info_arch_event(info, (enum pmu_arch_event)ev))
			g.arch_events_unavailable |= 1u << ev;
	return g;
}

/*
 * The architectural events by their CPUID.0AH:EBX bit (SDM vol. 3B, table 18-1), with what to
 * say when one is missing. Bit 2 is the GP encoding of reference cycles (0x013c, perf's
 * bus-cycles), which Linux's intel_arch_events_map also ties to that bit.
 */
static const struct {
	uint16_t code; /* 0xUUEE */
	const char *why;
} arch_events[ARCH_EVENT_COUNT] = {
	[ARCH_EVENT_CORE_CYCLES] = { 0x003c, "CPUID.0AH:EBX[0]: UnHalted Core Cycles (0x003c) "
					     "is not available on this CPU" },
	[ARCH_EVENT_INSTRUCTIONS] = { 0x00c0, "CPUID.0AH:EBX[1]: Instructions Retired (0x00c0) "
					      "is not available on this CPU" },
	[ARCH_EVENT_REF_CYCLES] = { 0x013c, "CPUID.0AH:EBX[2]: UnHalted Reference Cycles "
					    "(0x013c) is not available on this CPU" },
	[ARCH_EVENT_LLC_REFERENCES] = { 0x4f2e, "CPUID.0AH:EBX[3]: LLC Reference (0x4f2e) is not "
						"available on this CPU" },
	[ARCH_EVENT_LLC_MISSES] = { 0x412e, "CPUID.0AH:EBX[4]: LLC Misses (0x412e) is not "
					    "available on this CPU" },
	[ARCH_EVENT_BRANCHES] = { 0x00c4, "CPUID.0AH:EBX[5]: Branch Instructions Retired "
					  "(0x00c4) is not available on this CPU" },
	[ARCH_EVENT_BRANCH_MISSES] = { 0x00c5, "CPUID.0AH:EBX[6]: Branch Misses Retired (0x00c5) "
					       "is not available on this CPU" },
};

bool pmu_event_supported(const struct pmu_geometry *g, const struct pmu_event *e, const char **why)
{
	unsigned j;
	bool fixed_event = regs_fixed_counter_for(e, &j);

	*why = NULL;
	if (e->any && g->version < 3)
		*why = "AnyThread needs architectural performance monitoring version 3; this PMU "
		       "has an older version (the write would raise #GP)";
	else if (e->any && !pmu_geometry_any_thread(g))
		*why = "AnyThread is deprecated on this PMU (CPUID.0AH:EDX[15])";
	else if (fixed_event && !regs_fixed_event_gp_ok(j) && j >= g->fixed)
		*why = "reference cycles need fixed counter 2, which this PMU does not have";
	for (unsigned ev = 0; !*why && ev < ARCH_EVENT_COUNT; ev++)
		if (pmu_event_code(e) == arch_events[ev].code &&
		    (g->arch_events_unavailable & (1u << ev)))
			*why = arch_events[ev].why;
	return *why == NULL;
}
