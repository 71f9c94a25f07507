// SPDX-License-Identifier: GPL-2.0
/*
 * The embedded kernel ELF into memory at the physical addresses it is linked for (linker.ld: one
 * PT_LOAD at 1 MiB, bss after it). The kernel is not relocatable, so its pages are claimed with
 * AllocatePages(AllocateAddress) (UEFI 2.10, 7.2.1); when the firmware already uses them the
 * loader cannot run the kernel on this machine and says so, naming what occupies them.
 */
#include "boot/efi/loader.h"

extern const uint8_t kernel_image_start[] __attribute__((visibility("hidden")));
extern const uint8_t kernel_image_end[] __attribute__((visibility("hidden")));

/* What the firmware's map says lies in [low, high): the user's report of a failed boot. */
static void show_occupants(uint64_t low, uint64_t high)
{
	struct firmware_map map = { 0 };

	if (EFI_ERROR(firmware_map_read(&map)))
		return;
	Print(L"  the firmware's memory map there:\n");
	for (UINTN off = 0; off + map.desc_size <= map.size; off += map.desc_size) {
		const EFI_MEMORY_DESCRIPTOR *d = (const EFI_MEMORY_DESCRIPTOR *)(map.buffer + off);
		uint64_t end = d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE;
		if (d->PhysicalStart < high && end > low)
			Print(L"    0x%lx-0x%lx %s\n", d->PhysicalStart, end,
			      firmware_memory_type_name(d->Type));
	}
	firmware_map_free(&map);
}

EFI_STATUS kernel_load(struct elf_plan *plan)
{
	UINTN size = (UINTN)(kernel_image_end - kernel_image_start);
	const char *error =
		elf_plan_make(kernel_image_start, size, KERNEL_ENTRY_SYMBOL, LOADER_LIMIT_4G, plan);

	if (error) {
		Print(LOADER_SAY L"the embedded kernel cannot be loaded: %a\n", error);
		return EFI_LOAD_ERROR;
	}

	EFI_PHYSICAL_ADDRESS addr = plan->low;
	UINTN pages = (UINTN)((plan->high - plan->low) / EFI_PAGE_SIZE);
	EFI_STATUS status = BS->AllocatePages(AllocateAddress, EfiLoaderCode, pages, &addr);
	if (EFI_ERROR(status)) {
		Print(LOADER_SAY L"the kernel must be loaded at 0x%lx-0x%lx,\n", plan->low,
		      plan->high);
		Print(L"  but the firmware does not give that memory (%r).\n", status);
		show_occupants(plan->low, plan->high);
		Print(L"  This machine cannot run the native loader: boot the GRUB image\n"
		      L"  (pmu-testkernel.iso) instead.\n");
		return status;
	}

	/* Zero everything first: bss, and the gaps between segments that share pages. */
	ZeroMem((void *)(UINTN)plan->low, pages * EFI_PAGE_SIZE);
	for (unsigned i = 0; i < plan->segment_count; i++) {
		const struct elf_plan_segment *s = &plan->segments[i];
		CopyMem((void *)(UINTN)s->paddr, kernel_image_start + s->offset, s->filesz);
	}
	return EFI_SUCCESS;
}

void kernel_unload(const struct elf_plan *plan)
{
	if (plan->high > plan->low)
		BS->FreePages(plan->low, (UINTN)((plan->high - plan->low) / EFI_PAGE_SIZE));
}
