// SPDX-License-Identifier: GPL-2.0
/*
 * The backend choice (pmu=auto|hw|model) and the fields of the pmu record (pmu/select.c), on the
 * CPUID values of real machines and of QEMU's TCG (tests/host/lib/cpuid_dumps.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/enumerate.h"
#include "pmu/select.h"
#include "tests/host/lib/cpuid_dumps.h"
#include "tests/host/lib/test_util.h"

static const struct cpuid_dump *const real[] = {
	&cpuid_snb_i7_2600,   &cpuid_snb_i5_2400,   &cpuid_snbe_i7_3930k, &cpuid_ivb_i7_3770k,
	&cpuid_ivb_g1610,     &cpuid_ivbe_i7_4930k, &cpuid_hsw_i7_4770,	  &cpuid_hsw_i7_4500u,
	&cpuid_hswep_e5_2699, &cpuid_skl_i7_6700k,  &cpuid_skl_i5_6400t,
};

static void test_real_machines_take_hw(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(real) / sizeof(real[0]); k++) {
		struct pmu_info info;
		struct pmu_record r;

		cpuid_dump_decode(real[k], 0x31c3, &info);
		assert_true(pmu_hw_usable(&info));
		struct pmu_choice c = pmu_choose_backend(&info, PMU_REQ_AUTO);
		assert_int_equal(c.backend, PMU_BACKEND_HW);
		assert_int_equal(pmu_choose_backend(&info, PMU_REQ_HW).backend, PMU_BACKEND_HW);
		assert_int_equal(pmu_choose_backend(&info, PMU_REQ_MODEL).backend,
				 PMU_BACKEND_MODEL);

		/* Under hw the record is CPUID's own description. */
		pmu_record_fill(&r, &info, &c, info.gp == 4);
		assert_true(r.ok);
		assert_string_equal(r.backend, "hw");
		assert_string_equal(r.reason, c.reason);
		assert_int_equal(r.version, info.version);
		assert_int_equal(r.gp, info.gp);
		assert_int_equal(r.gp_width, 48);
		assert_int_equal(r.fixed, 3);
		assert_int_equal(r.fixed_width, 48);
		assert_true(r.full_width);
		assert_string_equal(r.uarch, info.uarch->name);
		assert_str_or_null(r.erratum, info.uarch->erratum);
		assert_null(r.hypervisor);
	}
}

struct qemu_case {
	const struct cpuid_dump *dump;
	const char *uarch, *erratum;
};

/* The QEMU boot matrix of issue 5: the record must name these. */
static const struct qemu_case qemu_cases[] = {
	{ &cpuid_qemu_sandybridge, "sandybridge", "BJ122" },
	{ &cpuid_qemu_ivybridge, "ivybridge", "BV98" },
	{ &cpuid_qemu_haswell, "haswell", "HSD29" },
	{ &cpuid_qemu_skylake_client, "skylake", NULL },
	{ &cpuid_qemu_qemu64, "unknown", NULL },
};

static void test_qemu_takes_model(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(qemu_cases) / sizeof(qemu_cases[0]); k++) {
		const struct qemu_case *q = &qemu_cases[k];
		struct pmu_info info;
		struct pmu_record r;

		cpuid_dump_decode(q->dump, 0, &info);
		assert_false(pmu_hw_usable(&info));

		/* auto: the model, because of the hypervisor without a PMU. */
		struct pmu_choice c = pmu_choose_backend(&info, PMU_REQ_AUTO);
		assert_int_equal(c.backend, PMU_BACKEND_MODEL);
		assert_non_null(strstr(c.reason, "hypervisor without a PMU"));
		pmu_record_fill(&r, &info, &c, true);
		assert_true(r.ok);
		assert_string_equal(r.backend, "model");
		assert_string_equal(r.reason, c.reason);
		assert_string_equal(r.uarch, q->uarch);
		assert_str_or_null(r.erratum, q->erratum);
		assert_string_equal(r.hypervisor, "TCGTCGTCGTCG");
		/* The record describes the model's counters: 4 GP per thread with HT on. */
		assert_int_equal(r.version, 3);
		assert_int_equal(r.gp, 4);
		assert_int_equal(r.gp_width, 48);
		assert_int_equal(r.fixed, 3);
		assert_int_equal(r.fixed_width, 48);
		assert_true(r.full_width);
		assert_true(r.smt);

		/* pmu=hw: no backend, and a failure that says why. */
		c = pmu_choose_backend(&info, PMU_REQ_HW);
		assert_int_equal(c.backend, PMU_BACKEND_NONE);
		assert_non_null(strstr(c.reason, "pmu=hw"));
		assert_non_null(strstr(c.reason, "hypervisor without a PMU"));
		pmu_record_fill(&r, &info, &c, true);
		assert_false(r.ok);
		assert_true(c.fatal);
		assert_string_equal(r.backend, "none");
		assert_int_equal(r.version, 0);
		assert_int_equal(r.gp, 0);
		assert_string_equal(r.uarch, q->uarch);

		/* pmu=model: as asked. */
		c = pmu_choose_backend(&info, PMU_REQ_MODEL);
		assert_int_equal(c.backend, PMU_BACKEND_MODEL);
		assert_string_equal(c.reason, "pmu=model requested");
	}
}

static void test_model_record_ht_off(void **state)
{
	(void)state;
	struct pmu_info info;
	struct pmu_record r;

	/* HT off under the model: 4 GP counters on the generic tables, 8 on Haswell's. */
	cpuid_dump_decode(&cpuid_qemu_qemu64, 0, &info);
	struct pmu_choice c = pmu_choose_backend(&info, PMU_REQ_AUTO);
	pmu_record_fill(&r, &info, &c, false);
	assert_int_equal(r.gp, 4);
	cpuid_dump_decode(&cpuid_qemu_haswell, 0, &info);
	pmu_record_fill(&r, &info, &c, false);
	assert_int_equal(r.gp, 8);
	assert_false(r.smt);
	/* The CPU still has the erratum; the model applies it only with two threads. */
	assert_string_equal(r.erratum, "HSD29");
}

static struct pmu_info synthetic(uint32_t sig_ecx, uint32_t perfmon_eax)
{
	struct pmu_cpuid c;
	struct pmu_info info;

	memset(&c, 0, sizeof(c));
	c.vendor = (struct cpuid_regs){ 0xd, 0x756e6547, 0x6c65746e, 0x49656e69 };
	c.signature = (struct cpuid_regs){ 0x000306c3, 0, sig_ecx, 0 };
	c.perfmon = (struct cpuid_regs){ perfmon_eax, 0, 0, 0x603 };
	/* "KVMKVMKVM\0\0\0" */
	c.hypervisor = (struct cpuid_regs){ 0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d };
	pmu_info_decode(&c, &info);
	return info;
}

static void test_reasons(void **state)
{
	(void)state;
	struct pmu_info info;
	struct pmu_choice c;

	/* KVM with a virtual PMU: the real MSRs are usable; the record names the hypervisor. */
	info = synthetic(CPUID1_ECX_HYPERVISOR, 0x07300402);
	c = pmu_choose_backend(&info, PMU_REQ_AUTO);
	assert_int_equal(c.backend, PMU_BACKEND_HW);
	struct pmu_record r;
	pmu_record_fill(&r, &info, &c, true);
	assert_string_equal(r.hypervisor, "KVMKVMKVM");
	assert_int_equal(r.version, 2);

	/* A hypervisor with version 2 but one GP counter is not enough. */
	info = synthetic(CPUID1_ECX_HYPERVISOR, 0x07300102);
	c = pmu_choose_backend(&info, PMU_REQ_AUTO);
	assert_int_equal(c.backend, PMU_BACKEND_MODEL);
	assert_non_null(strstr(c.reason, "fewer than 2 GP counters"));
	c = pmu_choose_backend(&info, PMU_REQ_HW);
	assert_int_equal(c.backend, PMU_BACKEND_NONE);
	assert_non_null(strstr(c.reason, "no usable architectural PMU"));

	/* Version 1: no global control, no fixed counters. */
	info = synthetic(CPUID1_ECX_HYPERVISOR, 0x07280201);
	c = pmu_choose_backend(&info, PMU_REQ_AUTO);
	assert_int_equal(c.backend, PMU_BACKEND_MODEL);
	assert_non_null(strstr(c.reason, "version 1"));

	/* Under a hypervisor without leaf 0x0A data. */
	info = synthetic(CPUID1_ECX_HYPERVISOR, 0);
	c = pmu_choose_backend(&info, PMU_REQ_AUTO);
	assert_non_null(strstr(c.reason, "without a PMU"));

	/* More counters than the driver handles: the record still says what CPUID says. */
	info = synthetic(0, 0x07300c05);
	c = pmu_choose_backend(&info, PMU_REQ_AUTO);
	pmu_record_fill(&r, &info, &c, true);
	assert_int_equal(r.gp, 12);
	assert_int_equal(r.version, 5);

	/* qemu64 has no Intel PMU at all: under its hypervisor, the model. */
	cpuid_dump_decode(&cpuid_qemu_qemu64, 0, &info);
	c = pmu_choose_backend(&info, PMU_REQ_AUTO);
	assert_int_equal(c.backend, PMU_BACKEND_MODEL);
	assert_non_null(strstr(c.reason, "hypervisor without a PMU"));
}

/*
 * Issue 16: a real machine with no usable PMU (no hypervisor: an old Intel, an AMD) never runs the
 * model on pmu=auto, which would end on the same PASS as a measurement: no backend, the run goes
 * on (not fatal) and measures nothing. pmu=model still takes the model; pmu=hw still fails.
 */
static void test_bare_metal_without_pmu_measures_nothing(void **state)
{
	(void)state;
	struct pmu_info intel_v1 = synthetic(0, 0x07280201), intel_none = synthetic(0, 0), amd;
	const struct pmu_info *machines[] = { &intel_v1, &intel_none, &amd };
	struct pmu_record r;

	cpuid_dump_decode(&cpuid_qemu_qemu64, 0, &amd);
	amd.hypervisor = false;
	for (unsigned k = 0; k < 3; k++) {
		struct pmu_choice c = pmu_choose_backend(machines[k], PMU_REQ_AUTO);
		assert_int_equal(c.backend, PMU_BACKEND_NONE);
		assert_false(c.fatal);
		assert_non_null(strstr(c.reason, "nothing is measured"));
		assert_non_null(
			strstr(c.reason, k == 2 ? "not a GenuineIntel" : "no usable Intel"));
		pmu_record_fill(&r, machines[k], &c, true);
		assert_true(r.ok);
		assert_string_equal(r.backend, "none");
		assert_null(r.hypervisor);
		c = pmu_choose_backend(machines[k], PMU_REQ_MODEL);
		assert_int_equal(c.backend, PMU_BACKEND_MODEL);
		c = pmu_choose_backend(machines[k], PMU_REQ_HW);
		assert_int_equal(c.backend, PMU_BACKEND_NONE);
		assert_true(c.fatal);
	}
	/* With a usable PMU, bare metal takes it, as ever. */
	struct pmu_info hsw = synthetic(0, 0x07300403);
	assert_int_equal(pmu_choose_backend(&hsw, PMU_REQ_AUTO).backend, PMU_BACKEND_HW);
}

static void test_backend_names(void **state)
{
	(void)state;
	assert_string_equal(pmu_backend_name(PMU_BACKEND_HW), "hw");
	assert_string_equal(pmu_backend_name(PMU_BACKEND_MODEL), "model");
	assert_string_equal(pmu_backend_name(PMU_BACKEND_NONE), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_machines_take_hw),
		cmocka_unit_test(test_qemu_takes_model),
		cmocka_unit_test(test_bare_metal_without_pmu_measures_nothing),
		cmocka_unit_test(test_model_record_ht_off),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_backend_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
