// SPDX-License-Identifier: GPL-2.0
/*
 * The bundles of your own code beside cmdline.txt (tools/pmu-bench --image writes them there):
 * BENCH1.BIN, BENCH2.BIN, ... in that order until a number is missing, each read into pages of
 * its own and listed in boot_info's modules under its name, as GRUB lists its module2 files.
 *
 * The pages are EfiLoaderData below 4 GiB (AllocateMaxAddress, UEFI 2.10, 7.2.1): the kernel's
 * identity map covers that range, the kernel image was claimed before (kernel_load.c), so no
 * page of a bundle overlaps it, and the kernel keeps every module's pages out of its allocator
 * (kmain's memory_setup), as on the multiboot paths, although the map calls loader data free.
 *
 * A file that cannot be passed on (too big, a directory, unreadable, no memory for it, beyond
 * the BOOT_MODULES_MAX kept) is noted in boot_info's module_problems as numbers, and the kernel
 * writes a warn record of each; the others still run. Nothing here can stop the boot.
 */
#include "boot/efi/loader.h"

/* The last name of the series that is an 8.3 name (FAT without long names): the scan's bound. */
#define BENCH_FILES_MAX 999
#define NAME_CHARS 16

_Static_assert(BOOT_MODULES_MAX == 16 && BOOT_MODULE_FILE_MAX == 128ull << 20,
	       "problem_words() names these limits");

/* "BENCH<n>.BIN", as ASCII for boot_info and as UCS-2 for the firmware. */
static void bench_file_name(unsigned n, char *ascii, CHAR16 *ucs2)
{
	char digits[4];
	unsigned count = 0, len = 0;

	do
		digits[count++] = (char)('0' + n % 10);
	while ((n /= 10) && count < sizeof(digits));
	for (const char *s = "BENCH"; *s; s++)
		ascii[len++] = *s;
	while (count)
		ascii[len++] = digits[--count];
	for (const char *s = ".BIN"; *s; s++)
		ascii[len++] = *s;
	ascii[len] = 0;
	for (unsigned i = 0; i <= len; i++)
		ucs2[i] = (CHAR16)ascii[i];
}

static const CHAR16 *problem_words(uint32_t kind)
{
	switch (kind) {
	case BOOT_MODULE_TOO_MANY:
		return L"more than 16 bundles: the kernel keeps the first 16";
	case BOOT_MODULE_TOO_BIG:
		return L"larger than 128 MiB";
	case BOOT_MODULE_NO_MEMORY:
		return L"no room below 4 GiB";
	case BOOT_MODULE_UNREADABLE:
		return L"cannot be read";
	case BOOT_MODULE_SHORT_READ:
		return L"fewer bytes than its size";
	default:
		return L"a directory, not a file";
	}
}

/* The file is not passed on: noted for the kernel's warn record, and said on the console. */
static void drop(struct boot_info *info, const char *name, uint32_t kind, uint64_t size,
		 EFI_STATUS status)
{
	uint32_t code = EFI_ERROR(status) ? (uint32_t)(status & ~EFI_ERROR_MASK) : 0;
	struct boot_module_problem *p = boot_module_drop(info, kind, size, code);

	for (unsigned i = 0; p && name[i] && i + 1 < sizeof(p->name); i++)
		p->name[i] = name[i];
	if (EFI_ERROR(status))
		Print(L"  %a not loaded: %s (%r)\n", name, problem_words(kind), status);
	else
		Print(L"  %a not loaded: %s\n", name, problem_words(kind));
}

/* An open file of size bytes into new pages, listed as the next module, or dropped. */
static void load_file(struct boot_info *info, struct esp_file *f, const char *name, UINT64 size)
{
	UINTN pages = EFI_SIZE_TO_PAGES(size ? size : 1);
	EFI_PHYSICAL_ADDRESS addr = LOADER_LIMIT_4G - 1;
	EFI_STATUS status = BS->AllocatePages(AllocateMaxAddress, EfiLoaderData, pages, &addr);

	if (EFI_ERROR(status)) {
		drop(info, name, BOOT_MODULE_NO_MEMORY, size, status);
		return;
	}
	UINTN got = (UINTN)size;
	status = esp_file_read(f, (void *)(UINTN)addr, &got);
	if (EFI_ERROR(status) || got != size) {
		BS->FreePages(addr, pages);
		if (EFI_ERROR(status))
			drop(info, name, BOOT_MODULE_UNREADABLE, size, status);
		else
			drop(info, name, BOOT_MODULE_SHORT_READ, size, EFI_SUCCESS);
		return;
	}
	struct boot_module *m = &info->modules[info->module_count++];
	m->base = addr;
	m->size = size;
	for (unsigned i = 0; name[i] && i + 1 < sizeof(m->name); i++)
		m->name[i] = name[i];
	Print(L"  bundle %a: %ld bytes at 0x%lx\n", name, size, addr);
}

/* File n of the series: loaded, or dropped with the reason; false when there is none. */
static BOOLEAN take_file(EFI_LOADED_IMAGE *self, struct boot_info *info, unsigned n)
{
	char name[NAME_CHARS];
	CHAR16 wide[NAME_CHARS];
	struct esp_file f;
	UINT64 size = 0;
	BOOLEAN directory = FALSE;

	bench_file_name(n, name, wide);
	EFI_STATUS status = esp_open_beside_loader(self, wide, &f);
	if (status == EFI_NOT_FOUND)
		return FALSE;
	if (EFI_ERROR(status)) {
		/* Whether the next numbers exist cannot be told either: the scan ends here. */
		drop(info, name, BOOT_MODULE_UNREADABLE, 0, status);
		return FALSE;
	}
	status = esp_file_info(&f, &size, &directory);
	if (EFI_ERROR(status))
		drop(info, name, BOOT_MODULE_UNREADABLE, 0, status);
	else if (info->module_count >= BOOT_MODULES_MAX)
		drop(info, name, BOOT_MODULE_TOO_MANY, size, EFI_SUCCESS);
	else if (directory)
		drop(info, name, BOOT_MODULE_NOT_A_FILE, 0, EFI_SUCCESS);
	else if (size > BOOT_MODULE_FILE_MAX)
		drop(info, name, BOOT_MODULE_TOO_BIG, size, EFI_SUCCESS);
	else
		load_file(info, &f, name, size);
	esp_close(&f);
	return TRUE;
}

void bundles_load(EFI_LOADED_IMAGE *self, struct boot_info *info)
{
	for (unsigned n = 1; n <= BENCH_FILES_MAX && take_file(self, info, n); n++)
		;
	if (info->module_count || info->modules_dropped)
		Print(L"  bundles: %d to run, %d not passed on\n", (int)info->module_count,
		      (int)info->modules_dropped);
}

void bundles_release(struct boot_info *info)
{
	for (unsigned i = 0; info && i < info->module_count; i++) {
		const struct boot_module *m = &info->modules[i];
		BS->FreePages(m->base, EFI_SIZE_TO_PAGES(m->size ? m->size : 1));
	}
	if (info)
		info->module_count = 0;
}
