/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record stream: numbers records from 0 without gaps and prints them whole on the serial
 * console (docs/records.md). Safe to call from any CPU.
 */
#ifndef KERNEL_RECORD_STREAM_H
#define KERNEL_RECORD_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/record.h"

void record_emit(struct record *r);

/*
 * The boot record must be first. Until it is out, a record of another type (an exception during
 * bring-up) first calls hook, which emits the boot record with what is known so far.
 */
void record_set_boot_hook(void (*hook)(void));

/* Called with every record emitted from now on, under the console lock (the end-of-run screen
 * keeps a copy of them: kernel/end_screen.h). NULL: none. */
typedef void (*record_keeper)(uint64_t seq, const char *type, const char *json, size_t len);
void record_set_keeper(record_keeper keep);

/* The last record: "records" is its own sequence number (how many came before it). */
void record_emit_end(bool pass, unsigned failures, const char *reason);

/*
 * A "warn" record and the same words on the console: key and value given, what is accepted, what
 * is used instead (NULL when nothing), and where the value came from ("cmdline", "boot", "acpi").
 */
void record_warn(const char *source, const char *key, const char *value, const char *accepted,
		 const char *used, const char *message);

#endif
