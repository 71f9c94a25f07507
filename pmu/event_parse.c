// SPDX-License-Identifier: GPL-2.0
/*
 * The event-list parser (grammar in pmu/event_parse.h). perf's own syntax is the model
 * (tools/perf/util/parse-events.l/.y: rNNN raw events, pmu/term,.../ events, {a,b} groups, :ukD
 * modifiers); the messages name the part of the text that is wrong.
 */
#include <stddef.h>
#include <string.h>

#include "pmu/event_names.h"
#include "pmu/event_parse.h"
#include "pmu/regs.h"

/* The PERFEVTSEL bits an event may select (SDM vol. 3B, fig. 18-1): event select, unit mask,
 * edge, AnyThread, invert, counter mask. */
#define RAW_SELECTION_BITS                                                                         \
	(PERFEVTSEL_EVENT_MASK | PERFEVTSEL_UMASK_MASK | PERFEVTSEL_EDGE | PERFEVTSEL_ANY |        \
	 PERFEVTSEL_INV | PERFEVTSEL_CMASK_MASK)
/* USR, OS, INT and EN are the kernel's: like perf (X86_RAW_EVENT_MASK) a raw value may carry them
 * and they are ignored, so a code printed by libpfm4 or by the thesis (0x1570148) can be pasted
 * back. Pin control and bits 32-63 are refused. */
#define RAW_IGNORED_BITS (PERFEVTSEL_USR | PERFEVTSEL_OS | PERFEVTSEL_INT | PERFEVTSEL_EN)
#define RAW_REFUSED_BITS (~(RAW_SELECTION_BITS | RAW_IGNORED_BITS))
/* The refusal's message names pin control and the bits above 31: nothing else may be refused. */
_Static_assert(RAW_REFUSED_BITS == (PERFEVTSEL_PC | ~PERFEVTSEL_VALID_MASK),
	       "a raw value refuses exactly pin control and the bits above 31");

struct parser {
	const char *text;
	size_t len;
	const struct uarch *u;
	struct pmu_event *events;
	unsigned max;
	unsigned n;
	uint16_t group;
	struct event_parse_error *error;
};

struct modifiers {
	bool usr;
	bool os;
	bool pinned;
	bool privilege; /* u or k was given */
};

/* ---- the error message, built without printf --------------------------------------------- */

struct message {
	char *buf;
	size_t used;
};

static void say_n(struct message *m, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i] && m->used + 1 < EVENT_PARSE_MESSAGE_MAX; i++)
		m->buf[m->used++] = s[i];
	m->buf[m->used] = 0;
}

static void say(struct message *m, const char *s)
{
	say_n(m, s, strlen(s));
}

static void say_quoted(struct message *m, const char *s, size_t n)
{
	say(m, "'");
	say_n(m, s, n);
	say(m, "'");
}

static void say_uint(struct message *m, uint64_t v)
{
	char digits[24];
	unsigned i = 0;

	do {
		digits[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i) {
		char c = digits[--i];
		say_n(m, &c, 1);
	}
}

/* Start the message about text[at..at+n): the caller says the rest; parsing returns -1. */
static struct message blame(struct parser *p, size_t at, size_t n)
{
	struct message m = { p->error->message, 0 };

	p->error->offset = (unsigned)at;
	p->error->length = (unsigned)n;
	m.buf[0] = 0;
	return m;
}

/* "<before>'<text[at..at+n)>'<after>", or "<before><after>" when the part is empty. */
static int fail(struct parser *p, size_t at, size_t n, const char *before, const char *after)
{
	struct message m = blame(p, at, n);

	say(&m, before);
	if (n)
		say_quoted(&m, p->text + at, n);
	say(&m, after);
	return -1;
}

/* ---- characters and numbers -------------------------------------------------------------- */

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* s[0..n) as 0x-prefixed hexadecimal or as decimal; false on a bad digit or overflow. */
static bool parse_number(const char *s, size_t n, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		n -= 2;
	}
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0 || (unsigned)d >= base || v > (UINT64_MAX - (unsigned)d) / base)
			return false;
		v = v * base + (unsigned)d;
	}
	*out = v;
	return true;
}

static bool is_delimiter(char c)
{
	return c == ',' || c == '}' || c == '{' || c == 0;
}

static bool is_separator(char c)
{
	return c == ':' || c == '.';
}

/* The selection fields of a raw PERFEVTSEL value (its USR, OS, INT and EN are ignored). */
static void decode_selection(uint64_t config, struct pmu_event *e)
{
	struct perfevtsel_fields f = regs_perfevtsel_decode(config);

	e->event = f.event;
	e->umask = f.umask;
	e->edge = f.edge;
	e->any = f.any;
	e->inv = f.inv;
	e->cmask = f.cmask;
}

/* ---- pieces of an event ------------------------------------------------------------------ */

/* text[at..at+n) are modifier letters; merged into *mod. */
static int parse_modifiers(struct parser *p, size_t at, size_t n, struct modifiers *mod)
{
	if (n == 0)
		return fail(p, at, 0, "empty modifier after ':'", "");
	for (size_t i = 0; i < n; i++) {
		switch (p->text[at + i]) {
		case 'u':
			mod->usr = true;
			mod->privilege = true;
			break;
		case 'k':
			mod->os = true;
			mod->privilege = true;
			break;
		case 'D':
			mod->pinned = true;
			break;
		case 'p':
		case 'P':
			return fail(p, at + i, 1, "modifier ",
				    ": precise sampling does not apply to counting (use u, k, D)");
		default:
			return fail(p, at + i, 1, "unknown modifier ", " (use u, k, D)");
		}
	}
	return 0;
}

static bool all_modifier_letters(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != 'u' && s[i] != 'k' && s[i] != 'D')
			return false;
	return n > 0;
}

static struct pmu_event *new_event(struct parser *p, size_t at, size_t end)
{
	struct pmu_event *e;
	size_t n = end - at;

	if (p->n >= p->max) {
		struct message m = blame(p, at, n);

		say(&m, "too many events: at most ");
		say_uint(&m, p->max);
		return NULL;
	}
	e = &p->events[p->n++];
	memset(e, 0, sizeof(*e));
	if (n >= PMU_EVENT_NAME_MAX)
		n = PMU_EVENT_NAME_MAX - 1;
	memcpy(e->name, p->text + at, n);
	e->name[n] = 0;
	e->group = p->group;
	return e;
}

/* cpu/term,term/ starting at p->text[at]; *end receives the position after the closing '/'. */
static int parse_pmu_terms(struct parser *p, size_t at, struct pmu_event *e, size_t *end)
{
	size_t pos = at + 4; /* after "cpu/" */
	bool have_event = false;

	for (;;) {
		size_t name = pos, name_len, value = 0, value_len = 0;
		uint64_t v = 1;
		unsigned bits = 8;

		while (pos < p->len && p->text[pos] != '=' && p->text[pos] != ',' &&
		       p->text[pos] != '/')
			pos++;
		name_len = pos - name;
		if (pos < p->len && p->text[pos] == '=') {
			value = ++pos;
			while (pos < p->len && p->text[pos] != ',' && p->text[pos] != '/')
				pos++;
			value_len = pos - value;
		}
		if (pos >= p->len)
			return fail(p, at, 4, "missing '/' to close ", "");
		if (name_len == 0)
			return fail(p, name, 0, "empty term in cpu/.../", "");
		if (value && !parse_number(p->text + value, value_len, &v))
			return fail(p, value, value_len, "bad number ",
				    " (decimal or 0x-hexadecimal)");

#define TERM(s) (name_len == sizeof(s) - 1 && !strncmp(p->text + name, s, name_len))
		if (TERM("event") || TERM("umask") || TERM("cmask")) {
			if (!value)
				return fail(p, name, name_len, "term ", " needs a value (=N)");
		} else if (TERM("inv") || TERM("edge") || TERM("any")) {
			bits = 1;
		} else if (TERM("config")) {
			bits = 64;
			if (!value)
				return fail(p, name, name_len, "term ", " needs a value (=N)");
		} else {
			return fail(p, name, name_len, "unknown term ",
				    " (event, umask, cmask, inv, edge, any, config)");
		}
		if (bits < 64 && v >> bits) {
			struct message m = blame(p, value, value_len);

			say(&m, "value ");
			say_quoted(&m, p->text + value, value_len);
			say(&m, " of ");
			say_quoted(&m, p->text + name, name_len);
			say(&m, " does not fit in ");
			say_uint(&m, bits);
			say(&m, bits == 1 ? " bit" : " bits");
			return -1;
		}
		if (TERM("event")) {
			e->event = (uint8_t)v;
			have_event = true;
		} else if (TERM("umask")) {
			e->umask = (uint8_t)v;
		} else if (TERM("cmask")) {
			e->cmask = (uint8_t)v;
		} else if (TERM("inv")) {
			e->inv = v != 0;
		} else if (TERM("edge")) {
			e->edge = v != 0;
		} else if (TERM("any")) {
			e->any = v != 0;
		} else {
			if (v & RAW_REFUSED_BITS)
				return fail(p, value, value_len, "config ",
					    " sets pin control or bits above 31 of PERFEVTSEL");
			decode_selection(v, e);
			have_event = true;
		}
#undef TERM
		if (p->text[pos] == '/')
			break;
		pos++; /* ',' */
	}
	if (!have_event)
		return fail(p, at, pos + 1 - at, "", " needs event= (or config=)");
	*end = pos + 1;
	return 0;
}

/* Perf's software events, which no hardware counter counts: worth a precise message. */
static bool is_software_event(const char *s, size_t n)
{
	static const char *const names[] = {
		"faults",
		"page-faults",
		"minor-faults",
		"major-faults",
		"context-switches",
		"cs",
		"cpu-migrations",
		"migrations",
		"task-clock",
		"cpu-clock",
		"alignment-faults",
		"emulation-faults",
		NULL,
	};

	for (const char *const *name = names; *name; name++)
		if (strlen(*name) == n && !strncmp(*name, s, n))
			return true;
	return false;
}

/*
 * A raw or symbolic event text[at..end) with its modifiers, split at ':' and '.' into
 * components.
 */
static int parse_named(struct parser *p, size_t at, size_t end, struct pmu_event *e,
		       struct modifiers *mod)
{
	size_t start[PMU_EVENT_NAME_MAX], stop[PMU_EVENT_NAME_MAX];
	unsigned comps = 0, named = 0;
	const char *s = p->text;

	for (size_t pos = at; pos <= end && comps < PMU_EVENT_NAME_MAX; comps++) {
		start[comps] = pos;
		while (pos < end && !is_separator(s[pos]))
			pos++;
		stop[comps] = pos;
		pos++;
	}
	if (stop[0] == start[0])
		return fail(p, at, end - at, "missing event name in ", "");

	/* Raw: r followed by hexadecimal digits, the whole first component (perf's PE_RAW). */
	if (s[at] == 'r' && stop[0] - start[0] > 1) {
		uint64_t config = 0;
		size_t i;

		for (i = start[0] + 1; i < stop[0] && hex_digit(s[i]) >= 0; i++)
			;
		if (i == stop[0]) {
			for (i = start[0] + 1; i < stop[0]; i++)
				config = config << 4 | (uint64_t)hex_digit(s[i]);
			if (stop[0] - start[0] - 1 > 16 || (config & RAW_REFUSED_BITS))
				return fail(p, start[0], stop[0] - start[0], "raw event ",
					    " sets pin control or bits above 31 of PERFEVTSEL");
			decode_selection(config, e);
			named = 1;
		}
	}

	if (!named) {
		for (unsigned k = comps < 2 ? comps : 2; k >= 1 && !named; k--) {
			const struct event_name *entry =
				event_name_lookup(s + at, stop[k - 1] - at, p->u, NULL);

			if (!entry)
				continue;
			event_name_to_event(entry, e);
			named = k;
		}
	}

	if (!named) {
		/* Say what is wrong: the name is unknown, or only its unit mask, or it exists for
		 * another microarchitecture. */
		size_t name_end = stop[0];
		bool elsewhere = false;
		struct message m;

		if (comps >= 2 && !all_modifier_letters(s + start[1], stop[1] - start[1]))
			name_end = stop[1];
		event_name_lookup(s + at, name_end - at, p->u, &elsewhere);
		if (elsewhere) {
			m = blame(p, at, name_end - at);
			say(&m, "event ");
			say_quoted(&m, s + at, name_end - at);
			say(&m, " does not exist on ");
			say(&m, p->u ? p->u->display_name : "every microarchitecture");
			return -1;
		}
		if (is_software_event(s + at, stop[0] - at))
			return fail(p, at, stop[0] - at, "software event ",
				    " is not counted by the core PMU");
		if (comps >= 2 && name_end == stop[1] &&
		    event_name_event_known(s + at, stop[0] - at)) {
			m = blame(p, start[1], stop[1] - start[1]);
			say(&m, "unknown unit mask ");
			say_quoted(&m, s + start[1], stop[1] - start[1]);
			say(&m, " of event ");
			say_quoted(&m, s + at, stop[0] - at);
			return -1;
		}
		return fail(p, at, name_end - at, "unknown event ", "");
	}

	for (unsigned k = named; k < comps; k++)
		if (parse_modifiers(p, start[k], stop[k] - start[k], mod))
			return -1;
	return 0;
}

/* One event at p->text[*pos], up to a delimiter; in_group forbids D. */
static int parse_event(struct parser *p, size_t *pos, bool in_group, bool *privilege)
{
	size_t at = *pos, end = at, body_end;
	struct modifiers mod = { false, false, false, false };
	struct pmu_event *e;
	const char *s = p->text;

	if (s[at] == 'c' && !strncmp(s + at, "cpu/", 4)) {
		struct pmu_event probe;

		memset(&probe, 0, sizeof(probe));
		if (parse_pmu_terms(p, at, &probe, &body_end))
			return -1;
		end = body_end;
		if (s[end] == ':')
			end++;
		while (!is_delimiter(s[end]))
			end++;
		if (end > body_end && parse_modifiers(p, body_end + (s[body_end] == ':'),
						      end - body_end - (s[body_end] == ':'), &mod))
			return -1;
		e = new_event(p, at, end);
		if (!e)
			return -1;
		probe.group = e->group;
		memcpy(probe.name, e->name, sizeof(probe.name));
		*e = probe;
	} else {
		while (!is_delimiter(s[end]))
			end++;
		if (end == at)
			return fail(p, at, 0, "missing event", "");
		for (size_t i = at; i < end; i++)
			if (s[i] == '/')
				return fail(p, at, i - at, "unknown PMU ",
					    " (only cpu/.../ is known)");
		e = new_event(p, at, end);
		if (!e)
			return -1;
		if (parse_named(p, at, end, e, &mod))
			return -1;
	}

	if (mod.pinned && in_group)
		return fail(p, at, end - at, "pinned (D) applies to a whole group: in ",
			    " write it after the '}'");
	e->usr = mod.privilege ? mod.usr : true;
	e->os = mod.privilege ? mod.os : true;
	e->pinned = mod.pinned;
	*privilege = mod.privilege;
	*pos = end;
	return 0;
}

/* '{' event, ... '}' [':' modifiers] at p->text[*pos]. */
static int parse_group(struct parser *p, size_t *pos)
{
	size_t open = *pos, at = open + 1;
	unsigned first = p->n;
	uint64_t own_privilege = 0;
	struct modifiers mod = { false, false, false, false };

	for (;;) {
		bool privilege;

		if (p->text[at] == '{')
			return fail(p, at, 1, "groups cannot nest: ", "");
		if (p->text[at] == '}' && p->n == first)
			return fail(p, open, at + 1 - open, "empty group ", "");
		if (parse_event(p, &at, true, &privilege))
			return -1;
		if (privilege && p->n - 1 - first < 64)
			own_privilege |= 1ull << (p->n - 1 - first);
		if (p->text[at] == ',') {
			at++;
			continue;
		}
		if (p->text[at] == '}')
			break;
		return fail(p, open, at - open, "missing '}' to close the group ", "");
	}
	at++;
	if (p->text[at] == ':') {
		size_t m = ++at;

		while (!is_delimiter(p->text[at]))
			at++;
		if (parse_modifiers(p, m, at - m, &mod))
			return -1;
	}
	for (unsigned i = first; i < p->n; i++) {
		struct pmu_event *e = &p->events[i];

		/* A member's own u/k wins over the group's. */
		if (mod.privilege && !(i - first < 64 && (own_privilege >> (i - first) & 1))) {
			e->usr = mod.usr;
			e->os = mod.os;
		}
		e->pinned = mod.pinned;
	}
	*pos = at;
	return 0;
}

int event_parse_list(const char *text, const struct uarch *u, struct pmu_event *events,
		     unsigned max, struct event_parse_error *error)
{
	struct parser p = {
		.text = text,
		.len = strlen(text),
		.u = u,
		.events = events,
		.max = max,
		.n = 0,
		.group = 0,
		.error = error,
	};
	size_t pos = 0;

	error->offset = 0;
	error->length = 0;
	error->message[0] = 0;
	if (p.len == 0)
		return fail(&p, 0, 0, "empty event list", "");

	for (;;) {
		bool privilege;
		int r = text[pos] == '{' ? parse_group(&p, &pos)
					 : parse_event(&p, &pos, false, &privilege);

		if (r)
			return -1;
		p.group++;
		if (text[pos] == 0)
			break;
		if (text[pos] != ',')
			return fail(&p, pos, 1, "unexpected ", " (events are separated by ',')");
		pos++;
		if (text[pos] == 0)
			return fail(&p, pos, 0, "missing event after the last ','", "");
	}
	return (int)p.n;
}
