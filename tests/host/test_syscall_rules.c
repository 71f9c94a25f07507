// SPDX-License-Identifier: GPL-2.0
/*
 * SYSCALL's and SYSRET's rules (kernel/syscall_rules.c): the IA32_STAR value the GDT's selectors
 * give, the orders of selectors that cannot work, and when SYSRET may return.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/gdt.h"
#include "kernel/syscall_rules.h"

static void test_star_of_the_kernel_gdt(void **state)
{
	(void)state;
	uint64_t star;
	const char *reason;

	assert_true(syscall_star(GDT_KERNEL_CS, GDT_KERNEL_DS, GDT_USER_CS, GDT_USER_DS, &star,
				 &reason));
	assert_null(reason);
	/* SYSCALL: CS 0x08, SS 0x10. SYSRET: CS 0x13 + 16 = 0x23, SS 0x13 + 8 = 0x1b. */
	assert_int_equal(star, 0x0013000800000000ull);
	uint16_t base = (uint16_t)(star >> 48), kernel = (uint16_t)(star >> 32);
	assert_int_equal(kernel, GDT_KERNEL_CS);
	assert_int_equal(kernel + 8, GDT_KERNEL_DS);
	assert_int_equal((base + 16) | 3, GDT_USER_CS);
	assert_int_equal((base + 8) | 3, GDT_USER_DS);
}

/* Linux's order (kernel code, kernel data, user32 code, user data, user code) works too. */
static void test_star_of_linux_gdt(void **state)
{
	(void)state;
	uint64_t star;
	const char *reason;

	assert_true(syscall_star(0x10, 0x18, 0x33, 0x2b, &star, &reason));
	assert_int_equal(star, 0x0023001000000000ull);
}

static void refused(uint16_t kcs, uint16_t kds, uint16_t ucs, uint16_t uds, const char *word)
{
	uint64_t star = 1;
	const char *reason = NULL;

	assert_false(syscall_star(kcs, kds, ucs, uds, &star, &reason));
	assert_int_equal(star, 0);
	assert_non_null(reason);
	assert_non_null(strstr(reason, word));
}

static void test_orders_that_cannot_work(void **state)
{
	(void)state;
	/* User code before user data (the order an IRETQ-only kernel may pick): SYSRET would load
	 * CS from the data entry. */
	refused(0x08, 0x10, 0x18 | 3, 0x20 | 3, "user's code selector must follow");
	/* Kernel data not right after kernel code. */
	refused(0x08, 0x18, 0x23, 0x1b, "kernel's data selector must follow");
	/* RPLs. */
	refused(0x08 | 3, 0x10, 0x23, 0x1b, "RPL 0");
	refused(0x08, 0x10, 0x20, 0x1b, "RPL 3");
	/* The null selector. */
	refused(0x00, 0x08, 0x23, 0x1b, "RPL 0");
	refused(0x08, 0x10, 0x0b, 0x03, "null selector");
}

#define UCS GDT_USER_CS
#define UDS GDT_USER_DS
#define IF RFLAGS_INTERRUPT

static void test_sysret_allowed(void **state)
{
	(void)state;
	/* A workload's RIP and flags. */
	assert_true(sysret_allowed(0x146fe9, IF | 2, UCS, UDS, UCS, UDS));
	assert_true(sysret_allowed(0x00007ffffffff000ull, IF | 2, UCS, UDS, UCS, UDS));
	/* Non-canonical, or the upper half: IRETQ. */
	assert_false(sysret_allowed(0x0000800000000000ull, IF | 2, UCS, UDS, UCS, UDS));
	assert_false(sysret_allowed(0x8000000000000000ull, IF | 2, UCS, UDS, UCS, UDS));
	assert_false(sysret_allowed(0xffff800000000000ull, IF | 2, UCS, UDS, UCS, UDS));
	/* Single-stepped ring 3 (TF), or RF: IRETQ. */
	assert_false(sysret_allowed(0x146fe9, IF | 2 | RFLAGS_TRAP, UCS, UDS, UCS, UDS));
	assert_false(sysret_allowed(0x146fe9, IF | 2 | RFLAGS_RESUME, UCS, UDS, UCS, UDS));
	/* A frame a handler pointed elsewhere than ring 3's 64-bit segments. */
	assert_false(sysret_allowed(0x146fe9, IF | 2, GDT_KERNEL_CS, UDS, UCS, UDS));
	assert_false(sysret_allowed(0x146fe9, IF | 2, UCS, GDT_KERNEL_DS, UCS, UDS));
}

static void test_fmask(void **state)
{
	(void)state;
	/* IF, TF, DF, AC and NT: bits 9, 8, 10, 18, 14. */
	assert_int_equal(SYSCALL_FMASK, 0x44700);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_star_of_the_kernel_gdt),
		cmocka_unit_test(test_star_of_linux_gdt),
		cmocka_unit_test(test_orders_that_cannot_work),
		cmocka_unit_test(test_sysret_allowed),
		cmocka_unit_test(test_fmask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
