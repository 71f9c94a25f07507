// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: a table of keys (data) and one parser. Every problem becomes a warning that
 * says what would have been accepted; the value in force stays the default.
 */
#include <stddef.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/format.h"

struct choice {
	const char *name;
	uint8_t value;
};

/* xsu=: the modes one by one, and the two sets that have names of their own. */
static const struct choice xsu_choices[] = {
	{ "off", XSU_MODE_BIT(XSU_MODE_OFF) },
	{ "on", XSU_MODE_BIT(XSU_MODE_ON) },
	{ "core", XSU_MODE_BIT(XSU_MODE_CORE) },
	{ "both", XSU_MODES_BOTH },
	{ "all", XSU_MODES_ALL },
	{ NULL, 0 },
};
static const struct choice sched_choices[] = {
	{ "greedy", SCHED_MODE_GREEDY },
	{ "hk", SCHED_MODE_HK },
	{ NULL, 0 },
};
static const struct choice pmu_choices[] = {
	{ "auto", PMU_REQ_AUTO },
	{ "hw", PMU_REQ_HW },
	{ "model", PMU_REQ_MODEL },
	{ NULL, 0 },
};
static const struct choice exit_choices[] = {
	{ "halt", EXIT_MODE_HALT },
	{ "reboot", EXIT_MODE_REBOOT },
	{ "qemu", EXIT_MODE_QEMU },
	{ NULL, 0 },
};
static const struct choice selftest_choices[] = {
	{ "none", SELFTEST_NONE },
	{ "fault", SELFTEST_FAULT },
	{ "ud", SELFTEST_UD },
	{ "gp", SELFTEST_GP },
	{ "de", SELFTEST_DE },
	{ "stack", SELFTEST_STACK },
	{ "missing-ap", SELFTEST_MISSING_AP },
	{ "user-fault", SELFTEST_USER_FAULT },
	{ "firmware-counters", SELFTEST_FIRMWARE_COUNTERS },
	{ "counter-reset", SELFTEST_COUNTER_RESET },
	{ NULL, 0 },
};
static const struct choice smp_choices[] = {
	{ "pair", SMP_MODE_PAIR },
	{ "all", SMP_MODE_ALL },
	{ NULL, 0 },
};
static const struct choice on_off_choices[] = {
	{ "on", 1 },
	{ "off", 0 },
	{ NULL, 0 },
};
static const struct choice apic_choices[] = {
	{ "auto", APIC_REQUEST_AUTO },
	{ "xapic", APIC_REQUEST_XAPIC },
	{ "x2apic", APIC_REQUEST_X2APIC },
	{ NULL, 0 },
};

enum key_kind {
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

struct key {
	const char *name;
	enum key_kind kind;
	size_t offset;
	const struct choice *choices;
	uint32_t min, max;    /* KEY_UINT: the range; the string kinds: max is the field's size */
	const char *accepted; /* for kinds whose accepted values are not a list of choices */
};

#define FIELD(f) offsetof(struct config, f)

static const struct key keys[] = {
	{ "exp", KEY_NAME_LIST, FIELD(exp), NULL, 0, CONFIG_EXP_MAX,
	  "all|none|experiment names (comma-separated)" },
	{ "xsu", KEY_CHOICE_SET, FIELD(xsu), xsu_choices, 0, 0, NULL },
	{ "sched", KEY_CHOICE, FIELD(sched), sched_choices, 0, 0, NULL },
	{ "pmu", KEY_CHOICE, FIELD(pmu), pmu_choices, 0, 0, NULL },
	{ "mux_ms", KEY_UINT, FIELD(mux_ms), NULL, 1, 1000, "an integer from 1 to 1000" },
	{ "exit", KEY_CHOICE, FIELD(exit), exit_choices, 0, 0, NULL },
	{ "serial", KEY_SERIAL_PORT, FIELD(serial_port), NULL, 0, 0,
	  "com1|com2|com3|com4|0xPORT|none" },
	{ "baud", KEY_BAUD, FIELD(baud), NULL, 300, 115200,
	  "115200|57600|38400|19200|9600 (a divisor of 115200)" },
	{ "selftest", KEY_CHOICE, FIELD(selftest), selftest_choices, 0, 0, NULL },
	{ "core", KEY_CORE, FIELD(core), NULL, 0, 255,
	  "boot|0-255 (a core index, see the boot record)" },
	{ "smp", KEY_CHOICE, FIELD(smp), smp_choices, 0, 0, NULL },
	{ "apic", KEY_CHOICE, FIELD(apic), apic_choices, 0, 0, NULL },
	{ "dur_ms", KEY_UINT, FIELD(dur_ms), NULL, 10, 600000, "an integer from 10 to 600000" },
	{ "triad_kib", KEY_UINT, FIELD(triad_kib), NULL, 16, 262144,
	  "an integer from 16 to 262144 (KiB per array)" },
	{ "triad_reps", KEY_UINT, FIELD(triad_reps), NULL, 0, 1000000,
	  "an integer from 0 (until dur_ms) to 1000000" },
	{ "ht0", KEY_TEXT, FIELD(events[0]), NULL, 0, CONFIG_EVENTS_MAX,
	  "an event list as perf stat -e takes it (no spaces)" },
	{ "ht1", KEY_TEXT, FIELD(events[1]), NULL, 0, CONFIG_EVENTS_MAX,
	  "an event list as perf stat -e takes it (no spaces)" },
	{ "work0", KEY_NAME, FIELD(work[0]), NULL, 0, CONFIG_NAME_MAX, "a workload name" },
	{ "work1", KEY_NAME, FIELD(work[1]), NULL, 0, CONFIG_NAME_MAX, "a workload name" },
	{ "start1_ms", KEY_UINT, FIELD(start1_ms), NULL, 0, 60000, "an integer from 0 to 60000" },
	{ "repeat", KEY_UINT, FIELD(repeat), NULL, 1, 100, "an integer from 1 to 100" },
	{ "chase_kib", KEY_UINT, FIELD(chase_kib), NULL, 4, 262144,
	  "an integer from 4 to 262144 (KiB per thread)" },
	{ "survey_work", KEY_NAME, FIELD(survey_work), NULL, 0, CONFIG_NAME_MAX,
	  "a workload name" },
	{ "qr", KEY_CHOICE, FIELD(qr), on_off_choices, 0, 0, NULL },
	{ "qr_ms", KEY_UINT, FIELD(qr_ms), NULL, 500, 600000, "an integer from 500 to 600000" },
};

#define KEY_COUNT (sizeof(keys) / sizeof(keys[0]))

void config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->xsu = XSU_MODES_ALL; /* each experiment runs the modes it has */
	cfg->sched = SCHED_MODE_GREEDY;
	cfg->pmu = PMU_REQ_AUTO;
	cfg->exit = EXIT_MODE_HALT;
	cfg->selftest = SELFTEST_NONE;
	cfg->mux_ms = 1;
	cfg->serial_port = 0x3f8;
	cfg->baud = 115200;
	cfg->core = CONFIG_CORE_BOOT;
	cfg->smp = SMP_MODE_PAIR;
	cfg->apic = APIC_REQUEST_AUTO;
	cfg->dur_ms = 500;
	cfg->triad_kib = 4096; /* 3 x 4 MiB: larger than L2 and than the L3 of client parts */
	cfg->triad_reps = 0;
	memcpy(cfg->work[0], "triad", 6);
	memcpy(cfg->work[1], "triad", 6);
	cfg->repeat = 1;
	cfg->chase_kib =
		16384; /* 16 MiB: larger than the L3 of client parts, so every load misses */
	memcpy(cfg->survey_work, "triad", 6);
	cfg->qr = 1;
	cfg->qr_ms = CONFIG_QR_MS_DEFAULT;
}

static const char *choice_name(const struct choice *c, unsigned v)
{
	for (; c->name; c++)
		if (c->value == v)
			return c->name;
	return "?";
}

const char *config_xsu_mode_name(unsigned mode)
{
	return choice_name(xsu_choices, XSU_MODE_BIT(mode));
}

const char *config_sched_name(unsigned v)
{
	return choice_name(sched_choices, v);
}

const char *config_pmu_name(unsigned v)
{
	return choice_name(pmu_choices, v);
}

const char *config_exit_name(unsigned v)
{
	return choice_name(exit_choices, v);
}

const char *config_selftest_name(unsigned v)
{
	return choice_name(selftest_choices, v);
}

const char *config_smp_name(unsigned v)
{
	return choice_name(smp_choices, v);
}

const char *config_apic_name(unsigned v)
{
	return choice_name(apic_choices, v);
}

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

const char *config_xsu_modes_text(unsigned modes, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };

	buf[0] = 0;
	for (unsigned m = 0; m < XSU_MODE_COUNT; m++) {
		if (!(modes & XSU_MODE_BIT(m)))
			continue;
		if (t.len)
			text_add_str(&t, ",");
		text_add_str(&t, config_xsu_mode_name(m));
	}
	return buf;
}

static void accepted_text(const struct key *k, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };

	buf[0] = 0;
	switch (k->kind) {
	case KEY_CHOICE:
	case KEY_CHOICE_SET:
		for (const struct choice *c = k->choices; c->name; c++) {
			if (c != k->choices)
				text_add_str(&t, "|");
			text_add_str(&t, c->name);
		}
		if (k->kind == KEY_CHOICE_SET)
			text_add_str(&t, " (comma-separated)");
		break;
	default:
		text_add_str(&t, k->accepted);
		break;
	}
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

static uint8_t choice_value(const struct choice *c, const char *s, size_t n, bool *found)
{
	for (*found = false; c->name; c++) {
		if (equal_n(s, n, c->name)) {
			*found = true;
			return c->value;
		}
	}
	return 0;
}

static bool apply_string(const struct key *k, const char *value, size_t n, char *field)
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

/* Applies value to cfg; false when the value is not acceptable (cfg untouched). */
static bool apply(const struct key *k, const char *value, size_t n, struct config *cfg)
{
	uint8_t *field = (uint8_t *)cfg + k->offset;
	uint64_t v;
	bool found;

	switch (k->kind) {
	case KEY_CHOICE: {
		uint8_t chosen = choice_value(k->choices, value, n, &found);
		if (found)
			*field = chosen;
		return found;
	}
	case KEY_CHOICE_SET: {
		uint8_t set = 0;
		size_t start = 0;
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
	case KEY_NAME_LIST:
	case KEY_NAME:
	case KEY_TEXT:
		return apply_string(k, value, n, (char *)field);
	case KEY_UINT:
	case KEY_BAUD: {
		if (!parse_uint(value, n, &v) || v < k->min || v > k->max)
			return false;
		/* The 16550 divides its 115200 base rate: only the divisors are exact speeds. */
		if (k->kind == KEY_BAUD && 115200 % v != 0)
			return false;
		uint32_t u = (uint32_t)v;
		memcpy(field, &u, sizeof(u));
		return true;
	}
	case KEY_CORE: {
		int32_t core;
		if (equal_n(value, n, "boot"))
			core = CONFIG_CORE_BOOT;
		else if (parse_uint(value, n, &v) && v <= k->max)
			core = (int32_t)v;
		else
			return false;
		memcpy(field, &core, sizeof(core));
		return true;
	}
	case KEY_SERIAL_PORT: {
		static const struct {
			const char *name;
			uint16_t port;
		} ports[] = { { "com1", 0x3f8 },
			      { "com2", 0x2f8 },
			      { "com3", 0x3e8 },
			      { "com4", 0x2e8 },
			      { "none", 0 } };
		uint16_t port = 0;
		bool found = false;
		for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
			if (equal_n(value, n, ports[i].name)) {
				port = ports[i].port;
				found = true;
			}
		}
		if (!found) {
			/* A 16550 occupies eight ports; keep it inside the 16-bit I/O space. */
			if (!parse_hex(value, n, &v) || v == 0 || v > 0xfff8)
				return false;
			port = (uint16_t)v;
		}
		memcpy(field, &port, sizeof(port));
		return true;
	}
	}
	return false;
}

/* The current value of a key, for the "keeping ..." part of a message. */
static void current_value(const struct key *k, const struct config *cfg, char *buf, size_t size)
{
	const uint8_t *field = (const uint8_t *)cfg + k->offset;
	uint32_t u;
	uint16_t port;

	switch (k->kind) {
	case KEY_CHOICE:
		format_snprintf(buf, size, "%s", choice_name(k->choices, *field));
		break;
	case KEY_CHOICE_SET:
		config_xsu_modes_text(*field, buf, size);
		break;
	case KEY_UINT:
	case KEY_BAUD:
		memcpy(&u, field, sizeof(u));
		format_snprintf(buf, size, "%u", u);
		break;
	case KEY_SERIAL_PORT:
		memcpy(&port, field, sizeof(port));
		if (port)
			format_snprintf(buf, size, "0x%x", port);
		else
			format_snprintf(buf, size, "none");
		break;
	case KEY_NAME_LIST:
	case KEY_NAME:
	case KEY_TEXT:
		format_snprintf(buf, size, "%s", (const char *)field);
		break;
	case KEY_CORE: {
		int32_t core;
		memcpy(&core, field, sizeof(core));
		if (core == CONFIG_CORE_BOOT)
			format_snprintf(buf, size, "boot");
		else
			format_snprintf(buf, size, "%d", core);
		break;
	}
	}
}

static void copy_bounded(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

unsigned cmdline_parse(const char *line, struct config *cfg, struct cmdline_warning *warnings,
		       unsigned max_warnings)
{
	unsigned count = 0;

	for (const char *p = line; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		const char *word = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		size_t len = (size_t)(p - word);
		const char *eq = NULL;
		for (size_t i = 0; i < len; i++) {
			if (word[i] == '=') {
				eq = word + i;
				break;
			}
		}

		struct cmdline_warning w;
		memset(&w, 0, sizeof(w));
		const struct key *k = NULL;
		size_t key_len = eq ? (size_t)(eq - word) : len;
		for (size_t i = 0; i < KEY_COUNT; i++)
			if (equal_n(word, key_len, keys[i].name))
				k = &keys[i];

		if (k && eq) {
			const char *value = eq + 1;
			size_t value_len = len - key_len - 1;
			if (apply(k, value, value_len, cfg))
				continue;
			copy_bounded(w.key, sizeof(w.key), word, key_len);
			copy_bounded(w.value, sizeof(w.value), value, value_len);
			accepted_text(k, w.accepted, sizeof(w.accepted));
			current_value(k, cfg, w.used, sizeof(w.used));
			format_snprintf(w.message, sizeof(w.message),
					"%s=%s is not valid (accepted: %s); keeping %s=%s", w.key,
					w.value, w.accepted, w.key, w.used);
		} else {
			struct text t = { w.accepted, sizeof(w.accepted), 0 };
			for (size_t i = 0; i < KEY_COUNT; i++) {
				if (i)
					text_add_str(&t, "|");
				text_add_str(&t, keys[i].name);
			}
			copy_bounded(w.key, sizeof(w.key), word, key_len);
			if (eq)
				copy_bounded(w.value, sizeof(w.value), eq + 1, len - key_len - 1);
			if (k)
				format_snprintf(w.message, sizeof(w.message),
						"'%s' needs a value: write %s=VALUE; ignored",
						w.key, w.key);
			else if (eq)
				format_snprintf(w.message, sizeof(w.message),
						"unknown key '%s' (keys: %s); ignored", w.key,
						w.accepted);
			else
				format_snprintf(w.message, sizeof(w.message),
						"'%s' is not a key=value word (keys: %s); ignored",
						w.key, w.accepted);
		}
		if (count < max_warnings)
			warnings[count] = w;
		count++;
	}
	return count;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
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
