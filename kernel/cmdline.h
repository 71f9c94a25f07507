/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel command line: `key=value` words (docs/ARCHITECTURE.md, "Contracts"), parsed against
 * tables of keys. The kernel has its table (kernel/config.c) and the payload its own (given by
 * payload_keys(), kernel/payload.h): one parse over both, before the boot record, so that a word
 * neither knows is named in a warning with every key, and the boot record's configuration shows
 * the keys of both. An unknown key or a bad value yields a warning that names the accepted
 * values, and the default stays in force.
 *
 * Pure code (host-tested). The tables are data.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct record;

/* One name of a KEY_CHOICE or KEY_CHOICE_SET key and the value it stands for. */
struct cmdline_choice {
	const char *name;
	uint8_t value;
};

enum cmdline_kind {
	KEY_CHOICE,	 /* one name from a list -> uint8_t */
	KEY_CHOICE_SET,	 /* comma list of names from a list -> uint8_t, their values ORed */
	KEY_UINT,	 /* decimal in [min, max] -> uint32_t */
	KEY_NAME_LIST,	 /* comma list of names ([a-z0-9_-]), at most max bytes -> string */
	KEY_NAME,	 /* one name ([a-z0-9_-]), at most max bytes -> string */
	KEY_TEXT,	 /* printable ASCII without spaces, at most max bytes -> string */
	KEY_SERIAL_PORT, /* com1..com4, 0xPORT or none -> uint16_t */
	KEY_BAUD,	 /* a divisor of the 16550's 115200 base rate -> uint32_t */
	KEY_CORE,	 /* "boot" or a core index 0-255 -> int32_t */
};

/* CMDLINE_CORE_BOOT in a KEY_CORE field: the boot CPU's core. */
#define CMDLINE_CORE_BOOT (-1)

struct cmdline_key {
	const char *name;
	enum cmdline_kind kind;
	size_t offset;			      /* of the field in the table's settings */
	const struct cmdline_choice *choices; /* KEY_CHOICE, KEY_CHOICE_SET; ends with NULL */
	uint32_t min, max;    /* KEY_UINT: the range; the string kinds: max is the field's size */
	const char *accepted; /* for kinds whose accepted values are not a list of choices */
	bool recorded;	      /* shown in the boot record's configuration (boot.config) */
};

struct cmdline_warning;

/* A table of keys and the settings they fill. */
struct cmdline_table {
	const struct cmdline_key *keys;
	unsigned count;
	void *settings;
	void (*defaults)(void *settings); /* the values in force before the line is parsed */
	/*
	 * What only the machine can tell (an event list against this CPU's tables), once the machine
	 * is known and before the boot record: settles the settings (a bad part dropped, a default
	 * restored), so that the boot record shows what is taken, and says why in warnings (at
	 * most max); returns how many there were. NULL: nothing to check.
	 */
	unsigned (*check)(void *settings, const void *machine, struct cmdline_warning *warnings,
			  unsigned max);
};

#define CMDLINE_KEY_MAX 32
#define CMDLINE_VALUE_MAX 64
#define CMDLINE_ACCEPTED_MAX 256

struct cmdline_warning {
	char key[CMDLINE_KEY_MAX];
	char value[CMDLINE_VALUE_MAX];
	char accepted[CMDLINE_ACCEPTED_MAX]; /* e.g. "on|off|both", or the list of keys */
	char used[CMDLINE_VALUE_MAX];	     /* the value in force instead; empty for a bad key */
	char message[CMDLINE_ACCEPTED_MAX + 128];
};

/* Every table's defaults. */
void cmdline_defaults(const struct cmdline_table *const *tables, unsigned count);

/*
 * Parse line into the tables' settings (which the caller has set to defaults). Values are
 * checked for their form and range here; what only the payload knows (experiment, workload and
 * event names) it checks itself. Writes at most max_warnings warnings and returns how many there
 * were in all.
 */
unsigned cmdline_parse(const char *line, const struct cmdline_table *const *tables, unsigned count,
		       struct cmdline_warning *warnings, unsigned max_warnings);

/* Every table's check (struct cmdline_table) against machine; the number of warnings in all. */
unsigned cmdline_check(const struct cmdline_table *const *tables, unsigned count,
		       const void *machine, struct cmdline_warning *warnings,
		       unsigned max_warnings);

/* The value of key in settings as the command line spells it ("greedy", "off,on", "500"). */
const char *cmdline_value_text(const struct cmdline_key *key, const void *settings, char *buf,
			       size_t size);

/*
 * The recorded keys of every table into the open object of r, in table order: a choice by its
 * name, a set of choices as a comma list of the single ones ("off,on,core"), numbers as numbers,
 * strings as strings (null when empty).
 */
void cmdline_record(struct record *r, const struct cmdline_table *const *tables, unsigned count);

/* The name of choice value v in a list ending with NULL; "?" when none has it. */
const char *cmdline_choice_name(const struct cmdline_choice *choices, unsigned v);

/*
 * The command line without its first word: for a loader that puts the image's path there
 * (boot_cmdline_has_image_path(), kernel/multiboot.h). Any word may contain '/' or lack '=', so
 * the boot protocol decides, never the word itself.
 */
const char *cmdline_skip_image_path(const char *line);

/*
 * How many bytes of line are outside printable ASCII (0x20-0x7E; tab, CR and LF separate words
 * and do not count). Records show each as \u00XX (kernel/record.c). When there is one, *word and
 * *word_len give the word that holds the first.
 */
unsigned cmdline_non_ascii(const char *line, const char **word, size_t *word_len);

#endif
