/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UEFI memory map, as GetMemoryMap() left it in a buffer, turned into the multiboot-typed map
 * of struct boot_info. Runs after ExitBootServices(), so it calls no firmware and allocates
 * nothing.
 *
 * Pure code (host-tested, tests/host/test_efi_memmap.c).
 */
#ifndef BOOT_EFI_EFI_MEMMAP_H
#define BOOT_EFI_EFI_MEMMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/boot_info.h"

/* EFI_MEMORY_TYPE (UEFI 2.10, 7.2.1 "EFI_BOOT_SERVICES.AllocatePages()"). */
enum efi_memory_type {
	EFI_RESERVED_MEMORY = 0,
	EFI_LOADER_CODE = 1,
	EFI_LOADER_DATA = 2,
	EFI_BOOT_SERVICES_CODE = 3,
	EFI_BOOT_SERVICES_DATA = 4,
	EFI_RUNTIME_SERVICES_CODE = 5,
	EFI_RUNTIME_SERVICES_DATA = 6,
	EFI_CONVENTIONAL_MEMORY = 7,
	EFI_UNUSABLE_MEMORY = 8,
	EFI_ACPI_RECLAIM_MEMORY = 9,
	EFI_ACPI_MEMORY_NVS = 10,
	EFI_MEMORY_MAPPED_IO = 11,
	EFI_MEMORY_MAPPED_IO_PORT_SPACE = 12,
	EFI_PAL_CODE = 13,
	EFI_PERSISTENT_MEMORY = 14,
	EFI_UNACCEPTED_MEMORY = 15,
};

/* EFI_MEMORY_DESCRIPTOR (UEFI 2.10, 7.2.3 "GetMemoryMap()"): the fields the loader reads. */
#define EFI_MEMDESC_TYPE 0
#define EFI_MEMDESC_PHYSICAL_START 8
#define EFI_MEMDESC_NUMBER_OF_PAGES 24
#define EFI_MEMDESC_ATTRIBUTE 32
#define EFI_MEMDESC_MIN_SIZE 40
#define EFI_MEMDESC_PAGE_SIZE 4096u

/* Attribute bit of "specific purpose" memory (UEFI 2.8 and later): not general-purpose RAM. */
#define EFI_MEMDESC_SPECIFIC_PURPOSE (1ull << 18)

/* What the kernel may do with memory of this EFI type after ExitBootServices(). */
uint32_t efi_memmap_boot_type(uint32_t efi_type, uint64_t attribute);

/*
 * Fill info->memory_map (and memory_region_count, memory_map_truncated) from map_size bytes of
 * descriptors desc_size apart: in address order (the specification does not promise one), each
 * type converted, adjacent regions of the same type merged. Nothing is cut out: the kernel keeps
 * its own image and boot_info (loader_info_start..end) out of use itself, as on the multiboot
 * path. Returns false, leaving an empty map, when desc_size is too small to be a descriptor.
 */
bool efi_memmap_convert(const void *map, size_t map_size, size_t desc_size, struct boot_info *info);

#endif
