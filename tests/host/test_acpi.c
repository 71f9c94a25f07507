// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI tables (kernel/acpi.c) over good and deliberately broken data.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/acpi.h"
#include "tests/host/lib/acpi_builder.h"
#include "tests/host/lib/fake_phys.h"

/* An RSDP in a plain buffer, for the validation and BIOS-scan tests. */
static void make_rsdp(uint8_t *p, uint8_t revision)
{
	memset(p, 0, 36);
	ab_rsdp_bytes(p, revision, 0x7fe0000, 0);
}

static void test_rsdp_validation(void **state)
{
	(void)state;
	uint8_t p[36];

	make_rsdp(p, 0);
	assert_true(acpi_rsdp_valid(p, 20));
	assert_false(acpi_rsdp_valid(p, 19)); /* truncated */
	p[12] ^= 1;
	assert_false(acpi_rsdp_valid(p, 20)); /* checksum */
	make_rsdp(p, 2);
	assert_true(acpi_rsdp_valid(p, 36));
	assert_false(acpi_rsdp_valid(p, 30)); /* the extended structure must be all there */
	p[30] ^= 1;
	assert_false(acpi_rsdp_valid(p, 36)); /* extended checksum */
	make_rsdp(p, 2);
	p[0] = 'r';
	assert_false(acpi_rsdp_valid(p, 36)); /* signature */
}

static void test_rsdp_scan(void **state)
{
	(void)state;
	struct fake_phys m = { 0 };
	uint8_t *bda = fake_phys_add(&m, 0x400, 0x100);
	uint8_t *ebda = fake_phys_add(&m, 0x9fc00, 0x400);
	uint8_t *bios = fake_phys_add(&m, 0xe0000, 0x20000);

	/* Nothing anywhere. */
	bda[0x0e] = 0xc0;
	bda[0x0f] = 0x9f; /* EBDA segment 0x9fc0 */
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0);

	/* In the BIOS area, on a 16-byte boundary; a copy off the boundary is not found. */
	make_rsdp(bios + 0x159e0, 0);
	make_rsdp(bios + 0x100 + 4, 0);
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0xf59e0);

	/* The EBDA is searched first. */
	make_rsdp(ebda + 0x20, 2);
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0x9fc20);

	/* A damaged one in the EBDA falls back to the BIOS area. */
	ebda[0x20 + 12] ^= 0x55;
	assert_int_equal(acpi_rsdp_scan(fake_phys_translate, &m), 0xf59e0);
	fake_phys_free(&m);
}

/* ---- acpi_parse --------------------------------------------------------------------------- */

#define TABLES 0x7fe0000ull
#define TABLES_SIZE 0x40000
#define RSDP_AT 0xf5a00ull
#define LAPIC 0xfee00000u
#define PCAT 1u
#define FLAG_TMR_VAL_EXT (1u << 8)
#define FLAG_RESET_REG_SUP (1u << 10)
#define FLAG_HW_REDUCED (1u << 20)
#define IO 1
#define MEM 0
#define ABOVE_4G 0x100000000ull

/* One machine's tables, built afresh for every test. */
static struct machine {
	struct fake_phys mem;
	struct acpi_builder b;
	uint64_t rsdp, rsdt, xsdt, madt, fadt, ssdt;
	struct acpi_info info;
	struct acpi_result result;
} m;

static uint64_t standard_fadt(void)
{
	uint64_t f = ab_table(&m.b, "FACP", AB_FADT_V6_LENGTH, 6);

	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0x608);
	ab_put8(&m.mem, f, AB_FADT_PM_TMR_LEN, 4);
	ab_put_gas(&m.mem, f, AB_FADT_X_PM_TMR_BLK, IO, 32, 0x608);
	ab_put32(&m.mem, f, AB_FADT_FLAGS, FLAG_TMR_VAL_EXT | FLAG_RESET_REG_SUP);
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, IO, 8, 0xcf9);
	ab_put8(&m.mem, f, AB_FADT_RESET_VALUE, 0x06);
	ab_put16(&m.mem, f, AB_FADT_IAPC_BOOT_ARCH, 0x0002);
	return f;
}

/* A MADT like QEMU's with -smp 4: four local APICs, an I/O APIC, overrides and an NMI entry. */
static uint64_t standard_madt(void)
{
	static const uint8_t ioapic[12] = { 1, 12, 0, 0, 0x00, 0x00, 0xc0, 0xfe };
	static const uint8_t iso[10] = { 2, 10, 0, 0, 2, 0, 0, 0, 0, 0 };
	static const uint8_t nmi[6] = { 4, 6, 0xff, 0, 0, 1 };
	uint64_t t = ab_madt(&m.b, LAPIC, PCAT, 256);

	for (uint8_t i = 0; i < 4; i++)
		ab_madt_lapic(&m.b, t, i, i, 1);
	ab_madt_raw(&m.b, t, ioapic, sizeof(ioapic));
	ab_madt_raw(&m.b, t, iso, sizeof(iso));
	ab_madt_raw(&m.b, t, nmi, sizeof(nmi));
	return t;
}

/* RSDP revision 2 with an XSDT and an RSDT listing the MADT, FADT and an SSDT. */
static void standard(uint8_t revision)
{
	m.madt = standard_madt();
	m.fadt = standard_fadt();
	m.ssdt = ab_table(&m.b, "SSDT", 100, 2);
	uint64_t list[] = { m.madt, m.fadt, m.ssdt };
	m.rsdt = ab_rsdt(&m.b, list, 3);
	m.xsdt = ab_xsdt(&m.b, list, 3);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, revision, (uint32_t)m.rsdt, revision >= 2 ? m.xsdt : 0);
}

static int machine_setup(void **state)
{
	(void)state;
	memset(&m, 0, sizeof(m));
	ab_init(&m.b, &m.mem, TABLES, TABLES_SIZE);
	return 0;
}

static int machine_teardown(void **state)
{
	(void)state;
	fake_phys_free(&m.mem);
	return 0;
}

static void parse(void)
{
	/* Garbage first: acpi_parse must clear what it returns. */
	memset(&m.info, 0xa5, sizeof(m.info));
	memset(&m.result, 0xa5, sizeof(m.result));
	acpi_parse(m.rsdp, fake_phys_translate, &m.mem, &m.info, &m.result);
}

/* The common case: one table at t, listed alone in an XSDT behind an ACPI 2.0 RSDP. */
static void parse_only_table(uint64_t t)
{
	uint64_t list[] = { t };
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, ab_xsdt(&m.b, list, 1));
	parse();
}

static void dump_problems(void)
{
	for (unsigned i = 0; i < m.result.problem_count && i < ACPI_MAX_PROBLEMS; i++)
		print_message("  problem %u: [%s] %s\n", i, m.result.problems[i].table,
			      m.result.problems[i].message);
}

/* A stored problem of that table whose message contains text. */
static int has_problem(const char *table, const char *text)
{
	for (unsigned i = 0; i < m.result.problem_count && i < ACPI_MAX_PROBLEMS; i++) {
		const struct acpi_problem *p = &m.result.problems[i];
		if (strcmp(p->table, table) == 0 && strstr(p->message, text))
			return 1;
	}
	print_message("no [%s] problem with \"%s\" among %u:\n", table, text,
		      m.result.problem_count);
	dump_problems();
	return 0;
}

static void assert_no_problems(void)
{
	if (m.result.problem_count)
		dump_problems();
	assert_int_equal(m.result.problem_count, 0);
}

static void assert_standard_cpus(void)
{
	assert_true(m.info.madt_found);
	assert_int_equal(m.info.cpu_count, 4);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(m.info.cpus[i].apic_id, i);
		assert_int_equal(m.info.cpus[i].uid, i);
		assert_true(m.info.cpus[i].enabled);
		assert_false(m.info.cpus[i].online_capable);
		assert_false(m.info.cpus[i].x2apic_entry);
	}
}

static void test_parse_good_xsdt(void **state)
{
	(void)state;
	standard(2);
	parse();
	assert_no_problems();
	assert_int_equal(m.info.rsdp_revision, 2);
	assert_true(m.info.via_xsdt);
	assert_string_equal(m.info.oem_id, "PMUTST");
	assert_standard_cpus();
	assert_int_equal(m.info.local_apic_address, LAPIC);
	assert_true(m.info.pcat_compat);
	assert_false(m.info.cpus_truncated);
	assert_int_equal(m.info.cpu_duplicates, 0);
	assert_false(m.info.madt_walk_stopped);
	assert_true(m.info.fadt_found);
	assert_int_equal(m.info.pm_timer_port, 0x608);
	assert_true(m.info.pm_timer_32bit);
	assert_true(m.info.reset_supported);
	assert_int_equal(m.info.reset_space, ACPI_SPACE_IO);
	assert_int_equal(m.info.reset_address, 0xcf9);
	assert_int_equal(m.info.reset_value, 6);
	assert_true(m.info.boot_arch_valid);
	assert_int_equal(m.info.boot_arch_flags, 2);
}

static void test_parse_good_rsdt(void **state)
{
	(void)state;
	standard(0);
	parse();
	assert_no_problems();
	assert_int_equal(m.info.rsdp_revision, 0);
	assert_false(m.info.via_xsdt);
	assert_standard_cpus();
	assert_true(m.info.fadt_found);
}

/* Revision 2 with no XSDT address: the RSDT, and nothing to complain about. */
static void test_parse_xsdt_address_zero(void **state)
{
	(void)state;
	standard(0);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT + 0x100, 2, (uint32_t)m.rsdt, 0);
	parse();
	assert_no_problems();
	assert_false(m.info.via_xsdt);
	assert_standard_cpus();
}

/* The XSDT is preferred: give the RSDT a different table list and see which one is read. */
static void test_parse_xsdt_preferred(void **state)
{
	(void)state;
	m.madt = standard_madt();
	m.fadt = standard_fadt();
	uint64_t with_fadt[] = { m.madt, m.fadt }, without[] = { m.madt };
	m.xsdt = ab_xsdt(&m.b, with_fadt, 2);
	m.rsdt = ab_rsdt(&m.b, without, 1);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, (uint32_t)m.rsdt, m.xsdt);
	parse();
	assert_no_problems();
	assert_true(m.info.via_xsdt);
	assert_true(m.info.fadt_found);
}

static void test_parse_xsdt_broken_falls_back(void **state)
{
	(void)state;
	standard(2);
	ab_break_checksum(&m.mem, m.xsdt);
	parse();
	assert_false(m.info.via_xsdt);
	assert_int_equal(m.result.problem_count, 1);
	assert_true(has_problem("XSDT", "checksum"));
	assert_true(has_problem("XSDT", "using the RSDT"));
	assert_standard_cpus();
	assert_true(m.info.fadt_found);
}

static void test_parse_xsdt_bad_signature(void **state)
{
	(void)state;
	standard(2);
	ab_ptr(&m.b, m.xsdt)[0] = 'Y';
	ab_fix(&m.mem, m.xsdt);
	parse();
	assert_false(m.info.via_xsdt);
	assert_true(has_problem("XSDT", "signature \"YSDT\""));
	assert_standard_cpus();
}

/* An XSDT the kernel cannot read (above 4 GiB, outside the identity map): the RSDT. */
static void test_parse_xsdt_unreadable(void **state)
{
	(void)state;
	standard(0);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT + 0x100, 2, (uint32_t)m.rsdt, ABOVE_4G + 0x1000);
	parse();
	assert_false(m.info.via_xsdt);
	assert_true(has_problem("XSDT", "0x100001000 is not readable, using the RSDT"));
	assert_standard_cpus();
}

/* The XSDT's length runs past readable memory: the whole table is never read. */
static void test_parse_xsdt_truncated(void **state)
{
	(void)state;
	standard(2);
	uint32_t huge = TABLES_SIZE;
	memcpy(ab_ptr(&m.b, m.xsdt) + 4, &huge, 4);
	parse();
	assert_false(m.info.via_xsdt);
	assert_true(has_problem("XSDT", "runs past readable memory"));
	assert_standard_cpus();
}

static void test_parse_root_length_below_header(void **state)
{
	(void)state;
	standard(2);
	ab_put32(&m.mem, m.xsdt, 4, 20);
	parse();
	assert_true(has_problem("XSDT", "claims length 20"));
	assert_false(m.info.via_xsdt);
	assert_standard_cpus();
}

/* Both roots broken: no tables at all, the boot CPU alone. */
static void test_parse_both_roots_broken(void **state)
{
	(void)state;
	standard(2);
	ab_break_checksum(&m.mem, m.xsdt);
	ab_break_checksum(&m.mem, m.rsdt);
	parse();
	assert_false(m.info.madt_found);
	assert_false(m.info.fadt_found);
	assert_int_equal(m.info.cpu_count, 0);
	assert_int_equal(m.result.problem_count, 2);
	assert_true(has_problem("RSDT", "no tables"));
}

static void test_parse_rsdt_zero_no_xsdt(void **state)
{
	(void)state;
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 0, 0, 0);
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("RSDP", "RSDT address of 0"));
}

static void test_parse_rsdp_broken(void **state)
{
	(void)state;
	standard(2);
	uint8_t *rsdp = (uint8_t *)fake_phys_translate(m.rsdp, 36, &m.mem);

	/* ACPI 1.0 checksum: nothing is trusted. */
	rsdp[9] ^= 0x20;
	parse();
	assert_false(m.info.madt_found);
	assert_int_equal(m.result.problem_count, 1);
	assert_true(has_problem("RSDP", "bad signature or checksum"));
	rsdp[9] ^= 0x20;

	/* Signature. */
	rsdp[0] = 'r';
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("RSDP", "bad signature"));
	rsdp[0] = 'R';

	/* Extended checksum only: the RSDT still serves. */
	rsdp[33] ^= 1;
	parse();
	assert_false(m.info.via_xsdt);
	assert_true(has_problem("RSDP", "extended checksum fails, using the RSDT"));
	assert_standard_cpus();
	rsdp[33] ^= 1;

	/* An extended length beyond anything sane, extended checksum adjusted: the RSDT. */
	uint32_t len = 0x10000;
	memcpy(rsdp + 20, &len, 4);
	rsdp[32] = 0;
	uint8_t sum = 0;
	for (int i = 0; i < 36; i++)
		sum = (uint8_t)(sum + rsdp[i]);
	rsdp[32] = (uint8_t)-sum;
	parse();
	assert_false(m.info.via_xsdt);
	assert_true(has_problem("RSDP", "length 65536"));
	assert_standard_cpus();
}

static void test_parse_rsdp_missing(void **state)
{
	(void)state;
	m.rsdp = 0;
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("RSDP", "no RSDP"));
	m.rsdp = 0x12345678;
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("RSDP", "not readable"));
}

/* A revision 2 RSDP whose extended part lies past readable memory (a 20-byte copy). */
static void test_parse_rsdp_v2_short_copy(void **state)
{
	(void)state;
	standard(0);
	uint8_t *p = fake_phys_add(&m.mem, 0x9000, 20);
	memcpy(p, fake_phys_translate(m.rsdp, 20, &m.mem), 20);
	p[15] = 2;
	p[8] = (uint8_t)(p[8] - 2);
	m.rsdp = 0x9000;
	parse();
	assert_int_equal(m.info.rsdp_revision, 2);
	assert_false(m.info.via_xsdt);
	assert_true(has_problem("RSDP", "using the RSDT"));
	assert_standard_cpus();
}

static void test_parse_oem_id_sanitised(void **state)
{
	(void)state;
	standard(0);
	uint8_t *p = (uint8_t *)fake_phys_translate(m.rsdp, 20, &m.mem);
	memcpy(p + 9, "A\"\x01\xff\0\0", 6);
	p[8] = 0;
	uint8_t sum = 0;
	for (int i = 0; i < 20; i++)
		sum = (uint8_t)(sum + p[i]);
	p[8] = (uint8_t)-sum;
	parse();
	assert_string_equal(m.info.oem_id, "A\"??");
}

/* XSDT entries are 8 bytes at offset 36: at an odd table address none is aligned. */
static void test_parse_unaligned_xsdt(void **state)
{
	(void)state;
	m.madt = standard_madt();
	ab_align(&m.b, 3);
	m.fadt = standard_fadt();
	uint64_t list[] = { m.madt, m.fadt };
	ab_align(&m.b, 5);
	m.xsdt = ab_xsdt(&m.b, list, 2);
	assert_int_equal(m.xsdt % 8, 5);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, m.xsdt);
	parse();
	assert_no_problems();
	assert_true(m.info.via_xsdt);
	assert_standard_cpus();
	assert_int_equal(m.info.pm_timer_port, 0x608);
}

static void test_parse_entry_zero_and_unreadable(void **state)
{
	(void)state;
	m.madt = standard_madt();
	uint64_t list[] = { 0, ABOVE_4G + 0x7fe0000, 0x3000, m.madt };
	m.xsdt = ab_xsdt(&m.b, list, 4);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, m.xsdt);
	parse();
	assert_true(m.info.via_xsdt);
	assert_int_equal(m.result.problem_count, 3);
	assert_true(has_problem("XSDT", "entry 0 is address 0"));
	assert_true(has_problem("XSDT", "entry 1 at 0x107fe0000 is not readable, skipped"));
	assert_true(has_problem("XSDT", "entry 2 at 0x3000 is not readable"));
	assert_standard_cpus();
}

/* A root listing more tables than any machine has: the first 256 are read, and it is said. */
static void test_parse_xsdt_too_many_entries(void **state)
{
	(void)state;
	static uint64_t list[300];
	m.madt = standard_madt();
	m.ssdt = ab_table(&m.b, "SSDT", 100, 2);
	for (unsigned i = 0; i < 300; i++)
		list[i] = m.ssdt;
	list[255] = m.madt;
	m.xsdt = ab_xsdt(&m.b, list, 300);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, m.xsdt);
	parse();
	assert_int_equal(m.result.problem_count, 1);
	assert_true(has_problem("XSDT", "300 entries; only the first 256 are read"));
	assert_standard_cpus();
	/* The same MADT past the limit is never read. */
	list[255] = m.ssdt;
	list[256] = m.madt;
	m.xsdt = ab_xsdt(&m.b, list, 300);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT + 0x40, 2, 0, m.xsdt); /* a region of its own */
	parse();
	assert_false(m.info.madt_found);
}

/* The XSDT's length leaves half an entry: the whole entries are read, the rest reported. */
static void test_parse_xsdt_ragged_length(void **state)
{
	(void)state;
	m.madt = standard_madt();
	uint64_t list[] = { m.madt, 0 };
	m.xsdt = ab_xsdt(&m.b, list, 2);
	ab_put32(&m.mem, m.xsdt, 4, 36 + 8 + 4);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, m.xsdt);
	parse();
	assert_int_equal(m.result.problem_count, 1);
	assert_true(has_problem("XSDT", "4 bytes after the last entry"));
	assert_standard_cpus();
}

static void test_parse_madt_bad_checksum(void **state)
{
	(void)state;
	standard(2);
	ab_break_checksum(&m.mem, m.madt);
	parse();
	assert_false(m.info.madt_found);
	assert_int_equal(m.info.cpu_count, 0);
	assert_int_equal(m.result.problem_count, 1);
	assert_true(has_problem("APIC", "entry 0 at 0x7fe0000 fails its checksum, skipped"));
	/* The other tables are still read. */
	assert_true(m.info.fadt_found);
}

static void test_parse_madt_bad_lengths(void **state)
{
	(void)state;
	standard(2);
	/* Shorter than a header. */
	ab_put32(&m.mem, m.madt, 4, 35);
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("APIC", "claims length 35"));

	/* Longer than any table may be (checksum not even looked at). */
	uint32_t len = ACPI_TABLE_MAX_LENGTH + 1;
	memcpy(ab_ptr(&m.b, m.madt) + 4, &len, 4);
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("APIC", "claims length 16777217"));

	/* A header and part of the fixed fields only: checksum right, still unusable. */
	ab_put32(&m.mem, m.madt, 4, 40);
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("APIC", "no room for the MADT's fields"));
	assert_true(m.info.fadt_found);
}

/* A MADT at the very end of readable memory whose length claims more. */
static void test_parse_madt_past_memory(void **state)
{
	(void)state;
	uint64_t t = ab_table_alone(&m.b, 0x9e000, "APIC", 60, 3);
	uint32_t len = 61;
	memcpy((uint8_t *)fake_phys_translate(t, 60, &m.mem) + 4, &len, 4);
	uint64_t list[] = { t };
	m.rsdt = ab_rsdt(&m.b, list, 1);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 0, (uint32_t)m.rsdt, 0);
	parse();
	assert_false(m.info.madt_found);
	assert_true(has_problem("APIC", "length 61 runs past readable memory"));
}

/* An entry of length 0 stops the walk: the entries before it are kept, and reported. */
static void test_parse_madt_entry_length_zero(void **state)
{
	(void)state;
	static const uint8_t zero[8] = { 0, 0 };
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 64);
	ab_madt_lapic(&m.b, t, 0, 0, 1);
	ab_madt_lapic(&m.b, t, 1, 1, 1);
	ab_madt_raw(&m.b, t, zero, sizeof(zero));
	ab_madt_lapic(&m.b, t, 2, 2, 1);
	parse_only_table(t);
	assert_true(m.info.madt_found);
	assert_true(m.info.madt_walk_stopped);
	assert_int_equal(m.info.cpu_count, 2);
	assert_int_equal(m.info.cpus[1].apic_id, 1);
	assert_true(has_problem("APIC", "entry at offset 60 (type 0) has length 0"));
}

static void test_parse_madt_entry_length_one(void **state)
{
	(void)state;
	static const uint8_t one[2] = { 9, 1 };
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 64);
	ab_madt_raw(&m.b, t, one, sizeof(one));
	ab_madt_lapic(&m.b, t, 2, 2, 1);
	parse_only_table(t);
	assert_true(m.info.madt_walk_stopped);
	assert_int_equal(m.info.cpu_count, 0);
	assert_true(has_problem("APIC", "has length 1"));
	assert_true(has_problem("APIC", "no processor entries"));
}

/* The last entry claims more bytes than the table has; the table sits alone in memory, so a
 * read past its end would be caught by the sanitizer. */
static void test_parse_madt_entry_past_end(void **state)
{
	(void)state;
	uint64_t t = ab_table_alone(&m.b, 0x9e000, "APIC", 44 + 8 + 8, 3);
	uint8_t *p = (uint8_t *)fake_phys_translate(t, 60, &m.mem);
	static const uint8_t e[16] = { 0, 8, 0, 0, 1, 0, 0, 0, 9, 16, 0, 0, 1, 0, 0, 0 };
	memcpy(p + 44, e, 16);
	ab_fix(&m.mem, t);
	parse_only_table(t);
	assert_true(m.info.madt_found);
	assert_true(m.info.madt_walk_stopped);
	assert_int_equal(m.info.cpu_count, 1);
	assert_true(has_problem("APIC", "offset 52 (type 9) has length 16 in a table of 60"));
}

static void test_parse_madt_stray_byte(void **state)
{
	(void)state;
	static const uint8_t stray[1] = { 0 };
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 64);
	ab_madt_lapic(&m.b, t, 0, 0, 1);
	ab_madt_raw(&m.b, t, stray, 1);
	parse_only_table(t);
	assert_int_equal(m.info.cpu_count, 1);
	assert_true(m.info.madt_walk_stopped);
	assert_true(has_problem("APIC", "stray byte"));
}

/* A processor entry too short for its fields is skipped; the walk goes on past it. */
static void test_parse_madt_short_entries(void **state)
{
	(void)state;
	static const uint8_t short_lapic[6] = { 0, 6, 7, 7, 1, 0 };
	static const uint8_t short_x2apic[12] = { 9, 12, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0 };
	static const uint8_t short_override[8] = { 5, 8, 0, 0, 0, 0, 0xe0, 0xfe };
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 128);
	ab_madt_raw(&m.b, t, short_lapic, sizeof(short_lapic));
	ab_madt_raw(&m.b, t, short_x2apic, sizeof(short_x2apic));
	ab_madt_raw(&m.b, t, short_override, sizeof(short_override));
	ab_madt_lapic(&m.b, t, 0, 0, 1);
	parse_only_table(t);
	assert_false(m.info.madt_walk_stopped);
	assert_int_equal(m.info.cpu_count, 1);
	assert_int_equal(m.info.cpus[0].apic_id, 0);
	assert_int_equal(m.info.local_apic_address, LAPIC);
	assert_int_equal(m.result.problem_count, 3);
	assert_true(has_problem("APIC", "type 0 entry at offset 44 is only 6 bytes"));
	assert_true(has_problem("APIC", "type 9 entry at offset 50 is only 12 bytes"));
	assert_true(has_problem("APIC", "type 5 entry at offset 62 is only 8 bytes"));
}

/* Longer entries than the spec's (a later revision may extend them) are read as far as known. */
static void test_parse_madt_long_entries(void **state)
{
	(void)state;
	static const uint8_t long_lapic[10] = { 0, 10, 3, 6, 1, 0, 0, 0, 0xaa, 0xbb };
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 64);
	ab_madt_raw(&m.b, t, long_lapic, sizeof(long_lapic));
	ab_madt_lapic(&m.b, t, 4, 7, 1);
	parse_only_table(t);
	assert_no_problems();
	assert_int_equal(m.info.cpu_count, 2);
	assert_int_equal(m.info.cpus[0].apic_id, 6);
	assert_int_equal(m.info.cpus[0].uid, 3);
	assert_int_equal(m.info.cpus[1].apic_id, 7);
	assert_false(m.info.pcat_compat);
}

static void test_parse_madt_x2apic(void **state)
{
	(void)state;
	uint64_t t = ab_madt(&m.b, LAPIC, PCAT, 128);
	ab_madt_x2apic(&m.b, t, 0x100, 1000, 1);
	ab_madt_x2apic(&m.b, t, 0x101, 1001, 1);
	ab_madt_x2apic(&m.b, t, 0x12345678, 0xdeadbeef, 0);
	ab_madt_x2apic(&m.b, t, 3, 3, 1); /* below 255 in a type 9 entry: still taken */
	parse_only_table(t);
	assert_no_problems();
	assert_int_equal(m.info.cpu_count, 4);
	assert_int_equal(m.info.cpus[0].apic_id, 0x100);
	assert_int_equal(m.info.cpus[0].uid, 1000);
	assert_true(m.info.cpus[0].x2apic_entry);
	assert_true(m.info.cpus[0].enabled);
	assert_int_equal(m.info.cpus[1].apic_id, 0x101);
	assert_int_equal(m.info.cpus[2].apic_id, 0x12345678);
	assert_int_equal(m.info.cpus[2].uid, 0xdeadbeef);
	assert_false(m.info.cpus[2].enabled);
	assert_int_equal(m.info.cpus[3].apic_id, 3);
	assert_true(m.info.cpus[3].x2apic_entry);
}

/* The same CPU in a type 0 and a type 9 entry, and a plain repeat: kept once, counted. */
static void test_parse_madt_duplicates(void **state)
{
	(void)state;
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 128);
	ab_madt_lapic(&m.b, t, 0, 0, 1);
	ab_madt_lapic(&m.b, t, 1, 1, 1);
	ab_madt_x2apic(&m.b, t, 1, 1, 1);
	ab_madt_x2apic(&m.b, t, 0x200, 9, 1);
	ab_madt_lapic(&m.b, t, 5, 0, 0);
	ab_madt_x2apic(&m.b, t, 0x200, 10, 0);
	parse_only_table(t);
	assert_int_equal(m.info.cpu_count, 3);
	assert_int_equal(m.info.cpu_duplicates, 3);
	/* The first entry of each id is the one kept, flags and all. */
	assert_false(m.info.cpus[1].x2apic_entry);
	assert_true(m.info.cpus[0].enabled);
	assert_int_equal(m.info.cpus[0].uid, 0);
	assert_int_equal(m.info.cpus[2].uid, 9);
	assert_true(m.info.cpus[2].enabled);
	assert_int_equal(m.result.problem_count, 1);
	assert_true(has_problem("APIC", "3 entries repeat an APIC id listed before (first 0x1)"));
}

static void test_parse_madt_flags(void **state)
{
	(void)state;
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 128);
	ab_madt_lapic(&m.b, t, 0, 0, 1);	  /* enabled */
	ab_madt_lapic(&m.b, t, 1, 1, 0);	  /* disabled */
	ab_madt_lapic(&m.b, t, 2, 2, 2);	  /* online capable */
	ab_madt_lapic(&m.b, t, 3, 3, 3);	  /* enabled: online capable is reserved then */
	ab_madt_x2apic(&m.b, t, 0x300, 4, 2);	  /* online capable */
	ab_madt_lapic(&m.b, t, 5, 5, 0xfffffffc); /* reserved bits only: disabled */
	parse_only_table(t);
	assert_no_problems();
	assert_int_equal(m.info.cpu_count, 6);
	assert_true(m.info.cpus[0].enabled);
	assert_false(m.info.cpus[0].online_capable);
	assert_false(m.info.cpus[1].enabled);
	assert_false(m.info.cpus[1].online_capable);
	assert_false(m.info.cpus[2].enabled);
	assert_true(m.info.cpus[2].online_capable);
	assert_true(m.info.cpus[3].enabled);
	assert_false(m.info.cpus[3].online_capable);
	assert_true(m.info.cpus[4].online_capable);
	assert_true(m.info.cpus[4].x2apic_entry);
	assert_false(m.info.cpus[5].enabled);
	assert_false(m.info.cpus[5].online_capable);
}

/* Broadcast ids are placeholders: skipped, and reported only when marked enabled. */
static void test_parse_madt_broadcast_ids(void **state)
{
	(void)state;
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 128);
	ab_madt_lapic(&m.b, t, 0, 0, 1);
	ab_madt_lapic(&m.b, t, 0xff, 0xff, 0);
	ab_madt_x2apic(&m.b, t, 0xffffffff, 0xff, 0);
	ab_madt_lapic(&m.b, t, 0xfe, 0xff, 1);
	ab_madt_x2apic(&m.b, t, 0xffffffff, 0x100, 1);
	parse_only_table(t);
	assert_int_equal(m.info.cpu_count, 1);
	assert_int_equal(m.result.problem_count, 2);
	assert_true(has_problem("APIC", "enabled local APIC entry has the broadcast id 0xff"));
	assert_true(has_problem("APIC", "enabled x2APIC entry has the broadcast id 0xffffffff"));
}

static void test_parse_madt_override(void **state)
{
	(void)state;
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 128);
	ab_madt_lapic(&m.b, t, 0, 0, 1);
	ab_madt_override(&m.b, t, 0);
	ab_madt_override(&m.b, t, 0x2fee00000ull);
	ab_madt_override(&m.b, t, 0xfec00000ull);
	parse_only_table(t);
	assert_int_equal(m.info.local_apic_address, 0x2fee00000ull);
	assert_int_equal(m.result.problem_count, 2);
	assert_true(has_problem("APIC", "override to 0, ignored"));
	assert_true(has_problem("APIC", "a second local APIC address override"));
}

static void test_parse_madt_local_apic_address_zero(void **state)
{
	(void)state;
	uint64_t t = ab_madt(&m.b, 0, 0, 64);
	ab_madt_lapic(&m.b, t, 0, 0, 1);
	parse_only_table(t);
	assert_true(m.info.madt_found);
	assert_int_equal(m.info.local_apic_address, 0);
	assert_true(has_problem("APIC", "local APIC address is 0"));
}

/* 5000 x2APIC entries: a MADT over 64 KiB, more CPUs than cpus[] holds. */
static void test_parse_madt_huge(void **state)
{
	(void)state;
	const unsigned n = 5000;
	uint64_t t = ab_madt(&m.b, LAPIC, 0, 16 * n);
	for (unsigned i = 0; i < n; i++)
		ab_madt_x2apic(&m.b, t, 0x1000 + i, i, 1);
	parse_only_table(t);
	assert_true(44 + 16 * n > 65536);
	assert_true(m.info.madt_found);
	assert_true(m.info.cpus_truncated);
	assert_false(m.info.madt_walk_stopped);
	assert_int_equal(m.info.cpu_count, ACPI_MAX_CPUS);
	assert_int_equal(m.info.cpus[ACPI_MAX_CPUS - 1].apic_id, 0x1000 + ACPI_MAX_CPUS - 1);
	assert_int_equal(m.result.problem_count, 1);
	assert_true(has_problem("APIC", "more than 256 processor entries"));
}

/* A broken MADT first, a good one later: the good one. A good one first: a second is ignored. */
static void test_parse_two_madts(void **state)
{
	(void)state;
	uint64_t bad = standard_madt();
	ab_break_checksum(&m.mem, bad);
	uint64_t good = ab_madt(&m.b, LAPIC, 0, 64);
	ab_madt_lapic(&m.b, good, 0, 8, 1);
	uint64_t other = ab_madt(&m.b, LAPIC, 0, 64);
	ab_madt_lapic(&m.b, other, 0, 9, 1);
	uint64_t list[] = { bad, good, good, other };
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, ab_xsdt(&m.b, list, 4));
	parse();
	assert_true(m.info.madt_found);
	assert_int_equal(m.info.cpu_count, 1);
	assert_int_equal(m.info.cpus[0].apic_id, 8);
	/* The checksum of the first, the third MADT; the repeated entry is read once, quietly. */
	assert_int_equal(m.result.problem_count, 2);
	assert_true(has_problem("APIC", "fails its checksum"));
	char expect[64];
	snprintf(expect, sizeof(expect), "entry 3 at %#llx is a second MADT",
		 (unsigned long long)other);
	assert_true(has_problem("APIC", expect));
}

/* An unrelated table with a bad checksum is reported under its own signature; unprintable
 * signature bytes are replaced. */
static void test_parse_other_tables_checked(void **state)
{
	(void)state;
	standard(2);
	ab_break_checksum(&m.mem, m.ssdt);
	uint64_t odd = ab_table(&m.b, "X\x01Y\x80", 40, 1);
	ab_break_checksum(&m.mem, odd);
	uint64_t list[] = { m.madt, m.ssdt, odd };
	m.rsdp = ab_rsdp(&m.b, RSDP_AT + 0x100, 2, 0, ab_xsdt(&m.b, list, 3));
	parse();
	assert_standard_cpus();
	assert_int_equal(m.result.problem_count, 2);
	assert_true(has_problem("SSDT", "entry 1"));
	assert_true(has_problem("X?Y?", "entry 2"));
}

/* More problems than are kept: all counted, the first ACPI_MAX_PROBLEMS stored. */
static void test_parse_many_problems(void **state)
{
	(void)state;
	uint64_t list[12] = { 0 };
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, ab_xsdt(&m.b, list, 12));
	parse();
	assert_int_equal(m.result.problem_count, 12);
	assert_string_equal(m.result.problems[ACPI_MAX_PROBLEMS - 1].message,
			    "entry 7 is address 0, skipped");
}

/* The XSDT and RSDT list tables at 32-bit addresses; the RSDT's entries are 4 bytes. */
static void test_parse_rsdt_entries(void **state)
{
	(void)state;
	m.madt = standard_madt();
	m.fadt = standard_fadt();
	uint64_t list[] = { m.fadt, m.madt };
	m.rsdt = ab_rsdt(&m.b, list, 2);
	assert_int_equal(*(uint32_t *)(ab_ptr(&m.b, m.rsdt) + 4), 36 + 8);
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 0, (uint32_t)m.rsdt, 0);
	parse();
	assert_no_problems();
	assert_standard_cpus();
	assert_true(m.info.fadt_found);
}

/* ---- FADT ---- */

static void only_fadt(uint64_t fadt)
{
	uint64_t list[] = { fadt };
	m.fadt = fadt;
	m.rsdp = ab_rsdp(&m.b, RSDP_AT, 2, 0, ab_xsdt(&m.b, list, 1));
}

/* An ACPI 1.0 FADT: 116 bytes, no X fields, no RESET_REG, no IAPC_BOOT_ARCH. Alone in memory,
 * so reading any field past its end would be caught. */
static void test_parse_fadt_v1(void **state)
{
	(void)state;
	uint64_t f = ab_table_alone(&m.b, 0x9e000, "FACP", AB_FADT_V1_LENGTH, 1);
	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0x808);
	ab_put16(&m.mem, f, AB_FADT_IAPC_BOOT_ARCH, 0xffff); /* reserved in 1.0 */
	ab_put32(&m.mem, f, AB_FADT_FLAGS, FLAG_TMR_VAL_EXT);
	only_fadt(f);
	parse();
	assert_no_problems();
	assert_true(m.info.fadt_found);
	assert_int_equal(m.info.pm_timer_port, 0x808);
	assert_true(m.info.pm_timer_32bit);
	assert_false(m.info.boot_arch_valid);
	assert_int_equal(m.info.boot_arch_flags, 0);
	assert_false(m.info.reset_supported);
}

/* RESET_REG_SUP in a FADT that ends before RESET_REG. */
static void test_parse_fadt_reset_beyond_length(void **state)
{
	(void)state;
	uint64_t f = ab_table_alone(&m.b, 0x9e000, "FACP", 120, 1);
	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0x808);
	ab_put32(&m.mem, f, AB_FADT_FLAGS, FLAG_RESET_REG_SUP);
	only_fadt(f);
	parse();
	assert_false(m.info.reset_supported);
	assert_false(m.info.pm_timer_32bit);
	assert_int_equal(m.info.pm_timer_port, 0x808);
	assert_true(has_problem("FACP", "RESET_REG_SUP set in a 120-byte FADT"));
}

/* A FADT cut short before PM_TMR_BLK and before the flags: found, nothing read beyond it. */
static void test_parse_fadt_tiny(void **state)
{
	(void)state;
	uint64_t f = ab_table_alone(&m.b, 0x9e000, "FACP", 78, 1);
	only_fadt(f);
	parse();
	assert_no_problems();
	assert_true(m.info.fadt_found);
	assert_int_equal(m.info.pm_timer_port, 0);
	assert_false(m.info.pm_timer_32bit);
	assert_false(m.info.reset_supported);
}

/* An ACPI 2.0-era FADT of 244 bytes: X_PM_TMR_BLK is inside, the ACPI 5.0 fields are not. */
static void test_parse_fadt_v3(void **state)
{
	(void)state;
	uint64_t f = ab_table_alone(&m.b, 0x9e000, "FACP", 244, 3);
	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0x408);
	ab_put_gas(&m.mem, f, AB_FADT_X_PM_TMR_BLK, IO, 32, 0x408);
	ab_put16(&m.mem, f, AB_FADT_IAPC_BOOT_ARCH, 0x0003);
	only_fadt(f);
	parse();
	assert_no_problems();
	assert_int_equal(m.info.pm_timer_port, 0x408);
	assert_false(m.info.pm_timer_32bit);
	assert_true(m.info.boot_arch_valid);
	assert_int_equal(m.info.boot_arch_flags, 3);
}

/* A 132-byte FADT (ACPI 1.0 with RESET_REG): bytes 109-110 are still not IAPC_BOOT_ARCH. */
static void test_parse_fadt_v2_length(void **state)
{
	(void)state;
	uint64_t f = ab_table_alone(&m.b, 0x9e000, "FACP", 132, 2);
	ab_put16(&m.mem, f, AB_FADT_IAPC_BOOT_ARCH, 0x0003);
	ab_put32(&m.mem, f, AB_FADT_FLAGS, FLAG_RESET_REG_SUP);
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, MEM, 8, 0xfed00100);
	ab_put8(&m.mem, f, AB_FADT_RESET_VALUE, 0x0e);
	only_fadt(f);
	parse();
	assert_no_problems();
	assert_false(m.info.boot_arch_valid);
	assert_true(m.info.reset_supported);
	assert_int_equal(m.info.reset_space, ACPI_SPACE_MEMORY);
	assert_int_equal(m.info.reset_address, 0xfed00100);
	assert_int_equal(m.info.reset_value, 0x0e);
}

static void test_parse_fadt_pm_timer_choice(void **state)
{
	(void)state;
	uint64_t f = standard_fadt();
	only_fadt(f);

	/* X_PM_TMR_BLK zero: PM_TMR_BLK. */
	ab_put_gas(&m.mem, f, AB_FADT_X_PM_TMR_BLK, 0, 0, 0);
	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0xb008);
	parse();
	assert_no_problems();
	assert_int_equal(m.info.pm_timer_port, 0xb008);

	/* Both, different: X_PM_TMR_BLK, with a note. */
	ab_put_gas(&m.mem, f, AB_FADT_X_PM_TMR_BLK, IO, 32, 0x1808);
	parse();
	assert_int_equal(m.info.pm_timer_port, 0x1808);
	assert_true(has_problem("FACP", "PM_TMR_BLK 0xb008 and X_PM_TMR_BLK 0x1808 differ"));

	/* X_PM_TMR_BLK only. */
	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0);
	parse();
	assert_no_problems();
	assert_int_equal(m.info.pm_timer_port, 0x1808);
	assert_true(m.info.pm_timer_32bit);

	/* X_PM_TMR_BLK in memory space: not a port; PM_TMR_BLK if there is one. */
	ab_put_gas(&m.mem, f, AB_FADT_X_PM_TMR_BLK, MEM, 32, 0xfed80008);
	parse();
	assert_int_equal(m.info.pm_timer_port, 0);
	assert_false(m.info.pm_timer_32bit);
	assert_true(
		has_problem("FACP", "X_PM_TMR_BLK 0xfed80008 in space 0 is no I/O port, no PM"));
	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0x608);
	parse();
	assert_int_equal(m.info.pm_timer_port, 0x608);
	assert_true(has_problem("FACP", "using PM_TMR_BLK"));

	/* X_PM_TMR_BLK an I/O "port" beyond 16 bits. */
	ab_put_gas(&m.mem, f, AB_FADT_X_PM_TMR_BLK, IO, 32, 0x10008);
	parse();
	assert_int_equal(m.info.pm_timer_port, 0x608);
	assert_true(has_problem("FACP", "X_PM_TMR_BLK 0x10008 in space 1 is no I/O port"));

	/* PM_TMR_BLK beyond 16 bits and no X: no PM timer. */
	ab_put_gas(&m.mem, f, AB_FADT_X_PM_TMR_BLK, 0, 0, 0);
	ab_put32(&m.mem, f, AB_FADT_PM_TMR_BLK, 0x12345);
	parse();
	assert_int_equal(m.info.pm_timer_port, 0);
	assert_true(has_problem("FACP", "PM_TMR_BLK 0x12345 is no I/O port"));
}

static void test_parse_fadt_hw_reduced(void **state)
{
	(void)state;
	uint64_t f = standard_fadt();
	ab_put32(&m.mem, f, AB_FADT_FLAGS, FLAG_TMR_VAL_EXT | FLAG_HW_REDUCED);
	only_fadt(f);
	parse();
	assert_no_problems();
	assert_true(m.info.fadt_found);
	assert_int_equal(m.info.pm_timer_port, 0);
	assert_false(m.info.pm_timer_32bit);
}

static void test_parse_fadt_reset_register(void **state)
{
	(void)state;
	uint64_t f = standard_fadt();
	only_fadt(f);

	/* Flag clear: no reset, whatever RESET_REG says. */
	ab_put32(&m.mem, f, AB_FADT_FLAGS, 0);
	parse();
	assert_no_problems();
	assert_false(m.info.reset_supported);
	assert_int_equal(m.info.reset_address, 0);

	/* PCI configuration space (device 0x1f, function 0, offset 0xac, QEMU's q35 style). */
	ab_put32(&m.mem, f, AB_FADT_FLAGS, FLAG_RESET_REG_SUP);
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, 2, 8, 0x001f000000ac);
	parse();
	assert_no_problems();
	assert_true(m.info.reset_supported);
	assert_int_equal(m.info.reset_space, ACPI_SPACE_PCI);
	assert_int_equal(m.info.reset_address, 0x001f000000ac);

	/* A 16-bit wide register, an address 0, an I/O port beyond 16 bits, an unknown space,
	 * a bit offset: each unusable. */
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, IO, 16, 0xcf9);
	parse();
	assert_false(m.info.reset_supported);
	assert_true(has_problem("FACP", "RESET_REG (space 1, width 16, offset 0, address 0xcf9)"));
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, IO, 8, 0);
	parse();
	assert_false(m.info.reset_supported);
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, IO, 8, 0x10cf9);
	parse();
	assert_false(m.info.reset_supported);
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, 0x7f, 8, 0xcf9);
	parse();
	assert_false(m.info.reset_supported);
	ab_put_gas(&m.mem, f, AB_FADT_RESET_REG, IO, 8, 0xcf9);
	ab_put8(&m.mem, f, AB_FADT_RESET_REG + 2, 1);
	parse();
	assert_false(m.info.reset_supported);
	assert_true(has_problem("FACP", "offset 1"));
	assert_int_equal(m.info.reset_address, 0);
}

static void test_parse_fadt_broken(void **state)
{
	(void)state;
	standard(2);
	ab_break_checksum(&m.mem, m.fadt);
	parse();
	assert_false(m.info.fadt_found);
	assert_int_equal(m.info.pm_timer_port, 0);
	assert_false(m.info.reset_supported);
	assert_true(has_problem("FACP", "fails its checksum"));
	assert_standard_cpus();
}

#define MACHINE_TEST(f) cmocka_unit_test_setup_teardown(f, machine_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsdp_validation),
		cmocka_unit_test(test_rsdp_scan),
		MACHINE_TEST(test_parse_good_xsdt),
		MACHINE_TEST(test_parse_good_rsdt),
		MACHINE_TEST(test_parse_xsdt_address_zero),
		MACHINE_TEST(test_parse_xsdt_preferred),
		MACHINE_TEST(test_parse_xsdt_broken_falls_back),
		MACHINE_TEST(test_parse_xsdt_bad_signature),
		MACHINE_TEST(test_parse_xsdt_unreadable),
		MACHINE_TEST(test_parse_xsdt_truncated),
		MACHINE_TEST(test_parse_root_length_below_header),
		MACHINE_TEST(test_parse_both_roots_broken),
		MACHINE_TEST(test_parse_rsdt_zero_no_xsdt),
		MACHINE_TEST(test_parse_rsdp_broken),
		MACHINE_TEST(test_parse_rsdp_missing),
		MACHINE_TEST(test_parse_rsdp_v2_short_copy),
		MACHINE_TEST(test_parse_oem_id_sanitised),
		MACHINE_TEST(test_parse_unaligned_xsdt),
		MACHINE_TEST(test_parse_entry_zero_and_unreadable),
		MACHINE_TEST(test_parse_xsdt_ragged_length),
		MACHINE_TEST(test_parse_xsdt_too_many_entries),
		MACHINE_TEST(test_parse_madt_bad_checksum),
		MACHINE_TEST(test_parse_madt_bad_lengths),
		MACHINE_TEST(test_parse_madt_past_memory),
		MACHINE_TEST(test_parse_madt_entry_length_zero),
		MACHINE_TEST(test_parse_madt_entry_length_one),
		MACHINE_TEST(test_parse_madt_entry_past_end),
		MACHINE_TEST(test_parse_madt_stray_byte),
		MACHINE_TEST(test_parse_madt_short_entries),
		MACHINE_TEST(test_parse_madt_long_entries),
		MACHINE_TEST(test_parse_madt_x2apic),
		MACHINE_TEST(test_parse_madt_duplicates),
		MACHINE_TEST(test_parse_madt_flags),
		MACHINE_TEST(test_parse_madt_broadcast_ids),
		MACHINE_TEST(test_parse_madt_override),
		MACHINE_TEST(test_parse_madt_local_apic_address_zero),
		MACHINE_TEST(test_parse_madt_huge),
		MACHINE_TEST(test_parse_two_madts),
		MACHINE_TEST(test_parse_other_tables_checked),
		MACHINE_TEST(test_parse_many_problems),
		MACHINE_TEST(test_parse_rsdt_entries),
		MACHINE_TEST(test_parse_fadt_v1),
		MACHINE_TEST(test_parse_fadt_reset_beyond_length),
		MACHINE_TEST(test_parse_fadt_tiny),
		MACHINE_TEST(test_parse_fadt_v3),
		MACHINE_TEST(test_parse_fadt_v2_length),
		MACHINE_TEST(test_parse_fadt_pm_timer_choice),
		MACHINE_TEST(test_parse_fadt_hw_reduced),
		MACHINE_TEST(test_parse_fadt_reset_register),
		MACHINE_TEST(test_parse_fadt_broken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
