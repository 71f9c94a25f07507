// SPDX-License-Identifier: GPL-2.0
/*
 * The joint placement of both threads' groups under the XSU guarantee (see pmu/core_sched.h):
 * the splits of the GP indices, and in each split a greedy matroid pass per thread with an
 * augmenting-path check.
 */
#include <string.h>

#include "pmu/core_sched.h"

/*
 * Within one call the counters of a thread are numbered densely: GP counter i is bit i
 * (i < PMU_MAX_GP), fixed counter j is bit PMU_MAX_GP + j. Eleven counters fit a uint16_t, so a
 * matching is a few bytes and a whole split's state is copied in one go.
 */
#define DENSE_COUNTERS (PMU_MAX_GP + PMU_MAX_FIXED)
#define DENSE_FIXED_SHIFT PMU_MAX_GP

struct thread_view {
	uint16_t mask[SCHED_MAX_EVENTS]; /* static constraint, dense */
	uint32_t corrupting;
	uint32_t used;	     /* events of the groups to place */
	uint16_t allowed[2]; /* in the current split: [0] non-corrupting, [1] corrupting events */
	unsigned capacity;   /* counters the thread may use in the current split */
};

struct matching {
	uint16_t matched; /* dense counters taken */
	uint8_t size;
	int8_t owner[DENSE_COUNTERS]; /* event on each taken counter */
};

/* GP indices that every event treats alike: only how many are S, X0 and X1 matters. */
struct index_class {
	uint8_t index[PMU_MAX_GP]; /* ascending */
	uint8_t size;
	uint8_t max[2];	      /* at most this many exclusive to thread t (see core_sched.h) */
	uint8_t exclusive[2]; /* the current split: the first exclusive[0] are X0, then X1 */
	uint32_t signature[2];
};

static unsigned popcount16(unsigned v)
{
	return (unsigned)__builtin_popcount(v);
}

static uint16_t dense_mask(uint64_t mask, uint16_t present)
{
	uint64_t gp = mask & ((1ull << PMU_MAX_GP) - 1);
	uint64_t fixed = (mask >> PMU_FIXED_BASE) & ((1ull << PMU_MAX_FIXED) - 1);

	return (uint16_t)((gp | fixed << DENSE_FIXED_SHIFT) & present);
}

static int8_t idxmsk_counter(unsigned dense)
{
	return (int8_t)(dense < PMU_MAX_GP ? dense : PMU_FIXED_BASE + dense - DENSE_FIXED_SHIFT);
}

static uint16_t allowed_mask(const struct thread_view *v, unsigned event)
{
	return v->mask[event] & v->allowed[(v->corrupting >> event) & 1];
}

/*
 * Give event x a counter, moving placed events along an augmenting path if needed (Kuhn's
 * search, iterative: the stack holds the path's events and the counters they go through; every
 * counter is visited once, so the path is at most DENSE_COUNTERS long). The matching changes
 * only on success.
 */
static bool place(const struct thread_view *v, struct matching *m, unsigned x)
{
	uint8_t event[DENSE_COUNTERS + 1], via[DENSE_COUNTERS + 1];
	uint16_t untried[DENSE_COUNTERS + 1];
	uint16_t mask = allowed_mask(v, x), free = mask & ~m->matched, visited = 0;
	int top = 0;

	if (free) {
		/* Fixed counters first, as Linux's perf_sched_find_counter(). */
		uint16_t fixed = free & (uint16_t) ~((1u << DENSE_FIXED_SHIFT) - 1);
		unsigned y = (unsigned)__builtin_ctz(fixed ? fixed : free);

		m->owner[y] = (int8_t)x;
		m->matched |= (uint16_t)(1u << y);
		m->size++;
		return true;
	}
	event[0] = (uint8_t)x;
	untried[0] = mask;
	while (top >= 0) {
		uint16_t candidates = untried[top] & ~visited;
		unsigned y;

		if (!candidates) {
			top--;
			continue;
		}
		free = candidates & ~m->matched;
		if (free) {
			via[top] = (uint8_t)__builtin_ctz(free);
			for (int i = 0; i <= top; i++)
				m->owner[via[i]] = (int8_t)event[i];
			m->matched |= (uint16_t)(1u << via[top]);
			m->size++;
			return true;
		}
		y = (unsigned)__builtin_ctz(candidates);
		visited |= (uint16_t)(1u << y);
		via[top] = (uint8_t)y;
		top++;
		event[top] = (uint8_t)m->owner[y];
		untried[top] = allowed_mask(v, event[top]);
	}
	return false;
}

/* All of a group's events, or none of them. */
static bool place_group(const struct thread_view *v, struct matching *m,
			const struct core_sched_group *g)
{
	struct matching saved;

	if (m->size + g->count > v->capacity)
		return false;
	if (g->count == 1)
		return place(v, m, g->first);
	saved = *m;
	for (unsigned e = g->first; e < g->first + g->count; e++) {
		if (!place(v, m, e)) {
			*m = saved;
			return false;
		}
	}
	return true;
}

/*
 * The greedy pass of one split (x[t]: the GP indices exclusive to thread t; the rest of the GP
 * counters shared). Fills *accepted and the matchings; returns false, early, when the split is
 * already worse than best.
 */
static bool evaluate(const struct core_sched_input *in, struct thread_view v[2], const uint8_t x[2],
		     const uint64_t *best, uint64_t *accepted, struct matching m[2])
{
	uint16_t gp_all = (uint16_t)((1u << in->gp) - 1);
	uint16_t fixed_all = (uint16_t)(((1u << in->fixed) - 1) << DENSE_FIXED_SHIFT);
	uint16_t shared = gp_all & (uint16_t) ~(x[0] | x[1]);
	uint64_t acc = 0;
	bool ahead = best == NULL;

	for (unsigned t = 0; t < 2; t++) {
		v[t].allowed[0] = shared | x[t] | fixed_all;
		v[t].allowed[1] = x[t];
		v[t].capacity = popcount16(v[t].allowed[0]);
		m[t].matched = 0;
		m[t].size = 0;
	}
	for (unsigned k = 0; k < in->nr_groups; k++) {
		const struct core_sched_group *g = &in->order[k];

		if (place_group(&v[g->thread], &m[g->thread], g))
			acc |= core_sched_rank_bit(k);
		if (!ahead) {
			uint64_t prefix = ~0ull << (63 - k);

			if ((acc & prefix) < (*best & prefix))
				return false;
			ahead = (acc & prefix) > (*best & prefix);
		}
		if (m[0].size == v[0].capacity && m[1].size == v[1].capacity)
			break; /* nothing more fits anywhere */
	}
	*accepted = acc;
	return true;
}

/* The classes of interchangeable GP indices, and how many of each may be exclusive. */
static unsigned classify(const struct core_sched_input *in, const struct thread_view v[2],
			 struct index_class *cls)
{
	unsigned n = 0;

	for (unsigned i = 0; i < in->gp; i++) {
		uint32_t sig[2] = { 0, 0 };
		unsigned c;

		for (unsigned t = 0; t < 2; t++)
			for (uint32_t u = v[t].used; u; u &= u - 1)
				if (v[t].mask[__builtin_ctz(u)] & (1u << i))
					sig[t] |= u & -u;
		for (c = 0; c < n; c++)
			if (cls[c].signature[0] == sig[0] && cls[c].signature[1] == sig[1])
				break;
		if (c == n) {
			memset(&cls[n], 0, sizeof(cls[n]));
			cls[n].signature[0] = sig[0];
			cls[n].signature[1] = sig[1];
			n++;
		}
		cls[c].index[cls[c].size++] = (uint8_t)i;
	}
	for (unsigned c = 0; c < n; c++) {
		for (unsigned t = 0; t < 2; t++) {
			unsigned can =
				(unsigned)__builtin_popcount(cls[c].signature[t] & v[t].corrupting);

			cls[c].max[t] = (uint8_t)(can < cls[c].size ? can : cls[c].size);
		}
	}
	return n;
}

static void split_of(const struct index_class *cls, unsigned n, uint8_t x[2])
{
	x[0] = x[1] = 0;
	for (unsigned c = 0; c < n; c++) {
		unsigned j = 0;

		for (unsigned t = 0; t < 2; t++)
			for (unsigned a = 0; a < cls[c].exclusive[t]; a++)
				x[t] |= (uint8_t)(1u << cls[c].index[j++]);
	}
}

/* The next split, counting through each class's (X0, X1) pairs like the digits of a number. */
static bool next_split(struct index_class *cls, unsigned n)
{
	for (unsigned c = 0; c < n; c++) {
		struct index_class *k = &cls[c];

		if (k->exclusive[1] < k->max[1] && k->exclusive[0] + k->exclusive[1] < k->size) {
			k->exclusive[1]++;
			return true;
		}
		k->exclusive[1] = 0;
		if (k->exclusive[0] < k->max[0]) {
			k->exclusive[0]++;
			return true;
		}
		k->exclusive[0] = 0;
	}
	return false;
}

static void prepare(const struct core_sched_input *in, struct thread_view v[2])
{
	uint16_t present = (uint16_t)((1u << in->gp) - 1) |
			   (uint16_t)(((1u << in->fixed) - 1) << DENSE_FIXED_SHIFT);

	for (unsigned t = 0; t < 2; t++) {
		const struct core_sched_thread *th = &in->thread[t];

		for (unsigned e = 0; e < th->nr_events && e < SCHED_MAX_EVENTS; e++)
			v[t].mask[e] = dense_mask(th->mask[e], present);
		v[t].corrupting = th->corrupting;
		v[t].used = 0;
	}
	for (unsigned k = 0; k < in->nr_groups; k++) {
		const struct core_sched_group *g = &in->order[k];

		v[g->thread].used |= (uint32_t)(((1ull << g->count) - 1) << g->first);
	}
}

struct best_split {
	bool found;
	uint64_t accepted;
	uint8_t x[2];
	struct matching m[2];
};

static void try_split(const struct core_sched_input *in, struct thread_view v[2],
		      const uint8_t x[2], struct best_split *best, unsigned *splits)
{
	struct matching m[2];
	uint64_t acc;

	(*splits)++;
	if (!evaluate(in, v, x, best->found ? &best->accepted : NULL, &acc, m))
		return;
	if (best->found && acc <= best->accepted)
		return; /* a tie keeps the earlier split: the hint, so the schedule stays put */
	best->found = true;
	best->accepted = acc;
	best->x[0] = x[0];
	best->x[1] = x[1];
	memcpy(best->m, m, sizeof(m));
}

/* Counters and groups within the bounds the arrays have. */
static bool input_valid(const struct core_sched_input *in)
{
	if (in->gp > PMU_MAX_GP || in->fixed > PMU_MAX_FIXED ||
	    in->nr_groups > CORE_SCHED_MAX_GROUPS)
		return false;
	for (unsigned t = 0; t < 2; t++)
		if (in->thread[t].nr_events > SCHED_MAX_EVENTS)
			return false;
	for (unsigned k = 0; k < in->nr_groups; k++) {
		const struct core_sched_group *g = &in->order[k];

		if (g->thread > 1 || !g->count ||
		    g->first + g->count > in->thread[g->thread].nr_events)
			return false;
	}
	return true;
}

void core_sched(const struct core_sched_input *in, struct core_sched_result *out)
{
	struct thread_view v[2];
	struct index_class cls[PMU_MAX_GP];
	struct best_split best = { .found = false };
	uint8_t gp_all = (uint8_t)((1u << in->gp) - 1), x[2];
	unsigned n;

	memset(out, 0, sizeof(*out));
	memset(out->counter, SCHED_NO_COUNTER, sizeof(out->counter));
	if (!input_valid(in))
		return;
	prepare(in, v);
	n = classify(in, v, cls);

	x[0] = in->hint[0] & gp_all;
	x[1] = in->hint[1] & gp_all & (uint8_t)~x[0];
	try_split(in, v, x, &best, &out->splits);
	do {
		uint8_t y[2];

		split_of(cls, n, y);
		if (y[0] != x[0] || y[1] != x[1])
			try_split(in, v, y, &best, &out->splits);
	} while (next_split(cls, n));

	out->accepted = best.accepted;
	out->exclusive[0] = best.x[0];
	out->exclusive[1] = best.x[1];
	for (unsigned t = 0; t < 2; t++) {
		for (uint16_t u = best.m[t].matched; u; u &= u - 1) {
			unsigned y = (unsigned)__builtin_ctz(u);

			out->counter[t][best.m[t].owner[y]] = idxmsk_counter(y);
		}
	}
}
