/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base45 (RFC 9285): bytes as text of QR's alphanumeric alphabet, so that a code read back by any
 * decoder, zbarimg included, gives exactly the characters it holds (no byte is taken for a
 * character set's letter). Two bytes become three characters, a last odd byte two.
 *
 * Pure code: ring 3 (kernel/qr/user_make.c) and the host tests.
 */
#ifndef KERNEL_QR_BASE45_H
#define KERNEL_QR_BASE45_H

#include <stddef.h>
#include <stdint.h>

/* The characters len bytes take. */
size_t base45_encoded_len(size_t len);

/* The most bytes that chars characters can carry. */
size_t base45_bytes_for_chars(size_t chars);

/* data[0..len) as Base45 into out (base45_encoded_len(len) characters, no NUL); returns it. */
size_t base45_encode(const uint8_t *data, size_t len, char *out);

#endif
