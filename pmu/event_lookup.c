// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up symbolic event names in the table of event_names.c: case-insensitive, with '.' and
 * ':' interchangeable between event and unit mask (perf writes mem_uops_retired.all_loads,
 * libpfm4 and the thesis MEM_UOPS_RETIRED:ALL_LOADS).
 */
#include <string.h>

#include "pmu/event_names.h"

static int fold(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 'a';
	return c == '.' ? ':' : c;
}

static bool name_matches(const char *entry, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!entry[i] || fold(entry[i]) != fold(s[i]))
			return false;
	return entry[i] == 0;
}

bool event_name_on(const struct event_name *n, const struct uarch *u)
{
	return !n->uarchs || (u && (n->uarchs & UARCH_BIT(u->id)));
}

void event_name_to_event(const struct event_name *n, struct pmu_event *e)
{
	e->event = (uint8_t)n->code;
	e->umask = (uint8_t)(n->code >> 8);
	e->cmask = n->cmask;
	e->edge = (n->flags & EVENT_NAME_EDGE) != 0;
	e->inv = (n->flags & EVENT_NAME_INV) != 0;
}

const struct event_name *event_name_lookup(const char *name, size_t len, const struct uarch *u,
					   bool *elsewhere)
{
	const struct event_name *common = NULL;
	bool other = false;

	for (const struct event_name *e = event_names; e->name; e++) {
		if (!name_matches(e->name, name, len))
			continue;
		if (!e->uarchs) {
			if (!common)
				common = e;
		} else if (event_name_on(e, u)) {
			return e; /* the variant written for this microarchitecture wins */
		} else {
			other = true;
		}
	}
	if (elsewhere)
		*elsewhere = !common && other;
	return common;
}

const char *event_name_for(const struct pmu_event *e, const struct uarch *u)
{
	for (const struct event_name *n = event_names; n->name; n++) {
		struct pmu_event k = *e;

		if (!strchr(n->name, ':') || !event_name_on(n, u))
			continue;
		event_name_to_event(n, &k);
		if (k.event == e->event && k.umask == e->umask && k.cmask == e->cmask &&
		    k.edge == e->edge && k.inv == e->inv)
			return n->name;
	}
	return NULL;
}

bool event_name_event_known(const char *name, size_t len)
{
	for (const struct event_name *e = event_names; e->name; e++) {
		size_t i;

		for (i = 0; i < len && e->name[i] && e->name[i] != ':'; i++)
			if (fold(e->name[i]) != fold(name[i]))
				break;
		if (i == len && e->name[i] == ':')
			return true;
	}
	return false;
}
