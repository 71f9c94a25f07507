// SPDX-License-Identifier: GPL-2.0
/*
 * One zlib stream, reset for each chunk: the dictionary is set again each time (zlib hashes it
 * into the window, some 22 KB), the state's allocation is kept. malloc() is the C library's on the
 * host, the job's heap at ring 3 (kernel/qr/user_libc.h declares it for both).
 */
#include <stdint.h>
#include <string.h>

#include <zlib.h>

#include "kernel/qr/compress.h"
#include "kernel/qr/dictionary.h"
#include "kernel/qr/user_libc.h"

void *qr_compressor_new(void)
{
	z_stream *z = malloc(sizeof(*z));

	if (!z)
		return NULL;
	memset(z, 0, sizeof(*z));
	/* Negative window bits: raw deflate, no zlib header (the chunk's header has its CRC). */
	if (deflateInit2(z, QR_DEFLATE_LEVEL, Z_DEFLATED, -MAX_WBITS, QR_DEFLATE_MEM_LEVEL,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	return z;
}

size_t qr_compress(void *compressor, const void *in, size_t len, void *out, size_t avail)
{
	z_stream *z = compressor;

	if (deflateReset(z) != Z_OK ||
	    deflateSetDictionary(z, qr_dictionary, (uInt)qr_dictionary_size()) != Z_OK)
		return 0;
	z->next_in = (Bytef *)(uintptr_t)in;
	z->avail_in = (uInt)len;
	z->next_out = out;
	z->avail_out = (uInt)avail;
	return deflate(z, Z_FINISH) == Z_STREAM_END ? avail - z->avail_out : 0;
}
