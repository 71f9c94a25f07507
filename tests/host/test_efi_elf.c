// SPDX-License-Identifier: GPL-2.0
/*
 * The UEFI loader's check of the kernel ELF (boot/efi/elf_plan.c): a well-formed image gives the
 * right segments, extent and entry; each kind of damage gives its message; and no truncation or
 * corruption makes it read outside the buffer (the sanitizers watch).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "boot/efi/elf_plan.h"
#include "tests/host/lib/test_util.h"

#define LIMIT 0x100000000ull
#define IMAGE_SIZE 0x2000
#define TEXT_OFFSET 0x1000
#define TEXT_ADDR 0x100000
#define TEXT_FILESZ 0x300
#define TEXT_MEMSZ 0x5000 /* bss after the file bytes */
#define SYMTAB_OFFSET 0x1400
#define STRTAB_OFFSET 0x1500
#define SHDR_OFFSET 0x1600

static uint8_t image[IMAGE_SIZE];

static uint8_t *phdr(unsigned i)
{
	return image + 64 + 56 * i;
}

static uint8_t *shdr(unsigned i)
{
	return image + SHDR_OFFSET + 64 * i;
}

static void set_phdr(unsigned i, uint32_t type, uint32_t flags, uint64_t offset, uint64_t addr,
		     uint64_t filesz, uint64_t memsz)
{
	uint8_t *p = phdr(i);
	put_le(p, type, 4);
	put_le(p + 4, flags, 4);
	put_le(p + 8, offset, 8);
	put_le(p + 16, addr, 8);
	put_le(p + 24, addr, 8);
	put_le(p + 32, filesz, 8);
	put_le(p + 40, memsz, 8);
	put_le(p + 48, 0x1000, 8);
}

/* A small kernel like ours: one RWX PT_LOAD at 1 MiB with bss, a .symtab with the entry. */
static void build(unsigned phnum)
{
	static const char strtab[] = "\0multiboot_entry32\0kernel_entry64\0";

	memset(image, 0, sizeof(image));
	memcpy(image,
	       "\x7f"
	       "ELF",
	       4);
	image[4] = 2;				 /* ELFCLASS64 */
	image[5] = 1;				 /* little-endian */
	image[6] = 1;				 /* EV_CURRENT */
	put_le(image + 16, 2, 2);		 /* ET_EXEC */
	put_le(image + 18, 62, 2);		 /* EM_X86_64 */
	put_le(image + 20, 1, 4);		 /* e_version */
	put_le(image + 24, TEXT_ADDR + 0x60, 8); /* e_entry: the 32-bit entry, not ours */
	put_le(image + 32, 64, 8);		 /* e_phoff */
	put_le(image + 40, SHDR_OFFSET, 8);	 /* e_shoff */
	put_le(image + 52, 64, 2);
	put_le(image + 54, 56, 2);
	put_le(image + 56, phnum, 2);
	put_le(image + 58, 64, 2);
	put_le(image + 60, 3, 2); /* null, .symtab, .strtab */
	set_phdr(0, 1, 7, TEXT_OFFSET, TEXT_ADDR, TEXT_FILESZ, TEXT_MEMSZ);
	for (unsigned i = 0; i < 0x300; i++)
		image[TEXT_OFFSET + i] = (uint8_t)(i * 7 + 1);

	/* Symbols: null, multiboot_entry32 at +0x60, kernel_entry64 at +0x1a2. */
	uint8_t *sym = image + SYMTAB_OFFSET;
	put_le(sym + 24, 1, 4);
	put_le(sym + 24 + 6, 1, 2);
	put_le(sym + 24 + 8, TEXT_ADDR + 0x60, 8);
	put_le(sym + 48, 19, 4);
	put_le(sym + 48 + 6, 1, 2);
	put_le(sym + 48 + 8, TEXT_ADDR + 0x1a2, 8);
	memcpy(image + STRTAB_OFFSET, strtab, sizeof(strtab));

	put_le(shdr(1) + 4, 2, 4); /* SHT_SYMTAB */
	put_le(shdr(1) + 24, SYMTAB_OFFSET, 8);
	put_le(shdr(1) + 32, 3 * 24, 8);
	put_le(shdr(1) + 40, 2, 4); /* sh_link: .strtab */
	put_le(shdr(1) + 56, 24, 8);
	put_le(shdr(2) + 4, 3, 4); /* SHT_STRTAB */
	put_le(shdr(2) + 24, STRTAB_OFFSET, 8);
	put_le(shdr(2) + 32, sizeof(strtab), 8);
}

static const char *plan_of(size_t size, struct elf_plan *plan)
{
	return elf_plan_make(image, size, "kernel_entry64", LIMIT, plan);
}

static void test_valid_kernel(void **state)
{
	(void)state;
	struct elf_plan plan;

	build(1);
	assert_null(plan_of(IMAGE_SIZE, &plan));
	assert_int_equal(plan.segment_count, 1);
	assert_int_equal(plan.segments[0].paddr, TEXT_ADDR);
	assert_int_equal(plan.segments[0].offset, TEXT_OFFSET);
	assert_int_equal(plan.segments[0].filesz, TEXT_FILESZ);
	assert_int_equal(plan.segments[0].memsz, TEXT_MEMSZ);
	assert_int_equal(plan.low, TEXT_ADDR);
	assert_int_equal(plan.high, TEXT_ADDR + TEXT_MEMSZ);
	/* The symbol, not e_entry (the 32-bit multiboot entry). */
	assert_int_equal(plan.entry, TEXT_ADDR + 0x1a2);

	/* Other symbols are found as well; a prefix of a name is not a match. */
	assert_null(elf_plan_make(image, IMAGE_SIZE, "multiboot_entry32", LIMIT, &plan));
	assert_int_equal(plan.entry, TEXT_ADDR + 0x60);
	assert_string_equal(elf_plan_make(image, IMAGE_SIZE, "kernel_entry", LIMIT, &plan),
			    "the entry symbol is not in the symbol table");
}

static void test_extent_of_several_segments(void **state)
{
	(void)state;
	struct elf_plan plan;

	build(3);
	/* A data segment on a later page, unaligned, and an empty one that is skipped. */
	set_phdr(1, 1, 6, 0x1300, 0x108010, 0x40, 0x2000);
	set_phdr(2, 1, 6, 0x1340, 0x200000, 0, 0);
	assert_null(plan_of(IMAGE_SIZE, &plan));
	assert_int_equal(plan.segment_count, 2);
	assert_int_equal(plan.low, TEXT_ADDR);
	assert_int_equal(plan.high, 0x10b000);
	/* Non-loadable headers (PT_NOTE, PT_GNU_STACK) are ignored. */
	set_phdr(2, 4, 4, 0x1340, 0x300000, 0x10, 0x10);
	assert_null(plan_of(IMAGE_SIZE, &plan));
	assert_int_equal(plan.high, 0x10b000);
}

struct damage {
	const char *message;
	void (*apply)(void);
};

static void bad_magic(void)
{
	image[1] = 'e';
}
static void elf32(void)
{
	image[4] = 1;
}
static void big_endian(void)
{
	image[5] = 2;
}
static void bad_version(void)
{
	put_le(image + 20, 2, 4);
}
static void shared_object(void)
{
	put_le(image + 16, 3, 2);
}
static void i386(void)
{
	put_le(image + 18, 3, 2);
}
static void phentsize(void)
{
	put_le(image + 54, 32, 2);
}
static void no_phdrs(void)
{
	put_le(image + 56, 0, 2);
}
static void phdrs_outside(void)
{
	put_le(image + 32, IMAGE_SIZE - 8, 8);
}
static void filesz_over_memsz(void)
{
	put_le(phdr(0) + 32, TEXT_MEMSZ + 1, 8);
}
static void bytes_outside(void)
{
	put_le(phdr(0) + 8, IMAGE_SIZE - 0x10, 8);
}
static void above_4g(void)
{
	set_phdr(0, 1, 7, TEXT_OFFSET, 0xfffff000, TEXT_FILESZ, TEXT_MEMSZ);
}
static void wrapping_address(void)
{
	set_phdr(0, 1, 7, TEXT_OFFSET, 0xfffffffffffff000ull, TEXT_FILESZ, TEXT_MEMSZ);
}
static void virtual_differs(void)
{
	put_le(phdr(0) + 16, 0xffffffff80100000ull, 8);
}
static void overlapping(void)
{
	put_le(image + 56, 2, 2);
	set_phdr(1, 1, 6, 0x1300, TEXT_ADDR + TEXT_MEMSZ - 0x10, 0x20, 0x20);
}
static void not_load(void)
{
	put_le(phdr(0), 4, 4);
}
static void no_sections(void)
{
	put_le(image + 40, 0, 8);
}
static void shdrs_outside(void)
{
	put_le(image + 40, IMAGE_SIZE - 64, 8);
}
static void no_symtab(void)
{
	put_le(shdr(1) + 4, 1, 4);
}
static void symtab_outside(void)
{
	put_le(shdr(1) + 32, IMAGE_SIZE, 8);
}
static void strtab_wrong_type(void)
{
	put_le(shdr(2) + 4, 1, 4);
}
static void strtab_link_outside(void)
{
	put_le(shdr(1) + 40, 9, 4);
}
static void entry_undefined(void)
{
	put_le(image + SYMTAB_OFFSET + 48 + 6, 0, 2);
}
static void entry_in_bss(void)
{
	put_le(image + SYMTAB_OFFSET + 48 + 8, TEXT_ADDR + TEXT_FILESZ + 0x10, 8);
}
static void entry_not_executable(void)
{
	put_le(phdr(0) + 4, 6, 4);
}
static void name_outside_strtab(void)
{
	put_le(image + SYMTAB_OFFSET + 48, 0x7000, 4);
}

static const struct damage damages[] = {
	{ "not an ELF file (bad magic)", bad_magic },
	{ "not a 64-bit ELF file", elf32 },
	{ "not a little-endian ELF file", big_endian },
	{ "unknown ELF version", bad_version },
	{ "not an ELF executable (ET_EXEC)", shared_object },
	{ "not an x86-64 ELF file", i386 },
	{ "unexpected program header size", phentsize },
	{ "no program headers", no_phdrs },
	{ "program headers lie outside the file", phdrs_outside },
	{ "a segment has more file bytes than memory bytes", filesz_over_memsz },
	{ "a segment's bytes lie outside the file", bytes_outside },
	{ "a segment lies above the loader's limit (4 GiB)", above_4g },
	{ "a segment lies above the loader's limit (4 GiB)", wrapping_address },
	{ "a segment's virtual and physical addresses differ", virtual_differs },
	{ "two segments overlap", overlapping },
	{ "no loadable (PT_LOAD) segment", not_load },
	{ "no section headers, so no symbol table", no_sections },
	{ "section headers lie outside the file", shdrs_outside },
	{ "the entry symbol is not in the symbol table", no_symtab },
	{ "malformed symbol table", symtab_outside },
	{ "the symbol table has no string table", strtab_wrong_type },
	{ "the symbol table has no string table", strtab_link_outside },
	{ "the entry symbol is not in the symbol table", entry_undefined },
	{ "the entry symbol is not inside a loaded executable segment", entry_in_bss },
	{ "the entry symbol is not inside a loaded executable segment", entry_not_executable },
	{ "the entry symbol is not in the symbol table", name_outside_strtab },
};

static void test_each_damage_is_named(void **state)
{
	(void)state;
	struct elf_plan plan;

	for (size_t i = 0; i < sizeof(damages) / sizeof(damages[0]); i++) {
		build(1);
		damages[i].apply();
		const char *message = plan_of(IMAGE_SIZE, &plan);
		print_message("damage %zu: %s\n", i, message ? message : "(accepted)");
		assert_non_null(message);
		assert_string_equal(message, damages[i].message);
	}
}

static void test_too_many_segments(void **state)
{
	(void)state;
	struct elf_plan plan;

	build(ELF_PLAN_MAX_SEGMENTS + 1);
	for (unsigned i = 1; i <= ELF_PLAN_MAX_SEGMENTS; i++)
		set_phdr(i, 1, 6, 0x1300, 0x200000 + i * 0x1000, 0x10, 0x10);
	assert_string_equal(plan_of(IMAGE_SIZE, &plan), "too many loadable segments");
}

/* Every prefix of the file: the last byte it needs is the symbol table's string table end. */
static void test_truncations(void **state)
{
	(void)state;
	struct elf_plan plan;
	size_t needed = SHDR_OFFSET + 3 * 64;

	build(1);
	for (size_t size = 0; size < needed; size++) {
		/*
		 * A copy of exactly size bytes, so that the sanitizer sees any read past it: plain
		 * malloc, as test_malloc() pads the block with guard bytes that ASan counts as inside.
		 */
		uint8_t *copy = malloc(size ? size : 1);
		assert_non_null(copy);
		memcpy(copy, image, size);
		assert_non_null(elf_plan_make(copy, size, "kernel_entry64", LIMIT, &plan));
		free(copy);
	}
	assert_null(plan_of(needed, &plan));
}

/* Deterministic byte corruption: any answer is fine, reading outside the image is not. */
static void test_corruption_stays_inside(void **state)
{
	(void)state;
	struct elf_plan plan;
	uint32_t seed = 12345;
	unsigned accepted = 0;

	for (unsigned round = 0; round < 20000; round++) {
		build(1);
		for (unsigned k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			unsigned at = (seed >> 8) % (SHDR_OFFSET + 3 * 64);
			seed = seed * 1103515245u + 12345u;
			image[at] = (uint8_t)(seed >> 16);
		}
		uint8_t *copy = malloc(IMAGE_SIZE); /* not test_malloc: see test_truncations */
		assert_non_null(copy);
		memcpy(copy, image, IMAGE_SIZE);
		if (!elf_plan_make(copy, IMAGE_SIZE, "kernel_entry64", LIMIT, &plan)) {
			accepted++;
			/* Whatever was accepted must still be a consistent plan. */
			assert_true(plan.segment_count >= 1);
			assert_true(plan.low < plan.high && plan.high <= LIMIT);
			for (unsigned i = 0; i < plan.segment_count; i++) {
				const struct elf_plan_segment *s = &plan.segments[i];
				assert_true(s->filesz <= s->memsz);
				assert_true(s->offset + s->filesz <= IMAGE_SIZE);
				assert_true(s->paddr >= plan.low &&
					    s->paddr + s->memsz <= plan.high);
			}
		}
		free(copy);
	}
	/* Most corruption hits padding or data bytes: the check still accepts those images. */
	assert_true(accepted > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_kernel),
		cmocka_unit_test(test_extent_of_several_segments),
		cmocka_unit_test(test_each_damage_is_named),
		cmocka_unit_test(test_too_many_segments),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_corruption_stays_inside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
