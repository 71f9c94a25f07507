/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deflating a chunk of records as its code carries it (kernel/qr/chunk.h): raw deflate (RFC 1951)
 * at level 9 by Debian's zlib, primed with the preset dictionary (kernel/qr/dictionary.h).
 *
 * Why zlib: each chunk is deflated alone (a lost code loses only its own records), and a short
 * chunk alone pays for every JSON key and every long string anew; primed with record lines, the
 * default suite's log takes 17 codes of version 25 instead of 44 (docs/qr-codes.md). libdeflate,
 * which issue 19 used, has no preset dictionary.
 *
 * Pure code: ring 3 (kernel/qr/make.c) and the host tests and tools. zlib allocates through
 * malloc(), which ring 3 answers from the job's heap (kernel/qr/user_libc.c).
 */
#ifndef KERNEL_QR_COMPRESS_H
#define KERNEL_QR_COMPRESS_H

#include <stddef.h>

#define QR_DEFLATE_LEVEL 9
#define QR_DEFLATE_MEM_LEVEL 9 /* zlib's largest hash: 384 KB of state with the 32 KiB window */

/* A compressor (zlib's stream state), or NULL when there is no memory for it. */
void *qr_compressor_new(void);

/* in[0..len) deflated into out: its size, or 0 when it needs more than avail bytes (a
 * chunk_deflate_fn, kernel/qr/chunk.h). */
size_t qr_compress(void *compressor, const void *in, size_t len, void *out, size_t avail);

#endif
