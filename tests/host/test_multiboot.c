// SPDX-License-Identifier: GPL-2.0
/*
 * Multiboot1 and multiboot2 information into struct boot_info (kernel/multiboot.c), including
 * broken structures: a missing end tag, a tag that overruns, an impossible size, a huge map.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "kernel/cmdline_cut.h"
#include "tests/lib/payload_config.h"
#include "kernel/multiboot.h"
#include "tests/host/lib/fake_phys.h"
#include "tests/host/lib/test_util.h"

static struct boot_info info;

/* Builds a multiboot2 information structure tag by tag. */
struct mb2 {
	uint8_t *base;
	uint32_t used;
};

static uint8_t *tag(struct mb2 *b, uint32_t type, uint32_t size)
{
	uint8_t *t = b->base + b->used;
	put_le(t, type, 4);
	put_le(t + 4, size, 4);
	b->used += (size + 7) & ~7u;
	return t;
}

static void finish(struct mb2 *b, int with_end)
{
	if (with_end)
		tag(b, MB2_TAG_END, 8);
	put_le(b->base, b->used, 4);
}

static void string_tag(struct mb2 *b, uint32_t type, const char *s)
{
	uint8_t *t = tag(b, type, 8 + (uint32_t)strlen(s) + 1);
	memcpy(t + 8, s, strlen(s) + 1);
}

static void mmap_tag(struct mb2 *b, const uint64_t (*entries)[3], unsigned n)
{
	uint8_t *t = tag(b, MB2_TAG_MMAP, 16 + 24 * n);
	put_le(t + 8, 24, 4);
	put_le(t + 12, 0, 4);
	for (unsigned i = 0; i < n; i++) {
		put_le(t + 16 + 24 * i, entries[i][0], 8);
		put_le(t + 16 + 24 * i + 8, entries[i][1], 8);
		put_le(t + 16 + 24 * i + 16, (uint32_t)entries[i][2], 4);
	}
}

/* GRUB's module2 lines: mod_start, mod_end, the string (multiboot2 spec 3.6.6). */
static void module_tag(struct mb2 *b, uint32_t start, uint32_t end, const char *name)
{
	uint8_t *t = tag(b, MB2_TAG_MODULE, 16 + (uint32_t)strlen(name) + 1);
	put_le(t + 8, start, 4);
	put_le(t + 12, end, 4);
	memcpy(t + 16, name, strlen(name) + 1);
}

static void test_multiboot2_modules(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	struct mb2 b = { fake_phys_add(&m, 0x10000, 4096), 8 };

	module_tag(&b, 0x200000, 0x200123, "bench1.bin");
	string_tag(&b, MB2_TAG_CMDLINE, "exp=none");
	module_tag(&b, 0x201000, 0x201000, "bench2.bin"); /* empty, still a module */
	module_tag(&b, 0x300000, 0x2fffff, "backwards");  /* ends before it starts: dropped */
	uint8_t *t = tag(&b, MB2_TAG_MODULE, 12);	  /* too short for its addresses */
	(void)t;
	finish(&b, 1);
	struct multiboot_result r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x10000,
						    fake_phys_translate, &m, &info);
	assert_null(r.error);
	assert_int_equal(info.module_count, 2);
	assert_int_equal(info.modules_dropped, 2);
	/* The one with its addresses is named; the tag too short for them is only counted. */
	assert_int_equal(info.module_problem_count, 1);
	assert_int_equal(info.module_problems[0].kind, BOOT_MODULE_BAD_RANGE);
	assert_string_equal(info.module_problems[0].name, "backwards");
	assert_int_equal(info.modules[0].base, 0x200000);
	assert_int_equal(info.modules[0].size, 0x123);
	assert_string_equal(info.modules[0].name, "bench1.bin");
	assert_int_equal(info.modules[1].size, 0);
	assert_string_equal(info.modules[1].name, "bench2.bin");
	fake_phys_free(&m);
}

/* QEMU's -initrd "a,b,...": mods_count entries at mods_addr; more than the kernel keeps are
 * counted, a list that cannot be read is a warning. */
static void test_multiboot1_modules(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	uint8_t *mbi = fake_phys_add(&m, 0x9000, 128);
	uint8_t *list = fake_phys_add(&m, 0x30000, 20 * 16);
	char *names = (char *)fake_phys_add(&m, 0x31000, 20 * 64);

	put_le(mbi, MB1_INFO_MODS, 4);
	put_le(mbi + 20, 20, 4);
	put_le(mbi + 24, 0x30000, 4);
	for (unsigned i = 0; i < 20; i++) {
		put_le(list + 16 * i, 0x400000 + 0x1000 * i, 4);
		put_le(list + 16 * i + 4, 0x400000 + 0x1000 * i + 100 + i, 4);
		put_le(list + 16 * i + 8, 0x31000 + 64 * i, 4);
		snprintf(names + 64 * i, 64, "/tmp/b%u/bundle.bin", i);
	}
	struct multiboot_result r = multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000,
						    fake_phys_translate, &m, &info);
	assert_null(r.warning);
	assert_int_equal(info.module_count, BOOT_MODULES_MAX);
	assert_int_equal(info.modules_dropped, 20 - BOOT_MODULES_MAX);
	assert_int_equal(info.modules[3].base, 0x403000);
	assert_int_equal(info.modules[3].size, 103);
	assert_string_equal(info.modules[15].name, "/tmp/b15/bundle.bin");
	assert_int_equal(info.module_problem_count, 20 - BOOT_MODULES_MAX);
	assert_int_equal(info.module_problems[0].kind, BOOT_MODULE_TOO_MANY);
	assert_string_equal(info.module_problems[0].name, "/tmp/b16/bundle.bin");
	assert_string_equal(info.module_problems[3].name, "/tmp/b19/bundle.bin");

	put_le(mbi + 24, 0x70000, 4); /* nothing there */
	put_le(mbi + 20, 2, 4);
	r = multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_string_equal(r.warning, "multiboot1 module list not readable");
	assert_int_equal(info.module_count, 0);
	assert_int_equal(info.modules_dropped, 2);
	fake_phys_free(&m);
}

static void test_multiboot2_full(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	struct mb2 b = { fake_phys_add(&m, 0x4000, 4096), 8 };
	static const uint64_t map[][3] = {
		{ 0, 0x9fc00, 1 },
		{ 0x100000, 0x1ff00000, 1 },
		{ 0xfffc0000, 0x40000, 2 },
		{ 0x20000000, 0x1000, 7 }, /* an unknown type counts as reserved */
	};
	uint8_t rsdp1[20] = "RSD PTR ", rsdp2[36] = "RSD PTR ";

	string_tag(&b, MB2_TAG_CMDLINE, "exp=all xsu=on");
	string_tag(&b, MB2_TAG_LOADER_NAME, "GRUB 2.06");
	mmap_tag(&b, map, 4);
	rsdp2[15] = 2;
	uint8_t *t = tag(&b, MB2_TAG_ACPI_NEW, 8 + 36);
	memcpy(t + 8, rsdp2, 36);
	t = tag(&b, MB2_TAG_ACPI_OLD, 8 + 20); /* after the new one: must not replace it */
	memcpy(t + 8, rsdp1, 20);
	t = tag(&b, MB2_TAG_EFI64, 16);
	put_le(t + 8, 0x7f9ee018, 8);
	t = tag(&b, MB2_TAG_FRAMEBUFFER, 38);
	put_le(t + 8, 0x80000000, 8);
	put_le(t + 16, 4096, 4);
	put_le(t + 20, 1024, 4);
	put_le(t + 24, 768, 4);
	t[28] = 32;
	t[29] = 1; /* RGB */
	t[32] = 16, t[33] = 8, t[34] = 8, t[35] = 8, t[36] = 0, t[37] = 8;
	finish(&b, 1);

	struct multiboot_result r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000,
						    fake_phys_translate, &m, &info);
	assert_null(r.error);
	assert_null(r.warning);
	assert_int_equal(info.magic, BOOT_INFO_MAGIC);
	assert_int_equal(info.path, BOOT_PATH_MULTIBOOT2);
	assert_string_equal(info.cmdline, "exp=all xsu=on");
	assert_string_equal(info.loader_name, "GRUB 2.06");
	assert_int_equal(info.memory_region_count, 4);
	assert_int_equal(info.memory_map[1].base, 0x100000);
	assert_int_equal(info.memory_map[1].length, 0x1ff00000);
	assert_int_equal(info.memory_map[3].type, BOOT_MEMORY_RESERVED);
	assert_int_equal(boot_usable_mib(&info), (0x9fc00 + 0x1ff00000) >> 20);
	assert_int_equal(info.acpi_rsdp_source, BOOT_ACPI_MULTIBOOT2_NEW);
	assert_int_equal(info.acpi_rsdp, (uint64_t)(uintptr_t)info.acpi_rsdp_copy);
	assert_int_equal(info.acpi_rsdp_copy[15], 2);
	assert_int_equal(info.efi_system_table, 0x7f9ee018);
	assert_int_equal(info.framebuffer.type, BOOT_FRAMEBUFFER_RGB);
	assert_int_equal(info.framebuffer.width, 1024);
	assert_int_equal(info.framebuffer.red_position, 16);
	assert_int_equal(info.loader_info_start, 0x4000);
	assert_int_equal(info.loader_info_end, 0x4000 + b.used);
	fake_phys_free(&m);
}

static void test_multiboot2_meminfo_only_without_map(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	struct mb2 b = { fake_phys_add(&m, 0x10000, 4096), 8 };
	uint8_t *t = tag(&b, MB2_TAG_BASIC_MEMINFO, 16);
	put_le(t + 8, 639, 4);
	put_le(t + 12, 64 * 1024, 4);
	finish(&b, 1);
	multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x10000, fake_phys_translate, &m, &info);
	assert_int_equal(info.memory_region_count, 2);
	assert_int_equal(info.memory_map[1].length, 64ull * 1024 * 1024);

	/* With a map after the basic information, only the map counts. */
	b.used = 8;
	t = tag(&b, MB2_TAG_BASIC_MEMINFO, 16);
	put_le(t + 8, 639, 4);
	put_le(t + 12, 64 * 1024, 4);
	static const uint64_t map[][3] = { { 0x100000, 0x100000, 1 } };
	mmap_tag(&b, map, 1);
	finish(&b, 1);
	multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x10000, fake_phys_translate, &m, &info);
	assert_int_equal(info.memory_region_count, 1);
	fake_phys_free(&m);
}

static void test_multiboot2_broken(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	uint8_t *base = fake_phys_add(&m, 0x4000, 4096);
	struct mb2 b = { base, 8 };
	struct multiboot_result r;

	/* No end tag: what was read is kept, and a warning says so. */
	string_tag(&b, MB2_TAG_CMDLINE, "xsu=off");
	finish(&b, 0);
	r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000, fake_phys_translate, &m, &info);
	assert_null(r.error);
	assert_string_equal(r.warning, "multiboot2 information has no end tag");
	assert_string_equal(info.cmdline, "xsu=off");

	/* A tag whose size runs past the structure. */
	b.used = 8;
	uint8_t *t = tag(&b, MB2_TAG_CMDLINE, 16);
	memcpy(t + 8, "abcdefg", 8);
	put_le(t + 4, 4000, 4);
	finish(&b, 1);
	r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000, fake_phys_translate, &m, &info);
	assert_string_equal(r.warning, "multiboot2 tag overruns the information structure");
	assert_string_equal(info.cmdline, "");

	/* A command line without its NUL stays inside its tag. */
	b.used = 8;
	t = tag(&b, MB2_TAG_CMDLINE, 12);
	memcpy(t + 8, "abcd", 4);
	memset(t + 12, 'Z', 4); /* the tag's padding to 8 bytes, not part of its string */
	finish(&b, 1);
	multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000, fake_phys_translate, &m, &info);
	assert_string_equal(info.cmdline, "abcd");

	/* Impossible total sizes, unreadable memory, a foreign magic. */
	put_le(base, 4, 4);
	r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000, fake_phys_translate, &m, &info);
	assert_string_equal(r.error, "multiboot2 information has a bad size");
	put_le(base, 0x7fffffff, 4);
	r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000, fake_phys_translate, &m, &info);
	assert_non_null(r.error);
	r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x90000, fake_phys_translate, &m, &info);
	assert_string_equal(r.error, "multiboot2 information not readable");
	r = multiboot_parse(0x12345678, 0x4000, fake_phys_translate, &m, &info);
	assert_string_equal(r.error, "not started by a multiboot loader");
	assert_int_equal(info.path, BOOT_PATH_UNKNOWN);
	assert_int_equal(info.magic, BOOT_INFO_MAGIC);
	fake_phys_free(&m);
}

static void test_multiboot2_huge_map(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	static uint64_t map[BOOT_MEMMAP_MAX + 10][3];
	struct mb2 b = { fake_phys_add(&m, 0x100000, 65536), 8 };

	for (unsigned i = 0; i < BOOT_MEMMAP_MAX + 10; i++) {
		map[i][0] = i * 0x100000ull;
		map[i][1] = 0x1000;
		map[i][2] = 1;
	}
	mmap_tag(&b, map, BOOT_MEMMAP_MAX + 10);
	finish(&b, 1);
	struct multiboot_result r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x100000,
						    fake_phys_translate, &m, &info);
	assert_int_equal(info.memory_region_count, BOOT_MEMMAP_MAX);
	assert_int_equal(info.memory_map_truncated, 1);
	assert_string_equal(r.warning, "memory map has more regions than the kernel keeps");
	fake_phys_free(&m);
}

static void test_multiboot1(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	uint8_t *mbi = fake_phys_add(&m, 0x9000, 128);
	uint8_t *strings = fake_phys_add(&m, 0x20000, 256);
	uint8_t *map = fake_phys_add(&m, 0x21000, 256);

	put_le(mbi, MB1_INFO_CMDLINE | MB1_INFO_MEM_MAP | MB1_INFO_LOADER_NAME | MB1_INFO_MEMORY,
	       4);
	put_le(mbi + 4, 639, 4);
	put_le(mbi + 8, 1024, 4);
	strcpy((char *)strings, "build/pmu-testkernel.elf exit=qemu");
	put_le(mbi + 16, 0x20000, 4);
	strcpy((char *)strings + 100, "qemu");
	put_le(mbi + 64, 0x20000 + 100, 4);
	/* Two entries: size 20 each (not counting the size field). */
	put_le(map, 20, 4);
	put_le(map + 4, 0, 8);
	put_le(map + 12, 0x9fc00, 8);
	put_le(map + 20, 1, 4);
	put_le(map + 24, 20, 4);
	put_le(map + 28, 0x100000, 8);
	put_le(map + 36, 0x7ee0000, 8);
	put_le(map + 44, 1, 4);
	put_le(mbi + 44, 48, 4);
	put_le(mbi + 48, 0x21000, 4);

	struct multiboot_result r = multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000,
						    fake_phys_translate, &m, &info);
	assert_null(r.error);
	assert_null(r.warning);
	assert_int_equal(info.path, BOOT_PATH_MULTIBOOT1);
	assert_string_equal(info.cmdline, "build/pmu-testkernel.elf exit=qemu");
	assert_string_equal(info.loader_name, "qemu");
	assert_int_equal(info.memory_region_count, 2);
	assert_int_equal(info.memory_map[1].length, 0x7ee0000);
	assert_int_equal(info.acpi_rsdp, 0);

	/* Without a map, mem_lower/mem_upper. */
	put_le(mbi, MB1_INFO_MEMORY, 4);
	multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_int_equal(info.memory_region_count, 2);
	assert_int_equal(boot_usable_mib(&info), (639 * 1024 + 1024 * 1024) >> 20);

	/* A map entry claiming a size below the minimum stops the walk with a warning. */
	put_le(mbi, MB1_INFO_MEM_MAP, 4);
	put_le(map, 8, 4);
	r = multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_string_equal(r.warning, "multiboot1 memory map entry too small");
	fake_phys_free(&m);
}

/* A map entry size near 2^32 must end the walk, not wrap the offset back into the tag (found by
 * tests/fuzz/fuzz_multiboot.c). */
static void test_multiboot2_map_entry_size_wraps(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	struct mb2 b = { fake_phys_add(&m, 0x4000, 4096), 8 };
	uint8_t *t = tag(&b, MB2_TAG_MMAP, 16 + 24 * 4);

	put_le(t + 8, 0xffffffea, 4); /* e becomes 0xfffffffa: e + 24 wraps to 18 */
	put_le(t + 16 + 8, 0x9fc00, 8);
	put_le(t + 16 + 16, 1, 4);
	finish(&b, 1);
	struct multiboot_result r = multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000,
						    fake_phys_translate, &m, &info);
	assert_null(r.error);
	assert_int_equal(info.memory_region_count, 1);
	fake_phys_free(&m);
}

/* An entry size near 2^32 must end the walk, not wrap the offset back into the map (found by
 * tests/fuzz/fuzz_multiboot.c). */
static void test_multiboot1_map_entry_size_wraps(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	uint8_t *mbi = fake_phys_add(&m, 0x9000, 128);
	uint8_t *map = fake_phys_add(&m, 0x21000, 48);

	put_le(mbi, MB1_INFO_MEM_MAP, 4);
	put_le(mbi + 44, 48, 4);
	put_le(mbi + 48, 0x21000, 4);
	put_le(map + 12, 0x9fc00, 8);
	put_le(map + 20, 1, 4);
	/* off becomes 0xffffffe8: off + 24 wraps to 0; size + 4 wraps to 0: off stays. */
	static const uint32_t sizes[] = { 0xffffffe4, 0xfffffffc };
	for (unsigned i = 0; i < 2; i++) {
		put_le(map, sizes[i], 4);
		struct multiboot_result r = multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000,
							    fake_phys_translate, &m, &info);
		assert_null(r.error);
		assert_int_equal(info.memory_region_count, 1);
	}
	fake_phys_free(&m);
}

/* "xsu=both " (9 bytes) repeated, then "mux_ms=100": 1100 bytes that do not fit in 1023. */
static size_t long_cmdline(char *out)
{
	size_t n = 0;

	while (n + 9 + 10 < 1100) {
		memcpy(out + n, "xsu=both ", 9);
		n += 9;
	}
	memset(out + n, ' ', 1100 - 10 - n); /* pad with blanks to exactly 1100 */
	memcpy(out + 1090, "mux_ms=100", 11);
	return strlen(out);
}

/* The kept line has no word cut in two: mux_ms stays at its default, not 10. */
static void assert_cut_cleanly(size_t loader_len)
{
	struct payload_config cfg;
	struct cmdline_table table;
	const struct cmdline_table *tables[1] = { &table };
	struct cmdline_warning w[4];
	size_t kept = strlen(info.cmdline);

	assert_true(kept <= BOOT_CMDLINE_MAX - 1);
	assert_int_equal(kept % 9, 8); /* whole "xsu=both" words, no trailing blank */
	assert_null(strstr(info.cmdline, "mux_ms"));
	assert_int_equal(kept + info.cmdline_dropped_bytes, loader_len);
	assert_int_equal(info.cmdline_dropped_words, 1 + (1090 - (kept + 1)) / 9);
	payload_config_table(&cfg, &table);
	cmdline_defaults(tables, 1);
	assert_int_equal(cmdline_parse(info.cmdline, tables, 1, w, 4), 0);
	assert_int_equal(cfg.mux_ms, 1);
}

static void test_long_cmdline_is_cut_at_a_word(void **state)
{
	(void)state;
	static char text[1200];
	size_t len = long_cmdline(text);
	assert_int_equal(len, 1100);

	/* multiboot2: the tag holds the whole line. */
	struct fake_phys m = { 0 };
	struct mb2 b = { fake_phys_add(&m, 0x4000, 4096), 8 };
	string_tag(&b, MB2_TAG_CMDLINE, text);
	finish(&b, 1);
	multiboot_parse(MULTIBOOT2_BOOTLOADER_MAGIC, 0x4000, fake_phys_translate, &m, &info);
	assert_cut_cleanly(len);

	/* multiboot1: a string in memory, read byte by byte. */
	uint8_t *mbi = fake_phys_add(&m, 0x9000, 128);
	uint8_t *strings = fake_phys_add(&m, 0x20000, 2048);
	put_le(mbi, MB1_INFO_CMDLINE, 4);
	put_le(mbi + 16, 0x20000, 4);
	memcpy(strings, text, len + 1);
	multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_cut_cleanly(len);

	/* A line that fits exactly drops nothing; one byte more drops its last word. */
	memset(strings, 'a', 1023);
	strings[1023] = 0;
	multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_int_equal(strlen(info.cmdline), 1023);
	assert_int_equal(info.cmdline_dropped_words, 0);
	memcpy(strings, "a=1 ", 4);
	strings[1023] = 'b';
	strings[1024] = 0;
	multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_string_equal(info.cmdline, "a=1");
	assert_int_equal(info.cmdline_dropped_words, 1);
	assert_int_equal(info.cmdline_dropped_bytes, 1024 - 3);
	/* A blank right at the limit: the words before it are whole and stay. */
	memset(strings, 'a', 1100);
	strings[1023] = ' ';
	strings[1100] = 0;
	multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_int_equal(strlen(info.cmdline), 1023);
	assert_int_equal(info.cmdline_dropped_words, 1);
	assert_int_equal(info.cmdline_dropped_bytes, 1100 - 1023);
	fake_phys_free(&m);
}

/* Only QEMU's and other non-GRUB-2 multiboot1 loaders put the image path first. */
static void test_image_path_by_protocol(void **state)
{
	(void)state;
	struct boot_info b = { .path = BOOT_PATH_MULTIBOOT1 };
	strcpy(b.loader_name, "qemu");
	assert_true(boot_cmdline_has_image_path(&b));
	strcpy(b.loader_name, "GNU GRUB 0.97");
	assert_true(boot_cmdline_has_image_path(&b));
	strcpy(b.loader_name, "");
	assert_true(boot_cmdline_has_image_path(&b));
	strcpy(b.loader_name, "GRUB 2.06-13+deb12u2");
	assert_false(boot_cmdline_has_image_path(&b));
	b.path = BOOT_PATH_MULTIBOOT2;
	assert_false(boot_cmdline_has_image_path(&b));
	strcpy(b.loader_name, "qemu");
	assert_false(boot_cmdline_has_image_path(&b));
	b.path = BOOT_PATH_UEFI;
	assert_false(boot_cmdline_has_image_path(&b));
}

static uint32_t count_words(const char *s)
{
	uint32_t n = 0;

	for (size_t i = 0; s[i]; i++)
		n += s[i] != ' ' && (i == 0 || s[i - 1] == ' ');
	return n;
}

/* Issue 20: a harness's exit=qemu after the cut is looked for in the whole line and kept, in the
 * place of the last words that fit; the counts say what is dropped now. */
static void test_cut_keeps_exit(void **state)
{
	(void)state;
	static char text[1200];
	size_t len = long_cmdline(text);
	struct fake_phys m = { 0 };
	uint8_t *mbi = fake_phys_add(&m, 0x9000, 128);
	uint8_t *strings = fake_phys_add(&m, 0x20000, 2048);

	memcpy(text + 1090, "exit=qemu ", 10); /* in the place of mux_ms=100 */
	put_le(mbi, MB1_INFO_CMDLINE, 4);
	put_le(mbi + 16, 0x20000, 4);
	memcpy(strings, text, len + 1);
	multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	size_t kept = strlen(info.cmdline);
	assert_true(kept <= BOOT_CMDLINE_MAX - 1);
	assert_string_equal(info.cmdline + kept - 10, " exit=qemu");
	assert_int_equal((kept - 10 + 1) % 9, 0); /* whole "xsu=both " words before it */
	assert_int_equal(kept + info.cmdline_dropped_bytes, len);
	assert_int_equal(info.cmdline_dropped_words, count_words(text) - count_words(info.cmdline));
	/* A word that only starts like it, or an exit= too long to be one, is not kept. */
	memcpy(strings + 1090, "exitqemu  ", 10);
	multiboot_parse(MULTIBOOT1_BOOTLOADER_MAGIC, 0x9000, fake_phys_translate, &m, &info);
	assert_null(strstr(info.cmdline, "exitqemu"));
	fake_phys_free(&m);
	char line[32] = "a=1 bb=2 ccc=3";
	uint32_t words = 1, bytes = 10;
	cmdline_cut_rescue(line, 16, "exit=qemu", 9, &words, &bytes);
	assert_string_equal(line, "a=1 exit=qemu");
	assert_int_equal(words, 2);	       /* bb=2, ccc=3 dropped; exit=qemu no more */
	assert_int_equal(bytes, 10 + 11 - 10); /* " bb=2 ccc=3" in, " exit=qemu" out */
	assert_true(cmdline_cut_keeps("exit=halt", 9));
	assert_false(cmdline_cut_keeps("exit=", 5));
	assert_false(cmdline_cut_keeps("exits=qemu", 10));
	assert_false(cmdline_cut_keeps("exit=aaaaaaaaaaaaaaaaaaaa", 25));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_multiboot2_full),
		cmocka_unit_test(test_multiboot2_modules),
		cmocka_unit_test(test_multiboot1_modules),
		cmocka_unit_test(test_multiboot2_meminfo_only_without_map),
		cmocka_unit_test(test_multiboot2_broken),
		cmocka_unit_test(test_multiboot2_huge_map),
		cmocka_unit_test(test_multiboot2_map_entry_size_wraps),
		cmocka_unit_test(test_multiboot1),
		cmocka_unit_test(test_multiboot1_map_entry_size_wraps),
		cmocka_unit_test(test_long_cmdline_is_cut_at_a_word),
		cmocka_unit_test(test_cut_keeps_exit),
		cmocka_unit_test(test_image_path_by_protocol),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
