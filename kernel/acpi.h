/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ACPI tables (ACPI 6.5 specification, chapter 5.2). Pure code: memory is reached through a
 * translate function (the identity in the kernel, a fake memory in host tests).
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

#endif
