/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU enumeration: from raw CPUID values (and IA32_PERF_CAPABILITIES when the CPU has it) to a
 * description of the processor and its architectural PMU. Gathering the values is separated from
 * decoding them, so that the decoding is tested on the host against CPUID dumps of real machines
 * and of QEMU, and the kernel only supplies a cpuid and an rdmsr function.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_ENUMERATE_H
#define PMU_ENUMERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/cpuid_regs.h"
#include "pmu/event.h"
#include "pmu/uarch.h"

/* CPUID leaves (SDM vol. 2A, CPUID) and the hypervisor leaf (0x40000000, by convention). */
#define CPUID_VENDOR 0x0u
#define CPUID_SIGNATURE 0x1u
#define CPUID_EXT_FEATURES 0x7u
#define CPUID_PERFMON 0xau
#define CPUID_HYPERVISOR 0x40000000u
#define CPUID_EXT_MAX 0x80000000u
#define CPUID_BRAND0 0x80000002u

#define CPUID1_ECX_PDCM (1u << 15)	 /* IA32_PERF_CAPABILITIES exists */
#define CPUID1_ECX_HYPERVISOR (1u << 31) /* running under a hypervisor */

/* CPUID.(EAX=7,ECX=0):EDX, as Linux's cpufeatures.h names the bits. */
#define CPUID7_EDX_RTM_ALWAYS_ABORT (1u << 11) /* TSX is off for good: no TFA needed */
#define CPUID7_EDX_TSX_FORCE_ABORT (1u << 13)  /* MSR_TSX_FORCE_ABORT exists (Skylake microcode) */

/* CPUID.0AH:EDX[15]: AnyThread is deprecated (version 5; SDM vol. 2A, CPUID leaf 0AH). */
#define CPUID0A_EDX_ANYTHREAD_DEPRECATED (1u << 15)

/*
 * The raw values enumeration needs. A leaf that the CPU does not have (above the maximum its
 * leaf 0 or 0x80000000 reports) is left zero by pmu_cpuid_collect(); the decoder also checks the
 * maxima, so a caller may fill every field from a dump.
 */
struct pmu_cpuid {
	struct cpuid_regs vendor;	/* leaf 0: maximum basic leaf, vendor string */
	struct cpuid_regs signature;	/* leaf 1: family/model/stepping, PDCM, hypervisor bit */
	struct cpuid_regs ext_features; /* leaf 7 subleaf 0: TSX_FORCE_ABORT, RTM_ALWAYS_ABORT */
	struct cpuid_regs perfmon;	/* leaf 0x0A: architectural performance monitoring */
	struct cpuid_regs ext_max;	/* leaf 0x80000000: maximum extended leaf */
	struct cpuid_regs brand[3];	/* leaves 0x80000002-4: brand string */
	struct cpuid_regs hypervisor;	/* leaf 0x40000000 when the hypervisor bit is set */
	bool perf_caps_valid; /* perf_caps was read (PDCM set and the read did not fault) */
	uint64_t perf_caps;   /* IA32_PERF_CAPABILITIES */
};

/* Execute CPUID with EAX = leaf, ECX = subleaf. */
typedef void (*pmu_cpuid_fn)(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/*
 * Read an MSR that may not exist: false instead of a #GP. May be NULL, and then
 * IA32_PERF_CAPABILITIES is not read (no full-width writes).
 */
typedef bool (*pmu_rdmsr_safe_fn)(void *ctx, uint32_t msr, uint64_t *value);

/* Fill c by asking cpuid for each leaf the CPU reports, and rdmsr for IA32_PERF_CAPABILITIES. */
void pmu_cpuid_collect(struct pmu_cpuid *c, pmu_cpuid_fn cpuid, pmu_rdmsr_safe_fn rdmsr, void *ctx);

/* Architectural events of CPUID.0AH:EBX (SDM vol. 3B, table 18-1); bit set = NOT available. */
enum pmu_arch_event {
	ARCH_EVENT_CORE_CYCLES,
	ARCH_EVENT_INSTRUCTIONS,
	ARCH_EVENT_REF_CYCLES,
	ARCH_EVENT_LLC_REFERENCES,
	ARCH_EVENT_LLC_MISSES,
	ARCH_EVENT_BRANCHES,
	ARCH_EVENT_BRANCH_MISSES,
	ARCH_EVENT_COUNT, /* Linux requires the vector to be this long (ARCH_PERFMON_EVENTS_COUNT) */
};

/* The GP counter whose use needs MSR_TSX_FORCE_ABORT set (Linux tfa_get_event_constraints). */
#define PMU_TFA_COUNTER 3

/*
 * The counters as the driver and the model see them, and what they can count. A geometry that
 * is all zero except for its counters describes a PMU on which every architectural event exists
 * and AnyThread is not available before version 3 (tests build such geometries).
 */
struct pmu_geometry {
	unsigned version;     /* architectural performance monitoring version */
	unsigned gp;	      /* GP counters per logical CPU */
	unsigned gp_width;    /* their width in bits */
	unsigned fixed;	      /* fixed-function counters */
	unsigned fixed_width; /* their width in bits */
	bool full_width;      /* IA32_A_PMCx writes are available */
	/* Architectural events this PMU does not count: CPUID.0AH:EBX within its length, and every
	 * bit at or above the length (bit = enum pmu_arch_event). 0 on the model. */
	uint32_t arch_events_unavailable;
	bool any_thread_deprecated; /* CPUID.0AH:EDX[15] (version 5 and later) */
	/* GP counter PMU_TFA_COUNTER counts only while MSR_TSX_FORCE_ABORT[0] is set: the driver sets
	 * it while that counter is programmed and clears it otherwise (Linux's default). */
	bool tsx_force_abort;
};

/*
 * AnyThread (IA32_PERFEVTSELx bit 21, the fixed counters' ANY bits) exists from version 3 until
 * CPUID deprecates it; on a version-2 PMU the write raises #GP (SDM vol. 3B, 18.2.2; Linux
 * intel_pmu_hw_config refuses it below version 3).
 */
static inline bool pmu_geometry_any_thread(const struct pmu_geometry *g)
{
	return g->version >= 3 && !g->any_thread_deprecated;
}

/* Counter idx (idxmsk index: GP i, or PMU_FIXED_BASE + j) exists on g. */
static inline bool pmu_geometry_has(const struct pmu_geometry *g, unsigned idx)
{
	return idx >= PMU_FIXED_BASE ? idx - PMU_FIXED_BASE < g->fixed : idx < g->gp;
}

struct pmu_info {
	char vendor[13]; /* "GenuineIntel", "AuthenticAMD", ... */
	bool intel;
	unsigned family, model, stepping; /* display family and model (extended fields applied) */
	char brand[49];	   /* brand string without its leading blanks, "" when absent */
	unsigned max_leaf; /* CPUID leaf 0 EAX */
	bool pdcm;
	bool hypervisor;       /* CPUID.1:ECX[31] */
	char hv_signature[13]; /* e.g. "TCGTCGTCGTCG", "KVMKVMKVM"; "" when no hypervisor */

	/* CPUID 0x0A as reported (zero when the leaf is absent), except fixed (below). */
	unsigned version;
	unsigned gp, gp_width;
	/*
	 * Fixed counters as Linux's intel_pmu_init counts them: 0 for version 1; for versions 2-4
	 * at least 3 outside a hypervisor ("v2 perfmon does not report fixed-purpose events": an
	 * early Core 2 reports EDX = 0); from version 5 counter i exists when ECX[i] is set or
	 * EDX[4:0] > i (SDM vol. 2A, CPUID leaf 0AH). fixed_cpuid is EDX[4:0] as reported, and a
	 * width of 0 beside a raised count is taken from the GP counters (Linux uses one width).
	 */
	unsigned fixed, fixed_width;
	unsigned fixed_cpuid;
	unsigned events_len;	     /* valid bits of events_unavailable */
	uint32_t events_unavailable; /* EBX, masked to events_len bits */
	bool any_thread_deprecated;  /* CPUID.0AH:EDX[15], version 5 and later */
	/* CPUID.7.0:EDX[13] without RTM_ALWAYS_ABORT: the microcode took GP counter 3 for its TSX
	 * workaround unless MSR_TSX_FORCE_ABORT[0] is set (Linux deploys TFA on this condition). */
	bool tsx_force_abort;

	bool perf_caps_valid;
	uint64_t perf_caps;
	bool full_width; /* IA32_PERF_CAPABILITIES[13] */

	const struct uarch *uarch; /* uarch_generic when the model is not in a table; its erratum
				    * ("BJ122", "BV98", "HSD29" or NULL) is the CPU's */
};

/* Decode the raw values. Never fails: missing leaves give zeros and the generic tables. */
void pmu_info_decode(const struct pmu_cpuid *c, struct pmu_info *info);

/* True when the architectural event is implemented (in range of EBX's length and its bit clear). */
bool pmu_info_arch_event(const struct pmu_info *info, enum pmu_arch_event ev);

/*
 * The counters CPUID describes, limited to what the driver handles (PMU_MAX_GP general-purpose,
 * PMU_MAX_FIXED fixed counters), with the events they cannot count.
 */
struct pmu_geometry pmu_info_geometry(const struct pmu_info *info);

/*
 * Whether this PMU can count e. False, with *why one sentence for a person (a static string),
 * when e sets AnyThread and the PMU has none, when e is an architectural event that CPUID.0AH:EBX
 * marks unavailable, or when e is reference cycles and the PMU has no fixed counter 2 (they have
 * no GP encoding). Linux only drops its generic name for an EBX event (intel_arch_events_quirk:
 * "CPUID marked event ... unavailable") and still programs the raw code; this kernel refuses the
 * encoding itself, named or raw, because a count the CPU disowns cannot support a verdict.
 * *why is NULL when e is supported.
 */
bool pmu_event_supported(const struct pmu_geometry *g, const struct pmu_event *e, const char **why);

#endif
