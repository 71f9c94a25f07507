// SPDX-License-Identifier: GPL-2.0
/*
 * Random pairs of event lists (see random_lists.h).
 */
#include <stdio.h>
#include <string.h>

#include "tests/host/lib/brute_force.h"
#include "tests/host/lib/random_lists.h"

/* Events by kind, as 0xUUEE codes (Haswell's tables). */
static const uint16_t corrupting[] = { 0x81d0, 0x08d1, 0x10d1, 0x01d1, 0x20d1, 0x01d2, 0x01d3 };
static const uint16_t free_events[] = { 0x00c5, 0x00c4, 0x412e, 0x3f24, 0x0151, 0x01c2, 0x20cc };
static const uint16_t constrained[] = { 0x0148, 0x08a3, 0x01cd, 0x01c0 };
static const uint16_t fixed_events[] = { 0x00c0, 0x003c, 0x0300 };

static uint16_t pick(uint64_t *state, const uint16_t *from, unsigned n)
{
	return from[brute_random(state) % n];
}

static uint16_t random_code(uint64_t *state)
{
	unsigned kind = (unsigned)(brute_random(state) % 20);

	if (kind < 7)
		return pick(state, corrupting, sizeof(corrupting) / sizeof(corrupting[0]));
	if (kind < 14)
		return pick(state, free_events, sizeof(free_events) / sizeof(free_events[0]));
	if (kind < 17)
		return pick(state, constrained, sizeof(constrained) / sizeof(constrained[0]));
	return pick(state, fixed_events, sizeof(fixed_events) / sizeof(fixed_events[0]));
}

static void random_list(uint64_t *state, const struct random_lists_options *o,
			struct random_list *l)
{
	unsigned span = o->max_events - o->min_events + 1;
	unsigned n = o->min_events + (unsigned)(brute_random(state) % span);
	uint16_t group = 0;
	bool pinned_done = !o->pinned;

	memset(l, 0, sizeof(*l));
	for (unsigned i = 0; i < n; group++) {
		unsigned size = o->groups && i + 1 < n && brute_random(state) % 5 == 0 ? 2 : 1;
		bool pinned = !pinned_done && brute_random(state) % 6 == 0;

		pinned_done |= pinned;
		for (unsigned j = 0; j < size; j++, i++) {
			struct pmu_event *e = &l->events[i];
			uint16_t code = random_code(state);

			e->event = (uint8_t)code;
			e->umask = (uint8_t)(code >> 8);
			e->usr = true;
			e->pinned = pinned;
			e->group = group;
			snprintf(e->name, sizeof(e->name), "r%04x:u%s", code, pinned ? "D" : "");
		}
	}
	l->n = n;
}

void random_lists(uint64_t *state, const struct random_lists_options *o, struct random_list out[2])
{
	random_list(state, o, &out[0]);
	random_list(state, o, &out[1]);
}

void random_list_text(const struct random_list *l, char *buf, unsigned size)
{
	unsigned at = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < l->n && at < size; i++) {
		bool first = i == 0 || l->events[i - 1].group != l->events[i].group;
		bool last = i + 1 == l->n || l->events[i + 1].group != l->events[i].group;
		bool grouped = !(first && last);

		at += (unsigned)snprintf(buf + at, size - at, "%s%s%s%s", i ? "," : "",
					 grouped && first ? "{" : "", l->events[i].name,
					 grouped && last ? "}" : "");
	}
}
