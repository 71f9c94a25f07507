/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record copy: the JSON of every record the serial port carried, kept in memory so that the
 * end of the run can show the whole log on the screen as QR codes (kernel/end_screen.h).
 *
 * The copy is text, a line per record: the record's JSON, or "@<seq> <json>" where the numbering
 * jumps (the first line, and after records the copy had no room for); a line without "@" is the
 * record after the one before it. The rest of a record line on the wire ("@<seq> <crc32> ") is
 * what a reader rebuilds from that.
 *
 * When the buffer runs short, the bulk goes first: `count` records are kept only while the copy
 * is at most three quarters full, the others while there is room, and the end record always has
 * room of its own. Pure code (host-tested).
 */
#ifndef KERNEL_QR_RECORD_COPY_H
#define KERNEL_QR_RECORD_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kept for the end record alone (its JSON is under 200 bytes). */
#define RECORD_COPY_END_ROOM 512

struct record_copy {
	char *buf;
	size_t size, used;
	uint64_t next_seq;	     /* the number a line without "@" has */
	bool empty;		     /* no line yet: the next one starts with "@" */
	uint64_t dropped_counts;     /* `count` records the copy had no room for */
	uint64_t dropped_others;     /* other records the copy had no room for */
	uint64_t first_seq, records; /* the first record kept and how many are */
};

void record_copy_init(struct record_copy *c, char *buf, size_t size);

/* Keep one record (its type and JSON, len bytes); false when there was no room for it. */
bool record_copy_add(struct record_copy *c, uint64_t seq, const char *type, const char *json,
		     size_t len);

#endif
