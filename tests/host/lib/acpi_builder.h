/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Builds ACPI tables (ACPI 6.5, chapter 5.2) in a fake physical memory for host tests: each
 * helper leaves its table with a correct checksum, so that a test breaks exactly one thing.
 */
#ifndef TESTS_ACPI_BUILDER_H
#define TESTS_ACPI_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "tests/host/lib/fake_phys.h"

struct acpi_builder {
	struct fake_phys *mem;
	uint64_t base; /* the region tables are placed in, one after the other */
	uint8_t *data;
	size_t size;
	size_t used;
};

/* A region of size bytes at base for the tables. */
void ab_init(struct acpi_builder *b, struct fake_phys *m, uint64_t base, size_t size);

/* The bytes at a physical address inside the builder's region (aborts outside it). */
uint8_t *ab_ptr(struct acpi_builder *b, uint64_t addr);

/* Skip bytes so that the next table starts at an address with the given remainder mod 16. */
void ab_align(struct acpi_builder *b, unsigned remainder);

/*
 * A zeroed table of length bytes with a header (signature, length, revision, OEM fields) and a
 * correct checksum; returns its address.
 */
uint64_t ab_table(struct acpi_builder *b, const char *sig, uint32_t length, uint8_t revision);

/* The same, alone in a fake region of exactly length bytes: a read past its end is a fault. */
uint64_t ab_table_alone(struct acpi_builder *b, uint64_t addr, const char *sig, uint32_t length,
			uint8_t revision);

/* Recompute the checksum of the table at addr from its length field. */
void ab_fix(struct fake_phys *m, uint64_t addr);

/* Field writes at an offset into the table at addr, each followed by ab_fix. */
void ab_put8(struct fake_phys *m, uint64_t addr, uint32_t off, uint8_t v);
void ab_put16(struct fake_phys *m, uint64_t addr, uint32_t off, uint16_t v);
void ab_put32(struct fake_phys *m, uint64_t addr, uint32_t off, uint32_t v);
void ab_put64(struct fake_phys *m, uint64_t addr, uint32_t off, uint64_t v);
/* A Generic Address Structure (ACPI 6.5, 5.2.3.2) at off. */
void ab_put_gas(struct fake_phys *m, uint64_t addr, uint32_t off, uint8_t space, uint8_t bit_width,
		uint64_t address);

/* Flip a bit of the checksum byte: the table stays intact otherwise. */
void ab_break_checksum(struct fake_phys *m, uint64_t addr);

/* An RSDP (revision 0: 20 bytes, 2+: 36 bytes) written to p, checksums and all. */
void ab_rsdp_bytes(uint8_t *p, uint8_t revision, uint32_t rsdt, uint64_t xsdt);

/* The same at addr in its own region. */
uint64_t ab_rsdp(struct acpi_builder *b, uint64_t addr, uint8_t revision, uint32_t rsdt,
		 uint64_t xsdt);

/* An RSDT (32-bit entries) or XSDT (64-bit entries) listing n tables. */
uint64_t ab_rsdt(struct acpi_builder *b, const uint64_t *entries, unsigned n);
uint64_t ab_xsdt(struct acpi_builder *b, const uint64_t *entries, unsigned n);

/*
 * A MADT with room for entries_room bytes of entries (its length grows as entries are added;
 * add entries to one MADT at a time, before building the next table).
 */
uint64_t ab_madt(struct acpi_builder *b, uint32_t local_apic_address, uint32_t flags,
		 uint32_t entries_room);
void ab_madt_raw(struct acpi_builder *b, uint64_t madt, const uint8_t *bytes, uint32_t n);
void ab_madt_lapic(struct acpi_builder *b, uint64_t madt, uint8_t uid, uint8_t apic_id,
		   uint32_t flags);
void ab_madt_x2apic(struct acpi_builder *b, uint64_t madt, uint32_t x2apic_id, uint32_t uid,
		    uint32_t flags);
void ab_madt_override(struct acpi_builder *b, uint64_t madt, uint64_t address);

/* FADT offsets the tests write (ACPI 6.5, table 5.9). */
#define AB_FADT_PM_TMR_BLK 76
#define AB_FADT_PM_TMR_LEN 91
#define AB_FADT_IAPC_BOOT_ARCH 109
#define AB_FADT_FLAGS 112
#define AB_FADT_RESET_REG 116
#define AB_FADT_RESET_VALUE 128
#define AB_FADT_X_PM_TMR_BLK 208
#define AB_FADT_V1_LENGTH 116
#define AB_FADT_V6_LENGTH 276

#endif
