// SPDX-License-Identifier: GPL-2.0
/*
 * What the firmware left in the PMU (pmu/firmware.c): the MSR snapshot and the counters it shows
 * enabled, on the model PMU started as such a BIOS leaves it; the takeover of IA32_DEBUGCTL and
 * IA32_PEBS_ENABLE, also against MSRs that fault or do not keep a value; and the microcode
 * revision, read with the SDM's procedure from values of real machines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/firmware.h"
#include "pmu/model.h"
#include "pmu/msr.h"
#include "pmu/regs.h"
#include "tests/host/lib/cpuid_dumps.h"
#include "tests/host/lib/test_util.h"

static struct model_pair core;

static void model_with(enum model_firmware fw, const char *uarch, bool smt)
{
	struct model_config cfg;

	model_config_init(&cfg, uarch_by_name(uarch), smt);
	cfg.firmware = fw;
	model_core_init(&core, &cfg);
}

static bool model_read(void *ctx, uint32_t msr, uint64_t *value)
{
	return model_rdmsr_safe(ctx, msr, value);
}

static bool model_write(void *ctx, uint32_t msr, uint64_t value)
{
	return model_wrmsr_safe(ctx, msr, value);
}

/* ---- a table of MSRs that may fault or drop writes ----------------------------------------- */

#define FAKE_MAX 8

struct fake_msrs {
	uint32_t msr[FAKE_MAX];
	uint64_t value[FAKE_MAX];
	bool write_faults[FAKE_MAX];
	bool write_dropped[FAKE_MAX];
	unsigned n;
	unsigned reads, writes;
	char trace[64]; /* 'w' write, 'c' CPUID leaf 1, 'r' read, in order */
};

static int fake_find(struct fake_msrs *f, uint32_t msr)
{
	for (unsigned k = 0; k < f->n; k++)
		if (f->msr[k] == msr)
			return (int)k;
	return -1;
}

static void fake_add(struct fake_msrs *f, uint32_t msr, uint64_t value)
{
	f->msr[f->n] = msr;
	f->value[f->n++] = value;
}

static void trace(struct fake_msrs *f, char c)
{
	size_t len = strlen(f->trace);

	if (len + 1 < sizeof(f->trace)) {
		f->trace[len] = c;
		f->trace[len + 1] = 0;
	}
}

static bool fake_read(void *ctx, uint32_t msr, uint64_t *value)
{
	struct fake_msrs *f = ctx;
	int k = fake_find(f, msr);

	f->reads++;
	trace(f, 'r');
	if (k < 0)
		return false;
	*value = f->value[k];
	return true;
}

static bool fake_write(void *ctx, uint32_t msr, uint64_t value)
{
	struct fake_msrs *f = ctx;
	int k = fake_find(f, msr);

	f->writes++;
	trace(f, 'w');
	if (k < 0 || f->write_faults[k])
		return false;
	if (!f->write_dropped[k])
		f->value[k] = value;
	return true;
}

static void fake_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	(void)subleaf;
	memset(out, 0, sizeof(*out));
	if (leaf == CPUID_SIGNATURE)
		trace(ctx, 'c');
}

/* ---- the snapshot -------------------------------------------------------------------------- */

static void test_snapshot_of_a_broken_bios(void **state)
{
	(void)state;
	struct pmu_msr_snapshot s;
	const char *names[8];
	uint64_t v;
	static const char *const order[] = {
		"IA32_PERF_GLOBAL_CTRL", "IA32_PERF_GLOBAL_STATUS", "IA32_FIXED_CTR_CTRL",
		"IA32_PERFEVTSEL0",	 "IA32_PERFEVTSEL1",	    "IA32_PERFEVTSEL2",
		"IA32_PERFEVTSEL3",	 "IA32_DEBUGCTL",	    "IA32_PEBS_ENABLE",
	};

	model_with(MODEL_FIRMWARE_COUNTERS_ON, "ivybridge", true);
	pmu_msr_snapshot_take(&s, &core.cfg.geo, model_read, &core.thread[1]);
	assert_int_equal(s.n, 9);
	for (unsigned k = 0; k < s.n; k++) {
		assert_string_equal(s.msrs[k].name, order[k]);
		assert_true(s.msrs[k].valid);
	}
	assert_true(pmu_msr_snapshot_get(&s, IA32_FIXED_CTR_CTRL, &v));
	assert_int_equal(v, 0x330);
	assert_true(pmu_msr_snapshot_get(&s, IA32_DEBUGCTL, &v));
	assert_int_equal(v, 0x801);
	assert_false(pmu_msr_snapshot_get(&s, IA32_PMC0, &v)); /* not in a snapshot */

	/* As Linux's check_hw_exists: EN on a selector, OS or USR in a fixed field. */
	assert_int_equal(pmu_firmware_counters(&s, &core.cfg.geo, names, 8), 3);
	assert_string_equal(names[0], "IA32_PMC0");
	assert_string_equal(names[1], "IA32_FIXED_CTR1");
	assert_string_equal(names[2], "IA32_FIXED_CTR2");
	/* More than max: the count says so, names[] holds the first ones. */
	names[1] = NULL;
	assert_int_equal(pmu_firmware_counters(&s, &core.cfg.geo, names, 1), 3);
	assert_null(names[1]);
	assert_int_equal(core.thread[1].faults, 0);

	/* A clean PMU: nothing enabled, though the global control may hold its power-on value. */
	model_with(MODEL_FIRMWARE_CLEAN, "ivybridge", true);
	model_wrmsr(&core.thread[0], IA32_PERF_GLOBAL_CTRL, 0x70000000full);
	model_wrmsr(&core.thread[0], IA32_FIXED_CTR_CTRL, 0x888); /* PMI only: counts nothing */
	pmu_msr_snapshot_take(&s, &core.cfg.geo, model_read, &core.thread[0]);
	assert_int_equal(pmu_firmware_counters(&s, &core.cfg.geo, names, 8), 0);
}

static void test_snapshot_of_what_exists(void **state)
{
	(void)state;
	struct pmu_msr_snapshot s;
	struct fake_msrs f = { .n = 0 };
	struct pmu_geometry v1 = { .version = 1, .gp = 2 };
	const char *names[4];

	/* Version 1: no global registers and no fixed control, which are not even read. A
	 * selector that reads is kept; PEBS_ENABLE faults and is marked not valid. */
	fake_add(&f, IA32_PERFEVTSEL(0), 0x43003c);
	fake_add(&f, IA32_PERFEVTSEL(1), 0);
	fake_add(&f, IA32_DEBUGCTL, 0);
	pmu_msr_snapshot_take(&s, &v1, fake_read, &f);
	assert_int_equal(s.n, 7);
	assert_int_equal(f.reads, 4);
	assert_false(s.msrs[0].valid || s.msrs[1].valid || s.msrs[2].valid);
	assert_true(s.msrs[3].valid);
	assert_false(s.msrs[6].valid);
	assert_int_equal(s.msrs[6].value, 0);
	assert_int_equal(pmu_firmware_counters(&s, &v1, names, 4), 1);
	assert_string_equal(names[0], "IA32_PMC0");

	/* With TSX_FORCE_ABORT the MSR is recorded too (the firmware may have set it). */
	struct pmu_geometry skl = { .version = 4, .gp = 4, .fixed = 3, .tsx_force_abort = true };
	fake_add(&f, MSR_TSX_FORCE_ABORT, 1);
	pmu_msr_snapshot_take(&s, &skl, fake_read, &f);
	assert_int_equal(s.n, 10);
	assert_string_equal(s.msrs[9].name, "MSR_TSX_FORCE_ABORT");
	assert_true(s.msrs[9].valid);
	assert_int_equal(s.msrs[9].value, 1);
}

/* ---- the takeover -------------------------------------------------------------------------- */

static void test_takeover(void **state)
{
	(void)state;
	struct model_thread *t0 = &core.thread[0];
	struct pmu_takeover t;

	/* The broken BIOS's LBR, freeze bit and PEBS enable are cleared; FREEZE_WHILE_SMM (bit 14),
	 * which is not the firmware's business here, stays. */
	model_with(MODEL_FIRMWARE_COUNTERS_ON, "haswell", true);
	model_wrmsr(t0, IA32_DEBUGCTL, 0x801 | (1ull << 14));
	t = pmu_firmware_takeover(model_read, model_write, t0);
	assert_int_equal(t.debugctl_cleared, 0x801);
	assert_int_equal(t.pebs_cleared, 1);
	assert_null(t.failed);
	assert_int_equal(model_rdmsr(t0, IA32_DEBUGCTL), 1ull << 14);
	assert_int_equal(model_rdmsr(t0, IA32_PEBS_ENABLE), 0);
	/* Again: nothing left to clear. */
	t = pmu_firmware_takeover(model_read, model_write, t0);
	assert_int_equal(t.debugctl_cleared | t.pebs_cleared, 0);
	assert_int_equal(t0->faults, 0);

	/* Every bit it owns: LBR, TR, BTS and both freeze bits. */
	model_wrmsr(t0, IA32_DEBUGCTL, 0xffff);
	t = pmu_firmware_takeover(model_read, model_write, t0);
	assert_int_equal(t.debugctl_cleared, 0x18c1);
	assert_int_equal(model_rdmsr(t0, IA32_DEBUGCTL), 0xffff & ~0x18c1ull);

	/* An MSR that cannot be read is left alone; nothing set means nothing written. */
	struct fake_msrs f = { .n = 0 };
	fake_add(&f, IA32_DEBUGCTL, 0);
	t = pmu_firmware_takeover(fake_read, fake_write, &f);
	assert_null(t.failed);
	assert_int_equal(f.writes, 0);
	/* A write that faults, or that the MSR does not keep, is named. */
	f.value[0] = DEBUGCTL_LBR;
	f.write_faults[0] = true;
	t = pmu_firmware_takeover(fake_read, fake_write, &f);
	assert_string_equal(t.failed, "IA32_DEBUGCTL");
	assert_int_equal(t.debugctl_cleared, 0);
	f.write_faults[0] = false;
	f.write_dropped[0] = true;
	fake_add(&f, IA32_PEBS_ENABLE, 0);
	t = pmu_firmware_takeover(fake_read, fake_write, &f);
	assert_string_equal(t.failed, "IA32_DEBUGCTL");
	f.write_dropped[0] = false;
	t = pmu_firmware_takeover(fake_read, fake_write, &f);
	assert_null(t.failed);
	assert_int_equal(t.debugctl_cleared, DEBUGCTL_LBR);
}

/*
 * A version-4 PMU handed over frozen (CTR_FRZ and LBR_FRZ set by a PMI): acknowledging only the
 * overflow bits, as the driver's release does, leaves every counter frozen; the takeover writes
 * the whole status back, as Linux's intel_pmu_reset(), and the counters count.
 */
static void test_takeover_unfreezes_version_4(void **state)
{
	(void)state;
	struct model_thread *t0 = &core.thread[0];
	struct pmu_event inst = ev(0x00c0, true, false);
	static const struct model_profile work = { .name = "w",
						   .ring = MODEL_RING_USER,
						   .instructions = 1000 };
	struct pmu_takeover t;

	model_with(MODEL_FIRMWARE_V4_FREEZE, "skylake", true);
	assert_int_equal(core.cfg.geo.version, 4);
	uint64_t frozen = model_rdmsr(t0, IA32_PERF_GLOBAL_STATUS);
	assert_int_equal(frozen, GLOBAL_STATUS_CTR_FRZ | GLOBAL_STATUS_LBR_FRZ);
	model_wrmsr(t0, IA32_PERFEVTSEL(0), regs_perfevtsel(&inst, REGS_EN));
	model_wrmsr(t0, IA32_PERF_GLOBAL_CTRL, 1);
	/* The overflow bits acknowledged: still frozen, nothing counts. */
	model_wrmsr(t0, IA32_PERF_GLOBAL_OVF_CTRL, regs_global_all(4, 3));
	model_account(&core, 0, &work, 100);
	assert_int_equal(model_rdmsr(t0, IA32_PMC0), 0);
	t = pmu_firmware_takeover(model_read, model_write, t0);
	assert_null(t.failed);
	assert_int_equal(t.status_cleared, frozen);
	assert_int_equal(model_rdmsr(t0, IA32_PERF_GLOBAL_STATUS), 0);
	model_account(&core, 0, &work, 100);
	assert_int_equal(model_rdmsr(t0, IA32_PMC0), 100);
	assert_int_equal(t0->faults, 0);
	/* Version 3 has no freeze bits: writing them back would fault, and is not done. */
	model_with(MODEL_FIRMWARE_CLEAN, "haswell", true);
	model_wrmsr(t0, IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_CTR_FRZ);
	assert_int_equal(t0->faults, 1);
	t0->faults = 0;
	t = pmu_firmware_takeover(model_read, model_write, t0);
	assert_int_equal(t.status_cleared, 0);
	assert_int_equal(t0->faults, 0);
}

/* ---- the microcode revision ---------------------------------------------------------------- */

static void test_microcode_revision(void **state)
{
	(void)state;
	struct pmu_info conroe, skl, qemu;
	struct fake_msrs f = { .n = 0 };
	uint32_t rev = 1;

	cpuid_dump_decode(&cpuid_conroe_x6800, 0, &conroe);
	cpuid_dump_decode(&cpuid_skl_i7_6700k, 0, &skl);
	cpuid_dump_decode(&cpuid_qemu_haswell, 0, &qemu);

	/* The Core 2 X6800's IA32_BIOS_SIGN_ID as its dump shows it: revision 0x44, read after
	 * writing 0 and executing CPUID leaf 1. */
	fake_add(&f, IA32_BIOS_SIGN_ID, 0x0000004400000000ull);
	f.write_dropped[0] = true; /* the CPU loads the revision itself */
	assert_true(pmu_microcode_revision(&conroe, fake_read, fake_write, fake_cpuid, &f, &rev));
	assert_int_equal(rev, 0x44);
	assert_string_equal(f.trace, "wcr");
	f.value[0] = 0x000000d600000000ull; /* the i7-6700K of the TFA dump */
	assert_true(pmu_microcode_revision(&skl, fake_read, fake_write, fake_cpuid, &f, &rev));
	assert_int_equal(rev, 0xd6);

	/* No revision: a hypervisor's (QEMU's TCG says 1), one that reads 0, one that faults, and
	 * a CPU that is not Intel's, whose MSR is not even touched. */
	f.value[0] = 0x100000000ull;
	assert_false(pmu_microcode_revision(&qemu, fake_read, fake_write, fake_cpuid, &f, &rev));
	assert_int_equal(rev, 0);
	f.value[0] = 0;
	assert_false(pmu_microcode_revision(&skl, fake_read, fake_write, fake_cpuid, &f, &rev));
	f.write_faults[0] = true;
	assert_false(pmu_microcode_revision(&skl, fake_read, fake_write, fake_cpuid, &f, &rev));
	struct pmu_info amd;
	cpuid_dump_decode(&cpuid_qemu_qemu64, 0, &amd);
	amd.hypervisor = false;
	f.trace[0] = 0;
	assert_false(pmu_microcode_revision(&amd, fake_read, fake_write, fake_cpuid, &f, &rev));
	assert_string_equal(f.trace, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_of_a_broken_bios),
		cmocka_unit_test(test_snapshot_of_what_exists),
		cmocka_unit_test(test_takeover),
		cmocka_unit_test(test_takeover_unfreezes_version_4),
		cmocka_unit_test(test_microcode_revision),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
