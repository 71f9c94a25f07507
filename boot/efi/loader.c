// SPDX-License-Identifier: GPL-2.0
/*
 * BOOTX64.EFI: the native UEFI way into pmu-testkernel, step by step. Everything that can fail
 * happens while boot services still run, so a failure is printed on the firmware console (which
 * firmware usually mirrors to the serial port) and the loader returns to the firmware with an
 * error status, giving back what it allocated. After ExitBootServices() nothing can fail any more.
 *
 * boot_info's map is the firmware's, types converted, nothing cut out: the kernel keeps its own
 * image (__image_start..__image_end), boot_info's pages (loader_info_start..end) and the bundles'
 * (boot_info's modules, bundles.c) out of use itself, and picks its AP trampoline page from the
 * map (memmap_trampoline_page()), as on the multiboot path. Everything else of the loader's and
 * the firmware's is free once the kernel has copied boot_info and switched to its own page
 * tables, GDT and stack, which it does before it allocates anything.
 */
#include "boot/efi/efi_memmap.h"
#include "boot/efi/handoff.h"
#include "boot/efi/load_options.h"
#include "boot/efi/loader.h"

/* cmdline.txt may carry comments; more than this is not a command line. */
#define CMDLINE_FILE_MAX 16384
#define FAILURE_WAIT_100NS (30ull * 10000000ull)

struct loader {
	EFI_HANDLE image;
	EFI_LOADED_IMAGE *self;
	struct boot_info *info;
	UINTN info_pages;
	struct elf_plan plan;
	BOOLEAN kernel_loaded;
};

/*
 * Give back what was allocated, leave the message on the screen for a while (the firmware may
 * clear it when it moves on to the next boot option) and return to the firmware.
 */
static EFI_STATUS give_up(struct loader *l, EFI_STATUS status)
{
	if (l->kernel_loaded)
		kernel_unload(&l->plan);
	bundles_release(l->info);
	handoff_release(l->info, l->info_pages);

	Print(LOADER_SAY L"not started (%r). Press a key to return to the firmware.\n", status);
	ST->ConIn->Reset(ST->ConIn, FALSE); /* not the key that chose this boot entry */
	EFI_EVENT events[2] = { ST->ConIn->WaitForKey, NULL };
	UINTN which;
	if (!EFI_ERROR(BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &events[1]))) {
		BS->SetTimer(events[1], TimerRelative, FAILURE_WAIT_100NS);
		BS->WaitForEvent(2, events, &which);
		BS->CloseEvent(events[1]);
	}
	EFI_INPUT_KEY key;
	ST->ConIn->ReadKeyStroke(ST->ConIn, &key);
	return status;
}

static const CHAR16 *options_problem(enum load_options_result r)
{
	switch (r) {
	case LOAD_OPTIONS_TOO_LONG:
		return L" (too long: the words that did not fit are dropped)";
	default:
		return L"";
	}
}

/*
 * The command line: the load options (GRUB's `chainloader FILE ARGS`, the UEFI shell), else
 * cmdline.txt beside the loader, else empty, which gives the kernel's defaults.
 */
static void choose_cmdline(struct loader *l, struct boot_info *info)
{
	static UINT8 text[CMDLINE_FILE_MAX];
	char *cmdline = info->cmdline;
	struct load_options_cut cut;
	enum load_options_result r;

	r = load_options_from_ucs2(l->self->LoadOptions, l->self->LoadOptionsSize, cmdline,
				   BOOT_CMDLINE_MAX, &cut);
	info->cmdline_dropped_words = cut.words;
	info->cmdline_dropped_bytes = cut.bytes;
	if (r == LOAD_OPTIONS_OK || r == LOAD_OPTIONS_TOO_LONG) {
		Print(L"  command line (load options): %a%s\n", cmdline, options_problem(r));
		return;
	}
	if (r == LOAD_OPTIONS_NOT_TEXT)
		Print(L"  the load options are not text; ignored\n");

	UINTN size = sizeof(text);
	EFI_STATUS status = esp_read_beside_loader(l->self, L"cmdline.txt", text, &size);
	if (status == EFI_NOT_FOUND) {
		Print(L"  command line: empty (no load options, no cmdline.txt)\n");
		return;
	}
	if (EFI_ERROR(status)) {
		Print(L"  command line: empty (cmdline.txt cannot be read: %r)\n", status);
		return;
	}
	if (size == sizeof(text))
		Print(L"  cmdline.txt is larger than %d bytes: only its start is read\n",
		      CMDLINE_FILE_MAX);
	r = load_options_from_file(text, size, cmdline, BOOT_CMDLINE_MAX, &cut);
	info->cmdline_dropped_words = cut.words;
	info->cmdline_dropped_bytes = cut.bytes;
	Print(L"  command line (cmdline.txt): %a%s\n",
	      r == LOAD_OPTIONS_EMPTY ? "(empty)" : cmdline, options_problem(r));
}

/*
 * The kernel's page tables have four levels and kernel_entry64 loads them in long mode, where
 * CR4.LA57 cannot change (Intel SDM vol. 3A, 4.1.2): a firmware running five cannot be left so.
 */
static BOOLEAN five_level_paging(void)
{
	UINT64 cr4;

	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	return (cr4 >> 12) & 1; /* CR4.LA57, Intel SDM vol. 3A, 2.5 */
}

static void fill_boot_info(struct loader *l)
{
	struct boot_info *info = l->info;
	const char name[] = LOADER_NAME;

	info->magic = BOOT_INFO_MAGIC;
	info->version = BOOT_INFO_VERSION;
	info->path = BOOT_PATH_UEFI;
	info->efi_system_table = (uint64_t)(UINTN)ST;
	info->loader_info_start = (uint64_t)(UINTN)info;
	info->loader_info_end = info->loader_info_start + l->info_pages * EFI_PAGE_SIZE;
	CopyMem(info->loader_name, name, sizeof(name));
	choose_cmdline(l, info);
	firmware_find_acpi(info);
	firmware_find_framebuffer(info);
	bundles_load(l->self, info);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	struct loader l = { .image = image };
	struct firmware_map map = { 0 };
	EFI_STATUS status;

	InitializeLib(image, system_table);
	Print(L"\n" LOADER_SAY L"starting\n");

	if (five_level_paging()) {
		Print(LOADER_SAY L"the firmware runs 5-level paging; the kernel needs 4\n");
		return give_up(&l, EFI_UNSUPPORTED);
	}
	status = BS->HandleProtocol(image, &gEfiLoadedImageProtocolGuid, (void **)&l.self);
	if (EFI_ERROR(status)) {
		Print(LOADER_SAY L"no loaded image protocol: %r\n", status);
		return give_up(&l, status);
	}
	/* The kernel's place is fixed: claim it before anything else takes it. */
	status = kernel_load(&l.plan);
	if (EFI_ERROR(status))
		return give_up(&l, status);
	l.kernel_loaded = TRUE;
	status = handoff_prepare(&l.info, &l.info_pages);
	if (EFI_ERROR(status))
		return give_up(&l, status);
	fill_boot_info(&l);
	Print(L"  kernel 0x%lx-0x%lx, entry 0x%lx; boot_info at 0x%lx\n", l.plan.low, l.plan.high,
	      l.plan.entry, (UINT64)(UINTN)l.info);

	Print(L"  leaving the firmware\n");
	BOOLEAN exit_attempted;
	status = firmware_exit_boot_services(image, &map, &exit_attempted);
	if (EFI_ERROR(status)) {
		/* After a failed ExitBootServices() the console may be gone: best effort. */
		Print(LOADER_SAY L"ExitBootServices failed: %r\n", status);
		if (!exit_attempted)
			firmware_map_free(&map);
		return exit_attempted ? status : give_up(&l, status);
	}

	/* No firmware from here on. The firmware's timer is stopped; its IDT is about to go. */
	__asm__ volatile("cli" ::: "memory");
	efi_memmap_convert(map.buffer, map.size, map.desc_size, l.info);
	handoff_enter(l.info, l.plan.entry);
}
