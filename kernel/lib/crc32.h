/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KERNEL_LIB_CRC32_H
#define KERNEL_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/*
 * The IEEE 802.3 CRC-32 that zlib's crc32() and Python's zlib.crc32 compute (reflected
 * polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF). Chainable: pass the previous
 * result as crc, 0 to start. Pure code.
 */
uint32_t crc32_ieee(uint32_t crc, const void *data, size_t len);

#endif
