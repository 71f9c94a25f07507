// SPDX-License-Identifier: GPL-2.0
/*
 * The vector-state decision (kernel/fpu_plan.c): AVX through XSAVE where it is offered and safe,
 * nothing but SSE elsewhere, and never CR4.OSXSAVE where QEMU's TCG would hang on it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/fpu_plan.h"

#define XSAVE (1u << 26)
#define AVX (1u << 28)
#define HYPERVISOR (1u << 31)
#define XSAVEOPT 1u /* CPUID.(EAX=0DH,ECX=1):EAX bit 0 */

/* A CPU with leaf 0x0D and x87, SSE and AVX state in XCR0's supported bits. */
static struct fpu_cpuid cpu(uint32_t leaf1_ecx, uint32_t leaf_d1_eax)
{
	struct fpu_cpuid c = { .max_leaf = 0xd };
	c.l1.ecx = leaf1_ecx;
	c.d0.eax = 0x7;
	c.d1.eax = leaf_d1_eax;
	return c;
}

static void test_avx_where_offered(void **state)
{
	(void)state;
	/* Haswell, real or QEMU's model: XSAVEOPT is there. */
	struct fpu_cpuid c = cpu(XSAVE | AVX | HYPERVISOR, XSAVEOPT);
	struct fpu_plan p = fpu_plan_choose(&c);
	assert_true(p.osxsave);
	assert_true(p.avx);
	assert_int_equal(p.xcr0, XCR0_X87 | XCR0_SSE | XCR0_AVX);
	assert_null(p.skipped);
	/* AMD family 15h on bare metal: AVX without XSAVEOPT takes the write. */
	c = cpu(XSAVE | AVX, 0);
	p = fpu_plan_choose(&c);
	assert_true(p.osxsave);
	assert_true(p.avx);
}

static void test_no_osxsave_without_avx(void **state)
{
	(void)state;
	/* XSAVE alone (Nehalem-like): the kernel has no use for it and leaves CR4.OSXSAVE clear. */
	struct fpu_cpuid c = cpu(XSAVE, XSAVEOPT);
	struct fpu_plan p = fpu_plan_choose(&c);
	assert_false(p.osxsave);
	assert_false(p.avx);
	assert_null(p.skipped);
	/* AVX claimed without XSAVE, without leaf 0x0D, or without AVX state in XCR0: no AVX. */
	c = cpu(AVX, XSAVEOPT);
	assert_false(fpu_plan_choose(&c).osxsave);
	c = cpu(XSAVE | AVX, XSAVEOPT);
	c.max_leaf = 0xb;
	assert_false(fpu_plan_choose(&c).osxsave);
	c = cpu(XSAVE | AVX, XSAVEOPT);
	c.d0.eax = 0x3;
	assert_false(fpu_plan_choose(&c).osxsave);
	/* Nothing at all (qemu64): SSE only, nothing to report. */
	c = (struct fpu_cpuid){ .max_leaf = 0xd };
	p = fpu_plan_choose(&c);
	assert_false(p.osxsave);
	assert_null(p.skipped);
}

static void test_qemu_opteron_is_not_hung(void **state)
{
	(void)state;
	/* QEMU's Opteron_G4/G5: XSAVE and AVX, CPUID.(0DH,1):EAX = 0, under TCG. */
	struct fpu_cpuid c = cpu(XSAVE | AVX | HYPERVISOR, 0);
	struct fpu_plan p = fpu_plan_choose(&c);
	assert_false(p.osxsave);
	assert_false(p.avx);
	assert_int_equal(p.xcr0, 0);
	assert_non_null(p.skipped);
	assert_non_null(strstr(p.skipped, "XSAVEOPT"));
	/* The same model with +xsaveopt takes the write (tested under QEMU): AVX on. */
	c = cpu(XSAVE | AVX | HYPERVISOR, XSAVEOPT);
	assert_true(fpu_plan_choose(&c).avx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avx_where_offered),
		cmocka_unit_test(test_no_osxsave_without_avx),
		cmocka_unit_test(test_qemu_opteron_is_not_hung),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
