/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cutting the record copy (kernel/qr/record_copy.h) into the chunks that the QR codes carry.
 *
 * A chunk is whole record lines of the copy, deflated (RFC 1951, raw) on their own: a code that
 * is lost loses its own records and no other. Its plain text is lines of the copy, the first one
 * always numbered ("@<seq> <json>"); the first chunk starts with a note line ("#...") when
 * records were left out.
 *
 * A code's text is CHUNK_TEXT_PREFIX, then Base45 (kernel/qr/base45.h) of the chunk's bytes:
 *
 *	run id		4 bytes, little-endian: the same on every code of one run
 *	number		1 byte, from 1
 *	total		1 byte: the codes of the run
 *	flags		1 byte: CHUNK_FLAG_LEFT_OUT when the codes do not carry every record
 *	per page	1 byte: the codes a page shows (code n is on page (n - 1) / per page + 1)
 *	CRC-32		4 bytes, little-endian: IEEE (zlib's crc32) of the 8 bytes before it and
 *			the deflated text after it
 *	deflated text	the rest: raw deflate primed with the preset dictionary
 *			(kernel/qr/compress.h)
 *
 * The prefix names the format: "PMU1:" was issue 19's (no per-page byte, no dictionary), which
 * tools/pmu_photos.py still reads.
 *
 * When the log needs more than codes_max codes, the priority cut keeps every record of the first
 * level (boot, pmu, verdict, exp, exception, end), then as many of the second (every other type
 * but count) as fit, in the log's order, then as many count records as fit; the note says what
 * was left out.
 *
 * Pure code: ring 3 (kernel/qr/user_make.c) and the host tests. The compressor is a callback.
 */
#ifndef KERNEL_QR_CHUNK_H
#define KERNEL_QR_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHUNK_TEXT_PREFIX "PMU2:"
#define CHUNK_HEADER_LEN 12
#define CHUNK_FLAG_LEFT_OUT 1
#define CHUNK_CODES_MAX 99 /* two digits beside each code on the screen (kernel/qr/page.h) */
#define CHUNK_NOTE_MAX 320
#define CHUNK_PLAIN_MAX (256 * 1024) /* a chunk's plain text at most */

enum chunk_level { CHUNK_LEVEL_FIRST, CHUNK_LEVEL_OTHER, CHUNK_LEVEL_COUNT, CHUNK_LEVELS };

struct chunk_line {
	uint32_t offset, len; /* the record's JSON in the copy */
	uint64_t seq;
	uint8_t level; /* enum chunk_level */
	bool keepable; /* false: too long for one code on its own */
	bool kept;
};

/* Deflate in[0..len) into out: the compressed size, or 0 when it needs more than avail bytes. */
typedef size_t (*chunk_deflate_fn)(void *ctx, const void *in, size_t len, void *out, size_t avail);

struct chunk_work {
	const char *copy;
	struct chunk_line *lines;
	unsigned count;
	size_t capacity; /* deflated bytes a code carries after its header */
	unsigned codes_max;
	chunk_deflate_fn deflate;
	void *deflate_ctx;
	char *plain;	    /* CHUNK_PLAIN_MAX bytes of scratch */
	uint8_t *deflated;  /* 4 * capacity bytes of scratch (deflate gets that much room) */
	uint32_t *ids;	    /* count entries of scratch */
	uint64_t copy_left; /* records the copy had no room for: the note names them */
	unsigned ratio16;   /* plain bytes per deflated byte, times 16: the last code's */
	unsigned probes;    /* compressions tried, for the statistics */
	uint64_t need;	    /* the last packing's codes needed, in thousandths (chunk.c) */
	uint64_t need_all;  /* the same for the whole log */
};

struct chunk_plan {
	unsigned codes;
	unsigned first[CHUNK_CODES_MAX], end[CHUNK_CODES_MAX]; /* each code's lines [first, end) */
	bool left_out;					       /* some record is not in the codes */
	uint64_t records, kept; /* the copy's records, and those the codes carry */
	uint64_t dropped[CHUNK_LEVELS], of[CHUNK_LEVELS]; /* left out by the cut, of each level */
	uint64_t too_long;				  /* lines too long for a code */
	char note[CHUNK_NOTE_MAX];			  /* what was left out ("" when nothing) */
};

/* The lines of a copy of len bytes (an upper bound for chunk_index()). */
unsigned chunk_count_lines(const char *copy, size_t len);

/* The copy's record lines into lines[] (at most max); how many. Each keeps its seq and level. */
unsigned chunk_index(const char *copy, size_t len, struct chunk_line *lines, unsigned max);

/*
 * The priority cut's question: do the records fit codes_max codes when those of the levels below
 * level are kept and the first k of level (in the log's order)? The plan then says how they go.
 * chunk_plan_codes() asks it; it is here for the tests.
 */
bool chunk_fits_with(struct chunk_work *w, struct chunk_plan *plan, unsigned level, uint64_t k);

/* Decide which records go into which code; false when not even one code can be made. */
bool chunk_plan_codes(struct chunk_work *w, struct chunk_plan *plan);

/* Code k's plain text (note, numbered lines) into out; its length, 0 when size is too small. */
size_t chunk_plain(const struct chunk_work *w, const struct chunk_plan *plan, unsigned k, char *out,
		   size_t size);

/* What a chunk's header says besides its text. */
struct chunk_header {
	uint32_t run_id;
	unsigned number, total, flags, per_page;
};

/* The header before deflated[0..len) in out (which then holds both); the chunk's length. */
size_t chunk_bytes(const struct chunk_header *header, const uint8_t *deflated, size_t len,
		   uint8_t *out);

/* A code's text: the prefix and Base45 of bytes[0..len), into out; its length (no NUL). */
size_t chunk_text(const uint8_t *bytes, size_t len, char *out);

/* Deflated bytes that a code of chars alphanumeric characters carries (prefix, header off). */
size_t chunk_capacity(size_t chars);

#endif
