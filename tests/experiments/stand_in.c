// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-ins for the thesis's events where a microarchitecture does not document them.
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "tests/experiments/stand_in.h"

struct stand_in {
	enum uarch_id uarch;
	const char *event;    /* as the experiments write it, without modifiers */
	const char *stand_in; /* what replaces it */
	const char *note;     /* why, for the exp record */
};

/*
 * Sandy Bridge (client and EP) documents MEM_LOAD_UOPS_RETIRED.L1_HIT, L2_HIT, LLC_HIT and
 * HIT_LFB but no L1_MISS (0x08d1) or L2_MISS (0x10d1) (Intel's event data, SNB and JKT files):
 * the L1 misses that hit L2 and the L2 misses that hit the LLC are the nearest events of the
 * same code. The model gives each the share of the event it stands in for (pmu/model_shares.c).
 */
static const struct stand_in stand_ins[] = {
	{ UARCH_SANDYBRIDGE, "r08d1", "r02d1",
	  "MEM_LOAD_UOPS_RETIRED.L2_HIT (r02d1) stands in for L1_MISS (r08d1)" },
	{ UARCH_SANDYBRIDGE, "r10d1", "r04d1",
	  "LLC_HIT (r04d1) for L2_MISS (r10d1), which Sandy Bridge does not document" },
};

#define STAND_INS (sizeof(stand_ins) / sizeof(stand_ins[0]))

static bool boundary_before(const char *list, const char *at)
{
	return at == list || at[-1] == ',' || at[-1] == '{';
}

static bool boundary_after(char c)
{
	return c == 0 || c == ':' || c == ',' || c == '}';
}

/* Where the event `name` stands in list as a whole word, or NULL. */
static const char *find_event(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p; p++)
		if (!strncmp(p, name, n) && boundary_before(list, p) && boundary_after(p[n]))
			return p;
	return NULL;
}

static bool applies(const struct stand_in *s, const struct uarch *u, const char *list)
{
	return u && s->uarch == u->id && find_event(list, s->event);
}

/* list with every applicable stand-in written in, copied into the pool; NULL when full. */
static const char *rewrite(const char *list, const struct uarch *u, struct exp_adapted *out)
{
	char *to = out->pool + out->used;
	size_t room = sizeof(out->pool) - out->used, len = 0;

	for (const char *p = list; *p;) {
		const struct stand_in *hit = NULL;
		for (unsigned i = 0; i < STAND_INS && !hit; i++)
			if (u && stand_ins[i].uarch == u->id &&
			    !strncmp(p, stand_ins[i].event, strlen(stand_ins[i].event)) &&
			    boundary_before(list, p) &&
			    boundary_after(p[strlen(stand_ins[i].event)]))
				hit = &stand_ins[i];
		const char *piece = hit ? hit->stand_in : p;
		size_t n = hit ? strlen(hit->stand_in) : 1;
		if (len + n + 1 > room)
			return NULL;
		memcpy(to + len, piece, n);
		len += n;
		p += hit ? strlen(hit->event) : 1;
	}
	to[len] = 0;
	out->used += len + 1;
	return to;
}

static bool names_any(const struct experiment *e, const struct uarch *u, unsigned i)
{
	if (applies(&stand_ins[i], u, e->checked))
		return true;
	for (unsigned r = 0; r < e->nr_runs; r++)
		for (unsigned t = 0; t < 2; t++)
			if (applies(&stand_ins[i], u, e->runs[r].thread[t].events))
				return true;
	return false;
}

static const char *note(const struct experiment *e, const struct uarch *u, struct exp_adapted *out)
{
	char *to = out->pool + out->used;
	size_t room = sizeof(out->pool) - out->used, len = 0;

	const char *separator = ", ";

	len = (size_t)format_snprintf(to, room, "on %s", u->display_name);
	for (unsigned i = 0; i < STAND_INS && len < room; i++) {
		if (!names_any(e, u, i))
			continue;
		len += (size_t)format_snprintf(to + len, room - len, "%s%s", separator,
					       stand_ins[i].note);
		separator = "; ";
	}
	if (len >= room)
		return NULL;
	out->used += len + 1;
	return to;
}

const struct experiment *exp_adapt(const struct experiment *e, const struct uarch *u,
				   struct exp_adapted *out)
{
	bool any = false;

	for (unsigned i = 0; i < STAND_INS; i++)
		any = any || names_any(e, u, i);
	if (!any)
		return e;
	out->exp = *e;
	out->used = 0;
	out->exp.checked = rewrite(e->checked, u, out);
	out->exp.note = note(e, u, out);
	for (unsigned r = 0; r < e->nr_runs; r++)
		for (unsigned t = 0; t < 2; t++)
			out->exp.runs[r].thread[t].events =
				rewrite(e->runs[r].thread[t].events, u, out);
	for (unsigned r = 0; r < e->nr_runs; r++)
		for (unsigned t = 0; t < 2; t++)
			if (!out->exp.runs[r].thread[t].events)
				return e; /* the pool is too small: a bug; run the thesis's events */
	return out->exp.checked && out->exp.note ? &out->exp : e;
}
