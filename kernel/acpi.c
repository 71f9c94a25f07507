// SPDX-License-Identifier: GPL-2.0
/*
 * Finding and checking ACPI tables.
 */
#include <string.h>

#include "kernel/acpi.h"

static uint8_t checksum(const uint8_t *p, size_t n)
{
	uint8_t sum = 0;

	while (n--)
		sum = (uint8_t)(sum + *p++);
	return sum;
}

bool acpi_rsdp_valid(const uint8_t *rsdp, size_t available)
{
	if (available < ACPI_RSDP_V1_LENGTH || memcmp(rsdp, "RSD PTR ", 8) != 0)
		return false;
	if (checksum(rsdp, ACPI_RSDP_V1_LENGTH) != 0)
		return false;
	if (rsdp[15] >= 2) {
		uint32_t length;
		memcpy(&length, rsdp + 20, 4);
		if (length < ACPI_RSDP_V2_LENGTH || length > available)
			return false;
		if (checksum(rsdp, length) != 0)
			return false;
	}
	return true;
}

static uint64_t scan_range(uint64_t start, uint64_t length, acpi_translate_fn translate, void *ctx)
{
	const uint8_t *area = translate(start, length, ctx);

	if (!area)
		return 0;
	for (uint64_t off = 0; off + ACPI_RSDP_V1_LENGTH <= length; off += 16)
		if (acpi_rsdp_valid(area + off, length - off))
			return start + off;
	return 0;
}

uint64_t acpi_rsdp_scan(acpi_translate_fn translate, void *ctx)
{
	const uint8_t *bda = translate(0x40e, 2, ctx);
	uint64_t found = 0;

	if (bda) {
		uint64_t ebda = (uint64_t)(bda[0] | bda[1] << 8) << 4;
		if (ebda >= 0x80000 && ebda < 0xa0000)
			found = scan_range(ebda, 1024, translate, ctx);
	}
	if (!found)
		found = scan_range(0xe0000, 0x20000, translate, ctx);
	return found;
}
