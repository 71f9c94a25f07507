// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 of the record stream, four bits at a time: a 16-entry table is small enough to write
 * out (each entry is the CRC of its index's four bits) and fast enough for a few kilobytes of
 * records per run.
 */
#include "kernel/lib/crc32.h"

static const uint32_t crc32_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
	0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t crc32_ieee(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc32_nibble[crc & 0xf];
		crc = (crc >> 4) ^ crc32_nibble[crc & 0xf];
	}
	return ~crc;
}
