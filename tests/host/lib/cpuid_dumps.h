/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPUID values of real machines and of QEMU, for the enumeration tests (host only).
 */
#ifndef TESTS_HOST_LIB_CPUID_DUMPS_H
#define TESTS_HOST_LIB_CPUID_DUMPS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/enumerate.h"

/*
 * A dump as lines in InstLatx64's format, "CPUID 0000000A: 07300403-00000000-00000000-00000603"
 * (leaf: EAX-EBX-ECX-EDX; anything after the registers is ignored), NULL-terminated.
 */
struct cpuid_dump {
	const char *name;   /* the machine */
	const char *source; /* where the values come from */
	const char *const *lines;
};

extern const struct cpuid_dump cpuid_snb_i7_2600;      /* Sandy Bridge 6/0x2A, HT on */
extern const struct cpuid_dump cpuid_snb_i5_2400;      /* Sandy Bridge 6/0x2A, no HT */
extern const struct cpuid_dump cpuid_snbe_i7_3930k;    /* Sandy Bridge-E 6/0x2D, HT on */
extern const struct cpuid_dump cpuid_ivb_i7_3770k;     /* Ivy Bridge 6/0x3A, HT on */
extern const struct cpuid_dump cpuid_ivb_g1610;	       /* Ivy Bridge 6/0x3A, no HT */
extern const struct cpuid_dump cpuid_ivbe_i7_4930k;    /* Ivy Bridge-E 6/0x3E, HT on */
extern const struct cpuid_dump cpuid_hsw_i7_4770;      /* Haswell 6/0x3C, HT on: the thesis's CPU */
extern const struct cpuid_dump cpuid_hsw_i7_4500u;     /* Haswell ULT 6/0x45, HT on */
extern const struct cpuid_dump cpuid_hswep_e5_2699;    /* Haswell-EP 6/0x3F, HT on */
extern const struct cpuid_dump cpuid_skl_i7_6700k;     /* Skylake 6/0x5E, HT on */
extern const struct cpuid_dump cpuid_skl_i5_6400t;     /* Skylake 6/0x5E, no HT */
extern const struct cpuid_dump cpuid_conroe_x6800;     /* Core 2 6/0x0F: version 2, EDX = 0 */
extern const struct cpuid_dump cpuid_lynnfield_i7_860; /* Nehalem 6/0x1E: EBX = 0x44 */
extern const struct cpuid_dump cpuid_qemu_sandybridge;
extern const struct cpuid_dump cpuid_qemu_ivybridge;
extern const struct cpuid_dump cpuid_qemu_haswell;
extern const struct cpuid_dump cpuid_qemu_skylake_client;
extern const struct cpuid_dump cpuid_qemu_qemu64;

/* Collect and decode a dump; perf_caps as IA32_PERF_CAPABILITIES when PDCM is set. */
void cpuid_dump_decode(const struct cpuid_dump *d, uint64_t perf_caps, struct pmu_info *info);

#endif
