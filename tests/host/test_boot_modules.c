// SPDX-License-Identifier: GPL-2.0
/*
 * Modules a loader did not pass on (kernel/boot_info.h's boot_module_drop) and the words of the
 * kernel's warn record of each (kernel/boot_modules.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/boot_info.h"
#include "kernel/boot_modules.h"

static struct boot_info info;
static char message[256];

static struct boot_module_problem problem(uint32_t kind, uint64_t size, uint32_t status)
{
	struct boot_module_problem p = { .size = size, .kind = kind, .status = status };
	snprintf(p.name, sizeof(p.name), "BENCH3.BIN");
	return p;
}

/* Every drop is counted; the first BOOT_MODULE_PROBLEMS_MAX are noted, in order, then NULL. */
static void test_drop_counts_and_notes(void **state)
{
	(void)state;
	memset(&info, 0, sizeof(info));
	for (unsigned i = 0; i < BOOT_MODULE_PROBLEMS_MAX + 3; i++) {
		struct boot_module_problem *p = boot_module_drop(&info, BOOT_MODULE_TOO_MANY, i, 7);
		if (i < BOOT_MODULE_PROBLEMS_MAX) {
			assert_non_null(p);
			assert_ptr_equal(p, &info.module_problems[i]);
			assert_int_equal(p->size, i);
			assert_int_equal(p->status, 7);
			assert_string_equal(p->name, "");
		} else {
			assert_null(p);
		}
	}
	assert_int_equal(info.modules_dropped, BOOT_MODULE_PROBLEMS_MAX + 3);
	assert_int_equal(info.module_problem_count, BOOT_MODULE_PROBLEMS_MAX);
}

static void test_texts_of_each_kind(void **state)
{
	(void)state;
	struct boot_module_problem p = problem(BOOT_MODULE_TOO_BIG, (128u << 20) + 1, 0);
	const char *file = "a readable file of at most 128 MiB";

	assert_string_equal(boot_module_problem_text(&p, message, sizeof(message)), file);
	assert_string_equal(message, "BENCH3.BIN has 134217729 bytes, more than the 128 MiB the "
				     "UEFI loader reads: not loaded");
	p = problem(BOOT_MODULE_NO_MEMORY, 4096, 9);
	assert_string_equal(boot_module_problem_text(&p, message, sizeof(message)), file);
	assert_string_equal(message, "the UEFI loader found no room below 4 GiB for the 4096 bytes "
				     "of BENCH3.BIN (EFI_OUT_OF_RESOURCES): not loaded");
	p = problem(BOOT_MODULE_UNREADABLE, 0, 7);
	boot_module_problem_text(&p, message, sizeof(message));
	assert_string_equal(
		message, "the firmware could not read BENCH3.BIN (EFI_DEVICE_ERROR): not loaded");
	p = problem(BOOT_MODULE_UNREADABLE, 0, 99); /* a code of no name */
	boot_module_problem_text(&p, message, sizeof(message));
	assert_string_equal(message,
			    "the firmware could not read BENCH3.BIN (EFI status 99): not loaded");
	p = problem(BOOT_MODULE_SHORT_READ, 300, 0);
	boot_module_problem_text(&p, message, sizeof(message));
	assert_string_equal(message,
			    "BENCH3.BIN gave fewer bytes than its size of 300: not loaded");
	p = problem(BOOT_MODULE_NOT_A_FILE, 0, 0);
	assert_string_equal(boot_module_problem_text(&p, message, sizeof(message)), file);
	assert_string_equal(message, "BENCH3.BIN is a directory, not a file: not loaded");
	p = problem(BOOT_MODULE_TOO_MANY, 0, 0);
	assert_string_equal(boot_module_problem_text(&p, message, sizeof(message)),
			    "at most 16 modules");
	assert_string_equal(message, "BENCH3.BIN was not passed on: the kernel keeps at most 16 "
				     "boot modules (bundles) in one boot");
	p = problem(BOOT_MODULE_BAD_RANGE, 0, 0);
	assert_string_equal(boot_module_problem_text(&p, message, sizeof(message)),
			    "a module that ends after it starts");
	p = problem(99, 0, 0); /* a kind this kernel does not know */
	assert_string_equal(boot_module_problem_text(&p, message, sizeof(message)),
			    BOOT_MODULES_ACCEPTED);
	assert_string_equal(message, "BENCH3.BIN was not passed on (problem 99)");
}

/* A name that fills its field without a NUL is not read past its field. */
static void test_name_without_nul(void **state)
{
	(void)state;
	struct boot_module_problem p[2];

	memset(p, 'x', sizeof(p));
	p[0].kind = BOOT_MODULE_NOT_A_FILE;
	boot_module_problem_text(&p[0], message, sizeof(message));
	assert_int_equal(strspn(message, "x"), BOOT_MODULE_NAME_MAX);
	assert_string_equal(message + BOOT_MODULE_NAME_MAX,
			    " is a directory, not a file: not loaded");
}

static void test_status_names(void **state)
{
	(void)state;
	assert_string_equal(boot_efi_status_name(14), "EFI_NOT_FOUND");
	assert_string_equal(boot_efi_status_name(35), "EFI_HTTP_ERROR");
	assert_null(boot_efi_status_name(0));
	assert_null(boot_efi_status_name(29)); /* no such code */
	assert_null(boot_efi_status_name(36));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_counts_and_notes),
		cmocka_unit_test(test_texts_of_each_kind),
		cmocka_unit_test(test_name_without_nul),
		cmocka_unit_test(test_status_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
