// SPDX-License-Identifier: GPL-2.0
/*
 * Appending record lines to the copy, with a number where the sequence jumps.
 */
#include <string.h>

#include "kernel/qr/record_copy.h"

void record_copy_init(struct record_copy *c, char *buf, size_t size)
{
	memset(c, 0, sizeof(*c));
	c->buf = buf;
	c->size = size;
	c->empty = true;
}

/* "@<seq> " into out (at least 22 bytes); its length. */
static size_t seq_marker(uint64_t seq, char *out)
{
	char digits[20];
	size_t n = 0, len = 0;

	do {
		digits[n++] = (char)('0' + seq % 10);
		seq /= 10;
	} while (seq);
	out[len++] = '@';
	while (n)
		out[len++] = digits[--n];
	out[len++] = ' ';
	return len;
}

/* How full the copy may be after this record: the bulk stops first, the end record last. */
static size_t limit_for(const struct record_copy *c, const char *type)
{
	if (!strcmp(type, "end"))
		return c->size;
	if (c->size < RECORD_COPY_END_ROOM)
		return 0;
	if (!strcmp(type, "count"))
		return c->size / 4 * 3;
	return c->size - RECORD_COPY_END_ROOM;
}

bool record_copy_add(struct record_copy *c, uint64_t seq, const char *type, const char *json,
		     size_t len)
{
	char marker[24];
	size_t marker_len = 0;

	if (c->empty || seq != c->next_seq)
		marker_len = seq_marker(seq, marker);
	size_t need = marker_len + len + 1;
	size_t limit = limit_for(c, type);
	if (!c->buf || c->used > limit || need > limit - c->used) {
		if (!strcmp(type, "count"))
			c->dropped_counts++;
		else
			c->dropped_others++;
		return false;
	}
	memcpy(c->buf + c->used, marker, marker_len);
	memcpy(c->buf + c->used + marker_len, json, len);
	c->buf[c->used + marker_len + len] = '\n';
	c->used += need;
	if (c->empty)
		c->first_seq = seq;
	c->empty = false;
	c->next_seq = seq + 1;
	c->records++;
	return true;
}
