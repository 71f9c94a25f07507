// SPDX-License-Identifier: GPL-2.0
/*
 * boot_info's pages and the jump into the kernel. The jump goes straight to kernel_entry64
 * (boot/multiboot.asm) on the firmware's page tables, GDT and stack, which is safe because that
 * entry needs nothing of them for the few instructions before it loads its own:
 *
 * - The firmware identity maps the memory of its map (UEFI 2.10, 2.3.4 "x64 Platforms"), so the
 *   kernel image and boot_info are at their physical addresses.
 * - The kernel image is EfiLoaderCode (kernel_load.c): executable where the firmware maps data
 *   non-executable (EDK2's NX memory protection).
 * - kernel_entry64 loads its own CR3 first (its page tables are data of the kernel image) and
 *   writes nothing before; the jump pushes nothing, the firmware's stack is left behind.
 * - It loads no segment register before its own LGDT; the firmware's GDT, in boot-services
 *   memory, is intact until then, as nothing runs that could reuse that memory.
 * - boot_info lies outside the kernel image, whose bss (stack, variables) the kernel writes
 *   from its first instruction on; below 4 GiB, which the kernel's identity map covers; in pages
 *   the kernel keeps out of use (loader_info_start..end) and copies before it allocates anything.
 */
#include "boot/efi/handoff.h"

EFI_STATUS handoff_prepare(struct boot_info **out, UINTN *out_pages)
{
	UINTN pages = EFI_SIZE_TO_PAGES(sizeof(struct boot_info));
	/* AllocateMaxAddress takes the highest address the range may reach (UEFI 2.10, 7.2.1). */
	EFI_PHYSICAL_ADDRESS addr = LOADER_LIMIT_4G - 1;

	EFI_STATUS status = BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, pages, &addr);
	if (EFI_ERROR(status)) {
		Print(LOADER_SAY L"no %d KiB below 4 GiB for boot_info: %r\n", (int)(pages * 4),
		      status);
		return status;
	}
	ZeroMem((void *)(UINTN)addr, pages * EFI_PAGE_SIZE);
	*out = (struct boot_info *)(UINTN)addr;
	*out_pages = pages;
	return EFI_SUCCESS;
}

void handoff_release(struct boot_info *info, UINTN pages)
{
	if (info)
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(UINTN)info, pages);
}

void handoff_enter(struct boot_info *info, uint64_t entry)
{
	/* kernel_entry64 takes boot_info in RDI, as the System V ABI passes a first argument. */
	__asm__ volatile("jmp *%1" : : "D"(info), "r"(entry) : "memory");
	__builtin_unreachable();
}
