/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ACPI tables (ACPI 6.5 specification, chapter 5.2): the RSDP, the RSDT/XSDT, and what the
 * kernel needs from the MADT (the CPUs) and the FADT (the PM timer, the reset register). Pure
 * code: memory is reached through a translate function (the identity in the
 * kernel, a fake memory in host tests). Every table is checked (signature, length, checksum)
 * before use; a bad one is skipped and reported, never trusted.
 */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef const void *(*acpi_translate_fn)(uint64_t addr, size_t len, void *ctx);

#define ACPI_RSDP_V1_LENGTH 20
#define ACPI_RSDP_V2_LENGTH 36

/* "RSD PTR ", the ACPI 1.0 checksum, and for revision 2+ the length and extended checksum. */
bool acpi_rsdp_valid(const uint8_t *rsdp, size_t available);

/*
 * The BIOS way to find the RSDP (ACPI 6.5, 5.2.5.1): the first KiB of the EBDA, whose segment is
 * at 0x40E, then 0xE0000-0xFFFFF, on 16-byte boundaries. Returns its address or 0.
 */
uint64_t acpi_rsdp_scan(acpi_translate_fn translate, void *ctx);

#define ACPI_MAX_CPUS 256
#define ACPI_MAX_PROBLEMS 8

/*
 * A table whose header claims more than this is not read at all: real MADTs, FADTs and root
 * tables are a few KiB (the largest SSDTs some hundreds), and a garbage length must not make the
 * parser checksum its way through device memory.
 */
#define ACPI_TABLE_MAX_LENGTH (16u << 20)
/* Entries of the XSDT or RSDT that are read, at most. */
#define ACPI_ROOT_MAX_ENTRIES 256u

/* A processor the MADT lists (entry types 0, Processor Local APIC, and 9, Local x2APIC). */
struct acpi_cpu {
	uint32_t apic_id;
	uint32_t uid;	     /* ACPI processor UID */
	bool enabled;	     /* flags bit 0: usable now */
	bool online_capable; /* flags bit 1 (ACPI 6.3+): may be enabled later; not started */
	bool x2apic_entry;   /* listed by a type 9 entry */
};

/* Generic Address Structure space ids (ACPI 6.5, table 5.1). */
enum acpi_address_space { ACPI_SPACE_MEMORY = 0, ACPI_SPACE_IO = 1, ACPI_SPACE_PCI = 2 };

struct acpi_info {
	uint8_t rsdp_revision;
	bool via_xsdt;	/* the table list came from the XSDT (else the RSDT) */
	char oem_id[7]; /* from the RSDP, NUL-terminated */

	/* MADT ("APIC") */
	bool madt_found;
	uint64_t local_apic_address; /* after a type 5 override */
	bool pcat_compat;	     /* MADT flags bit 0: dual 8259 PICs present */
	unsigned cpu_count;	     /* entries kept in cpus[], enabled or not */
	bool cpus_truncated;	     /* more than ACPI_MAX_CPUS entries */
	unsigned cpu_duplicates;     /* entries dropped: their APIC id was listed before */
	bool madt_walk_stopped;	     /* an entry's length was 0 or ran past the table: cpus[] holds
				      * only the entries before it */
	struct acpi_cpu cpus[ACPI_MAX_CPUS];

	/* FADT ("FACP") */
	bool fadt_found;
	uint32_t pm_timer_port; /* PM_TMR_BLK I/O port (X_PM_TMR_BLK preferred), 0 if none */
	bool pm_timer_32bit;	/* FADT flags TMR_VAL_EXT: the PM timer has 32 bits, else 24 */
	bool reset_supported;	/* FADT flags RESET_REG_SUP and a usable reset register */
	uint8_t reset_space;	/* enum acpi_address_space */
	uint64_t reset_address;
	uint8_t reset_value;
	uint16_t boot_arch_flags; /* IA-PC boot architecture flags (bit 1: 8042 present) */
	bool boot_arch_valid;	  /* the FADT is long enough (ACPI 2.0+) for boot_arch_flags; an
				   * ACPI 1.0 FADT has no such field and implies legacy devices */
};

/* Something the parser skipped or could not trust, for a warn record. */
struct acpi_problem {
	char table[5]; /* "RSDP", "XSDT", "RSDT", "APIC", "FACP" */
	char message[120];
};

struct acpi_result {
	unsigned problem_count; /* all of them, even beyond ACPI_MAX_PROBLEMS */
	struct acpi_problem problems[ACPI_MAX_PROBLEMS];
};

/*
 * Walk the tables from the RSDP at rsdp_addr: the XSDT when the RSDP is revision 2+ and gives
 * one whose checksum holds (else the RSDT), then every table it lists, keeping the MADT and the
 * FADT. A table that is unreadable, truncated (length below its header or beyond the
 * readable memory) or fails its checksum is skipped and reported; so is a MADT entry whose length
 * runs past the table (the walk stops there: madt_walk_stopped, the CPUs before it are kept).
 * info is cleared first. With no usable MADT, info->madt_found is false and the kernel runs on
 * the boot CPU alone.
 */
void acpi_parse(uint64_t rsdp_addr, acpi_translate_fn translate, void *ctx, struct acpi_info *info,
		struct acpi_result *result);

#endif
