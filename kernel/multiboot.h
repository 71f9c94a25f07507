/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the multiboot1 and multiboot2 information structures into a struct boot_info.
 *
 * Pure code (host-tested): the information is reached through a translate function that turns a
 * physical address into a pointer, the identity in the kernel and a fake memory in the tests.
 */
#ifndef KERNEL_MULTIBOOT_H
#define KERNEL_MULTIBOOT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/boot_info.h"

#define MULTIBOOT1_BOOTLOADER_MAGIC 0x2badb002u
#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289u

/* Multiboot2 information tag types (multiboot2 spec 3.6). */
enum multiboot2_tag_type {
	MB2_TAG_END = 0,
	MB2_TAG_CMDLINE = 1,
	MB2_TAG_LOADER_NAME = 2,
	MB2_TAG_MODULE = 3,
	MB2_TAG_BASIC_MEMINFO = 4,
	MB2_TAG_BOOTDEV = 5,
	MB2_TAG_MMAP = 6,
	MB2_TAG_VBE = 7,
	MB2_TAG_FRAMEBUFFER = 8,
	MB2_TAG_ELF_SECTIONS = 9,
	MB2_TAG_APM = 10,
	MB2_TAG_EFI32 = 11,
	MB2_TAG_EFI64 = 12,
	MB2_TAG_SMBIOS = 13,
	MB2_TAG_ACPI_OLD = 14,
	MB2_TAG_ACPI_NEW = 15,
	MB2_TAG_NETWORK = 16,
	MB2_TAG_EFI_MMAP = 17,
	MB2_TAG_EFI_BS = 18,
	MB2_TAG_EFI32_IH = 19,
	MB2_TAG_EFI64_IH = 20,
	MB2_TAG_LOAD_BASE_ADDR = 21,
};

/* Multiboot1 information flags (multiboot spec 0.6.96, 3.3). */
#define MB1_INFO_MEMORY (1u << 0)
#define MB1_INFO_CMDLINE (1u << 2)
#define MB1_INFO_MODS (1u << 3)
#define MB1_INFO_MEM_MAP (1u << 6)
#define MB1_INFO_LOADER_NAME (1u << 9)
#define MB1_INFO_FRAMEBUFFER (1u << 12)

/* Returns a pointer to len bytes at physical address addr, or NULL if they are not readable. */
typedef const void *(*multiboot_translate_fn)(uint64_t addr, size_t len, void *ctx);

/* What went wrong, for the kernel's warn record; NULL when nothing did. */
struct multiboot_result {
	const char *error;   /* the structure could not be read at all */
	const char *warning; /* something was skipped (a truncated tag, an oversized map) */
};

/*
 * Fill info from the loader's magic and information address. Recognises both multiboot
 * generations by their magic. info is cleared first; on error, it keeps magic, version and path
 * BOOT_PATH_UNKNOWN.
 */
struct multiboot_result multiboot_parse(uint32_t magic, uint64_t info_addr,
					multiboot_translate_fn translate, void *ctx,
					struct boot_info *info);

#endif
