// SPDX-License-Identifier: GPL-2.0
/*
 * CPUID values for the enumeration tests, as data.
 *
 * Real machines: lines copied verbatim from InstLatx64's CPUID dumps (AIDA64 output),
 * https://github.com/InstLatx64/InstLatx64, directory GenuineIntel/, at commit
 * 087af2c7d72c9a6af85a3a079e8fdb878db23ba1; each dump names its file. Only the leaves enumeration
 * reads are kept (0, 1, 7, 0x0A, 0x80000000, 0x80000002-4), from the first logical CPU. HT off shows
 * as 8 GP counters per logical CPU in CPUID 0x0A (EAX[15:8]); parts without HT report it so.
 * No public dump of a Haswell without HT was found (InstLatx64 and libcpuid's test data have
 * none); Haswell is covered by the i7-4770 of the thesis, the ULT and the EP parts.
 *
 * QEMU: not dumps but what QEMU 7.2 under TCG reports (target/i386/cpu.c): family/model/
 * stepping per -cpu model, CPUID 0x0A all zero (even with pmu=on), the hypervisor bit set and
 * the signature "TCGTCGTCGTCG"; qemu64 reports AuthenticAMD family 15 model 107. The other
 * registers are zero here (the decoder does not read them).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pmu/msr.h"
#include "tests/host/lib/cpuid_dumps.h"

#define INSTLATX64 "https://github.com/InstLatx64/InstLatx64/blob/master/GenuineIntel/"

/* GenuineIntel00206A7_SandyBridge2_CPUID.txt: Core i7-2600, 4 cores, HT on. */
static const char *const snb_i7_2600[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000206A7-00100800-1FBAE3FF-BFEBFBFF",
	"CPUID 00000007: 00000000-00000000-00000000-00000000",
	"CPUID 0000000A: 07300403-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 20202020-20202020-65746E49-2952286C",
	"CPUID 80000003: 726F4320-4D542865-37692029-3036322D",
	"CPUID 80000004: 50432030-20402055-30342E33-007A4847",
	NULL,
};
const struct cpuid_dump cpuid_snb_i7_2600 = {
	.name = "Core i7-2600 (Sandy Bridge, HT on)",
	.source = INSTLATX64 "GenuineIntel00206A7_SandyBridge2_CPUID.txt",
	.lines = snb_i7_2600,
};

/* GenuineIntel00206A7_SandyBridge_CPUID.txt: Core i5-2400, 4 cores, no HT. */
static const char *const snb_i5_2400[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000206A7-00100800-1FBAE3FF-BFEBFBFF",
	"CPUID 00000007: 00000000-00000000-00000000-00000000",
	"CPUID 0000000A: 07300803-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 20202020-20202020-65746E49-2952286C",
	"CPUID 80000003: 726F4320-4D542865-35692029-3034322D",
	"CPUID 80000004: 50432030-20402055-30312E33-007A4847",
	NULL,
};
const struct cpuid_dump cpuid_snb_i5_2400 = {
	.name = "Core i5-2400 (Sandy Bridge, no HT)",
	.source = INSTLATX64 "GenuineIntel00206A7_SandyBridge_CPUID.txt",
	.lines = snb_i5_2400,
};

/* GenuineIntel00206D7_SandyBridgeE_00_CPUID.txt: Core i7-3930K, Sandy Bridge-E, HT on. */
static const char *const snbe_i7_3930k[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000206D7-00200800-1FBEE3BF-BFEBFBFF",
	"CPUID 00000007: 00000000-00000000-00000000-9C000400 [SL 00]",
	"CPUID 0000000A: 07300403-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 20202020-49202020-6C65746E-20295228 [       Intel(R) ]",
	"CPUID 80000003: 65726F43-294D5428-2D376920-30333933 [Core(TM) i7-3930]",
	"CPUID 80000004: 5043204B-20402055-30322E33-007A4847 [K CPU @ 3.20GHz]",
	NULL,
};
const struct cpuid_dump cpuid_snbe_i7_3930k = {
	.name = "Core i7-3930K (Sandy Bridge-E, HT on)",
	.source = INSTLATX64 "GenuineIntel00206D7_SandyBridgeE_00_CPUID.txt",
	.lines = snbe_i7_3930k,
};

/* GenuineIntel00306A9_IvyBridge_CPUID.txt: Core i7-3770K, HT on. */
static const char *const ivb_i7_3770k[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000306A9-00100800-7F9AE3BF-BFEBFBFF",
	"CPUID 00000007: 00000000-00000281-00000000-00000000",
	"CPUID 0000000A: 07300403-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 20202020-49202020-6C65746E-20295228 [       Intel(R) ]",
	"CPUID 80000003: 65726F43-294D5428-2D376920-30373733 [Core(TM) i7-3770]",
	"CPUID 80000004: 5043204B-20402055-30352E33-007A4847 [K CPU @ 3.50GHz]",
	NULL,
};
const struct cpuid_dump cpuid_ivb_i7_3770k = {
	.name = "Core i7-3770K (Ivy Bridge, HT on)",
	.source = INSTLATX64 "GenuineIntel00306A9_IvyBridge_CPUID.txt",
	.lines = ivb_i7_3770k,
};

/* GenuineIntel00306A9_IvyBridge_CPUID2.txt: Celeron G1610, 2 cores, no HT. */
static const char *const ivb_g1610[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000306A9-00100800-0D9AE3BF-BFEBFBFF",
	"CPUID 00000007: 00000000-00000281-00000000-00000000",
	"CPUID 0000000A: 07300803-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 20202020-20202020-65746E49-2952286C",
	"CPUID 80000003: 6C654320-6E6F7265-20295228-20555043",
	"CPUID 80000004: 31363147-20402030-30362E32-007A4847",
	NULL,
};
const struct cpuid_dump cpuid_ivb_g1610 = {
	.name = "Celeron G1610 (Ivy Bridge, no HT)",
	.source = INSTLATX64 "GenuineIntel00306A9_IvyBridge_CPUID2.txt",
	.lines = ivb_g1610,
};

/* GenuineIntel00306E4_IvyBridgeE_CPUID.txt: Core i7-4930K, Ivy Bridge-E, HT on. */
static const char *const ivbe_i7_4930k[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000306E4-00200800-7FBEE3BF-BFEBFBFF",
	"CPUID 00000007: 00000000-00000281-00000000-00000000",
	"CPUID 0000000A: 07300403-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 20202020-49202020-6C65746E-20295228 [       Intel(R) ]",
	"CPUID 80000003: 65726F43-294D5428-2D376920-30333934 [Core(TM) i7-4930]",
	"CPUID 80000004: 5043204B-20402055-30342E33-007A4847 [K CPU @ 3.40GHz]",
	NULL,
};
const struct cpuid_dump cpuid_ivbe_i7_4930k = {
	.name = "Core i7-4930K (Ivy Bridge-E, HT on)",
	.source = INSTLATX64 "GenuineIntel00306E4_IvyBridgeE_CPUID.txt",
	.lines = ivbe_i7_4930k,
};

/* GenuineIntel00306C3_Haswell_CPUID.txt: Core i7-4770, HT on (thesis ch. 7: "Core i7-4770"). */
static const char *const hsw_i7_4770[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000306C3-00100800-7FFAFBFF-BFEBFBFF",
	"CPUID 00000007: 00000000-000027AB-00000000-00000000",
	"CPUID 0000000A: 07300403-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 65746E49-2952286C-726F4320-4D542865 [Intel(R) Core(TM]",
	"CPUID 80000003: 37692029-3737342D-50432030-20402055 [) i7-4770 CPU @ ]",
	"CPUID 80000004: 30342E33-007A4847-00000000-00000000 [3.40GHz]",
	NULL,
};
const struct cpuid_dump cpuid_hsw_i7_4770 = {
	.name = "Core i7-4770 (Haswell, HT on)",
	.source = INSTLATX64 "GenuineIntel00306C3_Haswell_CPUID.txt",
	.lines = hsw_i7_4770,
};

/* GenuineIntel0040651_HaswellULT_CPUID.txt: Core i7-4500U, Haswell ULT, HT on. */
static const char *const hsw_i7_4500u[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 00040651-00100800-7FDAFBBF-BFEBFBFF",
	"CPUID 00000007: 00000000-000027AB-00000000-00000000",
	"CPUID 0000000A: 07300403-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 65746E49-2952286C-726F4320-4D542865",
	"CPUID 80000003: 37692029-3035342D-43205530-40205550",
	"CPUID 80000004: 382E3120-7A484730-00000000-00000000",
	NULL,
};
const struct cpuid_dump cpuid_hsw_i7_4500u = {
	.name = "Core i7-4500U (Haswell ULT, HT on)",
	.source = INSTLATX64 "GenuineIntel0040651_HaswellULT_CPUID.txt",
	.lines = hsw_i7_4500u,
};

/* GenuineIntel00306F2_HaswellEP_CPUID.txt: Xeon E5-2699 v3, Haswell-EP, HT on. */
static const char *const hswep_e5_2699[] = {
	"CPUID 00000000: 0000000F-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000306F2-00400800-7DFEFBFF-BFEBFBFF",
	"CPUID 00000007: 00000000-00003FBB-00000000-00000000",
	"CPUID 0000000A: 07300403-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 65746E49-2952286C-6F655820-2952286E [Intel(R) Xeon(R)]",
	"CPUID 80000003: 55504320-2D354520-39393632-20337620 [ CPU E5-2699 v3 ]",
	"CPUID 80000004: 2E322040-48473033-0000007A-00000000 [@ 2.30GHz]",
	NULL,
};
const struct cpuid_dump cpuid_hswep_e5_2699 = {
	.name = "Xeon E5-2699 v3 (Haswell-EP, HT on)",
	.source = INSTLATX64 "GenuineIntel00306F2_HaswellEP_CPUID.txt",
	.lines = hswep_e5_2699,
};

/*
 * GenuineIntel00506E3_SkyLake_01_CPUID.txt: Core i7-6700K, HT on, with the 2019 microcode
 * (IA32_BIOS_SIGN_ID revision 0xD6): leaf 7 EDX 0x9C002400 has TSX_FORCE_ABORT (bit 13).
 */
static const char *const skl_i7_6700k[] = {
	"CPUID 00000000: 00000016-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000506E3-00100800-7FFAFBBF-BFEBFBFF",
	"CPUID 00000007: 00000000-029C6FBF-00000000-9C002400 [SL 00]",
	"CPUID 0000000A: 07300404-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 65746E49-2952286C-726F4320-4D542865 [Intel(R) Core(TM]",
	"CPUID 80000003: 37692029-3037362D-43204B30-40205550 [) i7-6700K CPU @]",
	"CPUID 80000004: 302E3420-7A484730-00000000-00000000 [ 4.00GHz]",
	NULL,
};
const struct cpuid_dump cpuid_skl_i7_6700k = {
	.name = "Core i7-6700K (Skylake, HT on)",
	.source = INSTLATX64 "GenuineIntel00506E3_SkyLake_01_CPUID.txt",
	.lines = skl_i7_6700k,
};

/* GenuineIntel00506E3_Skylake_CPUID.txt: Core i5-6400T, no HT. */
static const char *const skl_i5_6400t[] = {
	"CPUID 00000000: 00000016-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000506E3-00100800-7FFAFBFF-BFEBFBFF",
	"CPUID 00000007: 00000000-029C67AF-00000000-00000000",
	"CPUID 0000000A: 07300804-00000000-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 65746E49-2952286C-726F4320-4D542865 [Intel(R) Core(TM]",
	"CPUID 80000003: 35692029-3034362D-43205430-40205550 [) i5-6400T CPU @]",
	"CPUID 80000004: 322E3220-7A484730-00000000-00000000 [ 2.20GHz]",
	NULL,
};
const struct cpuid_dump cpuid_skl_i5_6400t = {
	.name = "Core i5-6400T (Skylake, no HT)",
	.source = INSTLATX64 "GenuineIntel00506E3_Skylake_CPUID.txt",
	.lines = skl_i5_6400t,
};

/*
 * GenuineIntel00006F6_Conroe_CPUID.txt: Core 2 Extreme X6800 (Conroe B2), 2 cores. Version 2
 * with EDX = 0: no fixed counters reported, the case of Linux's "v2 perfmon does not report
 * fixed-purpose events" quirk. Its IA32_BIOS_SIGN_ID read 0x0000004400000000 (revision 0x44).
 */
static const char *const conroe_x6800[] = {
	"CPUID 00000000: 0000000A-756E6547-6C65746E-49656E69 [GenuineIntel]",
	"CPUID 00000001: 000006F6-00020800-0000E3BD-BFEBFBFF",
	"CPUID 00000007: 00000000-00000000-00000000-00000000",
	"CPUID 0000000A: 07280202-00000000-00000000-00000000",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 65746E49-2952286C-726F4320-4D542865 [Intel(R) Core(TM]",
	"CPUID 80000003: 43203229-20205550-20202020-58202020 [)2 CPU         X]",
	"CPUID 80000004: 30303836-20402020-33392E32-007A4847 [6800  @ 2.93GHz]",
	NULL,
};
const struct cpuid_dump cpuid_conroe_x6800 = {
	.name = "Core 2 Extreme X6800 (Conroe, version 2, no fixed counters reported)",
	.source = INSTLATX64 "GenuineIntel00006F6_Conroe_CPUID.txt",
	.lines = conroe_x6800,
};

/*
 * GenuineIntel00106E5_Lynnfield_CPUID.txt: Core i7 860 (Nehalem), HT on. CPUID.0AH:EBX = 0x44:
 * reference cycles (bit 2) and branch misses retired (bit 6, erratum AAJ80) are not available.
 */
static const char *const lynnfield_i7_860[] = {
	"CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000106E5-00100800-0098E3FD-BFEBFBFF",
	"CPUID 00000007: 00000000-00000000-00000000-00000000",
	"CPUID 0000000A: 07300403-00000044-00000000-00000603",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	"CPUID 80000002: 65746E49-2952286C-726F4320-4D542865",
	"CPUID 80000003: 37692029-55504320-20202020-20202020",
	"CPUID 80000004: 30363820-20402020-30382E32-007A4847",
	NULL,
};
const struct cpuid_dump cpuid_lynnfield_i7_860 = {
	.name = "Core i7 860 (Lynnfield, EBX marks two events unavailable)",
	.source = INSTLATX64 "GenuineIntel00106E5_Lynnfield_CPUID.txt",
	.lines = lynnfield_i7_860,
};

/*
 * QEMU 7.2, TCG (target/i386/cpu.c, the CPU model definitions). Leaf 1 ECX has only the hypervisor bit
 * (31); 0x40000000 carries "TCGTCGTCGTCG" in EBX, ECX, EDX. The vendor of qemu64 is AuthenticAMD
 * (EBX "Auth", EDX "enti", ECX "cAMD").
 */
static const char *const qemu_sandybridge[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000206A1-00000800-80000000-00000000",
	"CPUID 0000000A: 00000000-00000000-00000000-00000000",
	"CPUID 40000000: 40000001-54474354-43544743-47435447",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	NULL,
};
const struct cpuid_dump cpuid_qemu_sandybridge = {
	.name = "QEMU -cpu SandyBridge (TCG)",
	.source = "QEMU 7.2 -cpu SandyBridge: family 6 model 0x2A stepping 1",
	.lines = qemu_sandybridge,
};

static const char *const qemu_ivybridge[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000306A9-00000800-80000000-00000000",
	"CPUID 0000000A: 00000000-00000000-00000000-00000000",
	"CPUID 40000000: 40000001-54474354-43544743-47435447",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	NULL,
};
const struct cpuid_dump cpuid_qemu_ivybridge = {
	.name = "QEMU -cpu IvyBridge (TCG)",
	.source = "QEMU 7.2 -cpu IvyBridge: 6/0x3A/9",
	.lines = qemu_ivybridge,
};

static const char *const qemu_haswell[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000306C4-00000800-80000000-00000000",
	"CPUID 0000000A: 00000000-00000000-00000000-00000000",
	"CPUID 40000000: 40000001-54474354-43544743-47435447",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	NULL,
};
const struct cpuid_dump cpuid_qemu_haswell = {
	.name = "QEMU -cpu Haswell (TCG)",
	.source = "QEMU 7.2 -cpu Haswell: 6/0x3C/4",
	.lines = qemu_haswell,
};

static const char *const qemu_skylake_client[] = {
	"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69",
	"CPUID 00000001: 000506E3-00000800-80000000-00000000",
	"CPUID 0000000A: 00000000-00000000-00000000-00000000",
	"CPUID 40000000: 40000001-54474354-43544743-47435447",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	NULL,
};
const struct cpuid_dump cpuid_qemu_skylake_client = {
	.name = "QEMU -cpu Skylake-Client (TCG)",
	.source = "QEMU 7.2 -cpu Skylake-Client: 6/0x5E/3",
	.lines = qemu_skylake_client,
};

/* Family 15 = base 0xF + extended 0; model 107 = 0x6B: extended model 6, base model 0xB. */
static const char *const qemu_qemu64[] = {
	"CPUID 00000000: 0000000D-68747541-444D4163-69746E65",
	"CPUID 00000001: 00060FB1-00000800-80000000-00000000",
	"CPUID 0000000A: 00000000-00000000-00000000-00000000",
	"CPUID 40000000: 40000001-54474354-43544743-47435447",
	"CPUID 80000000: 80000008-00000000-00000000-00000000",
	NULL,
};
const struct cpuid_dump cpuid_qemu_qemu64 = {
	.name = "QEMU -cpu qemu64 (TCG)",
	.source = "QEMU 7.2 -cpu qemu64: reports AuthenticAMD family 15 model 107",
	.lines = qemu_qemu64,
};

/* The registers of leaf in d; false when d has no such line. */
static bool cpuid_dump_leaf(const struct cpuid_dump *d, uint32_t leaf, struct cpuid_regs *out)
{
	for (const char *const *l = d->lines; *l; l++) {
		unsigned lf, a, b, c, e;
		if (sscanf(*l, "CPUID %x: %x-%x-%x-%x", &lf, &a, &b, &c, &e) != 5)
			continue;
		if (lf != leaf)
			continue;
		out->eax = a;
		out->ebx = b;
		out->ecx = c;
		out->edx = e;
		return true;
	}
	return false;
}

/* A pmu_cpuid_fn over a dump (ctx is the dump): leaves it lacks read as zero. */
static void cpuid_dump_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)subleaf;
	if (!cpuid_dump_leaf(ctx, leaf, out))
		memset(out, 0, sizeof(*out));
}

struct dump_ctx {
	const struct cpuid_dump *dump;
	uint64_t perf_caps;
};

static void ctx_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	cpuid_dump_cpuid((void *)((struct dump_ctx *)ctx)->dump, leaf, subleaf, out);
}

static bool ctx_rdmsr(void *ctx, uint32_t msr, uint64_t *value)
{
	if (msr != IA32_PERF_CAPABILITIES)
		return false;
	*value = ((struct dump_ctx *)ctx)->perf_caps;
	return true;
}

void cpuid_dump_decode(const struct cpuid_dump *d, uint64_t perf_caps, struct pmu_info *info)
{
	struct dump_ctx ctx = { .dump = d, .perf_caps = perf_caps };
	struct pmu_cpuid c;

	pmu_cpuid_collect(&c, ctx_cpuid, ctx_rdmsr, &ctx);
	pmu_info_decode(&c, info);
}
