// SPDX-License-Identifier: GPL-2.0
/*
 * Numbering and printing records. The sequence number is taken under the console lock, so the
 * numbers appear on the wire in order.
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/record_stream.h"

static uint64_t next_seq;
/* One line buffer, used under the console lock: keeps 4 KiB off the (IST) stacks. */
static char line[RECORD_LINE_MAX];

static record_keeper keeper;

void record_set_keeper(record_keeper keep)
{
	keeper = keep;
}

static void emit_locked(struct record *r)
{
	uint64_t seq = next_seq++;
	size_t n = record_line(r, seq, line, sizeof(line));
	console_write_serial_line_locked(line, n);
	if (keeper)
		keeper(seq, r->type, r->json, r->len);
}

static void (*boot_hook)(void);
static int boot_hook_running;

void record_set_boot_hook(void (*hook)(void))
{
	boot_hook = hook;
}

/* The boot record comes first: a record emitted before it (a warning, an early failure) has the
 * hook emit it now, once. */
static void ensure_boot_record(void)
{
	if (__atomic_load_n(&next_seq, __ATOMIC_ACQUIRE) == 0 && boot_hook &&
	    !__atomic_exchange_n(&boot_hook_running, 1, __ATOMIC_ACQ_REL))
		boot_hook();
}

void record_emit(struct record *r)
{
	if (strcmp(r->type, "boot") != 0)
		ensure_boot_record();
	uint64_t flags = console_acquire();
	emit_locked(r);
	console_release(flags);
}

void record_emit_end(bool pass, unsigned failures, const char *reason)
{
	static struct record r;

	ensure_boot_record();
	uint64_t flags = console_acquire();

	record_begin(&r, "end");
	record_uint(&r, "records", next_seq);
	record_string(&r, "verdict", pass ? "pass" : "fail");
	record_uint(&r, "failures", failures);
	record_string(&r, "reason", reason);
	emit_locked(&r);
	console_release(flags);
}

void record_warn(const char *source, const char *key, const char *value, const char *accepted,
		 const char *used, const char *message)
{
	struct record r;

	kprintf("warning: %s\n", message);
	record_begin(&r, "warn");
	record_string(&r, "key", key);
	record_string(&r, "value", value);
	record_string(&r, "accepted", accepted);
	record_string(&r, "used", used);
	record_string(&r, "source", source);
	record_string(&r, "message", message);
	record_emit(&r);
}
