// SPDX-License-Identifier: GPL-2.0
/*
 * The histogram of a trace's edges (tests/profiles/edges.h): open addressing with linear probing,
 * then, for the record, the edges gathered at the front of the table and sorted.
 */
#include <string.h>

#include "tests/profiles/edges.h"

void trace_edges_reset(struct trace_edges *t)
{
	memset(t, 0, sizeof(*t));
}

static unsigned hash(uint64_t from, uint64_t to)
{
	uint64_t h = (from ^ (to << 7) ^ (to >> 3)) * 0x9e3779b97f4a7c15ull;

	return (unsigned)(h >> 40) & (TRACE_EDGES_MAX - 1);
}

void trace_edges_add(struct trace_edges *t, uint64_t from, uint64_t to)
{
	unsigned i = hash(from, to);

	t->steps++;
	for (unsigned probes = 0; probes < TRACE_EDGES_MAX;
	     probes++, i = (i + 1) % TRACE_EDGES_MAX) {
		struct trace_edge *e = &t->slot[i];
		if (!e->count) {
			*e = (struct trace_edge){ from, to, 1 };
			t->used++;
			return;
		}
		if (e->from == from && e->to == to) {
			e->count++;
			return;
		}
	}
	t->lost++;
}

static bool before(const struct trace_edge *a, const struct trace_edge *b)
{
	return a->from < b->from || (a->from == b->from && a->to < b->to);
}

unsigned trace_edges_sort(struct trace_edges *t)
{
	unsigned n = 0;

	for (unsigned i = 0; i < TRACE_EDGES_MAX; i++)
		if (t->slot[i].count)
			t->slot[n++] = t->slot[i];
	for (unsigned i = n; i < TRACE_EDGES_MAX; i++)
		t->slot[i] = (struct trace_edge){ 0, 0, 0 };
	/* Insertion sort: a thousand entries at most, once per run. */
	for (unsigned i = 1; i < n; i++) {
		struct trace_edge e = t->slot[i];
		unsigned j = i;
		for (; j > 0 && before(&e, &t->slot[j - 1]); j--)
			t->slot[j] = t->slot[j - 1];
		t->slot[j] = e;
	}
	return n;
}
