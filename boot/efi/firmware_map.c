// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware's memory map, and ExitBootServices() with it (UEFI 2.10, 7.2.3 "GetMemoryMap()"
 * and 7.4.6 "ExitBootServices()").
 *
 * ExitBootServices() needs the key of the current map. Anything that allocates or frees memory
 * changes the map and the key, Print() included, so the map is read last, into a buffer allocated
 * beforehand with room to spare. When the key is stale anyway (an event ran in between, or the
 * firmware changed the map during a first, partial shutdown), ExitBootServices() returns
 * EFI_INVALID_PARAMETER and the specification allows exactly one thing: GetMemoryMap() again, into
 * the same buffer, and another try.
 */
#include "boot/efi/efi_memmap.h"
#include "boot/efi/loader.h"

/* Descriptors of room to spare: the buffer's own allocation may split a region or two. */
#define MAP_SLACK_DESCRIPTORS 16
#define EXIT_TRIES 8

EFI_STATUS firmware_map_read(struct firmware_map *map)
{
	for (unsigned attempt = 0; attempt < 4; attempt++) {
		map->size = map->capacity;
		EFI_STATUS status =
			BS->GetMemoryMap(&map->size, (EFI_MEMORY_DESCRIPTOR *)map->buffer,
					 &map->key, &map->desc_size, &map->desc_version);
		if (status == EFI_SUCCESS) {
			if (map->desc_size < EFI_MEMDESC_MIN_SIZE) {
				Print(LOADER_SAY L"memory descriptors of %d bytes: too small\n",
				      (int)map->desc_size);
				return EFI_UNSUPPORTED;
			}
			return EFI_SUCCESS;
		}
		if (status != EFI_BUFFER_TOO_SMALL) {
			Print(LOADER_SAY L"GetMemoryMap: %r\n", status);
			return status;
		}
		/* map->size now says how much is needed; the allocation itself adds descriptors. */
		firmware_map_free(map);
		map->capacity = map->size + MAP_SLACK_DESCRIPTORS * map->desc_size;
		status = BS->AllocatePool(EfiLoaderData, map->capacity, (void **)&map->buffer);
		if (EFI_ERROR(status)) {
			map->buffer = NULL;
			map->capacity = 0;
			Print(LOADER_SAY L"no memory for the memory map: %r\n", status);
			return status;
		}
	}
	Print(LOADER_SAY L"the memory map keeps growing; giving up\n");
	return EFI_BUFFER_TOO_SMALL;
}

void firmware_map_free(struct firmware_map *map)
{
	if (map->buffer)
		BS->FreePool(map->buffer);
	map->buffer = NULL;
	map->capacity = 0;
}

EFI_STATUS firmware_exit_boot_services(EFI_HANDLE image, struct firmware_map *map,
				       BOOLEAN *exit_attempted)
{
	UINTN desc_size;
	EFI_STATUS status = firmware_map_read(map);

	*exit_attempted = FALSE;
	if (EFI_ERROR(status))
		return status;
	desc_size = map->desc_size;
	/* From here on: no Print(), no allocation, nothing but these two calls. */
	for (unsigned tries = 1;; tries++) {
		status = BS->ExitBootServices(image, map->key);
		*exit_attempted = TRUE;
		if (status != EFI_INVALID_PARAMETER || tries == EXIT_TRIES)
			return status;
		map->size = map->capacity;
		status = BS->GetMemoryMap(&map->size, (EFI_MEMORY_DESCRIPTOR *)map->buffer,
					  &map->key, &map->desc_size, &map->desc_version);
		if (EFI_ERROR(status))
			return status;
		/* The conversion after the exit was planned for this descriptor size. */
		if (map->desc_size != desc_size)
			return EFI_UNSUPPORTED;
	}
}

const CHAR16 *firmware_memory_type_name(UINT32 type)
{
	static const CHAR16 *const names[] = {
		[EFI_RESERVED_MEMORY] = L"reserved",
		[EFI_LOADER_CODE] = L"loader code",
		[EFI_LOADER_DATA] = L"loader data",
		[EFI_BOOT_SERVICES_CODE] = L"boot services code",
		[EFI_BOOT_SERVICES_DATA] = L"boot services data",
		[EFI_RUNTIME_SERVICES_CODE] = L"runtime services code",
		[EFI_RUNTIME_SERVICES_DATA] = L"runtime services data",
		[EFI_CONVENTIONAL_MEMORY] = L"free",
		[EFI_UNUSABLE_MEMORY] = L"unusable",
		[EFI_ACPI_RECLAIM_MEMORY] = L"ACPI tables",
		[EFI_ACPI_MEMORY_NVS] = L"ACPI NVS",
		[EFI_MEMORY_MAPPED_IO] = L"MMIO",
		[EFI_MEMORY_MAPPED_IO_PORT_SPACE] = L"MMIO port space",
		[EFI_PAL_CODE] = L"PAL code",
		[EFI_PERSISTENT_MEMORY] = L"persistent",
		[EFI_UNACCEPTED_MEMORY] = L"unaccepted",
	};

	if (type < sizeof(names) / sizeof(names[0]))
		return names[type];
	return type >= 0x80000000u ? L"OS-defined" : L"OEM-defined";
}
