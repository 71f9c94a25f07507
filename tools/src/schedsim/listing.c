// SPDX-License-Identifier: GPL-2.0
/*
 * schedsim --list: every event name of one part with its encoding and static constraint, laid out
 * as the thesis's simulator lists them (7.2: CODE | CONSTRAINTS | NAME); --list --json: the same
 * table, with Intel's fields, as one JSON object.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/event_names.h"
#include "pmu/event_table.h"
#include "pmu/uarch_constraint.h"
#include "tools/src/schedsim/schedsim.h"

/* One name of the listing, whatever table it comes from. */
struct listed {
	const char *name;
	const char *kind;    /* "intel", "perf", "perf-cache", "architectural", "libpfm4" */
	struct pmu_event e;  /* the selection (usr and os set) */
	const char *refused; /* why it cannot be counted here, or NULL */
	const struct event_info *intel; /* Intel's fields, for Intel's names */
};

struct listing {
	const struct uarch *u;
	unsigned gp, fixed;
	bool json;
	unsigned count;
};

static const char *kind_of(const struct event_name *n)
{
	switch (n->kind) {
	case EVENT_NAME_PERF:
		return "perf";
	case EVENT_NAME_PERF_CACHE:
		return "perf-cache";
	default:
		return "architectural";
	}
}

static void print_text(const struct listing *l, const struct listed *x, struct constraint c)
{
	printf("0x%012llx | 0x%012llx | %s", sim_event_code(&x->e), (unsigned long long)c.mask,
	       x->name);
	if (c.corrupting)
		printf(" (corrupting)");
	if (x->refused)
		printf(" (refused: %s)", x->refused);
	(void)l;
	printf("\n");
}

static void print_json(const struct listing *l, const struct listed *x, struct constraint c)
{
	const struct event_info *i = x->intel;

	printf("%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"event\": %u, \"umask\": %u, "
	       "\"cmask\": %u, \"inv\": %s, \"edge\": %s, \"any\": %s, \"code\": %llu, "
	       "\"constraint\": %llu, \"corrupting\": %s",
	       l->count ? "," : "", x->name, x->kind, x->e.event, x->e.umask, x->e.cmask,
	       x->e.inv ? "true" : "false", x->e.edge ? "true" : "false",
	       x->e.any ? "true" : "false", sim_event_code(&x->e), (unsigned long long)c.mask,
	       c.corrupting ? "true" : "false");
	if (x->refused)
		printf(", \"refused\": \"%s\"", x->refused);
	if (i) {
		printf(", \"counters\": %u, \"counters_ht_off\": %u, \"pebs\": %u, "
		       "\"taken_alone\": %s, \"deprecated\": %s",
		       i->counters, i->counters_ht_off, i->pebs, i->taken_alone ? "true" : "false",
		       i->deprecated ? "true" : "false");
		if (i->fixed >= 0)
			printf(", \"fixed\": %d", i->fixed);
		if (i->errata)
			printf(", \"errata\": \"%s\"", i->errata);
		printf(", \"parts\": \"%s\"", i->parts == (INTEL_PART_CLIENT | INTEL_PART_SERVER)
						      ? "client,server"
					      : i->parts == INTEL_PART_SERVER ? "server"
									      : "client");
	}
	printf("}");
}

static void emit(struct listing *l, struct listed *x)
{
	struct constraint c;

	x->e.usr = x->e.os = true;
	c = uarch_constraint(l->u, &x->e, l->gp, l->fixed);
	if (l->json)
		print_json(l, x, c);
	else
		print_text(l, x, c);
	l->count++;
}

static void list_intel(struct listing *l)
{
	struct event_iter it;
	struct event_info info;

	for (event_iter_start(&it, l->u); event_iter_next(&it, &info);) {
		struct listed x = { info.name, "intel", { 0 }, NULL, &info };

		event_info_to_event(&info, &x.e);
		if (info.msr != INTEL_MSR_NONE)
			x.refused = event_msr_name(info.msr);
		emit(l, &x);
	}
}

static void list_hand_written(struct listing *l)
{
	const struct event_name *n;

	for (unsigned i = 0; (n = event_name_hand_written(l->u, i)); i++) {
		struct listed x = { n->name, kind_of(n), { 0 }, NULL, NULL };

		event_name_to_event(n, &x.e);
		if (n->flags & EVENT_NAME_OFFCORE)
			x.refused = "MSR_OFFCORE_RSP_0/1";
		emit(l, &x);
	}
	for (const struct event_alias *a = event_aliases; a->name; a++) {
		struct listed x = { a->name, "libpfm4", { 0 }, NULL, NULL };
		const char *canonical, *reason;

		if (event_name_resolve(a->name, strlen(a->name), l->u, &x.e, &canonical, &reason) ==
		    EVENT_RESOLVED)
			emit(l, &x);
	}
}

/* Where the names of u come from, as one line or JSON members. */
static void print_sources(const struct uarch *u, bool json)
{
	const struct intel_event_source *s = intel_event_sources;

	while (s->part && strcmp(s->part, u->part))
		s++;
	if (json) {
		printf("  \"perfmon\": \"%s\",\n", intel_event_perfmon);
		if (s->part)
			printf("  \"intel_file\": \"%s\", \"intel_version\": \"%s\", "
			       "\"intel_date\": \"%s\",\n",
			       s->file, s->version, s->date);
		return;
	}
	if (s->part)
		printf("Event Names               : Intel's %s V%s (%s), perfmon %s; perf's "
		       "generic "
		       "names as Linux 6.1 maps them\n",
		       s->file, s->version, s->date, intel_event_perfmon);
	else
		printf("Event Names               : no Intel event file imported; perf's generic "
		       "names as Linux 6.1 maps them and the architectural events\n");
	if (u->id == UARCH_GENERIC)
		printf("Scheduling Rules          : none: a model without tables gets no "
		       "constraints "
		       "(the generic architectural PMU)\n");
}

int list_events(const struct uarch *u, unsigned gp, unsigned fixed, bool json)
{
	struct listing l = { u, gp, fixed, json, 0 };
	const struct intel_event_source *source = event_table_source(u);
	unsigned offcore = source ? source->offcore : 0;

	if (json) {
		printf("{\n  \"part\": \"%s\", \"uarch\": \"%s\", \"display_name\": \"%s\", "
		       "\"gp\": %u, \"fixed\": %u, \"erratum\": %s%s%s,\n",
		       u->part, u->name, u->display_name, gp, fixed, u->erratum ? "\"" : "",
		       u->erratum ? u->erratum : "null", u->erratum ? "\"" : "");
		print_sources(u, true);
		printf("  \"offcore_response_refused\": %u,\n  \"events\": [", offcore);
	} else {
		sim_print_processor(u, gp, fixed);
		print_sources(u, false);
		printf("---------------------------------------------------------------\n");
		printf("%-14s # %-14s # %s\n", "CODE", "CONSTRAINTS", "NAME");
	}
	list_intel(&l);
	list_hand_written(&l);
	if (json) {
		printf("\n  ]\n}\n");
	} else {
		if (offcore)
			printf("(and %u OFFCORE_RESPONSE.* events of Intel's file, refused: they "
			       "need "
			       "MSR_OFFCORE_RSP_0/1)\n",
			       offcore);
		printf("%u names\n", l.count);
	}
	return 0;
}
