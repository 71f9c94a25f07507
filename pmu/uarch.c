// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up microarchitecture descriptions, and what Linux's table of one says of an event.
 */
#include <stddef.h>

#include "pmu/counters.h"
#include "pmu/uarch.h"

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool name_equal(const char *a, const char *b)
{
	while (*a && lower(*a) == lower(*b)) {
		a++;
		b++;
	}
	return *a == 0 && *b == 0;
}

const struct uarch *uarch_by_name(const char *name)
{
	for (const struct uarch *const *u = uarch_all; *u; u++)
		if (name_equal((*u)->part, name))
			return *u;
	return NULL;
}

const struct uarch *uarch_by_model(bool intel, unsigned family, unsigned model)
{
	if (!intel || family != 6)
		return &uarch_generic;
	for (const struct uarch *const *u = uarch_all; *u; u++)
		for (const uint8_t *m = (*u)->models; *m; m++)
			if (*m == model)
				return *u;
	return &uarch_generic;
}

/* Linux's constraint_match(): the entry's code against the event's selection bits. */
static bool entry_matches(const struct event_constraint *c, const struct pmu_event *e)
{
	uint8_t umask = (uint8_t)(c->code >> 8);

	switch (c->match) {
	case MATCH_EVENT:
		return e->event == (c->code & 0xff);
	case MATCH_EVENT_UMASK:
		return pmu_event_code(e) == c->code;
	case MATCH_UMASK_BITS:
		return e->event == (c->code & 0xff) && (e->umask & umask) == umask;
	case MATCH_EVENT_RANGE:
		return e->event >= (c->code & 0xff) && e->event <= c->last;
	}
	return false;
}

struct constraint uarch_linux_constraint(const struct uarch *u, const struct pmu_event *e)
{
	struct constraint out = { .mask = PMU_GP_BITS, .corrupting = false };

	for (const struct event_constraint *c = u->constraints; c->mask; c++) {
		if (!entry_matches(c, e))
			continue;
		out.mask = c->mask;
		out.corrupting = (c->flags & CONSTRAINT_CORRUPTING) != 0;
		break;
	}
	return out;
}

bool uarch_event_corrupting(const struct uarch *u, const struct pmu_event *e)
{
	return uarch_linux_constraint(u, e).corrupting;
}
