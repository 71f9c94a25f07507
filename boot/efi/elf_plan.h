/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking the kernel ELF before the UEFI loader touches any memory for it, and working out where
 * its segments go and where its 64-bit entry is.
 *
 * Pure code (host-tested): it only reads the bytes it is given and never allocates, so the same
 * object is built into BOOTX64.EFI and into tests/host/test_efi_elf.c.
 */
#ifndef BOOT_EFI_ELF_PLAN_H
#define BOOT_EFI_ELF_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define ELF_PLAN_MAX_SEGMENTS 8
#define ELF_PLAN_PAGE_SIZE 4096u

/* One PT_LOAD segment: filesz bytes from the file at offset, then zeros up to memsz. */
struct elf_plan_segment {
	uint64_t paddr;
	uint64_t memsz;
	uint64_t filesz;
	uint64_t offset;
};

struct elf_plan {
	unsigned segment_count;
	struct elf_plan_segment segments[ELF_PLAN_MAX_SEGMENTS];
	uint64_t low; /* every segment lies in [low, high), both 4 KiB aligned */
	uint64_t high;
	uint64_t entry; /* the address of the entry symbol */
};

/*
 * Validate an ELF64 x86-64 executable of size bytes (System V gABI, "ELF Header", "Program
 * Header", "Symbol Table") whose PT_LOAD segments must end at or below limit, and find the
 * address of entry_symbol in its .symtab; the symbol must lie in the loaded bytes of an
 * executable segment. Returns NULL and fills plan, or returns a message saying what is wrong.
 */
const char *elf_plan_make(const uint8_t *image, size_t size, const char *entry_symbol,
			  uint64_t limit, struct elf_plan *plan);

#endif
