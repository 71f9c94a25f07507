// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the multiboot1 and multiboot2 information structures (kernel/multiboot.c,
 * multiboot_parse) in a fake physical memory (tests/host/lib/fake_phys.c).
 *
 * Input: one byte choosing the magic (multiboot1, multiboot2, or a foreign one), then the
 * information structure, placed at INFO_BASE in a region of exactly its size: a read past its
 * end is refused by the fake memory or, through a pointer kept too long, caught by
 * AddressSanitizer. Multiboot1's pointers (command line, map, loader name) reach whatever of
 * the same region they name.
 * Promises checked: the result is what the magic says (an error leaves the path unknown), the
 * strings end inside their arrays, the map holds at most BOOT_MEMMAP_MAX regions, and an RSDP
 * handed over by multiboot2 is the kernel's own copy.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/multiboot.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/host/lib/fake_phys.h"

#define INFO_BASE 0x10000u

static const uint32_t magics[] = { MULTIBOOT1_BOOTLOADER_MAGIC, MULTIBOOT2_BOOTLOADER_MAGIC,
				   0x12345678u };

static void check(uint32_t magic, const struct multiboot_result *r, const struct boot_info *info)
{
	FUZZ_CHECK(info->magic == BOOT_INFO_MAGIC);
	FUZZ_CHECK(FUZZ_TERMINATED(info->cmdline));
	FUZZ_CHECK(FUZZ_TERMINATED(info->loader_name));
	FUZZ_CHECK(info->memory_region_count <= BOOT_MEMMAP_MAX);
	if (r->error) {
		FUZZ_CHECK(info->path == BOOT_PATH_UNKNOWN);
		return;
	}
	FUZZ_CHECK(magic != magics[2]);
	FUZZ_CHECK(info->path == (magic == MULTIBOOT1_BOOTLOADER_MAGIC ? BOOT_PATH_MULTIBOOT1
								       : BOOT_PATH_MULTIBOOT2));
	if (info->acpi_rsdp_source == BOOT_ACPI_MULTIBOOT2_OLD ||
	    info->acpi_rsdp_source == BOOT_ACPI_MULTIBOOT2_NEW)
		FUZZ_CHECK(info->acpi_rsdp == (uint64_t)(uintptr_t)info->acpi_rsdp_copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	uint32_t magic = magics[fuzz_byte(&in) % 3];
	struct fake_phys memory = { 0 };
	static struct boot_info info;

	if (in.size)
		memcpy(fake_phys_add(&memory, INFO_BASE, in.size), in.data, in.size);
	memset(&info, 0xa5, sizeof(info)); /* the parser must clear what it fills */
	struct multiboot_result r =
		multiboot_parse(magic, INFO_BASE, fake_phys_translate, &memory, &info);
	check(magic, &r, &info);
	fake_phys_free(&memory);
	return 0;
}
