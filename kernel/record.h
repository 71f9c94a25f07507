/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records: the machine-readable lines of the console, `@<seq> <crc32> <json>` (docs/records.md,
 * "The envelope"). This is the pure part: building one JSON object and formatting its line. The
 * kernel's record stream (kernel/record_stream.c) numbers and prints them.
 *
 * A record is built in a fixed buffer; values that do not fit mark it truncated, and then the
 * line carries {"type":...,"truncated":true} instead of broken JSON.
 *
 *	struct record r;
 *	record_begin(&r, "boot");
 *	record_string(&r, "boot", "multiboot2");
 *	record_begin_object(&r, "cpu");
 *	record_uint(&r, "family", 6);
 *	record_end_object(&r);
 *	record_line(&r, seq, line, sizeof(line));
 *
 * Inside an array, pass NULL as the key.
 */
#ifndef KERNEL_RECORD_H
#define KERNEL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECORD_JSON_MAX 4096
#define RECORD_DEPTH_MAX 8
#define RECORD_TYPE_MAX 24
/* "@" + 20 digits + " " + 8 hex + " " + JSON + "\0" */
#define RECORD_LINE_MAX (RECORD_JSON_MAX + 32)

struct record {
	char json[RECORD_JSON_MAX];
	size_t len;
	bool truncated;
	bool malformed; /* unbalanced begin/end: a bug in the caller */
	uint8_t depth;
	bool need_comma[RECORD_DEPTH_MAX];
	char type[RECORD_TYPE_MAX];
};

void record_begin(struct record *r, const char *type);
void record_string(struct record *r, const char *key, const char *value); /* NULL -> null */
void record_uint(struct record *r, const char *key, uint64_t value);
void record_int(struct record *r, const char *key, int64_t value);
void record_bool(struct record *r, const char *key, bool value);
void record_null(struct record *r, const char *key);
/* A hexadecimal string "0x..." (JSON numbers lose precision above 2^53; addresses are strings). */
void record_hex(struct record *r, const char *key, uint64_t value);
/* A decimal number with a fixed count of fraction digits: (66700, 3) -> 66.700. */
void record_fixed(struct record *r, const char *key, int64_t value, unsigned decimals);
void record_begin_object(struct record *r, const char *key);
void record_end_object(struct record *r);
void record_begin_array(struct record *r, const char *key);
void record_end_array(struct record *r);

/* Closes the object (if open) and returns its JSON; stable until the record is reused. */
const char *record_json(struct record *r);

/* Formats the whole line "@<seq> <crc32> <json>" (no newline); returns its length. */
size_t record_line(struct record *r, uint64_t seq, char *line, size_t size);

#endif
