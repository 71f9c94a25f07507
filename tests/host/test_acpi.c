// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI tables (kernel/acpi.c) over good and deliberately broken data.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/acpi.h"
#include "tests/host/lib/fake_phys.h"

static void fix_checksum(uint8_t *p, size_t n, size_t at)
{
	uint8_t sum = 0;
	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		sum = (uint8_t)(sum + p[i]);
	p[at] = (uint8_t)-sum;
}

static void make_rsdp(uint8_t *p, unsigned revision)
{
	memset(p, 0, 36);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "BOCHS ", 6);
	p[15] = (uint8_t)revision;
	uint32_t rsdt = 0x7fe0000, length = 36;
	memcpy(p + 16, &rsdt, 4);
	fix_checksum(p, 20, 8);
	if (revision >= 2) {
		memcpy(p + 20, &length, 4);
		fix_checksum(p, 36, 32);
	}
}

static void test_rsdp_validation(void **state)
{
	(void)state;
	uint8_t p[36];

	make_rsdp(p, 0);
	assert_true(acpi_rsdp_valid(p, 20));
	assert_false(acpi_rsdp_valid(p, 19)); /* truncated */
	p[12] ^= 1;
	assert_false(acpi_rsdp_valid(p, 20)); /* checksum */
	make_rsdp(p, 2);
	assert_true(acpi_rsdp_valid(p, 36));
	assert_false(acpi_rsdp_valid(p, 30)); /* the extended structure must be all there */
	p[30] ^= 1;
	assert_false(acpi_rsdp_valid(p, 36)); /* extended checksum */
	make_rsdp(p, 2);
	p[0] = 'r';
	assert_false(acpi_rsdp_valid(p, 36)); /* signature */
}

static void test_rsdp_scan(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	uint8_t *bda = fake_phys_add(&m, 0x400, 0x100);
	uint8_t *ebda = fake_phys_add(&m, 0x9fc00, 0x400);
	uint8_t *bios = fake_phys_add(&m, 0xe0000, 0x20000);

	/* Nothing anywhere. */
	bda[0x0e] = 0xc0;
	bda[0x0f] = 0x9f; /* EBDA segment 0x9fc0 */
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0);

	/* In the BIOS area, on a 16-byte boundary; a copy off the boundary is not found. */
	make_rsdp(bios + 0x159e0, 0);
	make_rsdp(bios + 0x100 + 4, 0);
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0xf59e0);

	/* The EBDA is searched first. */
	make_rsdp(ebda + 0x20, 2);
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0x9fc20);

	/* A damaged one in the EBDA falls back to the BIOS area. */
	ebda[0x20 + 12] ^= 0x55;
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0xf59e0);
	fake_phys_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsdp_validation),
		cmocka_unit_test(test_rsdp_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
