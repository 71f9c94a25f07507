// SPDX-License-Identifier: GPL-2.0
/*
 * The UEFI memory map into boot_info's map (boot/efi/efi_memmap.c): types as the specification
 * says they may be used after ExitBootServices(), address order whatever the firmware's order,
 * descriptors larger than the structure, merging, truncation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "boot/efi/efi_memmap.h"
#include "tests/host/lib/test_util.h"

/* Real firmware (EDK2) uses 48-byte descriptors, 8 more than the structure. */
#define DESC 48
#define MAX_DESCS 700

static uint8_t map[MAX_DESCS * DESC];
static unsigned descs;
static struct boot_info info;

static void add_attr(uint32_t type, uint64_t start, uint64_t pages, uint64_t attribute)
{
	uint8_t *d = map + descs++ * DESC;
	memset(d, 0xa5, DESC); /* padding and VirtualStart are not read */
	put_le(d + EFI_MEMDESC_TYPE, type, 4);
	put_le(d + EFI_MEMDESC_PHYSICAL_START, start, 8);
	put_le(d + EFI_MEMDESC_NUMBER_OF_PAGES, pages, 8);
	put_le(d + EFI_MEMDESC_ATTRIBUTE, attribute, 8);
}

static void add(uint32_t type, uint64_t start, uint64_t pages)
{
	add_attr(type, start, pages, 0xf /* UC WC WT WB */);
}

static void reset(void)
{
	descs = 0;
	memset(&info, 0x5a, sizeof(info));
}

static bool convert(void)
{
	return efi_memmap_convert(map, descs * DESC, DESC, &info);
}

static void expect(unsigned i, uint64_t base, uint64_t end, uint32_t type)
{
	const struct boot_memory_region *r = &info.memory_map[i];
	print_message("region %u: 0x%llx-0x%llx type %u\n", i, (unsigned long long)r->base,
		      (unsigned long long)(r->base + r->length), r->type);
	assert_int_equal(r->base, base);
	assert_int_equal(r->base + r->length, end);
	assert_int_equal(r->type, type);
	assert_int_equal(r->reserved, 0);
}

static void test_types(void **state)
{
	(void)state;
	static const uint32_t expected[] = {
		[EFI_RESERVED_MEMORY] = BOOT_MEMORY_RESERVED,
		[EFI_LOADER_CODE] = BOOT_MEMORY_USABLE,
		[EFI_LOADER_DATA] = BOOT_MEMORY_USABLE,
		[EFI_BOOT_SERVICES_CODE] = BOOT_MEMORY_USABLE,
		[EFI_BOOT_SERVICES_DATA] = BOOT_MEMORY_USABLE,
		[EFI_RUNTIME_SERVICES_CODE] = BOOT_MEMORY_RESERVED,
		[EFI_RUNTIME_SERVICES_DATA] = BOOT_MEMORY_RESERVED,
		[EFI_CONVENTIONAL_MEMORY] = BOOT_MEMORY_USABLE,
		[EFI_UNUSABLE_MEMORY] = BOOT_MEMORY_BAD,
		[EFI_ACPI_RECLAIM_MEMORY] = BOOT_MEMORY_ACPI_RECLAIMABLE,
		[EFI_ACPI_MEMORY_NVS] = BOOT_MEMORY_ACPI_NVS,
		[EFI_MEMORY_MAPPED_IO] = BOOT_MEMORY_RESERVED,
		[EFI_MEMORY_MAPPED_IO_PORT_SPACE] = BOOT_MEMORY_RESERVED,
		[EFI_PAL_CODE] = BOOT_MEMORY_RESERVED,
		[EFI_PERSISTENT_MEMORY] = BOOT_MEMORY_RESERVED,
		[EFI_UNACCEPTED_MEMORY] = BOOT_MEMORY_RESERVED,
	};

	for (uint32_t t = 0; t < sizeof(expected) / sizeof(expected[0]); t++)
		assert_int_equal(efi_memmap_boot_type(t, 0xf), expected[t]);
	/* OEM and OS-loader types are reserved. */
	assert_int_equal(efi_memmap_boot_type(0x70000000u, 0), BOOT_MEMORY_RESERVED);
	assert_int_equal(efi_memmap_boot_type(0x80000001u, 0), BOOT_MEMORY_RESERVED);
	/* Specific-purpose memory is not general RAM, whatever its type. */
	assert_int_equal(
		efi_memmap_boot_type(EFI_CONVENTIONAL_MEMORY, EFI_MEMDESC_SPECIFIC_PURPOSE),
		BOOT_MEMORY_RESERVED);
	assert_int_equal(efi_memmap_boot_type(EFI_ACPI_MEMORY_NVS, EFI_MEMDESC_SPECIFIC_PURPOSE),
			 BOOT_MEMORY_ACPI_NVS);
}

/* Shaped like OVMF's map under QEMU with 512 MiB, shuffled. */
static void test_ovmf_like_map(void **state)
{
	(void)state;

	reset();
	add(EFI_ACPI_MEMORY_NVS, 0x806000, 2);
	add(EFI_CONVENTIONAL_MEMORY, 0x16a000, 0x69c);
	add(EFI_BOOT_SERVICES_CODE, 0, 1);
	add(EFI_CONVENTIONAL_MEMORY, 0x1000, 0x86);
	add(EFI_BOOT_SERVICES_DATA, 0x87000, 1);
	add(EFI_CONVENTIONAL_MEMORY, 0x88000, 0x16);
	add(EFI_LOADER_DATA, 0x9e000, 1);
	add(EFI_CONVENTIONAL_MEMORY, 0x9f000, 1);
	add(EFI_LOADER_CODE, 0x100000, 0x6a); /* the kernel image: the kernel keeps it itself */
	add(EFI_CONVENTIONAL_MEMORY, 0x808000, 8);
	add(EFI_RUNTIME_SERVICES_DATA, 0x1ee8a000, 0x102);
	add(EFI_BOOT_SERVICES_DATA, 0x900000, 0x1e58a);
	add(EFI_ACPI_RECLAIM_MEMORY, 0x1fb6c000, 0x12);
	add(EFI_MEMORY_MAPPED_IO, 0xffc00000, 0x400);
	add(EFI_RESERVED_MEMORY, 0xb0000000, 0x10000);

	assert_true(convert());
	assert_int_equal(info.memory_region_count, 9);
	assert_int_equal(info.memory_map_truncated, 0);
	expect(0, 0, 0xa0000, BOOT_MEMORY_USABLE); /* six descriptors, merged */
	expect(1, 0x100000, 0x806000, BOOT_MEMORY_USABLE);
	expect(2, 0x806000, 0x808000, BOOT_MEMORY_ACPI_NVS);
	expect(3, 0x808000, 0x810000, BOOT_MEMORY_USABLE);
	/* 0x810000-0x900000 is absent from this map: a gap is not merged over. */
	expect(4, 0x900000, 0x1ee8a000, BOOT_MEMORY_USABLE);
	expect(5, 0x1ee8a000, 0x1ef8c000, BOOT_MEMORY_RESERVED);
	expect(6, 0x1fb6c000, 0x1fb7e000, BOOT_MEMORY_ACPI_RECLAIMABLE);
	expect(7, 0xb0000000, 0xc0000000, BOOT_MEMORY_RESERVED);
	expect(8, 0xffc00000, 0x100000000ull, BOOT_MEMORY_RESERVED);
}

static void test_odd_descriptors(void **state)
{
	(void)state;

	reset();
	add(EFI_CONVENTIONAL_MEMORY, 0x100000, 0); /* empty: skipped */
	add(EFI_CONVENTIONAL_MEMORY, 0x200000, 0x10);
	add(EFI_CONVENTIONAL_MEMORY, 0x200000, 0x10); /* a duplicate: kept, not lost */
	/* Past 2^64: clipped. */
	add(EFI_RESERVED_MEMORY, 0xfffffffffff00000ull, 0x1000);
	add_attr(EFI_CONVENTIONAL_MEMORY, 0x300000, 0x10, EFI_MEMDESC_SPECIFIC_PURPOSE);
	assert_true(convert());
	assert_int_equal(info.memory_region_count, 4);
	expect(0, 0x200000, 0x210000, BOOT_MEMORY_USABLE);
	expect(1, 0x200000, 0x210000, BOOT_MEMORY_USABLE);
	expect(2, 0x300000, 0x310000, BOOT_MEMORY_RESERVED);
	expect(3, 0xfffffffffff00000ull, 0xfffffffffffff000ull, BOOT_MEMORY_RESERVED);

	/* A trailing partial descriptor is not read. */
	assert_true(efi_memmap_convert(map, 2 * DESC - 1, DESC, &info));
	assert_int_equal(info.memory_region_count, 0);

	/* Descriptors smaller than the structure: refused, map empty. */
	assert_false(efi_memmap_convert(map, descs * 32, 32, &info));
	assert_int_equal(info.memory_region_count, 0);
}

/* More regions than boot_info keeps: the first ones (by address) and the flag. */
static void test_truncation(void **state)
{
	(void)state;

	reset();
	for (unsigned i = 0; i < 600; i++)
		add(i % 2 ? EFI_RUNTIME_SERVICES_DATA : EFI_CONVENTIONAL_MEMORY,
		    (uint64_t)(599 - i) * 0x1000, 1);
	assert_true(convert());
	assert_int_equal(info.memory_region_count, BOOT_MEMMAP_MAX);
	assert_int_equal(info.memory_map_truncated, 1);
	for (unsigned i = 0; i < BOOT_MEMMAP_MAX; i++)
		assert_int_equal(info.memory_map[i].base, (uint64_t)i * 0x1000);

	/* The same number of descriptors that merge fit easily. */
	reset();
	for (unsigned i = 0; i < 600; i++)
		add(i % 2 ? EFI_BOOT_SERVICES_CODE : EFI_CONVENTIONAL_MEMORY, (uint64_t)i * 0x1000,
		    1);
	assert_true(convert());
	assert_int_equal(info.memory_region_count, 1);
	assert_int_equal(info.memory_map_truncated, 0);
	expect(0, 0, 600 * 0x1000, BOOT_MEMORY_USABLE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_ovmf_like_map),
		cmocka_unit_test(test_odd_descriptors),
		cmocka_unit_test(test_truncation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
