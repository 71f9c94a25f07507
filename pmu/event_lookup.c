// SPDX-License-Identifier: GPL-2.0
/*
 * Looking up symbolic event names (pmu/event_names.h): Intel's table of the part, then the
 * hand-written names (the common ones, then the part's own), then libpfm4's aliases; and the
 * helpers of the parser's error messages (the names of a part, the closest ones, where else a name
 * exists).
 */
#include <string.h>

#include "pmu/event_names.h"
#include "pmu/event_table.h"

/* Why a known event cannot be counted: completes "event '<name>' ...". */
static const char offcore_reason[] =
	"needs an offcore response MSR (MSR_OFFCORE_RSP_0/1), which this kernel does not program";
static const char load_latency_reason[] =
	"needs MSR_PEBS_LD_LAT_THRESHOLD (0x3F6) and PEBS, which this kernel does not program";
static const char frontend_reason[] =
	"needs MSR_PEBS_FRONTEND (0x3F7) and PEBS, which this kernel does not program";
static const char no_cache_event_reason[] = "is not defined on this microarchitecture (Linux's "
					    "cache event table has no encoding for it)";

/* How many names the list n holds (NULL: none). */
static unsigned names_in(const struct event_name *n)
{
	unsigned count = 0;

	while (n && n[count].name)
		count++;
	return count;
}

const struct event_name *event_name_hand_written(const struct uarch *u, unsigned i)
{
	unsigned common = names_in(event_names_common);

	if (i < common)
		return &event_names_common[i];
	i -= common;
	return u && i < names_in(u->event_names) ? &u->event_names[i] : NULL;
}

void event_name_to_event(const struct event_name *n, struct pmu_event *e)
{
	e->event = (uint8_t)n->code;
	e->umask = (uint8_t)(n->code >> 8);
	e->cmask = n->cmask;
	e->edge = (n->flags & EVENT_NAME_EDGE) != 0;
	e->inv = (n->flags & EVENT_NAME_INV) != 0;
	e->any = false;
}

/* Alias a on u: its target in u's Intel table, with a's flags added. */
static bool alias_resolve(const struct event_alias *a, const struct uarch *u, struct pmu_event *e)
{
	struct event_info info;

	if (!u || !event_table_find(u, a->target, strlen(a->target), &info) ||
	    info.msr != INTEL_MSR_NONE)
		return false;
	event_info_to_event(&info, e);
	e->edge |= (a->flags & EVENT_NAME_EDGE) != 0;
	e->inv |= (a->flags & EVENT_NAME_INV) != 0;
	return true;
}

bool event_name_is_perf_cache(const char *name, size_t len)
{
	static const char *const caches[] = { "L1-dcache", "L1-icache", "LLC", "dTLB",
					      "iTLB",	   "branch",	"node" };
	static const char *const ops[] = { "loads",	   "load-misses", "stores",
					   "store-misses", "prefetches",  "prefetch-misses" };

	for (unsigned c = 0; c < sizeof(caches) / sizeof(caches[0]); c++) {
		size_t n = strlen(caches[c]);

		if (len <= n + 1 || !event_name_equal(caches[c], name, n) || name[n] != '-')
			continue;
		for (unsigned o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
			if (event_name_equal(ops[o], name + n + 1, len - n - 1))
				return true;
	}
	return false;
}

enum event_resolution event_name_resolve(const char *name, size_t len, const struct uarch *u,
					 struct pmu_event *e, const char **canonical,
					 const char **reason)
{
	const struct event_name *n;
	struct event_info info;

	*reason = NULL;
	if (u && event_table_find(u, name, len, &info)) {
		*canonical = info.name;
		if (info.msr == INTEL_MSR_LOAD_LATENCY || info.msr == INTEL_MSR_FRONTEND) {
			*reason = info.msr == INTEL_MSR_LOAD_LATENCY ? load_latency_reason
								     : frontend_reason;
			return EVENT_REFUSED;
		}
		event_info_to_event(&info, e);
		return EVENT_RESOLVED;
	}
	for (unsigned i = 0; (n = event_name_hand_written(u, i)); i++) {
		if (!event_name_equal(n->name, name, len))
			continue;
		*canonical = n->name;
		if (n->flags & EVENT_NAME_OFFCORE) {
			*reason = offcore_reason;
			return EVENT_REFUSED;
		}
		event_name_to_event(n, e);
		return EVENT_RESOLVED;
	}
	for (const struct event_alias *a = event_aliases; a->name; a++) {
		if (event_name_equal(a->name, name, len) && alias_resolve(a, u, e)) {
			*canonical = a->name;
			return EVENT_RESOLVED;
		}
	}
	if (event_table_source(u) && event_is_offcore_response(name, len)) {
		*canonical = NULL;
		*reason = offcore_reason;
		return EVENT_REFUSED;
	}
	if (event_name_is_perf_cache(name, len)) {
		*canonical = NULL;
		*reason = no_cache_event_reason;
		return EVENT_REFUSED;
	}
	return EVENT_UNKNOWN;
}

/* Resolves or is refused on u, but not only as a perf cache name Linux leaves undefined there. */
static bool known_on(const char *name, size_t len, const struct uarch *u)
{
	struct pmu_event e;
	const char *canonical, *reason;
	enum event_resolution r = event_name_resolve(name, len, u, &e, &canonical, &reason);

	return r == EVENT_RESOLVED || (r == EVENT_REFUSED && reason != no_cache_event_reason);
}

const struct uarch *event_name_elsewhere(const char *name, size_t len, const struct uarch *u)
{
	for (const struct uarch *const *o = uarch_all; *o; o++)
		if (*o != u && known_on(name, len, *o))
			return *o;
	return NULL;
}

const char *event_name_next(const struct uarch *u, unsigned *pos)
{
	const struct intel_event_source *source = event_table_source(u);
	unsigned intel = source ? source->count : 0;
	unsigned hand = names_in(event_names_common) + names_in(u ? u->event_names : NULL);
	struct pmu_event e;

	for (;;) {
		unsigned i = (*pos)++;

		if (i < intel) {
			const struct intel_event *p = &source->events[i];

			if (p->parts & source->role)
				return intel_event_names + p->name;
		} else if (i < intel + hand) {
			return event_name_hand_written(u, i - intel)->name;
		} else if (event_aliases[i - intel - hand].name) {
			const struct event_alias *a = &event_aliases[i - intel - hand];

			if (alias_resolve(a, u, &e))
				return a->name;
		} else {
			(*pos)--; /* stay at the end */
			return NULL;
		}
	}
}

/* Edit distance of a[0..la) and b[0..lb), both at most PMU_EVENT_NAME_MAX long. */
static unsigned distance(const char *a, size_t la, const char *b, size_t lb)
{
	uint8_t row[PMU_EVENT_NAME_MAX + 1];

	for (size_t j = 0; j <= lb; j++)
		row[j] = (uint8_t)j;
	for (size_t i = 1; i <= la; i++) {
		uint8_t diagonal = row[0];

		row[0] = (uint8_t)i;
		for (size_t j = 1; j <= lb; j++) {
			uint8_t up = row[j];
			unsigned best =
				diagonal + (event_name_fold(a[i - 1]) != event_name_fold(b[j - 1]));

			if (up + 1u < best)
				best = up + 1u;
			if (row[j - 1] + 1u < best)
				best = row[j - 1] + 1u;
			row[j] = (uint8_t)best;
			diagonal = up;
		}
	}
	return row[lb];
}

unsigned event_name_suggest(const char *name, size_t len, const struct uarch *u, const char **out,
			    unsigned max)
{
	unsigned found = 0, score[8], limit = len / 4 > 2 ? (unsigned)len / 4 : 2, pos = 0;
	const char *candidate;

	if (max > 8)
		max = 8;
	if (len >= PMU_EVENT_NAME_MAX)
		return 0;
	while ((candidate = event_name_next(u, &pos))) {
		size_t lc = strlen(candidate);
		unsigned d, k;

		if (lc >= PMU_EVENT_NAME_MAX || (lc > len ? lc - len : len - lc) > limit)
			continue;
		d = distance(name, len, candidate, lc);
		if (d > limit || (found == max && score[max - 1] <= d))
			continue;
		if (found < max)
			found++;
		/* Insert into the list, closest first; the farthest falls off a full list. */
		for (k = found - 1; k > 0 && score[k - 1] > d; k--) {
			out[k] = out[k - 1];
			score[k] = score[k - 1];
		}
		out[k] = candidate;
		score[k] = d;
	}
	return found;
}

bool event_name_event_known(const char *name, size_t len, const struct uarch *u)
{
	unsigned pos = 0;
	const char *n;

	while ((n = event_name_next(u, &pos)))
		if (event_name_umask_of(n, name, len))
			return true;
	return false;
}

const char *event_name_for(const struct pmu_event *e, const struct uarch *u)
{
	const struct event_name *n;
	struct event_info info;

	if (u && event_table_match(u, e, &info))
		return info.name;
	for (unsigned i = 0; (n = event_name_hand_written(u, i)); i++) {
		struct pmu_event k = *e;

		if (n->kind != EVENT_NAME_ARCH)
			continue;
		event_name_to_event(n, &k);
		if (k.event == e->event && k.umask == e->umask && k.cmask == e->cmask &&
		    k.edge == e->edge && k.inv == e->inv && k.any == e->any)
			return n->name;
	}
	return NULL;
}
