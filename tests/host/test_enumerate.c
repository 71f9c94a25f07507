// SPDX-License-Identifier: GPL-2.0
/*
 * Enumeration (pmu/enumerate.c) on CPUID values of real Sandy Bridge, Ivy Bridge, Haswell and
 * Skylake machines and of QEMU's TCG (tests/host/lib/cpuid_dumps.c names the source of each).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/enumerate.h"
#include "pmu/msr.h"
#include "tests/host/lib/cpuid_dumps.h"
#include "tests/host/lib/test_util.h"

struct machine {
	const struct cpuid_dump *dump;
	const char *brand;
	unsigned family, model, stepping;
	unsigned version, gp;
	const char *uarch, *erratum;
};

/* What each machine is, from its brand string and Intel's model numbers (Linux, arch/x86/include/asm/intel-family.h). */
static const struct machine machines[] = {
	{ &cpuid_snb_i7_2600, "Intel(R) Core(TM) i7-2600 CPU @ 3.40GHz", 6, 0x2a, 7, 3, 4,
	  "sandybridge", "BJ122" },
	{ &cpuid_snb_i5_2400, "Intel(R) Core(TM) i5-2400 CPU @ 3.10GHz", 6, 0x2a, 7, 3, 8,
	  "sandybridge", "BJ122" },
	{ &cpuid_snbe_i7_3930k, "Intel(R) Core(TM) i7-3930K CPU @ 3.20GHz", 6, 0x2d, 7, 3, 4,
	  "sandybridge", "BJ122" },
	{ &cpuid_ivb_i7_3770k, "Intel(R) Core(TM) i7-3770K CPU @ 3.50GHz", 6, 0x3a, 9, 3, 4,
	  "ivybridge", "BV98" },
	{ &cpuid_ivb_g1610, "Intel(R) Celeron(R) CPU G1610 @ 2.60GHz", 6, 0x3a, 9, 3, 8,
	  "ivybridge", "BV98" },
	{ &cpuid_ivbe_i7_4930k, "Intel(R) Core(TM) i7-4930K CPU @ 3.40GHz", 6, 0x3e, 4, 3, 4,
	  "ivybridge", "BV98" },
	{ &cpuid_hsw_i7_4770, "Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz", 6, 0x3c, 3, 3, 4,
	  "haswell", "HSD29" },
	{ &cpuid_hsw_i7_4500u, "Intel(R) Core(TM) i7-4500U CPU @ 1.80GHz", 6, 0x45, 1, 3, 4,
	  "haswell", "HSD29" },
	{ &cpuid_hswep_e5_2699, "Intel(R) Xeon(R) CPU E5-2699 v3 @ 2.30GHz", 6, 0x3f, 2, 3, 4,
	  "haswell", "HSD29" },
	{ &cpuid_skl_i7_6700k, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz", 6, 0x5e, 3, 4, 4,
	  "skylake", NULL },
	{ &cpuid_skl_i5_6400t, "Intel(R) Core(TM) i5-6400T CPU @ 2.20GHz", 6, 0x5e, 3, 4, 8,
	  "skylake", NULL },
};

static void test_real_machines(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(machines) / sizeof(machines[0]); k++) {
		const struct machine *m = &machines[k];
		struct pmu_info info;

		cpuid_dump_decode(m->dump, 0, &info);
		print_message("  %s\n", m->dump->name);
		assert_string_equal(info.vendor, "GenuineIntel");
		assert_true(info.intel);
		assert_string_equal(info.brand, m->brand);
		assert_int_equal(info.family, m->family);
		assert_int_equal(info.model, m->model);
		assert_int_equal(info.stepping, m->stepping);
		assert_false(info.hypervisor);
		assert_string_equal(info.hv_signature, "");
		assert_true(info.pdcm);
		/* CPUID 0x0A: version, GP counters per logical CPU, 48-bit counters, 3 fixed. */
		assert_int_equal(info.version, m->version);
		assert_int_equal(info.gp, m->gp);
		assert_int_equal(info.gp_width, 48);
		assert_int_equal(info.fixed, 3);
		assert_int_equal(info.fixed_width, 48);
		assert_int_equal(info.events_len, 7);
		assert_int_equal(info.events_unavailable, 0);
		for (unsigned ev = ARCH_EVENT_CORE_CYCLES; ev <= ARCH_EVENT_BRANCH_MISSES; ev++)
			assert_true(pmu_info_arch_event(&info, ev));
		assert_string_equal(info.uarch->name, m->uarch);
		assert_str_or_null(info.uarch->erratum, m->erratum);
		/* Only the i7-6700K's microcode enumerates TSX_FORCE_ABORT (its leaf 7 EDX[13]). */
		assert_int_equal(info.tsx_force_abort, m->dump == &cpuid_skl_i7_6700k);
		assert_int_equal(pmu_info_geometry(&info).tsx_force_abort, info.tsx_force_abort);
		assert_int_equal(pmu_info_geometry(&info).arch_events_unavailable, 0xffffff80u);
	}
}

/*
 * Linux intel_pmu_init: a version-2 PMU that reports no fixed counters (the Core 2 Extreme
 * X6800: EDX = 0) has 3 outside a hypervisor, of the GP counters' width; inside one, CPUID is
 * believed. Versions 3 and 4 report theirs, and from version 5 ECX is a bitmap of them.
 */
static void test_fixed_counter_quirk(void **state)
{
	(void)state;
	struct pmu_info info;

	cpuid_dump_decode(&cpuid_conroe_x6800, 0, &info);
	assert_string_equal(info.brand, "Intel(R) Core(TM)2 CPU         X6800  @ 2.93GHz");
	assert_int_equal(info.version, 2);
	assert_int_equal(info.gp, 2);
	assert_int_equal(info.gp_width, 40);
	assert_int_equal(info.fixed_cpuid, 0);
	assert_int_equal(info.fixed, 3);
	assert_int_equal(info.fixed_width, 40);
	assert_int_equal(pmu_info_geometry(&info).fixed, 3);

	struct pmu_cpuid c;
	memset(&c, 0, sizeof(c));
	c.vendor = (struct cpuid_regs){ 0xa, 0x756e6547, 0x6c65746e, 0x49656e69 };
	c.signature = (struct cpuid_regs){ 0x000006f6, 0, CPUID1_ECX_HYPERVISOR, 0 };
	c.perfmon = (struct cpuid_regs){ 0x07280202, 0, 0, 0 };
	pmu_info_decode(&c, &info);
	assert_int_equal(info.fixed, 0); /* a hypervisor's CPUID is taken as given */
	c.signature.ecx = 0;
	c.perfmon = (struct cpuid_regs){ 0x07300805, 0, 0x7, 0x0 }; /* version 5: ECX bitmap */
	pmu_info_decode(&c, &info);
	assert_int_equal(info.fixed, 3);
	c.perfmon.edx = 0x8000; /* AnyThread deprecated (version 5) */
	pmu_info_decode(&c, &info);
	assert_true(info.any_thread_deprecated);
	assert_true(pmu_info_geometry(&info).any_thread_deprecated);
	c.perfmon =
		(struct cpuid_regs){ 0x07300404, 0, 0, 0x8603 }; /* bit 15 means nothing in v4 */
	pmu_info_decode(&c, &info);
	assert_false(info.any_thread_deprecated);
}

/* Linux deploys TFA when CPUID.7.0:EDX has TSX_FORCE_ABORT and not RTM_ALWAYS_ABORT. */
static void test_tsx_force_abort(void **state)
{
	(void)state;
	struct pmu_info info;
	struct pmu_cpuid c;

	cpuid_dump_decode(&cpuid_skl_i7_6700k, 0, &info);
	assert_true(info.tsx_force_abort);
	assert_true(pmu_info_geometry(&info).tsx_force_abort);

	memset(&c, 0, sizeof(c));
	c.vendor = (struct cpuid_regs){ 0x16, 0x756e6547, 0x6c65746e, 0x49656e69 };
	c.signature.eax = 0x000506e3;
	c.perfmon = (struct cpuid_regs){ 0x07300404, 0, 0, 0x603 };
	c.ext_features.edx = CPUID7_EDX_TSX_FORCE_ABORT | CPUID7_EDX_RTM_ALWAYS_ABORT;
	pmu_info_decode(&c, &info);
	assert_false(info.tsx_force_abort); /* TSX off for good: nothing to work around */
	/* Leaf 7 above the maximum basic leaf is not believed. */
	c.ext_features.edx = CPUID7_EDX_TSX_FORCE_ABORT;
	c.vendor.eax = 6;
	pmu_info_decode(&c, &info);
	assert_false(info.tsx_force_abort);
	/* A PMU with no counter 3 (HT on with 3 GP counters) needs no TFA either. */
	c.vendor.eax = 0x16;
	c.perfmon.eax = 0x07300304;
	pmu_info_decode(&c, &info);
	assert_true(info.tsx_force_abort);
	assert_false(pmu_info_geometry(&info).tsx_force_abort);
}

static struct pmu_event raw(uint16_t code)
{
	return ev(code, true, false);
}

/* pmu_event_supported() on the geometries of real machines. */
static void test_event_supported(void **state)
{
	(void)state;
	struct pmu_info info;
	struct pmu_geometry g;
	const char *why;
	struct pmu_event any = raw(0x00c4);

	any.any = true;
	/* Sandy Bridge: version 3, every architectural event. AnyThread is fine (and counts both
	 * threads, SDM vol. 3B, 18.2.3). */
	cpuid_dump_decode(&cpuid_snb_i7_2600, 0, &info);
	g = pmu_info_geometry(&info);
	for (unsigned k = 0; k < 7; k++) {
		static const uint16_t codes[] = { 0x003c, 0x00c0, 0x013c, 0x4f2e,
						  0x412e, 0x00c4, 0x00c5 };
		struct pmu_event e = raw(codes[k]);
		assert_true(pmu_event_supported(&g, &e, &why));
		assert_null(why);
	}
	assert_true(pmu_event_supported(&g, &any, &why));

	/* Core 2 (version 2): the AnyThread write would #GP. */
	cpuid_dump_decode(&cpuid_conroe_x6800, 0, &info);
	g = pmu_info_geometry(&info);
	assert_false(pmu_event_supported(&g, &any, &why));
	assert_non_null(strstr(why, "version 3"));
	struct pmu_event plain = raw(0x00c4);
	assert_true(pmu_event_supported(&g, &plain, &why));

	/* Lynnfield: EBX = 0x44, reference cycles (GP encoding) and branch misses are gone, named
	 * or raw, with any filter; branches and reference cycles on fixed counter 2 remain. */
	cpuid_dump_decode(&cpuid_lynnfield_i7_860, 0, &info);
	g = pmu_info_geometry(&info);
	assert_int_equal(g.arch_events_unavailable, 0xffffff80u | 0x44);
	struct pmu_event misses = raw(0x00c5), bus = raw(0x013c), ref = raw(0x0300);
	assert_false(pmu_event_supported(&g, &misses, &why));
	assert_non_null(strstr(why, "EBX[6]"));
	misses.cmask = 1;
	assert_false(pmu_event_supported(&g, &misses, &why));
	assert_false(pmu_event_supported(&g, &bus, &why));
	assert_non_null(strstr(why, "EBX[2]"));
	assert_true(pmu_event_supported(&g, &plain, &why));
	assert_true(pmu_event_supported(&g, &ref, &why));
	assert_true(pmu_event_supported(&g, &any, &why)); /* version 3 */
	/* Not architectural: never concerned. */
	struct pmu_event loads = raw(0x81d0);
	assert_true(pmu_event_supported(&g, &loads, &why));

	/* No fixed counter 2: reference cycles have nowhere to go. */
	g.fixed = 2;
	assert_false(pmu_event_supported(&g, &ref, &why));
	assert_non_null(strstr(why, "fixed counter 2"));

	/* The model's geometry counts everything (version 3, no unavailable events). */
	g = (struct pmu_geometry){ .version = 3, .gp = 4, .fixed = 3 };
	assert_true(pmu_event_supported(&g, &misses, &why));
	assert_true(pmu_event_supported(&g, &any, &why));
	g.any_thread_deprecated = true;
	assert_false(pmu_event_supported(&g, &any, &why));
	assert_non_null(strstr(why, "deprecated"));
}

static void test_full_width(void **state)
{
	(void)state;
	struct pmu_info info;

	/*
	 * IA32_PERF_CAPABILITIES of an i5-3570 (Ivy Bridge) is 0x31c3 in VirtualBox's CPU report
	 * (src/VBox/VMM/VMMR3/cpus/Intel_Core_i5_3570.h): bit 13, full-width writes, is set.
	 */
	cpuid_dump_decode(&cpuid_ivb_i7_3770k, 0x31c3, &info);
	assert_true(info.perf_caps_valid);
	assert_int_equal(info.perf_caps, 0x31c3);
	assert_true(info.full_width);
	assert_true(pmu_info_geometry(&info).full_width);
	cpuid_dump_decode(&cpuid_ivb_i7_3770k, 0x31c3 & ~PERF_CAP_FW_WRITE, &info);
	assert_false(info.full_width);
	/* Without PDCM the MSR does not exist and is never read (QEMU's values have no PDCM). */
	cpuid_dump_decode(&cpuid_qemu_haswell, 0x2000, &info);
	assert_false(info.perf_caps_valid);
	assert_false(info.full_width);
}

struct qemu_case {
	const struct cpuid_dump *dump;
	unsigned family, model, stepping;
	const char *uarch, *erratum;
};

/* The QEMU CPU models of the boot matrix (issue 5) and what they must decode to. */
static const struct qemu_case qemu_cases[] = {
	{ &cpuid_qemu_sandybridge, 6, 0x2a, 1, "sandybridge", "BJ122" },
	{ &cpuid_qemu_ivybridge, 6, 0x3a, 9, "ivybridge", "BV98" },
	{ &cpuid_qemu_haswell, 6, 0x3c, 4, "haswell", "HSD29" },
	{ &cpuid_qemu_skylake_client, 6, 0x5e, 3, "skylake", NULL },
	{ &cpuid_qemu_qemu64, 15, 107, 1, "unknown", NULL },
};

static void test_qemu(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(qemu_cases) / sizeof(qemu_cases[0]); k++) {
		const struct qemu_case *q = &qemu_cases[k];
		struct pmu_info info;

		cpuid_dump_decode(q->dump, 0, &info);
		print_message("  %s\n", q->dump->name);
		assert_int_equal(info.family, q->family);
		assert_int_equal(info.model, q->model);
		assert_int_equal(info.stepping, q->stepping);
		assert_true(info.hypervisor);
		assert_string_equal(info.hv_signature, "TCGTCGTCGTCG");
		assert_int_equal(info.version, 0);
		assert_int_equal(info.gp, 0);
		assert_int_equal(info.fixed, 0);

		assert_string_equal(info.uarch->id == UARCH_GENERIC ? "unknown" : info.uarch->name,
				    q->uarch);
		assert_str_or_null(info.uarch->erratum, q->erratum);
	}

	struct pmu_info info;
	cpuid_dump_decode(&cpuid_qemu_qemu64, 0, &info);
	assert_string_equal(info.vendor, "AuthenticAMD");
	assert_false(info.intel);
	assert_string_equal(info.brand, "");
}

/* A CPUID made of a table, which records the leaves asked for. */
struct fake_cpu {
	struct cpuid_regs leaf0, leaf1, leafa, hv, ext0;
	uint32_t asked[16];
	unsigned nasked;
	unsigned msr_reads;
};

static void fake_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	struct fake_cpu *f = ctx;
	struct cpuid_regs zero = { 0, 0, 0, 0 };

	(void)subleaf;
	if (f->nasked < 16)
		f->asked[f->nasked++] = leaf;
	*out = leaf == 0	    ? f->leaf0
	       : leaf == 1	    ? f->leaf1
	       : leaf == 0xa	    ? f->leafa
	       : leaf == 0x40000000 ? f->hv
	       : leaf == 0x80000000 ? f->ext0
				    : zero;
}

static bool fake_rdmsr(void *ctx, uint32_t msr, uint64_t *value)
{
	struct fake_cpu *f = ctx;

	f->msr_reads++;
	*value = msr == IA32_PERF_CAPABILITIES ? PERF_CAP_FW_WRITE : 0;
	return msr == IA32_PERF_CAPABILITIES;
}

static bool asked(const struct fake_cpu *f, uint32_t leaf)
{
	for (unsigned k = 0; k < f->nasked; k++)
		if (f->asked[k] == leaf)
			return true;
	return false;
}

static void test_collect_respects_maxima(void **state)
{
	(void)state;
	/* A CPU whose highest basic leaf is 7 and whose extended leaves stop at 0x80000001. */
	struct fake_cpu f = {
		.leaf0 = { 7, 0x756e6547, 0x6c65746e, 0x49656e69 },
		.leaf1 = { 0x000106a5, 0, 0, 0 },
		.leafa = { 0x07300403, 0, 0, 0x603 },
		.ext0 = { 0x80000001, 0, 0, 0 },
	};
	struct pmu_cpuid c;
	struct pmu_info info;

	pmu_cpuid_collect(&c, fake_cpuid, fake_rdmsr, &f);
	assert_false(asked(&f, 0xa));
	assert_false(asked(&f, 0x80000002));
	assert_false(asked(&f, 0x40000000)); /* no hypervisor bit */
	assert_int_equal(f.msr_reads, 0);    /* no PDCM */
	pmu_info_decode(&c, &info);
	assert_int_equal(info.version, 0);
	assert_string_equal(info.brand, "");
	assert_int_equal(info.model, 0x1a); /* Nehalem: no tables */
	assert_string_equal(info.uarch->name, "generic");

	/* Even if a caller fills leaf 0x0A from a dump, the decoder ignores it above the maximum. */
	c.perfmon = f.leafa;
	pmu_info_decode(&c, &info);
	assert_int_equal(info.version, 0);

	/* With PDCM and the hypervisor bit both are read. */
	memset(&f.asked, 0, sizeof(f.asked));
	f.nasked = 0;
	f.leaf0.eax = 0xd;
	f.leaf1.ecx = CPUID1_ECX_PDCM | CPUID1_ECX_HYPERVISOR;
	pmu_cpuid_collect(&c, fake_cpuid, fake_rdmsr, &f);
	assert_true(asked(&f, 0xa));
	assert_true(asked(&f, 0x40000000));
	assert_int_equal(f.msr_reads, 1);
	assert_true(c.perf_caps_valid);
	/* And without an rdmsr function IA32_PERF_CAPABILITIES is simply not known. */
	pmu_cpuid_collect(&c, fake_cpuid, NULL, &f);
	assert_false(c.perf_caps_valid);
}

static void test_perfmon_fields(void **state)
{
	(void)state;
	struct pmu_cpuid c;
	struct pmu_info info;

	memset(&c, 0, sizeof(c));
	c.vendor = (struct cpuid_regs){ 0xd, 0x756e6547, 0x6c65746e, 0x49656e69 };
	c.signature.eax = 0x000306c3;
	/* Version 1 has no fixed counters whatever EDX says; auto falls back to the model. */
	c.perfmon = (struct cpuid_regs){ 0x07280201, 0, 0, 0x603 };
	pmu_info_decode(&c, &info);
	assert_int_equal(info.version, 1);
	assert_int_equal(info.gp, 2);
	assert_int_equal(info.gp_width, 40);
	assert_int_equal(info.fixed, 0);

	/* The unavailable-events vector: bit set = not available, only within its length. */
	c.perfmon = (struct cpuid_regs){ 0x05300403, 0xffffff44, 0, 0x603 };
	pmu_info_decode(&c, &info);
	assert_int_equal(info.events_len, 5);
	assert_int_equal(info.events_unavailable, 0x04);
	assert_true(pmu_info_arch_event(&info, ARCH_EVENT_CORE_CYCLES));
	assert_false(pmu_info_arch_event(&info, ARCH_EVENT_REF_CYCLES));
	assert_true(pmu_info_arch_event(&info, ARCH_EVENT_LLC_MISSES));
	assert_false(pmu_info_arch_event(&info, ARCH_EVENT_BRANCHES));	    /* beyond the length */
	assert_false(pmu_info_arch_event(&info, ARCH_EVENT_BRANCH_MISSES)); /* beyond the length */

	/* Which counters a geometry has: a PMU with 2 GP counters and 2 fixed (a hypervisor's). */
	struct pmu_geometry small = { .version = 2, .gp = 2, .fixed = 2 };
	assert_true(pmu_geometry_has(&small, 0) && pmu_geometry_has(&small, 1));
	assert_false(pmu_geometry_has(&small, 2) || pmu_geometry_has(&small, 3));
	assert_true(pmu_geometry_has(&small, PMU_FIXED_BASE + 1));
	assert_false(pmu_geometry_has(&small, PMU_FIXED_BASE + 2));
	assert_false(pmu_geometry_has(&small, PMU_FIXED_BASE - 1));

	/* A PMU reporting more counters than the driver handles is clamped for the driver only. */
	c.perfmon = (struct cpuid_regs){ 0x07300c05, 0, 0, 0x604 };
	pmu_info_decode(&c, &info);
	assert_int_equal(info.gp, 12);
	assert_int_equal(info.fixed, 4);
	struct pmu_geometry g = pmu_info_geometry(&info);
	assert_int_equal(g.gp, PMU_MAX_GP);
	assert_int_equal(g.fixed, PMU_MAX_FIXED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_machines),
		cmocka_unit_test(test_full_width),
		cmocka_unit_test(test_qemu),
		cmocka_unit_test(test_collect_respects_maxima),
		cmocka_unit_test(test_perfmon_fields),
		cmocka_unit_test(test_fixed_counter_quirk),
		cmocka_unit_test(test_tsx_force_abort),
		cmocka_unit_test(test_event_supported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
