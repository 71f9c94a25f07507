// SPDX-License-Identifier: GPL-2.0
/*
 * Building one JSON record in a fixed buffer and formatting its line with the CRC-32 that
 * readers check (tools/pmu_records.py).
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/lib/crc32.h"
#include "kernel/lib/format.h"
#include "kernel/record.h"

static void append(struct record *r, const char *s, size_t n)
{
	if (r->truncated)
		return;
	/* Keep room for the closing brackets of every open level. */
	if (r->len + n + r->depth + 2 > sizeof(r->json)) {
		r->truncated = true;
		return;
	}
	memcpy(r->json + r->len, s, n);
	r->len += n;
	r->json[r->len] = 0;
}

static void append_str(struct record *r, const char *s)
{
	append(r, s, strlen(s));
}

/*
 * A JSON string in printable ASCII whatever the bytes (docs/records.md): the escapes RFC 8259
 * requires, and every other byte outside 0x20-0x7E as \u00XX. A byte of a multi-byte UTF-8
 * character becomes one escape of its own: the line stays ASCII, so a reader's CRC matches however
 * it decodes the log, and the bytes can be recovered exactly (each escape is one byte).
 */
static void append_quoted(struct record *r, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	append(r, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[7];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			append(r, esc, 2);
		} else if (c == '\n') {
			append(r, "\\n", 2);
		} else if (c == '\r') {
			append(r, "\\r", 2);
		} else if (c == '\t') {
			append(r, "\\t", 2);
		} else if (c < 0x20 || c >= 0x7f) {
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 0xf];
			append(r, esc, 6);
		} else {
			append(r, (const char *)&c, 1);
		}
	}
	append(r, "\"", 1);
}

static void member(struct record *r, const char *key)
{
	if (r->depth == 0) {
		r->malformed = true;
		return;
	}
	if (r->need_comma[r->depth - 1])
		append(r, ",", 1);
	r->need_comma[r->depth - 1] = true;
	if (key) {
		append_quoted(r, key);
		append(r, ":", 1);
	}
}

void record_begin(struct record *r, const char *type)
{
	r->len = 0;
	r->json[0] = 0;
	r->truncated = false;
	r->malformed = false;
	r->depth = 1;
	memset(r->need_comma, 0, sizeof(r->need_comma));
	size_t n = strlen(type);
	if (n >= sizeof(r->type))
		n = sizeof(r->type) - 1;
	memcpy(r->type, type, n);
	r->type[n] = 0;
	append(r, "{", 1);
	record_string(r, "type", r->type);
}

void record_string(struct record *r, const char *key, const char *value)
{
	member(r, key);
	if (value)
		append_quoted(r, value);
	else
		append_str(r, "null");
}

/* A member whose value is one number, formatted (at most 22 characters: "0x" and 16 digits,
 * quoted, or 20 digits with a sign). */
__attribute__((format(printf, 3, 4))) static void member_number(struct record *r, const char *key,
								const char *fmt, ...)
{
	char buf[24];
	va_list ap;

	member(r, key);
	va_start(ap, fmt);
	format_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	append_str(r, buf);
}

void record_uint(struct record *r, const char *key, uint64_t value)
{
	member_number(r, key, "%llu", (unsigned long long)value);
}

void record_int(struct record *r, const char *key, int64_t value)
{
	member_number(r, key, "%lld", (long long)value);
}

void record_bool(struct record *r, const char *key, bool value)
{
	member(r, key);
	append_str(r, value ? "true" : "false");
}

void record_null(struct record *r, const char *key)
{
	member(r, key);
	append_str(r, "null");
}

void record_hex(struct record *r, const char *key, uint64_t value)
{
	member_number(r, key, "\"0x%llx\"", (unsigned long long)value);
}

void record_fixed(struct record *r, const char *key, int64_t value, unsigned decimals)
{
	char buf[48];
	uint64_t scale = 1;

	if (decimals > 9)
		decimals = 9;
	for (unsigned i = 0; i < decimals; i++)
		scale *= 10;
	uint64_t mag = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
	member(r, key);
	if (decimals == 0)
		format_snprintf(buf, sizeof(buf), "%s%llu", value < 0 ? "-" : "",
				(unsigned long long)mag);
	else
		format_snprintf(buf, sizeof(buf), "%s%llu.%0*llu", value < 0 ? "-" : "",
				(unsigned long long)(mag / scale), (int)decimals,
				(unsigned long long)(mag % scale));
	append_str(r, buf);
}

static void open_level(struct record *r, const char *key, char bracket)
{
	member(r, key);
	if (r->depth >= RECORD_DEPTH_MAX) {
		r->malformed = true;
		return;
	}
	append(r, &bracket, 1);
	r->need_comma[r->depth] = false;
	r->depth++;
}

static void close_level(struct record *r, char bracket)
{
	if (r->depth <= 1) {
		r->malformed = true;
		return;
	}
	r->depth--;
	/* The room was kept by append(), so the closing bracket always fits. */
	r->json[r->len++] = bracket;
	r->json[r->len] = 0;
}

void record_begin_object(struct record *r, const char *key)
{
	open_level(r, key, '{');
}

void record_end_object(struct record *r)
{
	close_level(r, '}');
}

void record_begin_array(struct record *r, const char *key)
{
	open_level(r, key, '[');
}

void record_end_array(struct record *r)
{
	close_level(r, ']');
}

const char *record_json(struct record *r)
{
	if (r->depth > 1)
		r->malformed = true; /* an object or array left open by the caller */
	if (r->truncated || r->malformed) {
		/* Say what happened in valid JSON rather than print a broken object. */
		bool truncated = r->truncated;
		char type[RECORD_TYPE_MAX];
		memcpy(type, r->type, sizeof(type));
		record_begin(r, type);
		record_bool(r, truncated ? "truncated" : "malformed", true);
	}
	if (r->depth == 1) {
		r->depth = 0;
		r->json[r->len++] = '}';
		r->json[r->len] = 0;
	}
	return r->json;
}

size_t record_line(struct record *r, uint64_t seq, char *line, size_t size)
{
	const char *json = record_json(r);
	uint32_t crc = crc32_ieee(0, json, r->len);

	int n = format_snprintf(line, size, "@%llu %08x %s", (unsigned long long)seq, crc, json);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
