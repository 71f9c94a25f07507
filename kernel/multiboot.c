// SPDX-License-Identifier: GPL-2.0
/*
 * Multiboot1 (spec 0.6.96) and multiboot2 (spec 2.0) information into struct boot_info.
 * Everything the kernel needs is copied out here, before any memory is reused, so that the
 * loader's structures (GRUB puts them at 0x4000 under UEFI) may be overwritten afterwards.
 */
#include <stdbool.h>
#include <string.h>

#include "kernel/multiboot.h"
#include "kernel/unaligned.h"

/* Multiboot2 tags never exceed this; a larger size means the structure is corrupt. */
#define MB2_INFO_MAX (1u << 20)
/* How far a command line is read to count what did not fit (a string without its NUL ends
 * here). */
#define CMDLINE_SCAN_MAX (64u * 1024)

/* A loader's string, byte by byte: the multiboot2 tag's bytes, or multiboot1's physical address. */
struct string_source {
	const char *bytes; /* multiboot2: the tag's text, avail bytes of it */
	size_t avail;
	uint32_t address; /* multiboot1: read through translate, one byte at a time, since its
			   * length is unknown and the end of readable memory may be near */
	multiboot_translate_fn translate;
	void *ctx;
};

/* Byte i of the string, or 0 at its end (its NUL, or bytes that are not there). */
static char string_byte(const struct string_source *s, size_t i)
{
	if (s->bytes)
		return i < s->avail ? s->bytes[i] : 0;
	const char *c = s->translate((uint64_t)s->address + i, 1, s->ctx);
	return c ? *c : 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copy the string into dst (size bytes with its NUL); returns how many bytes were copied. */
static size_t copy_string(char *dst, size_t size, const struct string_source *src)
{
	size_t n = 0;
	char c;

	while (n + 1 < size && (c = string_byte(src, n)) != 0)
		dst[n++] = c;
	dst[n] = 0;
	return n;
}

/*
 * The command line into info->cmdline: all of it when it fits, else up to the last whole word
 * that fits, counting the words and bytes dropped after it (kernel/boot_info.h).
 */
static void take_cmdline(struct boot_info *info, const struct string_source *src)
{
	size_t n = copy_string(info->cmdline, sizeof(info->cmdline), src);

	if (string_byte(src, n) == 0)
		return;
	/* Full, and more follows: the word that straddles the limit goes too. */
	size_t keep = n;
	if (!is_blank(string_byte(src, n)))
		while (keep > 0 && !is_blank(info->cmdline[keep - 1]))
			keep--;
	while (keep > 0 && is_blank(info->cmdline[keep - 1]))
		keep--;
	info->cmdline[keep] = 0;
	size_t end = keep;
	bool in_word = false;
	for (char c; end < CMDLINE_SCAN_MAX && (c = string_byte(src, end)) != 0; end++) {
		if (!is_blank(c) && !in_word)
			info->cmdline_dropped_words++;
		in_word = !is_blank(c);
	}
	info->cmdline_dropped_bytes = (uint32_t)(end - keep);
}

static void add_region(struct boot_info *info, uint64_t base, uint64_t length, uint32_t type)
{
	if (length == 0)
		return;
	/* Types beyond the spec's five are reserved memory (multiboot2 spec 3.6.8). */
	if (type < BOOT_MEMORY_USABLE || type > BOOT_MEMORY_BAD)
		type = BOOT_MEMORY_RESERVED;
	if (info->memory_region_count >= BOOT_MEMMAP_MAX) {
		info->memory_map_truncated = 1;
		return;
	}
	struct boot_memory_region *r = &info->memory_map[info->memory_region_count++];
	r->base = base;
	r->length = length;
	r->type = type;
	r->reserved = 0;
}

static void set_rsdp_copy(struct boot_info *info, const uint8_t *rsdp, size_t len, uint32_t source)
{
	/* Prefer the ACPI 2.0 RSDP (XSDT) when the loader gives both. */
	if (info->acpi_rsdp_source == BOOT_ACPI_MULTIBOOT2_NEW &&
	    source == BOOT_ACPI_MULTIBOOT2_OLD)
		return;
	if (len > sizeof(info->acpi_rsdp_copy))
		len = sizeof(info->acpi_rsdp_copy);
	memset(info->acpi_rsdp_copy, 0, sizeof(info->acpi_rsdp_copy));
	memcpy(info->acpi_rsdp_copy, rsdp, len);
	info->acpi_rsdp = (uint64_t)(uintptr_t)info->acpi_rsdp_copy;
	info->acpi_rsdp_source = source;
}

static void parse_framebuffer(struct boot_info *info, const uint8_t *tag, uint32_t size)
{
	/* type, size, addr (8), pitch, width, height, bpp (1), type (1), reserved (2), colours */
	if (size < 31)
		return;
	struct boot_framebuffer *fb = &info->framebuffer;
	fb->address = read64(tag + 8);
	fb->pitch = read32(tag + 16);
	fb->width = read32(tag + 20);
	fb->height = read32(tag + 24);
	fb->bpp = tag[28];
	switch (tag[29]) {
	case 1:
		fb->type = BOOT_FRAMEBUFFER_RGB;
		if (size >= 38) {
			fb->red_position = tag[32];
			fb->red_size = tag[33];
			fb->green_position = tag[34];
			fb->green_size = tag[35];
			fb->blue_position = tag[36];
			fb->blue_size = tag[37];
		}
		break;
	case 2:
		fb->type = BOOT_FRAMEBUFFER_EGA_TEXT;
		break;
	case 0: /* indexed colour: the kernel says it cannot use it (kernel/framebuffer.c) */
		fb->type = BOOT_FRAMEBUFFER_INDEXED;
		break;
	default:
		fb->type = BOOT_FRAMEBUFFER_NONE;
		break;
	}
}

static struct multiboot_result parse_multiboot2(uint64_t info_addr,
						multiboot_translate_fn translate, void *ctx,
						struct boot_info *info)
{
	struct multiboot_result result = { 0 };
	const uint8_t *head = translate(info_addr, 8, ctx);

	if (!head)
		return (struct multiboot_result){ .error = "multiboot2 information not readable" };
	uint32_t total = read32(head);
	if (total < 16 || total > MB2_INFO_MAX)
		return (struct multiboot_result){ .error =
							  "multiboot2 information has a bad size" };
	const uint8_t *base = translate(info_addr, total, ctx);
	if (!base)
		return (struct multiboot_result){ .error = "multiboot2 information not readable" };

	info->path = BOOT_PATH_MULTIBOOT2;
	info->loader_info_start = info_addr;
	info->loader_info_end = info_addr + total;

	bool seen_mmap = false, seen_meminfo = false, ended = false;
	uint32_t mem_lower_kib = 0, mem_upper_kib = 0;
	uint32_t offset = 8;
	while (offset + 8 <= total) {
		const uint8_t *tag = base + offset;
		uint32_t type = read32(tag), size = read32(tag + 4);

		if (type == MB2_TAG_END) {
			ended = true;
			break;
		}
		if (size < 8 || size > total - offset) {
			result.warning = "multiboot2 tag overruns the information structure";
			break;
		}
		switch (type) {
		case MB2_TAG_CMDLINE: {
			struct string_source text = { .bytes = (const char *)tag + 8,
						      .avail = size - 8 };
			take_cmdline(info, &text);
			break;
		}
		case MB2_TAG_LOADER_NAME: {
			struct string_source text = { .bytes = (const char *)tag + 8,
						      .avail = size - 8 };
			copy_string(info->loader_name, sizeof(info->loader_name), &text);
			break;
		}
		case MB2_TAG_MMAP: {
			if (size < 16)
				break;
			uint32_t entry_size = read32(tag + 8);
			if (entry_size < 24) {
				result.warning = "multiboot2 memory map entries too small";
				break;
			}
			seen_mmap = true;
			/* 64 bits: an entry size near 2^32 must end the walk, not wrap back. */
			for (uint64_t e = 16; e + 24 <= size; e += entry_size)
				add_region(info, read64(tag + e), read64(tag + e + 8),
					   read32(tag + e + 16));
			break;
		}
		case MB2_TAG_BASIC_MEMINFO:
			/* mem_lower/mem_upper in KiB (spec 3.6.3), used only when there is no map. */
			if (size >= 16) {
				mem_lower_kib = read32(tag + 8);
				mem_upper_kib = read32(tag + 12);
				seen_meminfo = true;
			}
			break;
		case MB2_TAG_FRAMEBUFFER:
			parse_framebuffer(info, tag, size);
			break;
		case MB2_TAG_EFI64:
			if (size >= 16)
				info->efi_system_table = read64(tag + 8);
			break;
		case MB2_TAG_EFI32:
			if (size >= 12 && !info->efi_system_table)
				info->efi_system_table = read32(tag + 8);
			break;
		case MB2_TAG_ACPI_OLD:
			set_rsdp_copy(info, tag + 8, size - 8, BOOT_ACPI_MULTIBOOT2_OLD);
			break;
		case MB2_TAG_ACPI_NEW:
			set_rsdp_copy(info, tag + 8, size - 8, BOOT_ACPI_MULTIBOOT2_NEW);
			break;
		default:
			break;
		}
		offset += (size + 7) & ~7u;
	}
	if (!ended && !result.warning)
		result.warning = "multiboot2 information has no end tag";
	if (!seen_mmap && seen_meminfo) {
		add_region(info, 0, (uint64_t)mem_lower_kib * 1024, BOOT_MEMORY_USABLE);
		add_region(info, 0x100000, (uint64_t)mem_upper_kib * 1024, BOOT_MEMORY_USABLE);
	}
	if (info->memory_map_truncated && !result.warning)
		result.warning = "memory map has more regions than the kernel keeps";
	return result;
}

static struct multiboot_result parse_multiboot1(uint64_t info_addr,
						multiboot_translate_fn translate, void *ctx,
						struct boot_info *info)
{
	struct multiboot_result result = { 0 };
	const uint8_t *mbi = translate(info_addr, 88, ctx);

	if (!mbi)
		return (struct multiboot_result){ .error = "multiboot1 information not readable" };
	info->path = BOOT_PATH_MULTIBOOT1;
	uint32_t flags = read32(mbi);

	if (flags & MB1_INFO_CMDLINE) {
		struct string_source text = { .address = read32(mbi + 16),
					      .translate = translate,
					      .ctx = ctx };
		take_cmdline(info, &text);
	}
	if (flags & MB1_INFO_LOADER_NAME) {
		struct string_source text = { .address = read32(mbi + 64),
					      .translate = translate,
					      .ctx = ctx };
		copy_string(info->loader_name, sizeof(info->loader_name), &text);
	}
	if (flags & MB1_INFO_MEM_MAP) {
		uint32_t length = read32(mbi + 44), addr = read32(mbi + 48);
		const uint8_t *map = translate(addr, length, ctx);
		if (!map) {
			result.warning = "multiboot1 memory map not readable";
		} else {
			/*
			 * Each entry: size (not counting itself), base, length, type (spec 3.3). The
			 * offset and the step have 64 bits: a size near 2^32 must end the walk, not wrap
			 * back or stand still.
			 */
			for (uint64_t off = 0; off + 24 <= length;) {
				uint32_t size = read32(map + off);
				if (size < 20) {
					result.warning = "multiboot1 memory map entry too small";
					break;
				}
				add_region(info, read64(map + off + 4), read64(map + off + 12),
					   read32(map + off + 20));
				off += (uint64_t)size + 4;
			}
		}
	} else if (flags & MB1_INFO_MEMORY) {
		add_region(info, 0, (uint64_t)read32(mbi + 4) * 1024, BOOT_MEMORY_USABLE);
		add_region(info, 0x100000, (uint64_t)read32(mbi + 8) * 1024, BOOT_MEMORY_USABLE);
	}
	if (flags & MB1_INFO_FRAMEBUFFER) {
		const uint8_t *fb = translate(info_addr + 88, 22, ctx);
		if (fb) {
			/* Same layout as the multiboot2 tag from its address field on. */
			uint8_t tag[38] = { 0 };
			memcpy(tag + 8, fb, 22);
			parse_framebuffer(info, tag, 31);
			if (tag[29] == 1) {
				const uint8_t *colours = translate(info_addr + 110, 6, ctx);
				if (colours) {
					memcpy(tag + 32, colours, 6);
					parse_framebuffer(info, tag, 38);
				}
			}
		}
	}
	if (info->memory_map_truncated && !result.warning)
		result.warning = "memory map has more regions than the kernel keeps";
	return result;
}

struct multiboot_result multiboot_parse(uint32_t magic, uint64_t info_addr,
					multiboot_translate_fn translate, void *ctx,
					struct boot_info *info)
{
	memset(info, 0, sizeof(*info));
	info->magic = BOOT_INFO_MAGIC;
	info->version = BOOT_INFO_VERSION;

	if (magic == MULTIBOOT2_BOOTLOADER_MAGIC)
		return parse_multiboot2(info_addr, translate, ctx, info);
	if (magic == MULTIBOOT1_BOOTLOADER_MAGIC)
		return parse_multiboot1(info_addr, translate, ctx, info);
	return (struct multiboot_result){ .error = "not started by a multiboot loader" };
}

bool boot_cmdline_has_image_path(const struct boot_info *info)
{
	return info->path == BOOT_PATH_MULTIBOOT1 && strncmp(info->loader_name, "GRUB ", 5) != 0;
}

uint64_t boot_usable_mib(const struct boot_info *info)
{
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < info->memory_region_count; i++)
		if (info->memory_map[i].type == BOOT_MEMORY_USABLE)
			bytes += info->memory_map[i].length;
	return bytes >> 20;
}

const char *boot_path_name(uint32_t path)
{
	switch (path) {
	case BOOT_PATH_MULTIBOOT2:
		return "multiboot2";
	case BOOT_PATH_MULTIBOOT1:
		return "multiboot1";
	case BOOT_PATH_UEFI:
		return "uefi";
	default:
		return "unknown";
	}
}

const char *boot_acpi_source_name(uint32_t source)
{
	switch (source) {
	case BOOT_ACPI_MULTIBOOT2_OLD:
		return "multiboot2-acpi1";
	case BOOT_ACPI_MULTIBOOT2_NEW:
		return "multiboot2-acpi2";
	case BOOT_ACPI_UEFI:
		return "uefi";
	case BOOT_ACPI_BIOS_SCAN:
		return "bios-scan";
	default:
		return "none";
	}
}
