// SPDX-License-Identifier: GPL-2.0
/*
 * Microarchitecture tables and static constraints (pmu/uarch.c, pmu/uarch_tables.c), checked
 * against Linux's constraint tables (arch/x86/events/intel/core.c) and the thesis's examples.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/uarch.h"
#include "tests/host/lib/test_util.h"

static void test_models(void **state)
{
	(void)state;
	assert_string_equal(uarch_by_model(true, 6, 0x2a)->name, "sandybridge");
	assert_string_equal(uarch_by_model(true, 6, 0x2d)->erratum, "BJ122");
	assert_string_equal(uarch_by_model(true, 6, 0x3a)->erratum, "BV98");
	assert_string_equal(uarch_by_model(true, 6, 0x3e)->name, "ivybridge");
	assert_string_equal(uarch_by_model(true, 6, 0x3c)->erratum, "HSD29");
	assert_string_equal(uarch_by_model(true, 6, 0x3f)->name, "haswell");
	assert_string_equal(uarch_by_model(true, 6, 0x45)->name, "haswell");
	assert_string_equal(uarch_by_model(true, 6, 0x46)->name, "haswell");
	assert_null(uarch_by_model(true, 6, 0x3d)->erratum); /* Broadwell */
	assert_string_equal(uarch_by_model(true, 6, 0x5e)->name, "skylake");
	assert_null(uarch_by_model(true, 6, 0x5e)->erratum);
	/* QEMU's qemu64 reports AuthenticAMD family 15: no tables. */
	assert_ptr_equal(uarch_by_model(false, 15, 107), &uarch_generic);
	assert_ptr_equal(uarch_by_model(true, 6, 0x1a), &uarch_generic); /* Nehalem: not tabled */
	assert_ptr_equal(uarch_by_name("HasWell"), uarch_by_model(true, 6, 0x3c));
	assert_null(uarch_by_name("pentium"));
}

static void test_static_constraints(void **state)
{
	(void)state;
	const struct uarch *hsw = uarch_by_name("haswell");
	const struct uarch *snb = uarch_by_name("sandybridge");
	struct pmu_event e;

	/* L1D_PEND_MISS.PENDING: counter 2 only, with HT on and off. */
	e = ev(0x0148, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0x4);
	assert_int_equal(uarch_constraint(hsw, &e, 8, 3).mask, 0x4);
	/* On Sandy Bridge any unit mask of 0x48 is constrained. */
	e = ev(0x0248, true, true);
	assert_int_equal(uarch_constraint(snb, &e, 4, 3).mask, 0x4);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0xf);
	/* l1d_pend_miss:occurrences (edge, cmask 1) is still 0x0148 to the table: 0x4 (thesis 7.2). */
	e = ev(0x0148, true, true);
	e.edge = true;
	e.cmask = 1;
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0x4);

	/* Corrupting events: bottom four counters, flagged, also with HT off. */
	e = ev(0x81d0, true, true);
	struct constraint c = uarch_constraint(hsw, &e, 8, 3);
	assert_int_equal(c.mask, 0xf);
	assert_true(c.corrupting);
	e = ev(0x08d1, true, true);
	assert_true(uarch_constraint(snb, &e, 4, 3).corrupting);
	/* Same code on Skylake: restricted but not corrupting. */
	assert_false(uarch_constraint(uarch_by_name("skylake"), &e, 4, 3).corrupting);

	/* Unconstrained events take every GP counter. */
	e = ev(0x00c5, true, true);
	c = uarch_constraint(hsw, &e, 4, 3);
	assert_int_equal(c.mask, 0xf);
	assert_false(c.corrupting);
	assert_int_equal(uarch_constraint(hsw, &e, 8, 3).mask, 0xff);

	/* Fixed-counter events: fixed counter plus GP, except reference cycles (fixed 2 only). */
	e = ev(0x00c0, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, PMU_FIXED_BIT(0) | 0xf);
	e = ev(0x003c, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, PMU_FIXED_BIT(1) | 0xf);
	e = ev(0x0300, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, PMU_FIXED_BIT(2));
	/* With a counter mask the event no longer fits a fixed counter. */
	e = ev(0x00c0, true, true);
	e.cmask = 1;
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0xf);
	/* Without fixed counters reference cycles cannot be counted at all. */
	e = ev(0x0300, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 0).mask, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_models),
		cmocka_unit_test(test_static_constraints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
