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

#include "kernel/cpuid_regs.h"
#include "pmu/uarch.h"

/* CPUID leaves (SDM vol. 2A, CPUID) and the hypervisor leaf (0x40000000, by convention). */
#define CPUID_VENDOR 0x0u
#define CPUID_SIGNATURE 0x1u
#define CPUID_PERFMON 0xau
#define CPUID_HYPERVISOR 0x40000000u
#define CPUID_EXT_MAX 0x80000000u
#define CPUID_BRAND0 0x80000002u

#define CPUID1_ECX_PDCM (1u << 15)	 /* IA32_PERF_CAPABILITIES exists */
#define CPUID1_ECX_HYPERVISOR (1u << 31) /* running under a hypervisor */

/*
 * The raw values enumeration needs. A leaf that the CPU does not have (above the maximum its
 * leaf 0 or 0x80000000 reports) is left zero by pmu_cpuid_collect(); the decoder also checks the
 * maxima, so a caller may fill every field from a dump.
 */
struct pmu_cpuid {
	struct cpuid_regs vendor;     /* leaf 0: maximum basic leaf, vendor string */
	struct cpuid_regs signature;  /* leaf 1: family/model/stepping, PDCM, hypervisor bit */
	struct cpuid_regs perfmon;    /* leaf 0x0A: architectural performance monitoring */
	struct cpuid_regs ext_max;    /* leaf 0x80000000: maximum extended leaf */
	struct cpuid_regs brand[3];   /* leaves 0x80000002-4: brand string */
	struct cpuid_regs hypervisor; /* leaf 0x40000000 when the hypervisor bit is set */
	bool perf_caps_valid;	      /* perf_caps was read (PDCM set and the read did not fault) */
	uint64_t perf_caps;	      /* IA32_PERF_CAPABILITIES */
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
};

/* The counters as the driver and the model see them. */
struct pmu_geometry {
	unsigned version;     /* architectural performance monitoring version */
	unsigned gp;	      /* GP counters per logical CPU */
	unsigned gp_width;    /* their width in bits */
	unsigned fixed;	      /* fixed-function counters */
	unsigned fixed_width; /* their width in bits */
	bool full_width;      /* IA32_A_PMCx writes are available */
};

struct pmu_info {
	char vendor[13]; /* "GenuineIntel", "AuthenticAMD", ... */
	bool intel;
	unsigned family, model, stepping; /* display family and model (extended fields applied) */
	char brand[49];	   /* brand string without its leading blanks, "" when absent */
	unsigned max_leaf; /* CPUID leaf 0 EAX */
	bool pdcm;
	bool hypervisor;       /* CPUID.1:ECX[31] */
	char hv_signature[13]; /* e.g. "TCGTCGTCGTCG", "KVMKVMKVM"; "" when no hypervisor */

	/* CPUID 0x0A exactly as reported (zero when the leaf is absent). */
	unsigned version;
	unsigned gp, gp_width;
	unsigned fixed, fixed_width; /* 0 for version 1, which has no fixed counters */
	unsigned events_len;	     /* valid bits of events_unavailable */
	uint32_t events_unavailable; /* EBX, masked to events_len bits */

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
 * PMU_MAX_FIXED fixed counters).
 */
struct pmu_geometry pmu_info_geometry(const struct pmu_info *info);

#endif
