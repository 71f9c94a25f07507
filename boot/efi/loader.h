/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native UEFI loader (BOOTX64.EFI): what its parts share. The loader takes the kernel ELF
 * embedded in itself, loads it where it is linked, gathers what kernel/boot_info.h asks for,
 * leaves the firmware and enters kernel_entry64 (boot/multiboot.asm) with RDI = &boot_info.
 *
 * Built with GNU-EFI: efi_main() is called by GNU-EFI's crt0 in the System V ABI; firmware calls
 * go straight through the function pointers, which GNU_EFI_USE_MS_ABI declares ms_abi
 * (boot/efi/uefi.h). The hand-off's part is boot/efi/handoff.h.
 */
#ifndef BOOT_EFI_LOADER_H
#define BOOT_EFI_LOADER_H

#include "boot/efi/elf_plan.h"
#include "boot/efi/uefi.h"
#include "kernel/boot_info.h"

#define LOADER_NAME "pmu-testkernel UEFI loader (GNU-EFI)"

/* The kernel's entry for loaders that are already in long mode (boot/multiboot.asm). */
#define KERNEL_ENTRY_SYMBOL "kernel_entry64"

/* kernel_load.c: the embedded kernel, checked, at its physical addresses, bss zeroed. */
EFI_STATUS kernel_load(struct elf_plan *plan);
void kernel_unload(const struct elf_plan *plan);

/*
 * esp_file.c: files in the loader's own directory on the device it came from. Open gives
 * EFI_NOT_FOUND when there is no such file, or no file system (an ISO 9660 CD under GRUB).
 */
struct esp_file {
	EFI_FILE_HANDLE root, file;
};
EFI_STATUS esp_open_beside_loader(EFI_LOADED_IMAGE *self, const CHAR16 *name, struct esp_file *f);
/* The file's size in bytes, and whether it is a directory (EFI_FILE_INFO, UEFI 2.10, 13.5.16). */
EFI_STATUS esp_file_info(struct esp_file *f, UINT64 *size, BOOLEAN *directory);
/* Up to *size bytes from where the file stands; *size = bytes read, fewer at its end. */
EFI_STATUS esp_file_read(struct esp_file *f, void *buffer, UINTN *size);
void esp_close(struct esp_file *f);
/* Up to *size bytes of a file in the loader's own directory; *size = bytes read. */
EFI_STATUS esp_read_beside_loader(EFI_LOADED_IMAGE *self, const CHAR16 *name, void *buffer,
				  UINTN *size);

/*
 * bundles.c: BENCH1.BIN, BENCH2.BIN, ... beside the loader into pages below 4 GiB, listed in
 * info->modules; the files not passed on in info->module_problems. Release gives the pages back
 * when the loader returns to the firmware.
 */
void bundles_load(EFI_LOADED_IMAGE *self, struct boot_info *info);
void bundles_release(struct boot_info *info);

/* firmware_info.c: the ACPI RSDP and the GOP framebuffer into boot_info. */
void firmware_find_acpi(struct boot_info *info);
void firmware_find_framebuffer(struct boot_info *info);

/* firmware_map.c: the memory map, and leaving boot services with it. */
struct firmware_map {
	UINT8 *buffer;
	UINTN capacity; /* bytes allocated */
	UINTN size;	/* bytes of descriptors in the last map read */
	UINTN key;
	UINTN desc_size;
	UINT32 desc_version;
};
EFI_STATUS firmware_map_read(struct firmware_map *map);
void firmware_map_free(struct firmware_map *map);
EFI_STATUS firmware_exit_boot_services(EFI_HANDLE image, struct firmware_map *map,
				       BOOLEAN *exit_attempted);
const CHAR16 *firmware_memory_type_name(UINT32 type);

#endif
