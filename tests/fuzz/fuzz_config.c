// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the whole path from the command line to the boot record's configuration,
 * as the kernel takes it (kernel/kmain.c): the kernel's keys and the payload's parsed
 * (kernel/cmdline.c), then checked against a Haswell with the model PMU (tests/payload_check.c),
 * then recorded (cmdline_record).
 *
 * Input: the command line (at most the kernel's 1023 characters).
 * The property (issue 20): every word is either taken, and then what the record shows is what
 * that word alone gives, or named in a warning. A word that is not key=value is always named;
 * of a key given twice only the last counts (the last word wins); an event list is judged part
 * by part: each part is in the recorded list or named in a warning of its own. The record stays
 * a whole, balanced JSON object.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/boot_info.h"
#include "kernel/cmdline.h"
#include "kernel/config.h"
#include "kernel/record.h"
#include "pmu/model.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/payload_check.h"
#include "tests/lib/payload_config.h"

#define MAX_WARNINGS 64

struct settings {
	struct config kernel;
	struct payload_config payload;
	struct cmdline_table tables[2];
	const struct cmdline_table *list[2];
};

static const char *const workloads[] = { "triad", "copy", "chase", "branchy", "alu", "idle", NULL };
static const char *const experiments[] = { "ch4-branch-misses", "ch7-three-events", "leak-survey",
					   NULL };

static void prepare(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	config_table(&s->kernel, &s->tables[0]);
	payload_config_table(&s->payload, &s->tables[1]);
	s->list[0] = &s->tables[0];
	s->list[1] = &s->tables[1];
	cmdline_defaults(s->list, 2);
}

/* The line through parse and check, as the kernel does; the warnings, and how many. */
static unsigned take(const char *line, struct settings *s, struct cmdline_warning *w)
{
	static struct pmu_geometry geometry;
	const struct uarch *haswell = uarch_by_name("haswell");
	struct payload_machine machine = { haswell, &geometry, workloads, experiments };

	geometry = model_geometry(haswell, true);
	prepare(s);
	unsigned n = cmdline_parse(line, s->list, 2, w, MAX_WARNINGS);
	unsigned room = n < MAX_WARNINGS ? MAX_WARNINGS - n : 0;
	return n + payload_check(&s->payload, &machine, w + (MAX_WARNINGS - room), room);
}

static const struct cmdline_key *key_named(const struct settings *s, const char *name, size_t len,
					   const void **settings)
{
	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < s->tables[t].count; i++)
			if (strlen(s->tables[t].keys[i].name) == len &&
			    !strncmp(s->tables[t].keys[i].name, name, len)) {
				*settings = s->tables[t].settings;
				return &s->tables[t].keys[i];
			}
	return NULL;
}

/* Whether a warning names key (and, when value is not NULL, that value, as far as it holds). */
static bool warned(const struct cmdline_warning *w, unsigned n, const char *key, size_t key_len,
		   const char *value, size_t value_len)
{
	for (unsigned i = 0; i < n && i < MAX_WARNINGS; i++) {
		size_t vl = value_len < sizeof(w[i].value) - 1 ? value_len : sizeof(w[i].value) - 1;
		if (strlen(w[i].key) ==
			    (key_len < sizeof(w[i].key) - 1 ? key_len : sizeof(w[i].key) - 1) &&
		    !strncmp(w[i].key, key, strlen(w[i].key)) &&
		    (!value || (strlen(w[i].value) == vl && !strncmp(w[i].value, value, vl))))
			return true;
	}
	return false;
}

/* Whether part is one of the comma-separated parts of list. */
static bool has_part(const char *list, const char *part, size_t len)
{
	for (const char *p = list; *p;) {
		size_t n = payload_list_part(p);
		if (n == len && !strncmp(p, part, len))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* An event list: each part taken (in the recorded list) or named. */
static void check_list(const char *key, size_t key_len, const char *value, size_t len,
		       const char *taken, const struct cmdline_warning *w, unsigned n)
{
	char copy[BOOT_CMDLINE_MAX];

	memcpy(copy, value, len);
	copy[len] = 0;
	for (const char *p = copy; *p;) {
		size_t part = payload_list_part(p);
		FUZZ_CHECK(has_part(taken, p, part) || warned(w, n, key, key_len, p, part));
		p += part + (p[part] == ',');
	}
}

/* The last word of each key, taken or named (the property above). */
static void check_word(const char *line, const char *word, size_t len, const struct settings *s,
		       const struct cmdline_warning *w, unsigned n)
{
	const char *eq = memchr(word, '=', len);
	size_t key_len = eq ? (size_t)(eq - word) : len;
	const void *settings = NULL;
	const struct cmdline_key *k = key_named(s, word, key_len, &settings);
	char now[CMDLINE_VALUE_MAX], alone_text[CMDLINE_VALUE_MAX], one[BOOT_CMDLINE_MAX];
	static struct settings alone;
	static struct cmdline_warning scratch[MAX_WARNINGS];

	if (!k || !eq) {
		FUZZ_CHECK(warned(w, n, word, key_len, NULL, 0));
		return;
	}
	/* Only the last word of a key counts: a later one with the same key wins. */
	for (const char *p = word + len; (p = strstr(p, " ")) != NULL;) {
		p++;
		if (!strncmp(p, word, key_len + 1))
			return;
	}
	(void)line;
	if (warned(w, n, word, key_len, NULL, 0) && k->kind != KEY_TEXT)
		return;
	if (k->kind == KEY_TEXT) {
		/* The parser refused the whole list (too long): named as a whole. */
		if (warned(w, n, word, key_len, eq + 1, len - key_len - 1))
			return;
		check_list(word, key_len, eq + 1, len - key_len - 1,
			   (const char *)settings + k->offset, w, n);
		return;
	}
	memcpy(one, word, len);
	one[len] = 0;
	take(one, &alone, scratch);
	const void *alone_settings = NULL;
	const struct cmdline_key *ka = key_named(&alone, word, key_len, &alone_settings);
	FUZZ_CHECK(!strcmp(cmdline_value_text(k, settings, now, sizeof(now)),
			   cmdline_value_text(ka, alone_settings, alone_text, sizeof(alone_text))));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	static struct settings s;
	static struct cmdline_warning w[MAX_WARNINGS];
	static struct record r;

	if (size > BOOT_CMDLINE_MAX - 1)
		return 0;
	char *line = fuzz_string(&in);
	for (char *p = line; *p; p++) /* the kernel's words are split at blanks */
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	unsigned n = take(line, &s, w);
	if (n <= MAX_WARNINGS)
		for (const char *p = line; *p;) {
			while (*p == ' ')
				p++;
			const char *word = p;
			while (*p && *p != ' ')
				p++;
			if (p > word)
				check_word(line, word, (size_t)(p - word), &s, w, n);
		}
	record_begin(&r, "boot");
	record_begin_object(&r, "config");
	cmdline_record(&r, s.list, 2);
	record_end_object(&r);
	FUZZ_CHECK(!r.malformed);
	FUZZ_CHECK(record_json(&r)[0] == '{');
	free(line);
	return 0;
}
