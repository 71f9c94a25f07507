/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader leaves behind for the kernel, all below 4 GiB: one block holding boot_info, an
 * identity map of 0-4 GiB, a GDT, a small stack and a copy of the switch code (handoff_stub.asm).
 */
#ifndef BOOT_EFI_HANDOFF_H
#define BOOT_EFI_HANDOFF_H

#include "boot/efi/loader.h"

struct gdt_pointer {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

struct handoff_block {
	/* 4-level paging, 2 MiB pages (Intel SDM vol. 3A, 4.5): PML4, one PDPT, four PDs. */
	uint64_t pml4[512];
	uint64_t pdpt[512];
	uint64_t pd[4][512];
	struct boot_info info __attribute__((aligned(4096)));
	uint64_t gdt[3];
	uint16_t pad[3]; /* keeps gdt_pointer.base 8-byte aligned */
	struct gdt_pointer gdt_pointer;
	uint8_t code[256] __attribute__((aligned(64)));
	uint8_t stack[4096] __attribute__((aligned(16)));
};

/* Allocate the block below 4 GiB as loader code and fill in everything but boot_info. */
EFI_STATUS handoff_prepare(struct handoff_block **block, UINTN *pages);
void handoff_release(struct handoff_block *block, UINTN pages);

/*
 * After ExitBootServices(), interrupts off: load the block's GDT and page tables and jump to the
 * kernel's 64-bit entry with RDI = &block->info.
 */
__attribute__((noreturn)) void handoff_enter(struct handoff_block *block, uint64_t entry);

#endif
