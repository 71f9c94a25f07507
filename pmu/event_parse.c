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
#include "pmu/event_table.h"
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

/* What the modifiers after an event (":u", ":cmask=1", ...) or a group ("}:k") say. */
struct modifiers {
	bool usr;
	bool os;
	bool pinned;
	uint8_t precise; /* p letters; P: the most (3) */
	bool privilege;	 /* u or k was given */
	bool cmask_given, inv_given, edge_given;
	uint8_t cmask;
	bool inv, edge;
};

/* Modifier terms an event takes on top of its name: the PERFEVTSEL filters. */
#define MODIFIER_HELP "use u, k, D, p, cmask=N, inv, edge"

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

/* Start the message about text[at..at+n): the caller says the rest; parsing returns false. */
static struct message blame(struct parser *p, size_t at, size_t n)
{
	struct message m = { p->error->message, 0 };

	p->error->offset = (unsigned)at;
	p->error->length = (unsigned)n;
	m.buf[0] = 0;
	return m;
}

/* "<before>'<text[at..at+n)>'<after>", or "<before><after>" when the part is empty. */
static bool fail(struct parser *p, size_t at, size_t n, const char *before, const char *after)
{
	struct message m = blame(p, at, n);

	say(&m, before);
	if (n)
		say_quoted(&m, p->text + at, n);
	say(&m, after);
	return false;
}

/* ---- characters and numbers -------------------------------------------------------------- */

/* The value of hexadecimal digit c into *value; false when c is no such digit. */
static bool hex_digit(char c, unsigned *value)
{
	if (c >= '0' && c <= '9')
		*value = (unsigned)(c - '0');
	else if (c >= 'a' && c <= 'f')
		*value = (unsigned)(c - 'a' + 10);
	else if (c >= 'A' && c <= 'F')
		*value = (unsigned)(c - 'A' + 10);
	else
		return false;
	return true;
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
		unsigned d;

		if (!hex_digit(s[i], &d) || d >= base || v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
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

/* text[at..at+n) are modifier letters (u, k, D); merged into *mod. */
static bool parse_modifier_letters(struct parser *p, size_t at, size_t n, struct modifiers *mod)
{
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
			/* Accepted as perf stat accepts it: counting ignores it (the caller says so). */
			if (mod->precise < 3)
				mod->precise++;
			break;
		case 'P':
			mod->precise = 3;
			break;
		default:
			return fail(p, at + i, 1, "unknown modifier ", " (" MODIFIER_HELP ")");
		}
	}
	return true;
}

/* The term word of text[at..at+n) (before any '='): "cmask", "inv", "edge", or NULL. */
static const char *modifier_term(const char *s, size_t n)
{
	static const char *const terms[] = { "cmask", "inv", "edge" };
	size_t word = 0;

	while (word < n && s[word] != '=')
		word++;
	for (unsigned t = 0; t < sizeof(terms) / sizeof(terms[0]); t++)
		if (strlen(terms[t]) == word && !strncmp(terms[t], s, word))
			return terms[t];
	return NULL;
}

static bool is_modifier_letters(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != 'u' && s[i] != 'k' && s[i] != 'D' && s[i] != 'p' && s[i] != 'P')
			return false;
	return n > 0;
}

/* Whether text[at..at+n) reads as a modifier rather than as part of a name. */
static bool is_modifier(const char *s, size_t n)
{
	return is_modifier_letters(s, n) || modifier_term(s, n) != NULL;
}

/* A term modifier text[at..at+n): cmask=N, inv[=0|1], edge[=0|1]; merged into *mod. */
static bool parse_modifier_term(struct parser *p, size_t at, size_t n, const char *term,
				struct modifiers *mod)
{
	size_t word = strlen(term);
	uint64_t v = 1;
	bool is_cmask = term[0] == 'c';

	if (word < n && !parse_number(p->text + at + word + 1, n - word - 1, &v))
		return fail(p, at, n, "bad value in ", " (decimal or 0x-hexadecimal)");
	if (is_cmask && word == n)
		return fail(p, at, n, "modifier ", " needs a value (cmask=N)");
	if (v > (is_cmask ? 0xffu : 1u)) {
		struct message m = blame(p, at, n);

		say(&m, "value of ");
		say_quoted(&m, p->text + at, n);
		say(&m, is_cmask ? " does not fit in 8 bits" : " is neither 0 nor 1");
		return false;
	}
	if (is_cmask) {
		mod->cmask_given = true;
		mod->cmask = (uint8_t)v;
	} else if (term[0] == 'i') {
		mod->inv_given = true;
		mod->inv = v != 0;
	} else {
		mod->edge_given = true;
		mod->edge = v != 0;
	}
	return true;
}

/* text[at..at+n) is one modifier component: letters, or a term when terms is true. */
static bool parse_modifiers(struct parser *p, size_t at, size_t n, struct modifiers *mod,
			    bool terms)
{
	const char *term = modifier_term(p->text + at, n);

	if (n == 0)
		return fail(p, at, 0, "empty modifier after ':'", "");
	if (term && !terms)
		return fail(
			p, at, n, "modifier ",
			" applies to one event: write it after the event, not after a group's '}'"
			" or a cpu/.../ event");
	if (term)
		return parse_modifier_term(p, at, n, term, mod);
	return parse_modifier_letters(p, at, n, mod);
}

/* The PERFEVTSEL filters given as modifiers, over the event's own. */
static void apply_filters(const struct modifiers *mod, struct pmu_event *e)
{
	if (mod->cmask_given)
		e->cmask = mod->cmask;
	if (mod->inv_given)
		e->inv = mod->inv;
	if (mod->edge_given)
		e->edge = mod->edge;
}

/* The next event of the list, named text[at..end), into *out; false when the list is full. */
static bool new_event(struct parser *p, size_t at, size_t end, struct pmu_event **out)
{
	struct pmu_event *e;
	size_t n = end - at;

	if (p->n >= p->max) {
		struct message m = blame(p, at, n);

		say(&m, "too many events: at most ");
		say_uint(&m, p->max);
		return false;
	}
	e = *out = &p->events[p->n++];
	memset(e, 0, sizeof(*e));
	if (n >= PMU_EVENT_NAME_MAX)
		n = PMU_EVENT_NAME_MAX - 1;
	memcpy(e->name, p->text + at, n);
	e->name[n] = 0;
	e->group = p->group;
	return true;
}

/* cpu/term,term/ starting at p->text[at]; *end receives the position after the closing '/'. */
/* The terms of cpu/.../ (perf's format names for Intel core PMUs) and the bits each takes. */
enum pmu_term {
	TERM_EVENT,
	TERM_UMASK,
	TERM_CMASK,
	TERM_INV,
	TERM_EDGE,
	TERM_ANY,
	TERM_CONFIG,
	TERM_NAME,  /* perf's name=: what the tables call the event */
	TERM_ALIAS, /* an event's name alone, as perf's sysfs aliases: cpu/cycles/ */
};

static const struct {
	const char *name;
	unsigned bits;	  /* the widest value it takes */
	bool needs_value; /* inv, edge and any alone mean =1 */
} pmu_terms[] = {
	[TERM_EVENT] = { "event", 8, true },	[TERM_UMASK] = { "umask", 8, true },
	[TERM_CMASK] = { "cmask", 8, true },	[TERM_INV] = { "inv", 1, false },
	[TERM_EDGE] = { "edge", 1, false },	[TERM_ANY] = { "any", 1, false },
	[TERM_CONFIG] = { "config", 64, true }, [TERM_NAME] = { "name", 0, true },
};

/* One term as written: name, and value (0 when it has none). */
struct term_text {
	size_t name, name_len, value, value_len;
};

/* The term at *pos up to ',' or '/', which *pos is left on; false when the list is not closed. */
static bool read_term(struct parser *p, size_t at, size_t *pos, struct term_text *t)
{
	*t = (struct term_text){ *pos, 0, 0, 0 };
	while (*pos < p->len && p->text[*pos] != '=' && p->text[*pos] != ',' &&
	       p->text[*pos] != '/')
		(*pos)++;
	t->name_len = *pos - t->name;
	if (*pos < p->len && p->text[*pos] == '=') {
		t->value = ++*pos;
		while (*pos < p->len && p->text[*pos] != ',' && p->text[*pos] != '/')
			(*pos)++;
		t->value_len = *pos - t->value;
	}
	if (*pos >= p->len)
		return fail(p, at, 4, "missing '/' to close ", "");
	return true;
}

/* Which term t names, and its value (1 when it has none), checked against its width. A word
 * alone that is no term is an event's name (TERM_ALIAS); name= takes any word. */
static bool check_term(struct parser *p, const struct term_text *t, enum pmu_term *id, uint64_t *v)
{
	const char *name = p->text + t->name;
	unsigned i;

	*v = 1;
	if (t->name_len == 0)
		return fail(p, t->name, 0, "empty term in cpu/.../", "");
	for (i = 0; i < sizeof(pmu_terms) / sizeof(pmu_terms[0]); i++)
		if (pmu_terms[i].name && strlen(pmu_terms[i].name) == t->name_len &&
		    !strncmp(name, pmu_terms[i].name, t->name_len))
			break;
	if (i == sizeof(pmu_terms) / sizeof(pmu_terms[0])) {
		if (t->value)
			return fail(p, t->name, t->name_len, "unknown term ",
				    " (event, umask, cmask, inv, edge, any, config, name, or an "
				    "event's name alone)");
		*id = TERM_ALIAS;
		return true;
	}
	*id = (enum pmu_term)i;
	if (pmu_terms[i].needs_value && (!t->value || !t->value_len))
		return fail(p, t->name, t->name_len, "term ",
			    i == TERM_NAME ? " needs a value (=WORD)" : " needs a value (=N)");
	if (i == TERM_NAME)
		return t->value_len < PMU_EVENT_NAME_MAX ||
		       fail(p, t->value, t->value_len, "name ", " is too long");
	if (t->value && !parse_number(p->text + t->value, t->value_len, v))
		return fail(p, t->value, t->value_len, "bad number ",
			    " (decimal or 0x-hexadecimal)");
	if (pmu_terms[i].bits < 64 && *v >> pmu_terms[i].bits) {
		struct message m = blame(p, t->value, t->value_len);

		say(&m, "value ");
		say_quoted(&m, p->text + t->value, t->value_len);
		say(&m, " of ");
		say_quoted(&m, name, t->name_len);
		say(&m, " does not fit in ");
		say_uint(&m, pmu_terms[i].bits);
		say(&m, pmu_terms[i].bits == 1 ? " bit" : " bits");
		return false;
	}
	return true;
}

static bool fail_refused(struct parser *p, size_t at, size_t n, const char *reason);

/* An event's name alone inside cpu/.../ (perf's sysfs aliases: cpu/cycles/, cpu/instructions/). */
static bool apply_alias(struct parser *p, const struct term_text *t, struct pmu_event *e)
{
	const char *canonical, *reason;
	enum event_resolution r =
		event_name_resolve(p->text + t->name, t->name_len, p->u, e, &canonical, &reason);

	if (r == EVENT_REFUSED)
		return fail_refused(p, t->name, t->name_len, reason);
	if (r != EVENT_RESOLVED)
		return fail(p, t->name, t->name_len, "unknown term or event ",
			    " (event, umask, cmask, inv, edge, any, config, name, or an event's "
			    "name alone)");
	return true;
}

/* Term id = v into e (name= into *name); *have_event when it selects the event. */
static bool apply_term(struct parser *p, const struct term_text *t, enum pmu_term id, uint64_t v,
		       struct pmu_event *e, bool *have_event)
{
	switch (id) {
	case TERM_NAME:
		memcpy(e->name, p->text + t->value, t->value_len);
		e->name[t->value_len] = 0;
		break;
	case TERM_ALIAS:
		if (!apply_alias(p, t, e))
			return false;
		*have_event = true;
		break;
	case TERM_EVENT:
		e->event = (uint8_t)v;
		*have_event = true;
		break;
	case TERM_UMASK:
		e->umask = (uint8_t)v;
		break;
	case TERM_CMASK:
		e->cmask = (uint8_t)v;
		break;
	case TERM_INV:
		e->inv = v != 0;
		break;
	case TERM_EDGE:
		e->edge = v != 0;
		break;
	case TERM_ANY:
		e->any = v != 0;
		break;
	case TERM_CONFIG:
		if (v & RAW_REFUSED_BITS)
			return fail(p, t->value, t->value_len, "config ",
				    " sets pin control or bits above 31 of PERFEVTSEL");
		decode_selection(v, e);
		*have_event = true;
		break;
	}
	return true;
}

static bool parse_pmu_terms(struct parser *p, size_t at, struct pmu_event *e, size_t *end)
{
	size_t pos = at + 4; /* after "cpu/" */
	bool have_event = false;

	for (;;) {
		struct term_text t;
		enum pmu_term id;
		uint64_t v;

		if (!read_term(p, at, &pos, &t) || !check_term(p, &t, &id, &v) ||
		    !apply_term(p, &t, id, v, e, &have_event))
			return false;
		if (p->text[pos] == '/')
			break;
		pos++; /* ',' */
	}
	if (!have_event)
		return fail(p, at, pos + 1 - at, "", " needs event= (or config=)");
	*end = pos + 1;
	return true;
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

/* Appends name, or "..." once the message is nearly full: true while there is room. */
static bool say_listed(struct message *m, const char *name, size_t n, bool first)
{
	if (m->used + n + 8 >= EVENT_PARSE_MESSAGE_MAX) {
		say(m, first ? "..." : ", ...");
		return false;
	}
	if (!first)
		say(m, ", ");
	say_n(m, name, n);
	return true;
}

/* "unknown unit mask 'COND' of event 'BR_INST_RETIRED' (Haswell has: ALL_BRANCHES, ...)" */
static bool fail_unit_mask(struct parser *p, size_t at, size_t event_len, size_t umask_at,
			   size_t umask_len)
{
	struct message m = blame(p, umask_at, umask_len);
	unsigned pos = 0;
	bool first = true;
	const char *n;

	say(&m, "unknown unit mask ");
	say_quoted(&m, p->text + umask_at, umask_len);
	say(&m, " of event ");
	say_quoted(&m, p->text + at, event_len);
	say(&m, " (");
	say(&m, p->u->display_name);
	say(&m, " has: ");
	while ((n = event_name_next(p->u, &pos))) {
		const char *umask = event_name_umask_of(n, p->text + at, event_len);

		if (!umask)
			continue;
		if (!say_listed(&m, umask, strlen(umask), first))
			break;
		first = false;
	}
	say(&m, ")");
	return false;
}

/* The name text[at..at+n) is not known on p->u: say the closest ones, or where it exists. */
static bool fail_unknown(struct parser *p, size_t at, size_t n)
{
	const struct uarch *other = event_name_elsewhere(p->text + at, n, p->u);
	const char *closest[3];
	unsigned found = event_name_suggest(p->text + at, n, p->u, closest, 3);
	struct message m = blame(p, at, n);

	if (other) {
		say(&m, "event ");
		say_quoted(&m, p->text + at, n);
		say(&m, " does not exist on ");
		say(&m, p->u ? p->u->display_name : "every microarchitecture");
		say(&m, " (it does on ");
		say(&m, other->display_name);
		say(&m, ")");
		return false;
	}
	say(&m, "unknown event ");
	say_quoted(&m, p->text + at, n);
	for (unsigned i = 0; i < found; i++) {
		say(&m, i ? ", " : " (closest: ");
		say(&m, closest[i]);
	}
	if (found)
		say(&m, ")");
	return false;
}

/* "event 'LLC-loads' needs an offcore response MSR ..." */
static bool fail_refused(struct parser *p, size_t at, size_t n, const char *reason)
{
	struct message m = blame(p, at, n);

	say(&m, "event ");
	say_quoted(&m, p->text + at, n);
	say(&m, " ");
	say(&m, reason);
	return false;
}

/* Raw: r followed by hexadecimal digits, the whole first component (perf's PE_RAW). *raw when
 * text[at..stop) is one, into e; false when it is a bad one. */
static bool parse_raw(struct parser *p, size_t at, size_t stop, struct pmu_event *e, bool *raw)
{
	const char *s = p->text;
	uint64_t config = 0;
	unsigned d = 0;
	size_t i;

	*raw = false;
	if (s[at] != 'r' || stop - at < 2)
		return true;
	for (i = at + 1; i < stop && hex_digit(s[i], &d); i++)
		config = config << 4 | d;
	if (i != stop)
		return true;
	if (stop - at - 1 > 16 || (config & RAW_REFUSED_BITS))
		return fail(p, at, stop - at, "raw event ",
			    " sets pin control or bits above 31 of PERFEVTSEL");
	decode_selection(config, e);
	*raw = true;
	return true;
}

/*
 * A raw or symbolic event text[at..end) with its modifiers, split at ':' and '.' into
 * components. The name is the longest run of leading components that names an event (Intel's
 * names have one or two dots); the components after it are modifiers.
 */
static bool parse_named(struct parser *p, size_t at, size_t end, struct pmu_event *e,
			struct modifiers *mod)
{
	size_t start[PMU_EVENT_NAME_MAX], stop[PMU_EVENT_NAME_MAX];
	unsigned comps = 0, named = 0, candidate = 1;
	const char *s = p->text;
	bool raw;

	for (size_t pos = at; pos <= end && comps < PMU_EVENT_NAME_MAX; comps++) {
		start[comps] = pos;
		while (pos < end && !is_separator(s[pos]))
			pos++;
		stop[comps] = pos;
		pos++;
	}
	if (stop[0] == start[0])
		return fail(p, at, end - at, "missing event name in ", "");

	if (!parse_raw(p, at, stop[0], e, &raw))
		return false;
	named = raw;
	for (unsigned k = comps; k >= 1 && !named; k--) {
		const char *canonical, *reason;
		enum event_resolution r =
			event_name_resolve(s + at, stop[k - 1] - at, p->u, e, &canonical, &reason);

		if (r == EVENT_RESOLVED)
			named = k;
		else if (r == EVENT_REFUSED)
			return fail_refused(p, at, stop[k - 1] - at, reason);
	}

	if (!named) {
		/* Say what is wrong: an unknown unit mask of a known event, a software event, a
		 * name of another microarchitecture, or an unknown name. */
		while (candidate < comps &&
		       !is_modifier(s + start[candidate], stop[candidate] - start[candidate]))
			candidate++;
		if (is_software_event(s + at, stop[0] - at))
			return fail(p, at, stop[0] - at, "software event ",
				    " is not counted by the core PMU");
		if (candidate >= 2 && p->u && event_name_event_known(s + at, stop[0] - at, p->u))
			return fail_unit_mask(p, at, stop[0] - at, start[1],
					      stop[candidate - 1] - start[1]);
		return fail_unknown(p, at, stop[candidate - 1] - at);
	}

	/* After the name, modifiers; a known event with a word that is no modifier after it is a
	 * wrong unit mask (BR_INST_RETIRED:COND), not a wrong modifier. */
	if (named == 1 && comps >= 2 && !raw && !is_modifier(s + start[1], stop[1] - start[1]) &&
	    p->u && event_name_event_known(s + at, stop[0] - at, p->u))
		return fail_unit_mask(p, at, stop[0] - at, start[1], stop[1] - start[1]);
	for (unsigned k = named; k < comps; k++)
		if (!parse_modifiers(p, start[k], stop[k] - start[k], mod, true))
			return false;
	return true;
}

/* One event at p->text[*pos], up to a delimiter; in_group forbids D. */
static bool parse_event(struct parser *p, size_t *pos, bool in_group, bool *privilege)
{
	size_t at = *pos, end = at, body_end;
	struct modifiers mod;
	struct pmu_event *e;
	const char *s = p->text;

	memset(&mod, 0, sizeof(mod));

	if (s[at] == 'c' && !strncmp(s + at, "cpu/", 4)) {
		struct pmu_event probe;

		memset(&probe, 0, sizeof(probe));
		if (!parse_pmu_terms(p, at, &probe, &body_end))
			return false;
		end = body_end;
		if (s[end] == ':')
			end++;
		while (!is_delimiter(s[end]))
			end++;
		if (end > body_end &&
		    !parse_modifiers(p, body_end + (s[body_end] == ':'),
				     end - body_end - (s[body_end] == ':'), &mod, false))
			return false;
		if (!new_event(p, at, end, &e))
			return false;
		probe.group = e->group;
		if (!probe.name[0]) /* perf's name= names it; else as written */
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
		if (!new_event(p, at, end, &e) || !parse_named(p, at, end, e, &mod))
			return false;
		apply_filters(&mod, e);
	}

	if (mod.pinned && in_group)
		return fail(p, at, end - at, "pinned (D) applies to a whole group: in ",
			    " write it after the '}'");
	e->usr = mod.privilege ? mod.usr : true;
	e->os = mod.privilege ? mod.os : true;
	e->pinned = mod.pinned;
	e->precise = mod.precise;
	*privilege = mod.privilege;
	*pos = end;
	return true;
}

/* '{' event, ... '}' [':' modifiers] at p->text[*pos]. */
static bool parse_group(struct parser *p, size_t *pos)
{
	size_t open = *pos, at = open + 1;
	unsigned first = p->n;
	uint64_t own_privilege = 0;
	struct modifiers mod;

	memset(&mod, 0, sizeof(mod));

	for (;;) {
		bool privilege;

		if (p->text[at] == '{')
			return fail(p, at, 1, "groups cannot nest: ", "");
		if (p->text[at] == '}' && p->n == first)
			return fail(p, open, at + 1 - open, "empty group ", "");
		if (!parse_event(p, &at, true, &privilege))
			return false;
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
		if (!parse_modifiers(p, m, at - m, &mod, false))
			return false;
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
	return true;
}

bool event_parse_list(const char *text, const struct uarch *u, struct pmu_event *events,
		      unsigned max, unsigned *count, struct event_parse_error *error)
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

	*count = 0;
	error->offset = 0;
	error->length = 0;
	error->message[0] = 0;
	if (p.len == 0)
		return fail(&p, 0, 0, "empty event list", "");

	for (;;) {
		bool privilege;
		bool parsed = text[pos] == '{' ? parse_group(&p, &pos)
					       : parse_event(&p, &pos, false, &privilege);

		if (!parsed)
			return false;
		p.group++;
		if (text[pos] == 0)
			break;
		if (text[pos] != ',')
			return fail(&p, pos, 1, "unexpected ", " (events are separated by ',')");
		pos++;
		if (text[pos] == 0)
			return fail(&p, pos, 0, "missing event after the last ','", "");
	}
	*count = p.n;
	return true;
}
