/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The preset dictionary of the codes' deflate streams: kernel/qr/dictionary.txt, record lines of
 * the kinds a log holds, made by tools/qr_dictionary.py (which says how and why), embedded here as
 * it is. It is part of the codes' format (kernel/qr/chunk.h): tools/pmu_photos.py inflates with
 * the same file, and both check its CRC-32 against QR_DICTIONARY_CRC, so that a change to it
 * cannot pass unnoticed as the same format.
 *
 * Pure data: ring 3 (kernel/qr/compress.c) and the host tests and tools.
 */
#ifndef KERNEL_QR_DICTIONARY_H
#define KERNEL_QR_DICTIONARY_H

#include <stddef.h>
#include <stdint.h>

#define QR_DICTIONARY_CRC 0x536050b8u /* zlib's crc32 of kernel/qr/dictionary.txt */

extern const uint8_t qr_dictionary[], qr_dictionary_end[];

static inline size_t qr_dictionary_size(void)
{
	return (size_t)(qr_dictionary_end - qr_dictionary);
}

#endif
