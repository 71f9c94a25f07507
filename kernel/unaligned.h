/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading little-endian fields at any alignment from firmware structures (multiboot tags, ACPI
 * tables: an XSDT entry is 64 bits at a 4-byte offset), through memcpy so that the compiler never
 * assumes an alignment the data does not have. Pure code.
 */
#ifndef KERNEL_UNALIGNED_H
#define KERNEL_UNALIGNED_H

#include <stdint.h>
#include <string.h>

static inline uint16_t read16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t read32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t read64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
