// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the ACPI tables (kernel/acpi.c, acpi_parse) in a fake physical memory
 * (tests/host/lib/fake_phys.c).
 *
 * Input: one byte of flags, the 36 bytes of an RSDP (placed at RSDP_BASE), then the memory at
 * TABLES_BASE (a region of exactly that size). With flag FIX_CHECKSUMS the harness makes the
 * checksums right before parsing (the RSDP's, the RSDT's and XSDT's it names, and those of the
 * tables they list that lie in the region): random bytes almost never sum to zero, and without
 * this the fuzzer would only ever see the parser refuse a checksum. Without the flag, bad
 * checksums are tried too.
 * Promises checked: acpi_parse returns, its counts stay inside their arrays, the problem texts
 * end inside their arrays, and the CPUs listed are unique by APIC id (duplicates dropped).
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/acpi.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/host/lib/fake_phys.h"

#define RSDP_BASE 0xe0000u
#define TABLES_BASE 0x100000u
#define HEADER_LENGTH 36u
#define FIX_CHECKSUMS 1u

static uint64_t le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void set_checksum(uint8_t *p, size_t length, size_t at)
{
	uint8_t sum = 0;

	p[at] = 0;
	for (size_t i = 0; i < length; i++)
		sum = (uint8_t)(sum + p[i]);
	p[at] = (uint8_t)-sum;
}

/* The table at addr, when its header and its whole length lie in the tables' region. */
static uint8_t *table_at(uint8_t *tables, size_t size, uint64_t addr, uint32_t *length)
{
	if (addr < TABLES_BASE || addr - TABLES_BASE > size ||
	    size - (addr - TABLES_BASE) < HEADER_LENGTH)
		return NULL;
	uint8_t *t = tables + (addr - TABLES_BASE);
	*length = (uint32_t)le(t + 4, 4);
	if (*length < HEADER_LENGTH || *length > size - (addr - TABLES_BASE))
		return NULL;
	return t;
}

/* A root table (RSDT: 4-byte entries, XSDT: 8) and the tables it lists. */
static void fix_root(uint8_t *tables, size_t size, uint64_t addr, unsigned entry)
{
	uint32_t length, listed_length;
	uint8_t *root = table_at(tables, size, addr, &length);

	if (!root)
		return;
	for (uint32_t off = HEADER_LENGTH; off + entry <= length; off += entry) {
		uint8_t *t = table_at(tables, size, le(root + off, entry), &listed_length);
		if (t && t != root)
			set_checksum(t, listed_length, 9);
	}
	set_checksum(root, length, 9);
}

static void fix_checksums(uint8_t *rsdp, uint8_t *tables, size_t size)
{
	set_checksum(rsdp, ACPI_RSDP_V1_LENGTH, 8);
	if (rsdp[15] >= 2)
		set_checksum(rsdp, ACPI_RSDP_V2_LENGTH, 32);
	if (tables) {
		fix_root(tables, size, le(rsdp + 16, 4), 4);
		fix_root(tables, size, le(rsdp + 24, 8), 8);
	}
}

static void check(const struct acpi_info *info, const struct acpi_result *result)
{
	FUZZ_CHECK(info->cpu_count <= ACPI_MAX_CPUS);
	FUZZ_CHECK(FUZZ_TERMINATED(info->oem_id));
	for (unsigned i = 0; i < result->problem_count && i < ACPI_MAX_PROBLEMS; i++) {
		FUZZ_CHECK(FUZZ_TERMINATED(result->problems[i].table));
		FUZZ_CHECK(FUZZ_TERMINATED(result->problems[i].message));
	}
	for (unsigned i = 0; i < info->cpu_count; i++)
		for (unsigned j = i + 1; j < info->cpu_count; j++)
			FUZZ_CHECK(info->cpus[i].apic_id != info->cpus[j].apic_id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	uint8_t flags = fuzz_byte(&in);
	size_t got;
	const uint8_t *rsdp_bytes = fuzz_bytes(&in, ACPI_RSDP_V2_LENGTH, &got);
	struct fake_phys memory = { 0 };
	static struct acpi_info info;
	static struct acpi_result result;

	uint8_t *rsdp = fake_phys_add(&memory, RSDP_BASE, ACPI_RSDP_V2_LENGTH);
	memcpy(rsdp, rsdp_bytes, got);
	uint8_t *tables = NULL;
	if (in.size) {
		tables = fake_phys_add(&memory, TABLES_BASE, in.size);
		memcpy(tables, in.data, in.size);
	}
	if (flags & FIX_CHECKSUMS)
		fix_checksums(rsdp, tables, in.size);
	memset(&info, 0xa5, sizeof(info)); /* acpi_parse must clear what it returns */
	memset(&result, 0xa5, sizeof(result));
	acpi_parse(RSDP_BASE, fake_phys_translate, &memory, &info, &result);
	check(&info, &result);
	fake_phys_free(&memory);
	return 0;
}
