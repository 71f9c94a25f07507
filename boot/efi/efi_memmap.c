// SPDX-License-Identifier: GPL-2.0
/*
 * UEFI memory map -> boot_info memory map. Which EFI types the kernel may use follows UEFI 2.10,
 * 7.2.1, table "Memory Type Usage after ExitBootServices()": loader and boot-services memory is
 * free once the loader has jumped to the kernel, runtime-services memory stays the firmware's,
 * ACPI memory keeps its ACPI meaning (multiboot2 spec 3.6.8 has the same types).
 */
#include "boot/efi/efi_memmap.h"

uint32_t efi_memmap_boot_type(uint32_t efi_type, uint64_t attribute)
{
	switch (efi_type) {
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_CONVENTIONAL_MEMORY:
		/* "Specific purpose" memory is meant for particular uses (UEFI 2.8, 7.2.3). */
		if (attribute & EFI_MEMDESC_SPECIFIC_PURPOSE)
			return BOOT_MEMORY_RESERVED;
		return BOOT_MEMORY_USABLE;
	case EFI_ACPI_RECLAIM_MEMORY:
		return BOOT_MEMORY_ACPI_RECLAIMABLE;
	case EFI_ACPI_MEMORY_NVS:
		return BOOT_MEMORY_ACPI_NVS;
	case EFI_UNUSABLE_MEMORY:
		return BOOT_MEMORY_BAD;
	default: /* reserved, runtime services, MMIO, PAL code, persistent, unaccepted, OEM */
		return BOOT_MEMORY_RESERVED;
	}
}

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = bytes; i-- > 0;)
		v = (v << 8) | p[i];
	return v;
}

/* Append [base, end) of type, merging with the previous region when they touch. */
static void emit(struct boot_info *info, uint64_t base, uint64_t end, uint32_t type)
{
	if (end <= base)
		return;
	if (info->memory_region_count > 0) {
		struct boot_memory_region *last = &info->memory_map[info->memory_region_count - 1];
		if (last->type == type && last->base + last->length == base) {
			last->length += end - base;
			return;
		}
	}
	if (info->memory_region_count == BOOT_MEMMAP_MAX) {
		info->memory_map_truncated = 1;
		return;
	}
	info->memory_map[info->memory_region_count++] = (struct boot_memory_region){
		.base = base,
		.length = end - base,
		.type = type,
	};
}

/*
 * The index of the descriptor that comes next in (start, index) order after (start, index) =
 * (after_start, after), or count when none does. after = count means "before the first". Sorting
 * in place is not allowed (the buffer is the firmware's map) and there is no memory to sort into,
 * so each step scans the map: quadratic, but a map has at most a few hundred descriptors.
 */
static size_t next_descriptor(const uint8_t *map, size_t count, size_t desc_size,
			      uint64_t after_start, size_t after)
{
	size_t best = count;
	uint64_t best_start = 0;

	for (size_t i = 0; i < count; i++) {
		uint64_t start = rd(map + i * desc_size + EFI_MEMDESC_PHYSICAL_START, 8);
		bool later = after == count || start > after_start ||
			     (start == after_start && i > after);
		if (later && (best == count || start < best_start)) {
			best = i;
			best_start = start;
		}
	}
	return best;
}

bool efi_memmap_convert(const void *map, size_t map_size, size_t desc_size, struct boot_info *info)
{
	info->memory_region_count = 0;
	info->memory_map_truncated = 0;
	if (desc_size < EFI_MEMDESC_MIN_SIZE)
		return false;

	const uint8_t *bytes = map;
	size_t count = map_size / desc_size;
	uint64_t start = 0;
	for (size_t i = next_descriptor(bytes, count, desc_size, 0, count); i < count;
	     i = next_descriptor(bytes, count, desc_size, start, i)) {
		const uint8_t *d = bytes + i * desc_size;
		start = rd(d + EFI_MEMDESC_PHYSICAL_START, 8);
		uint64_t pages = rd(d + EFI_MEMDESC_NUMBER_OF_PAGES, 8);
		/* A descriptor reaching past 2^64 is corrupt; keep what can be expressed. */
		uint64_t room = (UINT64_MAX - start) / EFI_MEMDESC_PAGE_SIZE;
		uint64_t end = start + (pages < room ? pages : room) * EFI_MEMDESC_PAGE_SIZE;
		emit(info, start, end,
		     efi_memmap_boot_type((uint32_t)rd(d + EFI_MEMDESC_TYPE, 4),
					  rd(d + EFI_MEMDESC_ATTRIBUTE, 8)));
	}
	return true;
}
