// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's own page tables and GDT, set up while boot services still run (so they are in
 * memory the loader owns), and the jump into the kernel.
 *
 * Why not keep the firmware's: after ExitBootServices() its page tables and GDT sit in
 * boot-services memory that the map hands to the kernel as usable, and the firmware may have
 * mapped loader pages non-executable (EDK2's NX memory protection). The kernel replaces these
 * tables at once, but the few instructions in between must run on tables nothing else owns.
 */
#include "boot/efi/handoff.h"

#define PTE_PRESENT (1ull << 0)
#define PTE_WRITE (1ull << 1)
#define PTE_LARGE (1ull << 7)
#define LARGE_PAGE (2ull << 20)

/* Same descriptors as the kernel's boot GDT (boot/multiboot.asm), same selectors 0x08/0x10. */
#define GDT_CODE64 0x00af9a000000ffffull
#define GDT_DATA 0x00cf92000000ffffull

extern const uint8_t handoff_stub[] __attribute__((visibility("hidden")));
extern const uint8_t handoff_stub_end[] __attribute__((visibility("hidden")));

typedef void (*handoff_stub_fn)(struct boot_info *info, uint64_t *pml4,
				struct gdt_pointer *gdt_pointer, uint64_t entry,
				uint64_t stack_top);

EFI_STATUS handoff_prepare(struct handoff_block **out, UINTN *out_pages)
{
	UINTN pages = EFI_SIZE_TO_PAGES(sizeof(struct handoff_block));
	UINTN stub_size = (UINTN)(handoff_stub_end - handoff_stub);
	/* AllocateMaxAddress takes the highest address the range may reach (UEFI 2.10, 7.2.1). */
	EFI_PHYSICAL_ADDRESS addr = LOADER_LIMIT_4G - 1;

	if (stub_size > sizeof((*out)->code)) {
		Print(LOADER_SAY L"internal error: the hand-off code (%d bytes) does not fit\n",
		      (int)stub_size);
		return EFI_BAD_BUFFER_SIZE;
	}
	/* Loader code, not data: the switch code runs from this block (see the file comment). */
	EFI_STATUS status = BS->AllocatePages(AllocateMaxAddress, EfiLoaderCode, pages, &addr);
	if (EFI_ERROR(status)) {
		Print(LOADER_SAY L"no %d KiB below 4 GiB for boot_info and page tables: %r\n",
		      (int)(pages * 4), status);
		return status;
	}
	struct handoff_block *b = (struct handoff_block *)(UINTN)addr;
	ZeroMem(b, pages * EFI_PAGE_SIZE);

	b->pml4[0] = (uint64_t)(UINTN)b->pdpt | PTE_PRESENT | PTE_WRITE;
	for (unsigned i = 0; i < 4; i++) {
		b->pdpt[i] = (uint64_t)(UINTN)b->pd[i] | PTE_PRESENT | PTE_WRITE;
		for (unsigned j = 0; j < 512; j++)
			b->pd[i][j] =
				(i * 512ull + j) * LARGE_PAGE | PTE_PRESENT | PTE_WRITE | PTE_LARGE;
	}
	b->gdt[1] = GDT_CODE64;
	b->gdt[2] = GDT_DATA;
	b->gdt_pointer.limit = sizeof(b->gdt) - 1;
	b->gdt_pointer.base = (uint64_t)(UINTN)b->gdt;
	CopyMem(b->code, handoff_stub, stub_size);

	*out = b;
	*out_pages = pages;
	return EFI_SUCCESS;
}

void handoff_release(struct handoff_block *block, UINTN pages)
{
	if (block)
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(UINTN)block, pages);
}

void handoff_enter(struct handoff_block *block, uint64_t entry)
{
	handoff_stub_fn stub = (handoff_stub_fn)(UINTN)block->code;

	stub(&block->info, block->pml4, &block->gdt_pointer, entry,
	     (uint64_t)(UINTN)(block->stack + sizeof(block->stack)));
	__builtin_unreachable();
}
