// SPDX-License-Identifier: GPL-2.0
/*
 * Intel's events of one part, unpacked from the generated tables (pmu/event_table.h).
 */
#include <string.h>

#include "pmu/event_table.h"
#include "pmu/regs.h"

int event_name_fold(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 'a';
	return c == '.' ? ':' : c;
}

bool event_name_equal(const char *entry, const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!entry[i] || event_name_fold(entry[i]) != event_name_fold(text[i]))
			return false;
	return entry[i] == 0;
}

const char *event_name_umask_of(const char *name, const char *event, size_t len)
{
	size_t i;

	for (i = 0; i < len && name[i] && name[i] != '.' && name[i] != ':'; i++)
		if (event_name_fold(name[i]) != event_name_fold(event[i]))
			return NULL;
	return i == len && (name[i] == '.' || name[i] == ':') ? name + i + 1 : NULL;
}

static void unpack(const struct intel_event *p, struct event_info *info)
{
	memset(info, 0, sizeof(*info));
	info->name = intel_event_names + p->name;
	info->event = p->event;
	info->umask = p->umask;
	info->cmask = p->cmask;
	info->inv = p->inv;
	info->edge = p->edge;
	info->any = p->any;
	info->counters = p->counters;
	info->counters_ht_off = p->counters_ht_off;
	info->fixed = (int8_t)(p->fixed ? p->fixed - 1 : -1);
	info->pebs = p->pebs;
	info->taken_alone = p->taken_alone;
	info->deprecated = p->deprecated;
	info->msr = (enum intel_event_msr)p->msr;
	info->errata = p->errata ? intel_event_errata[p->errata] : NULL;
	info->parts = p->parts;
	if (info->fixed >= 0) {
		/* Intel's 0x00/N is fixed counter N - 1; the scheduler knows it by its GP code. */
		uint16_t code = regs_fixed_event_code((unsigned)info->fixed);

		info->event = (uint8_t)code;
		info->umask = (uint8_t)(code >> 8);
	}
}

const struct intel_event_source *event_table_source(const struct uarch *u)
{
	if (!u)
		return NULL;
	for (const struct intel_event_source *s = intel_event_sources; s->part; s++)
		if (!strcmp(s->part, u->part))
			return s;
	return NULL;
}

void event_iter_start(struct event_iter *it, const struct uarch *u)
{
	it->source = event_table_source(u);
	it->next = 0;
}

bool event_iter_next(struct event_iter *it, struct event_info *info)
{
	const struct intel_event_source *s = it->source;

	if (!s)
		return false;
	while (it->next < s->count) {
		const struct intel_event *p = &s->events[it->next++];

		if (p->parts & s->role) {
			unpack(p, info);
			return true;
		}
	}
	return false;
}

bool event_table_find(const struct uarch *u, const char *name, size_t len, struct event_info *info)
{
	struct event_iter it;

	for (event_iter_start(&it, u); event_iter_next(&it, info);)
		if (event_name_equal(info->name, name, len))
			return true;
	return false;
}

bool event_table_match(const struct uarch *u, const struct pmu_event *e, struct event_info *info)
{
	struct event_iter it;

	for (event_iter_start(&it, u); event_iter_next(&it, info);)
		if (info->event == e->event && info->umask == e->umask && info->cmask == e->cmask &&
		    info->inv == e->inv && info->edge == e->edge && info->any == e->any)
			return true;
	return false;
}

bool event_table_has(const struct uarch *u, uint8_t event, uint8_t umask)
{
	struct event_iter it;
	struct event_info info;

	for (event_iter_start(&it, u); event_iter_next(&it, &info);)
		if (info.event == event && info.umask == umask)
			return true;
	return false;
}

void event_info_to_event(const struct event_info *info, struct pmu_event *e)
{
	e->event = info->event;
	e->umask = info->umask;
	e->cmask = info->cmask;
	e->inv = info->inv;
	e->edge = info->edge;
	e->any = info->any;
}

const char *event_msr_name(enum intel_event_msr msr)
{
	switch (msr) {
	case INTEL_MSR_LOAD_LATENCY:
		return "MSR_PEBS_LD_LAT_THRESHOLD (0x3F6)";
	case INTEL_MSR_FRONTEND:
		return "MSR_PEBS_FRONTEND (0x3F7)";
	case INTEL_MSR_NONE:
		break;
	}
	return "no extra MSR";
}

bool event_is_offcore_response(const char *name, size_t len)
{
	static const char prefix[] = "OFFCORE_RESPONSE";
	size_t n = sizeof(prefix) - 1;

	return len >= n && event_name_equal(prefix, name, n) &&
	       (len == n || name[n] == '.' || name[n] == ':');
}
