/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the firmware hand-off tells the kernel, whichever way it came: GRUB's multiboot2 or
 * multiboot1 information (kernel/multiboot.c) or the native UEFI loader (boot/efi), which builds
 * this structure itself and enters kernel_entry64 with its address. Fixed-size fields only: the
 * loader and the kernel are separate programs that share this header.
 */
#ifndef KERNEL_BOOT_INFO_H
#define KERNEL_BOOT_INFO_H

#include <stdbool.h>
#include <stdint.h>

#define BOOT_INFO_MAGIC 0x4f464e49544f4f42ull /* "BOOTINFO" */
/* Version 2: no trampoline_page, the kernel picks that page itself. Version 3: the words of the
 * command line that did not fit. Version 4: the boot modules (bundles of your own code). Version 5:
 * the modules that were not passed on, and why. */
#define BOOT_INFO_VERSION 5

#define BOOT_MEMMAP_MAX 512
#define BOOT_CMDLINE_MAX 1024
#define BOOT_LOADER_NAME_MAX 64
/* Boot modules kept: pmu-bench runs at most 16 bundles in one boot (docs/own-code.md). */
#define BOOT_MODULES_MAX 16
#define BOOT_MODULE_NAME_MAX 64
/* Modules not passed on that are named one by one (more are only counted). */
#define BOOT_MODULE_PROBLEMS_MAX 8
/*
 * The largest file the native UEFI loader reads as a module: twice the largest bundle the format
 * allows (five parts of at most 1 MiB, each with a decode table of at most one 12-byte entry per
 * byte: about 65 MiB, tests/owncode/bundle.h), so that no bundle is refused for its size.
 */
#define BOOT_MODULE_FILE_MAX (128ull << 20)

enum boot_path {
	BOOT_PATH_UNKNOWN = 0,
	BOOT_PATH_MULTIBOOT2 = 1, /* GRUB, BIOS or UEFI */
	BOOT_PATH_MULTIBOOT1 = 2, /* qemu -kernel, or GRUB's multiboot command */
	BOOT_PATH_UEFI = 3,	  /* the native GNU-EFI loader */
};

/* Memory types, as the multiboot memory map numbers them (multiboot2 spec 3.6.8). */
enum boot_memory_type {
	BOOT_MEMORY_USABLE = 1,
	BOOT_MEMORY_RESERVED = 2,
	BOOT_MEMORY_ACPI_RECLAIMABLE = 3,
	BOOT_MEMORY_ACPI_NVS = 4,
	BOOT_MEMORY_BAD = 5,
};

struct boot_memory_region {
	uint64_t base;
	uint64_t length;
	uint32_t type; /* enum boot_memory_type */
	uint32_t reserved;
};

/*
 * A file the loader put in memory for the kernel: a multiboot1 module (QEMU's -initrd), a
 * multiboot2 module tag (GRUB's module2), or BENCH1.BIN, BENCH2.BIN, ... beside the native UEFI
 * loader. The kernel keeps its pages out of use (kmain's memory_setup).
 */
struct boot_module {
	uint64_t base;			 /* physical address of its first byte */
	uint64_t size;			 /* bytes */
	char name[BOOT_MODULE_NAME_MAX]; /* the module's string or the file's name, cut to fit */
};

/* Why a module was not passed on, which the kernel's warn record says (key "module"). */
enum boot_module_problem_kind {
	BOOT_MODULE_TOO_MANY = 1,   /* beyond the BOOT_MODULES_MAX kept */
	BOOT_MODULE_BAD_RANGE = 2,  /* multiboot: a module that ends before it starts */
	BOOT_MODULE_TOO_BIG = 3,    /* UEFI: a file larger than the loader reads (size) */
	BOOT_MODULE_NO_MEMORY = 4,  /* UEFI: no free pages below 4 GiB for it (size, status) */
	BOOT_MODULE_UNREADABLE = 5, /* UEFI: the firmware could not open or read it (status) */
	BOOT_MODULE_SHORT_READ = 6, /* UEFI: the file gave fewer bytes than its size (size) */
	BOOT_MODULE_NOT_A_FILE = 7, /* UEFI: a directory of that name */
};

struct boot_module_problem {
	char name[BOOT_MODULE_NAME_MAX]; /* as a kept module's name */
	uint64_t size;			 /* its bytes, 0 when not known */
	uint32_t kind;			 /* enum boot_module_problem_kind */
	uint32_t status;		 /* the firmware's EFI_STATUS code (UEFI 2.10, Appendix D)
					  * without its error bit; 0 when none */
};

/* Where the RSDP came from. */
enum boot_acpi_source {
	BOOT_ACPI_NONE = 0,
	BOOT_ACPI_MULTIBOOT2_OLD = 1, /* multiboot2 tag 14: a copy of an ACPI 1.0 RSDP */
	BOOT_ACPI_MULTIBOOT2_NEW = 2, /* multiboot2 tag 15: a copy of an ACPI 2.0+ RSDP */
	BOOT_ACPI_UEFI = 3,	      /* the UEFI configuration table (native loader) */
	BOOT_ACPI_BIOS_SCAN = 4,      /* found by the kernel in the EBDA or 0xE0000-0xFFFFF */
};

/* A linear framebuffer the loader set up, or type 0 for none. */
enum boot_framebuffer_type {
	BOOT_FRAMEBUFFER_NONE = 0,
	BOOT_FRAMEBUFFER_RGB = 1,
	BOOT_FRAMEBUFFER_EGA_TEXT = 2,
	BOOT_FRAMEBUFFER_INDEXED = 3, /* a palette mode: reported, not used */
};

struct boot_framebuffer {
	uint64_t address;
	uint32_t pitch; /* bytes per line */
	uint32_t width; /* pixels, or characters for EGA text */
	uint32_t height;
	uint8_t bpp;
	uint8_t type; /* enum boot_framebuffer_type */
	uint8_t red_position, red_size;
	uint8_t green_position, green_size;
	uint8_t blue_position, blue_size;
};

struct boot_info {
	uint64_t magic;	  /* BOOT_INFO_MAGIC */
	uint32_t version; /* BOOT_INFO_VERSION */
	uint32_t path;	  /* enum boot_path */

	uint64_t acpi_rsdp;	   /* physical address of an RSDP, 0 when the loader gave none */
	uint32_t acpi_rsdp_source; /* enum boot_acpi_source */
	uint32_t reserved0;
	uint8_t acpi_rsdp_copy[40]; /* multiboot2 hands over a copy: kept here, acpi_rsdp points
				      * at it */
	uint64_t efi_system_table;  /* physical address, 0 unless firmware is UEFI */
	uint64_t loader_info_start; /* memory the loader's own data occupies, kept out of use */
	uint64_t loader_info_end;   /* (GRUB puts multiboot2 information at 0x4000 under UEFI) */

	struct boot_framebuffer framebuffer;

	uint32_t memory_region_count;
	uint32_t memory_map_truncated; /* 1 when the firmware map had more than BOOT_MEMMAP_MAX */
	struct boot_memory_region memory_map[BOOT_MEMMAP_MAX];

	char cmdline[BOOT_CMDLINE_MAX];
	/* A longer command line is cut after its last whole word that fits (a word cut in two would
	 * be another value: mux_ms=100 becoming mux_ms=10); these say what was dropped. */
	uint32_t cmdline_dropped_words;
	uint32_t cmdline_dropped_bytes; /* the loader's length minus strlen(cmdline) */
	char loader_name[BOOT_LOADER_NAME_MAX];

	uint32_t module_count;	  /* modules in modules[], in the loader's order */
	uint32_t modules_dropped; /* modules not kept: each of module_problems[] and any more */
	struct boot_module modules[BOOT_MODULES_MAX];
	uint32_t module_problem_count; /* the first of the dropped modules, in the loader's order */
	uint32_t reserved1;
	struct boot_module_problem module_problems[BOOT_MODULE_PROBLEMS_MAX];
};

/*
 * A module that is not passed on, of kind (enum boot_module_problem_kind): counted in
 * modules_dropped, and noted in module_problems[] while there is room. Returns the entry, for the
 * caller to name (its name is empty), or NULL when the list is full.
 */
static inline struct boot_module_problem *boot_module_drop(struct boot_info *info, uint32_t kind,
							   uint64_t size, uint32_t status)
{
	info->modules_dropped++;
	if (info->module_problem_count >= BOOT_MODULE_PROBLEMS_MAX)
		return NULL;
	struct boot_module_problem *p = &info->module_problems[info->module_problem_count++];
	*p = (struct boot_module_problem){ .size = size, .kind = kind, .status = status };
	return p;
}

/*
 * Whether the command line's first word is the kernel image's path, as the loader put it there:
 * multiboot1 loaders other than GRUB 2 do so (QEMU's -kernel, GRUB legacy, SYSLINUX's mboot.c32);
 * GRUB 2 passes only the words after the file name, for multiboot1 and multiboot2 alike, and the
 * native UEFI loader drops the UEFI shell's program path itself.
 */
bool boot_cmdline_has_image_path(const struct boot_info *info);

/* Usable memory in MiB, counting only BOOT_MEMORY_USABLE regions. */
uint64_t boot_usable_mib(const struct boot_info *info);

/* Human-readable names for the boot record. */
const char *boot_path_name(uint32_t path);
const char *boot_acpi_source_name(uint32_t source);

#endif
