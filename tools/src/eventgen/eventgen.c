// SPDX-License-Identifier: GPL-2.0
/*
 * eventgen: the build step that turns the committed event table (pmu/intel_core_events.txt, made by
 * tools/perfmon-import from Intel's perfmon data) into the C tables of pmu/intel_events.h: one
 * array of events per microarchitecture and intel_event_sources[], one entry per part line, which
 * is how pmu/event_table.c finds a struct uarch's events (by its part name). Nothing else lists the
 * parts: a new part line is a new part.
 *
 *   eventgen TABLE OUTPUT.c
 *
 * Every line is checked; a bad one stops the build with its line number. Names are stored once for
 * all microarchitectures; a client and a server part that document an event alike share its entry.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 16
#define MAX_UARCHS 8
#define MAX_NAMES 4096
#define MAX_ENTRIES 4096 /* per microarchitecture */
#define MAX_ERRATA 255
#define MAX_FIELDS 20
#define LINE_MAX_LEN 1024

struct part {
	char name[32];
	unsigned uarch; /* index in uarchs[] */
	unsigned role;	/* 1 client, 2 server: INTEL_PART_* */
	char file[64], version[16], date[16];
};

struct entry {
	unsigned name; /* index in names[] */
	unsigned event, umask, cmask, inv, edge, any, counters, counters_ht_off, pebs, taken_alone;
	unsigned deprecated, fixed, msr, errata, parts;
};

struct uarch {
	char name[32];
	struct entry entries[MAX_ENTRIES];
	unsigned count, offcore[2]; /* per role: client, server */
};

static struct part parts[MAX_PARTS];
static unsigned nparts;
static struct uarch uarchs[MAX_UARCHS];
static unsigned nuarchs;
static char *names[MAX_NAMES];
static unsigned nnames;
static char *errata[MAX_ERRATA + 1];
static unsigned nerrata = 1; /* 0: none */
static char perfmon[64];
static const char *table_path;
static unsigned line_no;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "eventgen: %s:%u: ", table_path, line_no);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static unsigned number(const char *s, unsigned max, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end || v > max)
		die("bad %s '%s'", what, s);
	return (unsigned)v;
}

static unsigned bit(const char *s, const char *what)
{
	return number(s, 1, what);
}

/* "0,1,2,3" -> 0xf; "fixedN" -> 0 with *fixed = N + 1. */
static unsigned counter_mask(const char *s, unsigned *fixed)
{
	unsigned mask = 0;

	if (!strncmp(s, "fixed", 5)) {
		*fixed = number(s + 5, 2, "fixed counter") + 1;
		return 0;
	}
	*fixed = 0;
	for (const char *p = s; *p;) {
		char digit[2] = { *p, 0 };

		mask |= 1u << number(digit, 7, "counter");
		p++;
		if (*p == ',')
			p++;
		else if (*p)
			die("bad counters '%s'", s);
	}
	if (!mask)
		die("no counters in '%s'", s);
	return mask;
}

static unsigned intern(char **pool, unsigned *n, unsigned max, const char *s)
{
	for (unsigned i = 0; i < *n; i++)
		if (pool[i] && !strcmp(pool[i], s))
			return i;
	if (*n >= max)
		die("more than %u distinct strings", max);
	pool[*n] = strdup(s);
	if (!pool[*n])
		die("out of memory");
	return (*n)++;
}

static unsigned split(char *line, char **fields)
{
	unsigned n = 0;

	for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (n >= MAX_FIELDS)
			die("too many fields");
		fields[n++] = tok;
	}
	return n;
}

static struct part *part_named(const char *name)
{
	for (unsigned i = 0; i < nparts; i++)
		if (!strcmp(parts[i].name, name))
			return &parts[i];
	die("event of undeclared part '%s'", name);
	return NULL;
}

static void copy(char *dst, size_t size, const char *src, const char *what)
{
	if (strlen(src) >= size)
		die("%s '%s' too long", what, src);
	strcpy(dst, src);
}

/* The microarchitecture names its array of events in the generated C. */
static bool c_name(const char *s)
{
	if (!islower((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static void read_part(char **f, unsigned n)
{
	struct part *p;
	unsigned u;

	if (n != 7)
		die("a part line has 7 fields");
	if (nparts >= MAX_PARTS)
		die("too many parts");
	p = &parts[nparts++];
	copy(p->name, sizeof(p->name), f[1], "part");
	if (!c_name(f[2]))
		die("microarchitecture '%s' is not a lower-case C name", f[2]);
	for (u = 0; u < nuarchs && strcmp(uarchs[u].name, f[2]); u++)
		;
	if (u == nuarchs) {
		if (nuarchs >= MAX_UARCHS)
			die("too many microarchitectures");
		copy(uarchs[nuarchs++].name, sizeof(uarchs[0].name), f[2], "microarchitecture");
	}
	p->uarch = u;
	if (!strcmp(f[3], "client"))
		p->role = 1;
	else if (!strcmp(f[3], "server"))
		p->role = 2;
	else
		die("role '%s' is neither client nor server", f[3]);
	copy(p->file, sizeof(p->file), f[4], "file");
	copy(p->version, sizeof(p->version), f[5], "version");
	copy(p->date, sizeof(p->date), f[6], "date");
}

static unsigned msr_kind(const char *s)
{
	if (!strcmp(s, "-"))
		return 0;
	if (!strcmp(s, "0x3f6"))
		return 1;
	if (!strcmp(s, "0x3f7"))
		return 2;
	die("unknown MSR '%s' on a single-select event", s);
	return 0;
}

static bool same_facts(const struct entry *a, const struct entry *b)
{
	struct entry x = *a, y = *b;

	x.parts = y.parts = 0;
	return !memcmp(&x, &y, sizeof(x));
}

static void add_entry(struct uarch *u, const struct entry *e)
{
	for (unsigned i = 0; i < u->count; i++) {
		struct entry *old = &u->entries[i];

		if (old->name != e->name)
			continue;
		if (old->parts & e->parts)
			die("%s twice in one part", names[e->name]);
		if (same_facts(old, e)) {
			old->parts |= e->parts;
			return;
		}
	}
	if (u->count >= MAX_ENTRIES)
		die("too many events");
	u->entries[u->count++] = *e;
}

static void read_event(char **f, unsigned n)
{
	struct part *p;
	struct entry e;
	unsigned fixed_ht_off;

	if (n != 17)
		die("an event line has 17 fields, not %u", n);
	p = part_named(f[0]);
	if (strchr(f[2], ',')) {
		/* Two event selects: an offcore-response event (MSR_OFFCORE_RSP_0/1). */
		if (strncmp(f[1], "OFFCORE_RESPONSE", 16))
			die("%s: two event selects outside OFFCORE_RESPONSE", f[1]);
		uarchs[p->uarch].offcore[p->role - 1]++;
		return;
	}
	memset(&e, 0, sizeof(e));
	for (const char *c = f[1]; *c; c++)
		if (!isupper((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_' &&
		    *c != '.')
			die("bad character in name '%s'", f[1]);
	if (strlen(f[1]) >= 64)
		die("name '%s' longer than 63 characters", f[1]);
	e.name = intern(names, &nnames, MAX_NAMES, f[1]);
	e.event = number(f[2], 0xff, "event");
	e.umask = number(f[3], 0xff, "umask");
	e.cmask = number(f[4], 0xff, "cmask");
	e.inv = bit(f[5], "inv");
	e.edge = bit(f[6], "edge");
	e.any = bit(f[7], "any");
	e.counters = counter_mask(f[8], &e.fixed);
	e.counters_ht_off = counter_mask(f[9], &fixed_ht_off);
	if (e.fixed != fixed_ht_off)
		die("%s: fixed counter differs with HT off", f[1]);
	if (e.fixed && (e.event != 0 || e.umask < 1 || e.umask > 3))
		die("%s: a fixed-counter event with event select %#x, unit mask %#x", f[1], e.event,
		    e.umask);
	/*
	 * Intel writes fixed counter N as event select 0x00, unit mask N + 1 (SDM vol. 3B, 18.2.2);
	 * the unit mask decides, as in Intel's encoding. (Jaketown's CPU_CLK_UNHALTED.THREAD_ANY says
	 * "Fixed counter 2" with the unit mask of fixed counter 1: test_intel_events lists it.)
	 */
	if (e.fixed)
		e.fixed = e.umask;
	e.pebs = number(f[10], 2, "pebs");
	e.taken_alone = bit(f[11], "taken_alone");
	if (bit(f[12], "offcore"))
		die("%s: offcore with one event select", f[1]);
	e.msr = msr_kind(f[13]);
	if ((e.msr == 0) != !strcmp(f[14], "-"))
		die("%s: MSR value without MSR or the reverse", f[1]);
	e.deprecated = bit(f[15], "deprecated");
	e.errata = strcmp(f[16], "-") ? intern(errata, &nerrata, MAX_ERRATA, f[16]) : 0;
	e.parts = p->role;
	add_entry(&uarchs[p->uarch], &e);
}

static void read_table(const char *path)
{
	char line[LINE_MAX_LEN];
	FILE *in = fopen(path, "r");

	table_path = path;
	if (!in) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof(line), in)) {
		char *f[MAX_FIELDS];
		unsigned n;

		line_no++;
		if (!strchr(line, '\n') && !feof(in))
			die("line too long");
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#')
			continue;
		n = split(line, f);
		if (n == 0)
			continue;
		if (!strcmp(f[0], "perfmon")) {
			if (n != 3 || perfmon[0])
				die("one perfmon line with a commit and a date");
			snprintf(perfmon, sizeof(perfmon), "%s %s", f[1], f[2]);
		} else if (!strcmp(f[0], "part")) {
			read_part(f, n);
		} else {
			read_event(f, n);
		}
	}
	fclose(in);
	if (!perfmon[0] || !nparts)
		die("no perfmon or part lines");
}

static int by_name(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(names[x->name], names[y->name]);

	return c ? c : (int)x->parts - (int)y->parts;
}

/* One microarchitecture's events, its parts' entries together, sorted by name. */
static void write_events(FILE *out, struct uarch *a, const unsigned *offset)
{
	qsort(a->entries, a->count, sizeof(a->entries[0]), by_name);
	fprintf(out, "\nstatic const struct intel_event %s_events[] = {\n", a->name);
	for (unsigned i = 0; i < a->count; i++) {
		const struct entry *e = &a->entries[i];

		fprintf(out,
			"\t{ %u, 0x%02x, 0x%02x, %u, 0x%02x, 0x%02x, %u, %u, %u, %u, %u, %u, %u, "
			"%u, "
			"%u, %u }, /* %s */\n",
			offset[e->name], e->event, e->umask, e->cmask, e->counters,
			e->counters_ht_off, e->errata, e->inv, e->edge, e->any, e->taken_alone,
			e->deprecated, e->pebs, e->parts, e->fixed, e->msr, names[e->name]);
	}
	fprintf(out, "};\n");
}

static void write_table(FILE *out)
{
	unsigned *offset = calloc(nnames, sizeof(*offset));
	unsigned pos = 0;

	if (!offset)
		die("out of memory");
	fprintf(out, "// Generated by tools/src/eventgen from %s: do not edit.\n", table_path);
	fprintf(out, "#include \"pmu/intel_events.h\"\n\n");
	fprintf(out, "const char intel_event_perfmon[] = \"%s\";\n\n", perfmon);
	fprintf(out, "const char intel_event_names[] =\n");
	for (unsigned i = 0; i < nnames; i++) {
		offset[i] = pos;
		pos += (unsigned)strlen(names[i]) + 1;
		fprintf(out, "\t\"%s\\0\"\n", names[i]);
	}
	fprintf(out, "\t;\n\n");
	if (pos > 0xffff)
		die("names take %u bytes, more than a 16-bit offset reaches", pos);

	fprintf(out, "const char *const intel_event_errata[] = {\n\tNULL,\n");
	for (unsigned i = 1; i < nerrata; i++)
		fprintf(out, "\t\"%s\",\n", errata[i]);
	fprintf(out, "};\n");

	for (unsigned u = 0; u < nuarchs; u++)
		write_events(out, &uarchs[u], offset);

	fprintf(out, "\nconst struct intel_event_source intel_event_sources[] = {\n");
	for (unsigned i = 0; i < nparts; i++) {
		const struct part *p = &parts[i];
		const struct uarch *a = &uarchs[p->uarch];

		fprintf(out, "\t{ \"%s\", \"%s\", \"%s\", \"%s\", %s_events, %u, %u, %u },\n",
			p->name, p->file, p->version, p->date, a->name, a->count, p->role,
			a->offcore[p->role - 1]);
	}
	fprintf(out, "\t{ NULL, NULL, NULL, NULL, NULL, 0, 0, 0 },\n};\n");
	free(offset);
}

int main(int argc, char **argv)
{
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: eventgen TABLE OUTPUT.c\n");
		return 2;
	}
	read_table(argv[1]);
	for (unsigned p = 0; p < nparts; p++)
		for (unsigned q = 0; q < p; q++)
			if (parts[p].uarch == parts[q].uarch && parts[p].role == parts[q].role)
				die("two %s parts of %s", parts[p].role == 1 ? "client" : "server",
				    uarchs[parts[p].uarch].name);
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	write_table(out);
	if (fclose(out)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
