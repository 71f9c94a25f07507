// SPDX-License-Identifier: GPL-2.0
/*
 * Register encodings (pmu/regs.c) against values printed by perf, libpfm4 and the thesis.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/msr.h"
#include "pmu/regs.h"
#include "tests/host/lib/test_util.h"

static void test_perfevtsel_perf(void **state)
{
	(void)state;
	/* perf stat -e r81d0:u programs EN | USR | umask 0x81 | event 0xd0 (Linux perf, raw event syntax). */
	struct pmu_event e = ev(0x81d0, true, false);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN), 0x4181d0);
	/* Without EN the same selection is programmed but stopped. */
	assert_int_equal(regs_perfevtsel(&e, 0), 0x0181d0);
	/* r00c5:u, the thesis's branch mispredictions (ch. 4). */
	e = ev(0x00c5, true, false);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN), 0x4100c5);
	/* :k alone counts at CPL 0 only. */
	e = ev(0x20cc, false, true);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN), 0x4220cc);
}

static void test_perfevtsel_libpfm(void **state)
{
	(void)state;
	/* libpfm4 sets INT as well: :u -> 0x51, :k -> 0x52, both -> 0x53 in bits 23:16. */
	struct pmu_event e = ev(0x81d0, true, false);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT), 0x5181d0);
	e = ev(0x81d0, false, true);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT), 0x5281d0);
	e = ev(0x81d0, true, true);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT), 0x5381d0);
}

static void test_perfevtsel_thesis(void **state)
{
	(void)state;
	/* Thesis 7.2, the simulator's event list: l2_lines_in:any "code=0x5307f1". */
	struct pmu_event e = ev(0x07f1, true, true);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT), 0x5307f1);
	/* l1d_pend_miss:occurrences "code=0x1570148": edge, cmask 1. */
	e = ev(0x0148, true, true);
	e.edge = true;
	e.cmask = 1;
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT), 0x1570148);
	/* cycle_activity (event 0xa3, umask 8, cmask 8) "code=0x85308a3". */
	e = ev(0x08a3, true, true);
	e.cmask = 8;
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT), 0x85308a3);
	/* inst_retired:any_p "code=0x5300c0". */
	e = ev(0x00c0, true, true);
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT), 0x5300c0);
}

static void test_perfevtsel_filters(void **state)
{
	(void)state;
	/* UOPS_ISSUED.ANY with cmask 1 and inv: cycles without any uop issued. */
	struct pmu_event e = ev(0x010e, true, true);
	e.cmask = 1;
	e.inv = true;
	assert_int_equal(regs_perfevtsel(&e, REGS_EN), 0x01c3010e);
	/* AnyThread is bit 21. */
	e = ev(0x003c, true, true);
	e.any = true;
	assert_int_equal(regs_perfevtsel(&e, REGS_EN), 0x63003c);
	/* Every value fits in the bits a write may set. */
	e.cmask = 0xff;
	e.inv = e.edge = true;
	assert_int_equal(regs_perfevtsel(&e, REGS_EN | REGS_INT) & ~PERFEVTSEL_VALID_MASK, 0);
}

static void test_perfevtsel_decode(void **state)
{
	(void)state;
	struct perfevtsel_fields f = regs_perfevtsel_decode(0x1570148);
	assert_int_equal(f.event, 0x48);
	assert_int_equal(f.umask, 0x01);
	assert_int_equal(f.cmask, 1);
	assert_true(f.usr && f.os && f.edge && f.intr && f.en);
	assert_false(f.inv || f.any);

	/* Encoding then decoding gives the event back, for a spread of values. */
	for (unsigned code = 0; code < 0x10000; code += 0x1357) {
		for (unsigned bits = 0; bits < 32; bits++) {
			struct pmu_event e = ev((uint16_t)code, bits & 1, bits & 2);
			e.edge = bits & 4;
			e.inv = bits & 8;
			e.any = bits & 16;
			e.cmask = (uint8_t)(code >> 4);
			f = regs_perfevtsel_decode(regs_perfevtsel(&e, REGS_EN));
			assert_int_equal(f.event, e.event);
			assert_int_equal(f.umask, e.umask);
			assert_int_equal(f.cmask, e.cmask);
			assert_int_equal(f.usr, e.usr);
			assert_int_equal(f.os, e.os);
			assert_int_equal(f.edge, e.edge);
			assert_int_equal(f.inv, e.inv);
			assert_int_equal(f.any, e.any);
			assert_true(f.en);
			assert_false(f.intr);
		}
	}
}

static void test_fixed_ctrl(void **state)
{
	(void)state;
	struct pmu_event cycles = ev(0x003c, true, true);
	struct pmu_event inst_u = ev(0x00c0, true, false);
	struct pmu_event ref_k = ev(0x0300, false, true);

	assert_int_equal(regs_fixed_field(&inst_u, false), FIXED_CTRL_USR);
	assert_int_equal(regs_fixed_field(&ref_k, false), FIXED_CTRL_OS);
	/*
	 * Linux's NMI watchdog counts cycles at both levels with a PMI on fixed counter 1: the
	 * VirtualBox CPU report of an i5-3570 (src/VBox/VMM/VMMR3/cpus/Intel_Core_i5_3570.h) shows
	 * IA32_FIXED_CTR_CTRL = 0xb0.
	 */
	assert_int_equal(regs_fixed_ctrl_set(0, 1, regs_fixed_field(&cycles, true)), 0xb0);

	uint64_t ctrl = 0;
	ctrl = regs_fixed_ctrl_set(ctrl, 0, regs_fixed_field(&inst_u, false));
	ctrl = regs_fixed_ctrl_set(ctrl, 1, regs_fixed_field(&cycles, false));
	ctrl = regs_fixed_ctrl_set(ctrl, 2, regs_fixed_field(&ref_k, false));
	assert_int_equal(ctrl, 0x132);
	cycles.any = true;
	ctrl = regs_fixed_ctrl_set(ctrl, 1, regs_fixed_field(&cycles, false));
	assert_int_equal(ctrl, 0x172);
	assert_int_equal(regs_fixed_ctrl_get(ctrl, 0), FIXED_CTRL_USR);
	assert_int_equal(regs_fixed_ctrl_get(ctrl, 1),
			 FIXED_CTRL_OS | FIXED_CTRL_USR | FIXED_CTRL_ANY);
	assert_int_equal(regs_fixed_ctrl_get(ctrl, 2), FIXED_CTRL_OS);
	/* Clearing one field leaves the others. */
	assert_int_equal(regs_fixed_ctrl_set(ctrl, 1, 0), 0x102);
	assert_int_equal(regs_fixed_ctrl_valid(3), 0xfff);
}

static void test_global_bits(void **state)
{
	(void)state;
	/* HT on: 4 GP counters; the i5-3570 report above (HT off, 8 GP) shows 0x7000000ff. */
	assert_int_equal(regs_global_all(4, 3), 0x70000000full);
	assert_int_equal(regs_global_all(8, 3), 0x7000000ffull);
	assert_int_equal(regs_global_all(0, 0), 0);
	assert_int_equal(regs_global_bit(2), 0x4);
	assert_int_equal(regs_global_bit(PMU_FIXED_BASE + 1), 0x200000000ull);
}

static void test_preload(void **state)
{
	(void)state;
	assert_int_equal(regs_width_mask(48), 0xffffffffffffull);
	assert_int_equal(regs_width_mask(40), 0xffffffffffull);
	assert_int_equal(regs_preload(1000, 48), 0xfffffffffc18ull);
	assert_int_equal(regs_preload(1, 48), 0xffffffffffffull);
	assert_int_equal(regs_preload(0, 48), 0);
	/* A preload and n events bring the counter exactly to 0 (overflow). */
	assert_int_equal((regs_preload(123456789, 48) + 123456789) & regs_width_mask(48), 0);

	/* IA32_PMCx takes 32 bits and copies bit 31 above them. */
	assert_int_equal(regs_legacy_pmc_write(0x7fffffff, 48), 0x7fffffff);
	assert_int_equal(regs_legacy_pmc_write(0x80000000, 48), 0xffff80000000ull);
	assert_int_equal(regs_legacy_pmc_write(0x123456789ull, 48), 0x23456789);
	assert_true(regs_preload_fits_legacy(regs_preload(1000, 48), 48));
	assert_true(regs_preload_fits_legacy(0x7fffffff, 48));
	assert_false(regs_preload_fits_legacy(0x80000000, 48));
	assert_false(regs_preload_fits_legacy(0x100000000ull, 48));
	assert_false(regs_preload_fits_legacy(1ull << 48, 48));
}

static void test_counter_addresses(void **state)
{
	(void)state;
	assert_int_equal(regs_counter_msr(0, false), 0xc1);
	assert_int_equal(regs_counter_msr(3, false), 0xc4);
	assert_int_equal(regs_counter_msr(3, true), 0x4c4);
	assert_int_equal(regs_counter_msr(7, true), 0x4c8);
	assert_int_equal(regs_counter_msr(PMU_FIXED_BASE + 0, true), 0x309);
	assert_int_equal(regs_counter_msr(PMU_FIXED_BASE + 2, false), 0x30b);
	assert_int_equal(IA32_PERFEVTSEL(3), 0x189);
	assert_int_equal(regs_rdpmc_ecx(2), 2);
	assert_int_equal(regs_rdpmc_ecx(PMU_FIXED_BASE + 1), 0x40000001);
}

static void test_fixed_events(void **state)
{
	(void)state;
	struct pmu_event e = ev(0x00c0, true, false);
	unsigned fixed;
	assert_true(regs_fixed_counter_for(&e, &fixed));
	assert_int_equal(fixed, 0);
	e = ev(0x003c, true, true);
	assert_true(regs_fixed_counter_for(&e, &fixed));
	assert_int_equal(fixed, 1);
	e = ev(0x0300, false, true);
	assert_true(regs_fixed_counter_for(&e, &fixed));
	assert_int_equal(fixed, 2);
	/* INST_RETIRED.PREC_DIST is not the fixed event; filters rule a fixed counter out. */
	e = ev(0x01c0, true, false);
	assert_false(regs_fixed_counter_for(&e, &fixed));
	e = ev(0x003c, true, false);
	e.cmask = 1;
	assert_false(regs_fixed_counter_for(&e, &fixed));
	for (unsigned j = 0; j < PMU_MAX_FIXED; j++) {
		uint16_t code = regs_fixed_event_code(j);
		e = ev(code, true, false);
		assert_true(regs_fixed_counter_for(&e, &fixed));
		assert_int_equal(fixed, j);
	}
	/* INST_RETIRED.ANY and CPU_CLK_UNHALTED.CORE have GP encodings, reference cycles none. */
	assert_true(regs_fixed_event_gp_ok(0));
	assert_true(regs_fixed_event_gp_ok(1));
	assert_false(regs_fixed_event_gp_ok(2));
	assert_false(regs_fixed_event_gp_ok(PMU_MAX_FIXED));
	assert_int_equal(regs_fixed_event_code(PMU_MAX_FIXED), 0);
}

/* The SDM's names (vol. 4, table 2-2), as the records and warnings write them. */
static void test_msr_names(void **state)
{
	(void)state;
	assert_string_equal(regs_msr_name(0x38f), "IA32_PERF_GLOBAL_CTRL");
	assert_string_equal(regs_msr_name(0x188), "IA32_PERFEVTSEL2");
	assert_string_equal(regs_msr_name(0x0c1), "IA32_PMC0");
	assert_string_equal(regs_msr_name(0x4c8), "IA32_A_PMC7");
	assert_string_equal(regs_msr_name(0x30b), "IA32_FIXED_CTR2");
	assert_string_equal(regs_msr_name(0x38d), "IA32_FIXED_CTR_CTRL");
	assert_null(regs_msr_name(0x30c)); /* no fourth fixed counter here */
	assert_null(regs_msr_name(0x10));  /* the TSC: not the PMU's */
	assert_true(regs_msr_is_counter(0x0c3) && regs_msr_is_counter(0x4c1) &&
		    regs_msr_is_counter(0x309));
	assert_false(regs_msr_is_counter(0x38f) || regs_msr_is_counter(0x186) ||
		     regs_msr_is_counter(0x38d));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perfevtsel_perf),	  cmocka_unit_test(test_perfevtsel_libpfm),
		cmocka_unit_test(test_perfevtsel_thesis), cmocka_unit_test(test_perfevtsel_filters),
		cmocka_unit_test(test_perfevtsel_decode), cmocka_unit_test(test_fixed_ctrl),
		cmocka_unit_test(test_global_bits),	  cmocka_unit_test(test_preload),
		cmocka_unit_test(test_counter_addresses), cmocka_unit_test(test_fixed_events),
		cmocka_unit_test(test_msr_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
