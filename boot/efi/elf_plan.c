// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel ELF, checked field by field before anything is allocated for it (System V gABI,
 * chapters "ELF Header", "Sections", "Symbol Table" and "Program Header"; x86-64 psABI for the
 * machine number). Every offset and size read from the file is bounds-checked against the file:
 * the image is embedded in the loader today, but a file on the stick could be anything.
 */
#include <stdbool.h>

#include "boot/efi/elf_plan.h"

#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define SHDR_SIZE 64
#define SYM_SIZE 24

#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_EXEC 2
#define EM_X86_64 62
#define PT_LOAD 1
#define PF_X 1
#define SHT_SYMTAB 2
#define SHT_STRTAB 3
#define SHN_UNDEF 0
#define PN_XNUM 0xffff

/* Little-endian reads that need no alignment: the image may sit at any address. */
static uint64_t rd(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = bytes; i-- > 0;)
		v = (v << 8) | p[i];
	return v;
}

/* [offset, offset + length) lies inside a file of size bytes (no overflow possible). */
static bool in_file(uint64_t offset, uint64_t length, size_t size)
{
	return offset <= size && length <= size - offset;
}

static bool same_string(const uint8_t *a, size_t avail, const char *b)
{
	size_t i = 0;

	for (; b[i]; i++)
		if (i >= avail || a[i] != (uint8_t)b[i])
			return false;
	return i < avail && a[i] == 0;
}

static const char *check_header(const uint8_t *image, size_t size)
{
	if (size < EHDR_SIZE)
		return "too short for an ELF header";
	if (image[0] != 0x7f || image[1] != 'E' || image[2] != 'L' || image[3] != 'F')
		return "not an ELF file (bad magic)";
	if (image[4] != ELFCLASS64)
		return "not a 64-bit ELF file";
	if (image[5] != ELFDATA2LSB)
		return "not a little-endian ELF file";
	if (image[6] != EV_CURRENT || rd(image + 20, 4) != EV_CURRENT)
		return "unknown ELF version";
	if (rd(image + 16, 2) != ET_EXEC)
		return "not an ELF executable (ET_EXEC)";
	if (rd(image + 18, 2) != EM_X86_64)
		return "not an x86-64 ELF file";
	if (rd(image + 54, 2) != PHDR_SIZE)
		return "unexpected program header size";
	uint64_t phnum = rd(image + 56, 2);
	if (phnum == 0 || phnum == PN_XNUM)
		return "no program headers";
	if (!in_file(rd(image + 32, 8), phnum * PHDR_SIZE, size))
		return "program headers lie outside the file";
	return NULL;
}

static const char *plan_segments(const uint8_t *image, size_t size, uint64_t limit,
				 struct elf_plan *plan)
{
	uint64_t phoff = rd(image + 32, 8), phnum = rd(image + 56, 2);

	for (uint64_t i = 0; i < phnum; i++) {
		const uint8_t *ph = image + phoff + i * PHDR_SIZE;
		if (rd(ph, 4) != PT_LOAD)
			continue;
		struct elf_plan_segment s = {
			.offset = rd(ph + 8, 8),
			.paddr = rd(ph + 24, 8),
			.filesz = rd(ph + 32, 8),
			.memsz = rd(ph + 40, 8),
		};
		if (s.memsz == 0)
			continue;
		/* The kernel runs on an identity map: where it is linked is where it must be. */
		if (rd(ph + 16, 8) != s.paddr)
			return "a segment's virtual and physical addresses differ";
		if (s.filesz > s.memsz)
			return "a segment has more file bytes than memory bytes";
		if (!in_file(s.offset, s.filesz, size))
			return "a segment's bytes lie outside the file";
		if (s.paddr > limit || s.memsz > limit - s.paddr)
			return "a segment lies above the loader's limit (4 GiB)";
		for (unsigned j = 0; j < plan->segment_count; j++) {
			const struct elf_plan_segment *o = &plan->segments[j];
			if (s.paddr < o->paddr + o->memsz && o->paddr < s.paddr + s.memsz)
				return "two segments overlap";
		}
		if (plan->segment_count == ELF_PLAN_MAX_SEGMENTS)
			return "too many loadable segments";
		plan->segments[plan->segment_count++] = s;

		uint64_t low = s.paddr & ~(uint64_t)(ELF_PLAN_PAGE_SIZE - 1);
		uint64_t high = (s.paddr + s.memsz + ELF_PLAN_PAGE_SIZE - 1) &
				~(uint64_t)(ELF_PLAN_PAGE_SIZE - 1);
		if (plan->segment_count == 1 || low < plan->low)
			plan->low = low;
		if (plan->segment_count == 1 || high > plan->high)
			plan->high = high;
	}
	if (plan->segment_count == 0)
		return "no loadable (PT_LOAD) segment";
	return NULL;
}

/* The section header of index i, or NULL when it lies outside the file. */
static const uint8_t *section(const uint8_t *image, size_t size, uint64_t i)
{
	uint64_t shoff = rd(image + 40, 8);

	if (i >= rd(image + 60, 2) || !in_file(shoff, (i + 1) * SHDR_SIZE, size))
		return NULL;
	return image + shoff + i * SHDR_SIZE;
}

static const char *find_entry(const uint8_t *image, size_t size, const char *name,
			      struct elf_plan *plan)
{
	uint64_t shnum = rd(image + 60, 2);

	if (rd(image + 40, 8) == 0 || shnum == 0)
		return "no section headers, so no symbol table";
	if (rd(image + 58, 2) != SHDR_SIZE)
		return "unexpected section header size";
	if (!section(image, size, shnum - 1))
		return "section headers lie outside the file";

	for (uint64_t i = 0; i < shnum; i++) {
		const uint8_t *sh = section(image, size, i);
		if (rd(sh + 4, 4) != SHT_SYMTAB)
			continue;
		uint64_t symoff = rd(sh + 24, 8), symsize = rd(sh + 32, 8);
		const uint8_t *strsh = section(image, size, rd(sh + 40, 4));
		if (rd(sh + 56, 8) != SYM_SIZE || !in_file(symoff, symsize, size))
			return "malformed symbol table";
		if (!strsh || rd(strsh + 4, 4) != SHT_STRTAB)
			return "the symbol table has no string table";
		uint64_t stroff = rd(strsh + 24, 8), strsize = rd(strsh + 32, 8);
		if (!in_file(stroff, strsize, size))
			return "malformed string table";

		for (uint64_t s = 0; s + SYM_SIZE <= symsize; s += SYM_SIZE) {
			const uint8_t *sym = image + symoff + s;
			uint64_t name_at = rd(sym, 4);
			if (name_at >= strsize || rd(sym + 6, 2) == SHN_UNDEF)
				continue;
			if (!same_string(image + stroff + name_at, strsize - name_at, name))
				continue;
			plan->entry = rd(sym + 8, 8);
			return NULL;
		}
	}
	return "the entry symbol is not in the symbol table";
}

/* The entry must be code the loader actually copies: inside an executable segment's file bytes. */
static bool entry_is_loaded_code(const uint8_t *image, const struct elf_plan *plan)
{
	uint64_t phoff = rd(image + 32, 8), phnum = rd(image + 56, 2);

	for (uint64_t i = 0; i < phnum; i++) {
		const uint8_t *ph = image + phoff + i * PHDR_SIZE;
		uint64_t paddr = rd(ph + 24, 8), filesz = rd(ph + 32, 8);
		if (rd(ph, 4) == PT_LOAD && (rd(ph + 4, 4) & PF_X) && plan->entry >= paddr &&
		    plan->entry - paddr < filesz)
			return true;
	}
	return false;
}

const char *elf_plan_make(const uint8_t *image, size_t size, const char *entry_symbol,
			  uint64_t limit, struct elf_plan *plan)
{
	const char *error;

	*plan = (struct elf_plan){ 0 };
	if (limit > UINT64_MAX - ELF_PLAN_PAGE_SIZE)
		return "impossible load limit";
	if ((error = check_header(image, size)) ||
	    (error = plan_segments(image, size, limit, plan)))
		return error;
	if ((error = find_entry(image, size, entry_symbol, plan)))
		return error;
	if (!entry_is_loaded_code(image, plan))
		return "the entry symbol is not inside a loaded executable segment";
	return NULL;
}
