// SPDX-License-Identifier: GPL-2.0
/*
 * Base45, RFC 9285 section 4: a pair of bytes [a, b] is the number n = a * 256 + b, written as
 * three base-45 digits c, d, e with n = c + d * 45 + e * 45 * 45, least significant first; a
 * last single byte is two digits. The digits are the 45 characters of QR's alphanumeric mode
 * (RFC 9285 section 4.2, the table of ISO/IEC 18004 alphanumeric values).
 */
#include "kernel/qr/base45.h"

static const char alphabet[45] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

size_t base45_encoded_len(size_t len)
{
	return len / 2 * 3 + (len % 2) * 2;
}

size_t base45_bytes_for_chars(size_t chars)
{
	/* Three characters per pair; two more carry one byte, a single one none. */
	return chars / 3 * 2 + (chars % 3 == 2 ? 1 : 0);
}

static char *digits(unsigned n, unsigned count, char *out)
{
	for (unsigned i = 0; i < count; i++, n /= 45)
		*out++ = alphabet[n % 45];
	return out;
}

size_t base45_encode(const uint8_t *data, size_t len, char *out)
{
	char *p = out;
	size_t i = 0;

	for (; i + 1 < len; i += 2)
		p = digits((unsigned)data[i] * 256 + data[i + 1], 3, p);
	if (i < len)
		p = digits(data[i], 2, p);
	return (size_t)(p - out);
}
