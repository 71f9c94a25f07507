// SPDX-License-Identifier: GPL-2.0
/*
 * Multiboot1 (spec 0.6.96) and multiboot2 (spec 2.0) information into struct boot_info.
 * Everything the kernel needs is copied out here, before any memory is reused, so that the
 * loader's structures (GRUB puts them at 0x4000 under UEFI) may be overwritten afterwards.
 */
#include <stdbool.h>
#include <string.h>

#include "kernel/cmdline_cut.h"
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
 * that fits, counting the words and bytes dropped after it (kernel/boot_info.h); an exit= among
 * the dropped words is kept at the cost of the words before it (kernel/cmdline_cut.h).
 */
static void take_cmdline(struct boot_info *info, const struct string_source *src)
{
	size_t n = copy_string(info->cmdline, sizeof(info->cmdline), src);
	char rescue[CMDLINE_RESCUE_MAX];
	size_t rescue_len = 0, word = 0;

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
	for (char c; end < CMDLINE_SCAN_MAX; end++) {
		c = string_byte(src, end);
		if ((c == 0 || is_blank(c)) && in_word && end - word <= CMDLINE_RESCUE_MAX) {
			/* A dropped word ends: the one the cut keeps? */
			char text[CMDLINE_RESCUE_MAX];
			size_t len = end - word;
			for (size_t i = 0; i < len; i++)
				text[i] = string_byte(src, word + i);
			if (cmdline_cut_keeps(text, len)) {
				memcpy(rescue, text, len);
				rescue_len = len;
			}
		}
		if (c == 0)
			break;
		if (!is_blank(c) && !in_word) {
			info->cmdline_dropped_words++;
			word = end;
		}
		in_word = !is_blank(c);
	}
	uint32_t bytes = 0;
	if (rescue_len)
		cmdline_cut_rescue(info->cmdline, sizeof(info->cmdline), rescue, rescue_len,
				   &info->cmdline_dropped_words, &bytes);
	info->cmdline_dropped_bytes = (uint32_t)(end - strlen(info->cmdline));
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

/*
 * A module [start, end) with its string: kept while there is room (kernel/boot_info.h), else
 * dropped with its string, as is one that ends before it starts (the kernel warns of both).
 */
static void add_module(struct boot_info *info, uint64_t start, uint64_t end,
		       const struct string_source *name)
{
	if (end < start || info->module_count >= BOOT_MODULES_MAX) {
		struct boot_module_problem *p = boot_module_drop(
			info, end < start ? BOOT_MODULE_BAD_RANGE : BOOT_MODULE_TOO_MANY, 0, 0);
		if (p)
			copy_string(p->name, sizeof(p->name), name);
		return;
	}
	struct boot_module *m = &info->modules[info->module_count++];
	m->base = start;
	m->size = end - start;
	copy_string(m->name, sizeof(m->name), name);
}

/* Both generations: a map the kernel could not keep whole is worth a warning of its own. */
static void warn_if_truncated(const struct boot_info *info, struct multiboot_result *result)
{
	if (info->memory_map_truncated && !result->warning)
		result->warning = "memory map has more regions than the kernel keeps";
}

/* ---- multiboot2 (spec 3.6): a list of tags ------------------------------------------------ */

/* What the walk over the tags keeps from one tag to the next. */
struct mb2_walk {
	struct boot_info *info;
	struct multiboot_result result;
	bool seen_mmap, seen_meminfo;
	uint32_t mem_lower_kib, mem_upper_kib;
};

/* Every tag is type (4 bytes), size (4, the header included), then its body (spec 3.6.2). */
#define MB2_TAG_BODY 8

static void mb2_cmdline(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	struct string_source text = { .bytes = (const char *)tag + MB2_TAG_BODY,
				      .avail = size - MB2_TAG_BODY };
	take_cmdline(w->info, &text);
}

static void mb2_loader_name(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	struct string_source text = { .bytes = (const char *)tag + MB2_TAG_BODY,
				      .avail = size - MB2_TAG_BODY };
	copy_string(w->info->loader_name, sizeof(w->info->loader_name), &text);
}

/* entry_size (4), entry_version (4), then entries of base (8), length (8), type (4) (3.6.8). */
static void mb2_mmap(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	if (size < 16)
		return;
	uint32_t entry_size = read32(tag + 8);
	if (entry_size < 24) {
		w->result.warning = "multiboot2 memory map entries too small";
		return;
	}
	w->seen_mmap = true;
	/* 64 bits: an entry size near 2^32 must end the walk, not wrap back. */
	for (uint64_t e = 16; e + 24 <= size; e += entry_size)
		add_region(w->info, read64(tag + e), read64(tag + e + 8), read32(tag + e + 16));
}

/* mem_lower/mem_upper in KiB (spec 3.6.3), used only when there is no map. */
static void mb2_basic_meminfo(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	if (size < 16)
		return;
	w->mem_lower_kib = read32(tag + 8);
	w->mem_upper_kib = read32(tag + 12);
	w->seen_meminfo = true;
}

static void mb2_framebuffer(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	parse_framebuffer(w->info, tag, size);
}

/* The EFI system table's address (3.6.14, 3.6.13); the 64-bit one wins when both come. */
static void mb2_efi64(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	if (size >= 16)
		w->info->efi_system_table = read64(tag + 8);
}

static void mb2_efi32(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	if (size >= 12 && !w->info->efi_system_table)
		w->info->efi_system_table = read32(tag + 8);
}

/* A copy of the RSDP itself (3.6.16, 3.6.17), not its address. */
static void mb2_acpi_old(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	set_rsdp_copy(w->info, tag + MB2_TAG_BODY, size - MB2_TAG_BODY, BOOT_ACPI_MULTIBOOT2_OLD);
}

static void mb2_acpi_new(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	set_rsdp_copy(w->info, tag + MB2_TAG_BODY, size - MB2_TAG_BODY, BOOT_ACPI_MULTIBOOT2_NEW);
}

/* mod_start (4), mod_end (4), then the module's string (spec 3.6.6). */
static void mb2_module(struct mb2_walk *w, const uint8_t *tag, uint32_t size)
{
	if (size < 16) {
		w->info->modules_dropped++;
		return;
	}
	struct string_source text = { .bytes = (const char *)tag + 16, .avail = size - 16 };
	add_module(w->info, read32(tag + 8), read32(tag + 12), &text);
}

/* The tags the kernel reads, by type; it skips every other one. size is at least the header. */
static void (*const mb2_tag_handlers[])(struct mb2_walk *w, const uint8_t *tag, uint32_t size) = {
	[MB2_TAG_CMDLINE] = mb2_cmdline,
	[MB2_TAG_LOADER_NAME] = mb2_loader_name,
	[MB2_TAG_MODULE] = mb2_module,
	[MB2_TAG_MMAP] = mb2_mmap,
	[MB2_TAG_BASIC_MEMINFO] = mb2_basic_meminfo,
	[MB2_TAG_FRAMEBUFFER] = mb2_framebuffer,
	[MB2_TAG_EFI64] = mb2_efi64,
	[MB2_TAG_EFI32] = mb2_efi32,
	[MB2_TAG_ACPI_OLD] = mb2_acpi_old,
	[MB2_TAG_ACPI_NEW] = mb2_acpi_new,
};

/*
 * The tags after the 8-byte header (total size, reserved), each starting on 8 bytes, up to the
 * end tag (spec 3.6.1, 3.6.2). A tag that claims to reach past the structure ends the walk.
 */
static void mb2_walk_tags(struct mb2_walk *w, const uint8_t *base, uint32_t total)
{
	bool ended = false;
	uint32_t offset = 8;

	while (offset + 8 <= total) {
		const uint8_t *tag = base + offset;
		uint32_t type = read32(tag), size = read32(tag + 4);

		if (type == MB2_TAG_END) {
			ended = true;
			break;
		}
		if (size < MB2_TAG_BODY || size > total - offset) {
			w->result.warning = "multiboot2 tag overruns the information structure";
			break;
		}
		if (type < sizeof(mb2_tag_handlers) / sizeof(mb2_tag_handlers[0]) &&
		    mb2_tag_handlers[type])
			mb2_tag_handlers[type](w, tag, size);
		offset += (size + 7) & ~7u;
	}
	if (!ended && !w->result.warning)
		w->result.warning = "multiboot2 information has no end tag";
}

static struct multiboot_result parse_multiboot2(uint64_t info_addr,
						multiboot_translate_fn translate, void *ctx,
						struct boot_info *info)
{
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

	struct mb2_walk w = { .info = info };
	mb2_walk_tags(&w, base, total);
	if (!w.seen_mmap && w.seen_meminfo) {
		add_region(info, 0, (uint64_t)w.mem_lower_kib * 1024, BOOT_MEMORY_USABLE);
		add_region(info, 0x100000, (uint64_t)w.mem_upper_kib * 1024, BOOT_MEMORY_USABLE);
	}
	warn_if_truncated(info, &w.result);
	return w.result;
}

/* ---- multiboot1 (spec 3.3): one structure, its flags saying which fields are valid -------- */

/* Offsets in the multiboot1 information structure (spec 3.3). */
#define MB1_INFO_LENGTH 88 /* up to the framebuffer's fields, which flag 12 alone vouches for */
#define MB1_FLAGS 0
#define MB1_MEM_LOWER 4
#define MB1_MEM_UPPER 8
#define MB1_CMDLINE 16
#define MB1_MODS_COUNT 20
#define MB1_MODS_ADDR 24
#define MB1_MODULE_SIZE 16 /* mod_start, mod_end, string, reserved */
#define MB1_MMAP_LENGTH 44
#define MB1_MMAP_ADDR 48
#define MB1_BOOT_LOADER_NAME 64
#define MB1_FRAMEBUFFER 88 /* address, pitch, width, height, bpp, type: 22 bytes */
#define MB1_COLOR_INFO 110 /* the RGB field positions and sizes: 6 bytes */
#define MB1_FRAMEBUFFER_LENGTH 22
#define MB1_COLOR_INFO_LENGTH 6

/* The string whose physical address is the field at offset field. */
static struct string_source mb1_string(const uint8_t *mbi, unsigned field,
				       multiboot_translate_fn translate, void *ctx)
{
	return (struct string_source){ .address = read32(mbi + field),
				       .translate = translate,
				       .ctx = ctx };
}

/*
 * The map at mmap_addr, mmap_length bytes. Each entry: size (not counting itself), base, length,
 * type (spec 3.3). The offset and the step have 64 bits: a size near 2^32 must end the walk, not
 * wrap back or stand still. Returns a warning, or NULL.
 */
static const char *mb1_memory_map(struct boot_info *info, const uint8_t *mbi,
				  multiboot_translate_fn translate, void *ctx)
{
	uint32_t length = read32(mbi + MB1_MMAP_LENGTH), addr = read32(mbi + MB1_MMAP_ADDR);
	const uint8_t *map = translate(addr, length, ctx);

	if (!map)
		return "multiboot1 memory map not readable";
	for (uint64_t off = 0; off + 24 <= length;) {
		uint32_t size = read32(map + off);
		if (size < 20)
			return "multiboot1 memory map entry too small";
		add_region(info, read64(map + off + 4), read64(map + off + 12),
			   read32(map + off + 20));
		off += (uint64_t)size + 4;
	}
	return NULL;
}

/*
 * The modules (spec 3.3): mods_count entries at mods_addr. Those beyond the kept are read as far as
 * the kernel names dropped modules, and counted after that. Returns a warning, or NULL.
 */
static const char *mb1_modules(struct boot_info *info, const uint8_t *mbi,
			       multiboot_translate_fn translate, void *ctx)
{
	uint32_t count = read32(mbi + MB1_MODS_COUNT), addr = read32(mbi + MB1_MODS_ADDR);
	uint32_t most = BOOT_MODULES_MAX + BOOT_MODULE_PROBLEMS_MAX;
	uint32_t keep = count > most ? most : count;
	const uint8_t *list = translate(addr, (size_t)keep * MB1_MODULE_SIZE, ctx);

	if (!list && keep) {
		info->modules_dropped = count;
		return "multiboot1 module list not readable";
	}
	for (uint32_t i = 0; i < keep; i++) {
		const uint8_t *m = list + i * MB1_MODULE_SIZE;
		struct string_source name = mb1_string(m, 8, translate, ctx);
		add_module(info, read32(m), read32(m + 4), &name);
	}
	info->modules_dropped += count - keep;
	return NULL;
}

/* The framebuffer fields, read as the multiboot2 tag: same layout from its address field on. */
static void mb1_framebuffer(struct boot_info *info, uint64_t info_addr,
			    multiboot_translate_fn translate, void *ctx)
{
	const uint8_t *fb = translate(info_addr + MB1_FRAMEBUFFER, MB1_FRAMEBUFFER_LENGTH, ctx);
	uint8_t tag[38] = { 0 };

	if (!fb)
		return;
	memcpy(tag + 8, fb, MB1_FRAMEBUFFER_LENGTH);
	parse_framebuffer(info, tag, 31);
	if (tag[29] != 1)
		return;
	/* RGB: the fields' positions and sizes follow (for indexed colour, a palette's address). */
	const uint8_t *colours = translate(info_addr + MB1_COLOR_INFO, MB1_COLOR_INFO_LENGTH, ctx);
	if (colours) {
		memcpy(tag + 32, colours, MB1_COLOR_INFO_LENGTH);
		parse_framebuffer(info, tag, 38);
	}
}

static struct multiboot_result parse_multiboot1(uint64_t info_addr,
						multiboot_translate_fn translate, void *ctx,
						struct boot_info *info)
{
	struct multiboot_result result = { 0 };
	const uint8_t *mbi = translate(info_addr, MB1_INFO_LENGTH, ctx);

	if (!mbi)
		return (struct multiboot_result){ .error = "multiboot1 information not readable" };
	info->path = BOOT_PATH_MULTIBOOT1;
	uint32_t flags = read32(mbi + MB1_FLAGS);

	if (flags & MB1_INFO_CMDLINE) {
		struct string_source text = mb1_string(mbi, MB1_CMDLINE, translate, ctx);
		take_cmdline(info, &text);
	}
	if (flags & MB1_INFO_LOADER_NAME) {
		struct string_source text = mb1_string(mbi, MB1_BOOT_LOADER_NAME, translate, ctx);
		copy_string(info->loader_name, sizeof(info->loader_name), &text);
	}
	if (flags & MB1_INFO_MEM_MAP) {
		result.warning = mb1_memory_map(info, mbi, translate, ctx);
	} else if (flags & MB1_INFO_MEMORY) {
		/* mem_lower and mem_upper in KiB, from 0 and from 1 MiB */
		add_region(info, 0, (uint64_t)read32(mbi + MB1_MEM_LOWER) * 1024,
			   BOOT_MEMORY_USABLE);
		add_region(info, 0x100000, (uint64_t)read32(mbi + MB1_MEM_UPPER) * 1024,
			   BOOT_MEMORY_USABLE);
	}
	if (flags & MB1_INFO_FRAMEBUFFER)
		mb1_framebuffer(info, info_addr, translate, ctx);
	if (flags & MB1_INFO_MODS) {
		const char *w = mb1_modules(info, mbi, translate, ctx);
		if (w && !result.warning)
			result.warning = w;
	}
	warn_if_truncated(info, &result);
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
