/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many characters of QR's alphanumeric mode a code of one version holds at error correction
 * level M, as Project Nayuki's QR Code generator (Debian's libqrcodegen) counts them: the library
 * is asked, so that the chunks are cut to exactly what it will encode.
 *
 * Pure code: ring 3 (kernel/qr/user_make.c) and the host tests.
 */
#ifndef KERNEL_QR_CAPACITY_H
#define KERNEL_QR_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

/* The most alphanumeric characters in a code of version (1-40) at level M. The buffers: text of
 * QR_CAPACITY_TEXT_MAX bytes, segment, temp and qrcode of qrcodegen_BUFFER_LEN_MAX each. */
#define QR_CAPACITY_TEXT_MAX 4297 /* one more than any QR code holds (version 40, level L) */
size_t qr_alphanumeric_capacity(int version, char *text, uint8_t *segment, uint8_t *temp,
				uint8_t *qrcode);

#endif
