// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up microarchitecture descriptions and static event constraints.
 */
#include <stddef.h>

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
		if (name_equal((*u)->name, name))
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

static bool entry_matches(const struct event_constraint *c, const struct pmu_event *e)
{
	switch (c->match) {
	case MATCH_EVENT:
		return e->event == (c->code & 0xff);
	case MATCH_EVENT_UMASK:
		return pmu_event_code(e) == c->code;
	case MATCH_FIXED:
		/* A fixed counter counts the plain event only (Linux FIXED_EVENT_FLAGS). */
		return pmu_event_code(e) == c->code && !e->edge && !e->inv && e->cmask == 0;
	}
	return false;
}

struct constraint uarch_constraint(const struct uarch *u, const struct pmu_event *e, unsigned gp,
				   unsigned fixed)
{
	uint64_t gp_all = PMU_GP_MASK(gp);
	uint64_t fixed_all = 0;
	struct constraint out = { .mask = gp_all, .corrupting = false, .entry = NULL };

	for (unsigned j = 0; j < fixed; j++)
		fixed_all |= PMU_FIXED_BIT(j);

	for (const struct event_constraint *c = u->constraints; c->mask; c++) {
		if (!entry_matches(c, e))
			continue;
		out.entry = c;
		if (c->match == MATCH_FIXED) {
			/*
			 * INST_RETIRED.ANY and CPU_CLK_UNHALTED.CORE also have a GP encoding; the
			 * reference-cycles pseudo event 0x0300 exists only on fixed counter 2
			 * (Linux intel_pmu_init: every fixed constraint but REF gets the GP bits).
			 */
			uint64_t m = c->mask & fixed_all;
			if (c->code != 0x0300)
				m |= gp_all;
			out.mask = m;
			return out;
		}
		out.mask = c->mask & gp_all;
		out.corrupting = (c->flags & CONSTRAINT_CORRUPTING) != 0;
		return out;
	}
	return out;
}
