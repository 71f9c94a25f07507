// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: one parser over tables of keys (kernel/cmdline.h). Every problem becomes a
 * warning that says what would have been accepted; the value in force stays the default.
 */
#include <stddef.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/lib/format.h"
#include "kernel/record.h"

/* A bounded string under construction. */
struct text {
	char *buf;
	size_t size;
	size_t len;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	while (n-- && *s) {
		if (t->len + 1 < t->size)
			t->buf[t->len++] = *s;
		s++;
	}
	t->buf[t->len] = 0;
}

static void text_add_str(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

static bool parse_uint(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0 || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool parse_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n < 3 || n > 10 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (size_t i = 2; i < n; i++) {
		char c = s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		v = v * 16 + d;
	}
	*out = v;
	return true;
}

static bool equal_n(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncmp(s, word, n) == 0;
}

/* A name: lower-case letters, digits, '-' and '_', at least one. */
static bool name_valid(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
			return false;
	}
	return true;
}

/* Whether every comma-separated part of s[0..n-1] satisfies valid(). */
static bool list_valid(const char *s, size_t n, bool (*valid)(const char *, size_t))
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == ',') {
			if (!valid(s + start, i - start))
				return false;
			start = i + 1;
		}
	}
	return true;
}

/* Printable ASCII, no spaces: an event list (its own parser checks the rest). */
static bool text_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return false;
	return n > 0;
}

const char *cmdline_choice_name(const struct cmdline_choice *c, unsigned v)
{
	for (; c->name; c++)
		if (c->value == v)
			return c->name;
	return "?";
}

static uint8_t choice_value(const struct cmdline_choice *c, const char *s, size_t n, bool *found)
{
	for (*found = false; c->name; c++) {
		if (equal_n(s, n, c->name)) {
			*found = true;
			return c->value;
		}
	}
	return 0;
}

/* A set as a comma list of the names of its single choices, in list order ("off,on,core"). */
static const char *choice_set_text(const struct cmdline_choice *c, unsigned set, char *buf,
				   size_t size)
{
	struct text t = { buf, size, 0 };

	buf[0] = 0;
	for (; c->name; c++) {
		if (!c->value || (c->value & (c->value - 1)) || !(set & c->value))
			continue;
		if (t.len)
			text_add_str(&t, ",");
		text_add_str(&t, c->name);
	}
	return buf;
}

static void accepted_text(const struct cmdline_key *k, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };

	buf[0] = 0;
	if (k->kind != KEY_CHOICE && k->kind != KEY_CHOICE_SET) {
		text_add_str(&t, k->accepted);
		return;
	}
	for (const struct cmdline_choice *c = k->choices; c->name; c++) {
		if (c != k->choices)
			text_add_str(&t, "|");
		text_add_str(&t, c->name);
	}
	if (k->kind == KEY_CHOICE_SET)
		text_add_str(&t, " (comma-separated)");
}

/* ---- applying a value, one kind at a time; false leaves the field as it was ------------------ */

static bool apply_choice(const struct cmdline_key *k, const char *value, size_t n, uint8_t *field)
{
	bool found;
	uint8_t chosen = choice_value(k->choices, value, n, &found);

	if (found)
		*field = chosen;
	return found;
}

static bool apply_choice_set(const struct cmdline_key *k, const char *value, size_t n,
			     uint8_t *field)
{
	uint8_t set = 0;
	size_t start = 0;
	bool found;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && value[i] != ',')
			continue;
		set |= choice_value(k->choices, value + start, i - start, &found);
		if (!found)
			return false;
		start = i + 1;
	}
	*field = set;
	return true;
}

static bool apply_string(const struct cmdline_key *k, const char *value, size_t n, char *field)
{
	bool ok = n < k->max;

	if (k->kind == KEY_NAME_LIST)
		ok = ok && list_valid(value, n, name_valid);
	else if (k->kind == KEY_NAME)
		ok = ok && name_valid(value, n);
	else
		ok = ok && text_valid(value, n);
	if (!ok)
		return false;
	memcpy(field, value, n);
	field[n] = 0;
	return true;
}

static bool apply_uint(const struct cmdline_key *k, const char *value, size_t n, uint8_t *field)
{
	uint64_t v;

	if (!parse_uint(value, n, &v) || v < k->min || v > k->max)
		return false;
	/* The 16550 divides its 115200 base rate: only the divisors are exact speeds. */
	if (k->kind == KEY_BAUD && 115200 % v != 0)
		return false;
	uint32_t u = (uint32_t)v;
	memcpy(field, &u, sizeof(u));
	return true;
}

static bool apply_core(const struct cmdline_key *k, const char *value, size_t n, uint8_t *field)
{
	int32_t core;
	uint64_t v;

	if (equal_n(value, n, "boot"))
		core = CMDLINE_CORE_BOOT;
	else if (parse_uint(value, n, &v) && v <= k->max)
		core = (int32_t)v;
	else
		return false;
	memcpy(field, &core, sizeof(core));
	return true;
}

static bool apply_serial_port(const char *value, size_t n, uint8_t *field)
{
	static const struct cmdline_choice ports[] = {
		{ "com1", 1 }, { "com2", 2 }, { "com3", 3 },
		{ "com4", 4 }, { "none", 0 }, { NULL, 0 },
	};
	static const uint16_t port_of[] = { 0, 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
	uint16_t port;
	uint64_t v;
	bool found;
	uint8_t which = choice_value(ports, value, n, &found);

	if (found) {
		port = port_of[which];
	} else {
		/* A 16550 occupies eight ports; keep it inside the 16-bit I/O space. */
		if (!parse_hex(value, n, &v) || v == 0 || v > 0xfff8)
			return false;
		port = (uint16_t)v;
	}
	memcpy(field, &port, sizeof(port));
	return true;
}

/* Applies value to settings; false when the value is not acceptable (settings untouched). */
static bool apply(const struct cmdline_key *k, const char *value, size_t n, void *settings)
{
	uint8_t *field = (uint8_t *)settings + k->offset;

	switch (k->kind) {
	case KEY_CHOICE:
		return apply_choice(k, value, n, field);
	case KEY_CHOICE_SET:
		return apply_choice_set(k, value, n, field);
	case KEY_NAME_LIST:
	case KEY_NAME:
	case KEY_TEXT:
		return apply_string(k, value, n, (char *)field);
	case KEY_UINT:
	case KEY_BAUD:
		return apply_uint(k, value, n, field);
	case KEY_CORE:
		return apply_core(k, value, n, field);
	case KEY_SERIAL_PORT:
		return apply_serial_port(value, n, field);
	}
	return false;
}

const char *cmdline_value_text(const struct cmdline_key *k, const void *settings, char *buf,
			       size_t size)
{
	const uint8_t *field = (const uint8_t *)settings + k->offset;
	uint32_t u;
	uint16_t port;
	int32_t core;

	switch (k->kind) {
	case KEY_CHOICE:
		format_snprintf(buf, size, "%s", cmdline_choice_name(k->choices, *field));
		break;
	case KEY_CHOICE_SET:
		choice_set_text(k->choices, *field, buf, size);
		break;
	case KEY_UINT:
	case KEY_BAUD:
		memcpy(&u, field, sizeof(u));
		format_snprintf(buf, size, "%u", u);
		break;
	case KEY_SERIAL_PORT:
		memcpy(&port, field, sizeof(port));
		format_snprintf(buf, size, port ? "0x%x" : "none", port);
		break;
	case KEY_NAME_LIST:
	case KEY_NAME:
	case KEY_TEXT:
		format_snprintf(buf, size, "%s", (const char *)field);
		break;
	case KEY_CORE:
		memcpy(&core, field, sizeof(core));
		format_snprintf(buf, size, core == CMDLINE_CORE_BOOT ? "boot" : "%d", core);
		break;
	}
	return buf;
}

static void copy_bounded(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

void cmdline_defaults(const struct cmdline_table *const *tables, unsigned count)
{
	for (unsigned t = 0; t < count; t++)
		tables[t]->defaults(tables[t]->settings);
}

unsigned cmdline_check(const struct cmdline_table *const *tables, unsigned count,
		       const void *machine, struct cmdline_warning *warnings, unsigned max_warnings)
{
	unsigned problems = 0;

	for (unsigned t = 0; t < count; t++) {
		unsigned room = problems < max_warnings ? max_warnings - problems : 0;

		if (tables[t]->check)
			problems += tables[t]->check(tables[t]->settings, machine,
						     warnings + (max_warnings - room), room);
	}
	return problems;
}

/* ---- one word ------------------------------------------------------------------------------- */

/* A word of the line, split at its first '=' (value NULL when there is none). */
struct word {
	const char *key, *value;
	size_t key_len, value_len;
};

static struct word split_word(const char *word, size_t len)
{
	struct word w = { word, NULL, len, 0 };

	for (size_t i = 0; i < len; i++) {
		if (word[i] == '=') {
			w.key_len = i;
			w.value = word + i + 1;
			w.value_len = len - i - 1;
			break;
		}
	}
	return w;
}

/* The key named (the last table that has it wins, as a later word wins), and its settings. */
static const struct cmdline_key *find_key(const struct cmdline_table *const *tables, unsigned count,
					  const struct word *w, void **settings)
{
	const struct cmdline_key *found = NULL;

	for (unsigned t = 0; t < count; t++) {
		for (unsigned i = 0; i < tables[t]->count; i++) {
			if (equal_n(w->key, w->key_len, tables[t]->keys[i].name)) {
				found = &tables[t]->keys[i];
				*settings = tables[t]->settings;
			}
		}
	}
	return found;
}

static void bad_value(const struct cmdline_key *k, const void *settings, const struct word *in,
		      struct cmdline_warning *w)
{
	copy_bounded(w->key, sizeof(w->key), in->key, in->key_len);
	copy_bounded(w->value, sizeof(w->value), in->value, in->value_len);
	accepted_text(k, w->accepted, sizeof(w->accepted));
	cmdline_value_text(k, settings, w->used, sizeof(w->used));
	format_snprintf(w->message, sizeof(w->message),
			"%s=%s is not valid (accepted: %s); keeping %s=%s", w->key, w->value,
			w->accepted, w->key, w->used);
}

static void bad_word(const struct cmdline_table *const *tables, unsigned count,
		     const struct cmdline_key *k, const struct word *in, struct cmdline_warning *w)
{
	struct text t = { w->accepted, sizeof(w->accepted), 0 };

	for (unsigned i = 0; i < count; i++) {
		for (unsigned j = 0; j < tables[i]->count; j++) {
			if (t.len)
				text_add_str(&t, "|");
			text_add_str(&t, tables[i]->keys[j].name);
		}
	}
	copy_bounded(w->key, sizeof(w->key), in->key, in->key_len);
	if (in->value)
		copy_bounded(w->value, sizeof(w->value), in->value, in->value_len);
	if (k)
		format_snprintf(w->message, sizeof(w->message),
				"'%s' needs a value: write %s=VALUE; ignored", w->key, w->key);
	else if (in->value)
		format_snprintf(w->message, sizeof(w->message),
				"unknown key '%s' (keys: %s); ignored", w->key, w->accepted);
	else
		format_snprintf(w->message, sizeof(w->message),
				"'%s' is not a key=value word (keys: %s); ignored", w->key,
				w->accepted);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

unsigned cmdline_parse(const char *line, const struct cmdline_table *const *tables, unsigned count,
		       struct cmdline_warning *warnings, unsigned max_warnings)
{
	unsigned problems = 0;

	for (const char *p = line; *p;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		const char *start = p;
		while (*p && !is_blank(*p))
			p++;
		struct word in = split_word(start, (size_t)(p - start));
		struct cmdline_warning w;
		void *settings = NULL;
		const struct cmdline_key *k = find_key(tables, count, &in, &settings);

		memset(&w, 0, sizeof(w));
		if (k && in.value && apply(k, in.value, in.value_len, settings))
			continue;
		if (k && in.value)
			bad_value(k, settings, &in, &w);
		else
			bad_word(tables, count, k, &in, &w);
		if (problems < max_warnings)
			warnings[problems] = w;
		problems++;
	}
	return problems;
}

void cmdline_record(struct record *r, const struct cmdline_table *const *tables, unsigned count)
{
	char buf[CMDLINE_VALUE_MAX];

	for (unsigned t = 0; t < count; t++) {
		for (unsigned i = 0; i < tables[t]->count; i++) {
			const struct cmdline_key *k = &tables[t]->keys[i];
			const void *settings = tables[t]->settings;
			uint32_t u;

			const uint8_t *field = (const uint8_t *)settings + k->offset;
			const char *text = buf;

			if (!k->recorded)
				continue;
			if (k->kind == KEY_UINT) {
				memcpy(&u, field, sizeof(u));
				record_uint(r, k->name, u);
				continue;
			}
			if (k->kind == KEY_NAME_LIST || k->kind == KEY_NAME || k->kind == KEY_TEXT)
				text = (const char *)
					field; /* whole: longer than a value's buffer */
			else
				cmdline_value_text(k, settings, buf, sizeof(buf));
			record_string(r, k->name, text[0] ? text : NULL);
		}
	}
}

const char *cmdline_skip_image_path(const char *line)
{
	while (is_blank(*line))
		line++;
	while (*line && !is_blank(*line))
		line++;
	return line;
}

unsigned cmdline_non_ascii(const char *line, const char **word, size_t *word_len)
{
	unsigned count = 0;

	for (const char *p = line; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c >= 0x20 && c <= 0x7e) || is_blank(*p))
			continue;
		if (count++ == 0) {
			const char *start = p, *end = p;
			while (start > line && !is_blank(start[-1]))
				start--;
			while (*end && !is_blank(*end))
				end++;
			*word = start;
			*word_len = (size_t)(end - start);
		}
	}
	return count;
}
