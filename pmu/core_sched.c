// SPDX-License-Identifier: GPL-2.0
/*
 * The joint placement of both threads' groups under the XSU guarantee (see pmu/core_sched.h):
 * the splits of the GP indices, and in each split a greedy matroid pass per thread with an
 * augmenting-path check.
 */
#include <string.h>

#include "pmu/core_sched.h"
#include "pmu/counters.h"

/*
 * Within one call the counters of a thread are numbered densely: GP counter i is bit i
 * (i < PMU_MAX_GP), fixed counter j is bit PMU_MAX_GP + j. Eleven counters fit a uint16_t, so a
 * matching is a few bytes and a whole split's state is copied in one go.
 */
#define DENSE_COUNTERS (PMU_MAX_GP + PMU_MAX_FIXED)
#define DENSE_FIXED_SHIFT PMU_MAX_GP

struct thread_view {
	uint16_t mask[SCHED_MAX_EVENTS]; /* static constraint, dense */
	uint8_t kind[SCHED_MAX_EVENTS];	 /* 1 for a corrupting event: its index into allowed[] */
	uint32_t corrupting;
	uint32_t used;	     /* events of the groups to place */
	uint16_t allowed[2]; /* in the current split: [0] non-corrupting, [1] corrupting events */
	unsigned capacity;   /* counters the thread may use in the current split */
};

/* 16 bytes, aligned: copied whole many times a tick (an odd size costs store-forwarding
 * stalls there). */
struct matching {
	_Alignas(16) uint16_t matched; /* dense counters taken */
	uint8_t size;
	int8_t owner[13]; /* event on each taken counter, DENSE_COUNTERS of them */
};

/* GP indices that every event treats alike: only how many are S, X0 and X1 matters. */
struct index_class {
	uint8_t index[PMU_MAX_GP]; /* ascending */
	uint8_t size;
	uint8_t max[2];	      /* at most this many exclusive to thread t (see core_sched.h) */
	uint8_t exclusive[2]; /* the current split: the first exclusive[0] are X0, then X1 */
	uint32_t signature[2];
};

/* sched_weight()'s SWAR count: without -mpopcnt, __builtin_popcount is a libgcc call. */
static unsigned popcount16(unsigned v)
{
	return sched_weight(v);
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
	return v->mask[event] & v->allowed[v->kind[event]];
}

/*
 * Give event x a counter among the taken ones of `mask` (its allowed counters), moving placed
 * events along an augmenting path (Kuhn's search, iterative: the stack holds the path's events
 * and the counters they go through; every counter is visited once, so the path is at most
 * DENSE_COUNTERS long). The matching changes only on success. Out of line: most events find a
 * free counter (place()), and this frame is not needed then.
 */
static __attribute__((noinline)) bool augment(const struct thread_view *v, struct matching *m,
					      unsigned x, uint16_t mask)
{
	uint8_t event[DENSE_COUNTERS + 1], via[DENSE_COUNTERS + 1];
	uint16_t untried[DENSE_COUNTERS + 1];
	uint16_t visited = 0;
	int top = 0;

	event[0] = (uint8_t)x;
	untried[0] = mask;
	while (top >= 0) {
		uint16_t candidates = untried[top] & ~visited, free;
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

/* Give event x a counter among `mask`: a free one (fixed counters first, as Linux's
 * perf_sched_find_counter()), or by augment(). */
static inline bool place(const struct thread_view *v, struct matching *m, unsigned x, uint16_t mask)
{
	uint16_t free = mask & ~m->matched;

	if (free) {
		uint16_t fixed = free & (uint16_t) ~((1u << DENSE_FIXED_SHIFT) - 1);
		unsigned y = (unsigned)__builtin_ctz(fixed ? fixed : free);

		m->owner[y] = (int8_t)x;
		m->matched |= (uint16_t)(1u << y);
		m->size++;
		return true;
	}
	return mask && augment(v, m, x, mask);
}

/* All of a group's events, or none of them. */
static bool place_group(const struct thread_view *v, struct matching *m,
			const struct core_sched_group *g)
{
	struct matching saved;

	if (m->size + g->count > v->capacity)
		return false;
	if (g->count == 1)
		return place(v, m, g->first, allowed_mask(v, g->first));
	saved = *m;
	for (unsigned e = g->first; e < g->first + g->count; e++) {
		if (!place(v, m, e, allowed_mask(v, e))) {
			*m = saved;
			return false;
		}
	}
	return true;
}

/* What a split achieves: the groups it places (bit 63 - k: order[k]) and their worth. */
struct score {
	uint64_t accepted;
	uint64_t worth;
};

/* <0, 0, >0 as a is worse than, as good as, better than b (see core_sched.h). */
static int score_compare(const struct core_sched_input *in, const struct score *a,
			 const struct score *b)
{
	uint64_t pinned = in->nr_pinned ? ~0ull << (64 - in->nr_pinned) : 0;

	if ((a->accepted & pinned) != (b->accepted & pinned))
		return (a->accepted & pinned) < (b->accepted & pinned) ? -1 : 1;
	if (a->worth != b->worth)
		return a->worth < b->worth ? -1 : 1;
	return a->accepted < b->accepted ? -1 : a->accepted > b->accepted;
}

/*
 * One thread's flexible groups, in the caller's order, and how its pass chooses among them.
 * Given the split and the pinned groups, the thread's single events form a matroid, in which the
 * greedy pass in the order finds the most worth; a group of several events does not fit that
 * (placing it may cost two single events worth more, or leaving it out may waste a counter). So
 * every choice of the thread's groups of several events is tried, each followed by the greedy
 * pass over its single events, which is exact, as long as there are at most ENUMERATED of them;
 * beyond, the greedy pass in the order and again with larger groups first among equal worths,
 * the better of the two.
 */
#define ENUMERATED 4

struct thread_order {
	unsigned n;
	uint8_t k[SCHED_MAX_EVENTS];	  /* positions in the caller's order */
	uint8_t second[SCHED_MAX_EVENTS]; /* larger groups first among equal worths */
	unsigned nr_multi;
	uint8_t multi[SCHED_MAX_EVENTS]; /* positions of the groups of several events */
	uint64_t top;			 /* the largest worth of an event, for bounds */
};

static void thread_orders(const struct core_sched_input *in, struct thread_order to[2])
{
	memset(to, 0, 2 * sizeof(*to));
	for (unsigned k = in->nr_pinned; k < in->nr_groups; k++) {
		const struct core_sched_group *g = &in->order[k];
		struct thread_order *o = &to[g->thread];
		unsigned j = o->n;

		if (!o->n)
			o->top = g->worth;
		o->k[o->n++] = (uint8_t)k;
		for (; j > 0 && in->order[o->second[j - 1]].worth == g->worth &&
		       in->order[o->second[j - 1]].count < g->count;
		     j--)
			o->second[j] = o->second[j - 1];
		o->second[j] = (uint8_t)k;
		if (g->count > 1)
			o->multi[o->nr_multi++] = (uint8_t)k;
	}
}

/* A thread's part of a split's score, and the better of two. */
struct thread_score {
	uint64_t accepted;
	uint64_t worth;
	struct matching m;
};

static bool thread_better(const struct thread_score *a, const struct thread_score *b)
{
	return a->worth > b->worth || (a->worth == b->worth && a->accepted > b->accepted);
}

/*
 * The greedy pass over a thread's flexible groups at positions k[0..n-1] from matching *ts
 * (where the groups it holds are placed already), skipping the groups of several events when
 * `singles_only`. Returns false, early, when even every free counter filled at the next group's
 * worth cannot bring the thread to `need` (NULL: no such bound).
 */
static bool thread_greedy(const struct core_sched_input *in, const struct thread_view *v,
			  const uint8_t *k, unsigned n, bool singles_only, const uint64_t *need,
			  struct thread_score *ts)
{
	/*
	 * The allowed counters of the last single event that did not fit: one whose counters are all
	 * among them cannot fit either, now or later in the pass (Hall: the set that kept the first
	 * out keeps it out), so it is not searched for.
	 */
	uint16_t failed = 0;
	bool check = need != NULL;

	for (unsigned i = 0; i < n && ts->m.size < v->capacity; i++) {
		const struct core_sched_group *g = &in->order[k[i]];
		uint16_t mask = allowed_mask(v, g->first);

		/* Checked first and after each group left out, where it falls the most. */
		if (check) {
			if (ts->worth + (v->capacity - ts->m.size) * g->worth < *need)
				return false;
			check = false;
		}
		if (singles_only && g->count > 1)
			continue;
		if (g->count == 1) {
			if (!(mask & ~failed) || !place(v, &ts->m, g->first, mask)) {
				failed = mask;
				check = need != NULL;
				continue;
			}
		} else if (!place_group(v, &ts->m, g)) {
			check = need != NULL;
			continue;
		}
		ts->accepted |= core_sched_rank_bit(k[i]);
		ts->worth += g->count * g->worth;
	}
	return !need || ts->worth >= *need;
}

/*
 * The best choice of a thread's flexible groups, from its matching after the pinned groups, if
 * one reaches `need` (NULL: any); false when none does.
 */
static bool thread_pass(const struct core_sched_input *in, const struct thread_order *o,
			const struct thread_view *v, const struct matching *pinned,
			const uint64_t *need, struct thread_score *best)
{
	struct thread_score ts;
	bool found = false;

	*best = (struct thread_score){ .m = *pinned }; /* nothing placed: always possible */
	if (!o->nr_multi)
		return thread_greedy(in, v, o->k, o->n, false, need, best);
	if (o->nr_multi > ENUMERATED) {
		for (unsigned pass = 0; pass < 2; pass++) {
			ts = (struct thread_score){ .m = *pinned };
			if (!thread_greedy(in, v, pass ? o->second : o->k, o->n, false, need, &ts))
				continue;
			if (!found || thread_better(&ts, best))
				*best = ts;
			found = true;
		}
		return found || !need;
	}
	for (unsigned choice = 0; choice < 1u << o->nr_multi; choice++) {
		bool fits = true;

		ts = (struct thread_score){ .m = *pinned };
		for (unsigned j = 0; j < o->nr_multi && fits; j++) {
			const struct core_sched_group *g = &in->order[o->multi[j]];

			if (!(choice & (1u << j)))
				continue;
			fits = place_group(v, &ts.m, g);
			ts.accepted |= core_sched_rank_bit(o->multi[j]);
			ts.worth += g->count * g->worth;
		}
		if (!fits || !thread_greedy(in, v, o->k, o->n, true, need, &ts))
			continue;
		if (!found || thread_better(&ts, best))
			*best = ts;
		found = true;
	}
	return found || !need;
}

/*
 * One split (x[t]: the GP indices exclusive to thread t; the rest of the GP counters shared):
 * the pinned groups in order, then each thread's pass. Fills *score and the matchings; returns
 * false, early, when the split cannot beat best (NULL before the first split).
 */
static bool evaluate(const struct core_sched_input *in, const struct thread_order to[2],
		     struct thread_view v[2], const uint8_t x[2], const struct score *best,
		     struct score *score, struct matching m[2])
{
	uint16_t gp_all = (uint16_t)((1u << in->gp) - 1);
	uint16_t fixed_all = (uint16_t)(((1u << in->fixed) - 1) << DENSE_FIXED_SHIFT);
	uint16_t shared = gp_all & (uint16_t) ~(x[0] | x[1]);
	uint64_t pinned = in->nr_pinned ? ~0ull << (64 - in->nr_pinned) : 0;
	struct thread_score ts;

	for (unsigned t = 0; t < 2; t++) {
		v[t].allowed[0] = shared | x[t] | fixed_all;
		v[t].allowed[1] = x[t];
		v[t].capacity = popcount16(v[t].allowed[0]);
		m[t].matched = 0;
		m[t].size = 0;
	}
	score->accepted = 0;
	score->worth = 0;
	for (unsigned k = 0; k < in->nr_pinned; k++)
		if (place_group(&v[in->order[k].thread], &m[in->order[k].thread], &in->order[k]))
			score->accepted |= core_sched_rank_bit(k);
	if (best && (score->accepted & pinned) != (best->accepted & pinned)) {
		if ((score->accepted & pinned) < (best->accepted & pinned))
			return false;
		best = NULL; /* better already */
	}
	for (unsigned t = 0; t < 2; t++) {
		uint64_t need, *bound = NULL;

		if (best) {
			/* What thread t must bring for the split to match best: best's worth less
			 * what is placed, less the most thread 1 could add after thread 0. */
			uint64_t most = t ? 0 : (v[1].capacity - m[1].size) * to[1].top;

			need = best->worth > score->worth + most ? best->worth - score->worth - most
								 : 0;
			bound = &need;
		}
		if (!thread_pass(in, &to[t], &v[t], &m[t], bound, &ts))
			return false;
		m[t] = ts.m;
		score->accepted |= ts.accepted;
		score->worth += ts.worth;
	}
	return !best || score_compare(in, score, best) > 0;
}

/* Up to this many splits, every one is tried at every tick. */
#define EXHAUSTIVE_SPLITS 16

/* The classes of interchangeable GP indices, and how many of each may be exclusive. */
static unsigned classify(const struct core_sched_input *in, const struct thread_view v[2],
			 struct index_class *cls)
{
	uint32_t signature[PMU_MAX_GP][2];
	unsigned n = 0;

	memset(signature, 0, sizeof(signature));
	for (unsigned t = 0; t < 2; t++) {
		for (uint32_t u = v[t].used; u; u &= u - 1) {
			unsigned e = (unsigned)__builtin_ctz(u);

			for (unsigned gp = v[t].mask[e] & ((1u << in->gp) - 1); gp; gp &= gp - 1)
				signature[__builtin_ctz(gp)][t] |= 1u << e;
		}
	}
	for (unsigned i = 0; i < in->gp; i++) {
		const uint32_t *sig = signature[i];
		unsigned c;

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
			unsigned can = sched_weight(cls[c].signature[t] & v[t].corrupting);

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

		for (unsigned e = 0; e < th->nr_events && e < SCHED_MAX_EVENTS; e++) {
			v[t].mask[e] = dense_mask(th->mask[e], present);
			v[t].kind[e] = (th->corrupting >> e) & 1;
		}
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
	struct score score;
	uint8_t x[2];
	struct matching m[2];
};

/* Evaluate split x; keep it when it beats the best so far (a tie keeps the earlier split: the
 * hint, so the schedule stays put). True when it was kept. */
static bool try_split(const struct core_sched_input *in, const struct thread_order to[2],
		      struct thread_view v[2], const uint8_t x[2], struct best_split *best,
		      unsigned *splits)
{
	struct matching m[2];
	struct score score;

	(*splits)++;
	if (!evaluate(in, to, v, x, best->found ? &best->score : NULL, &score, m))
		return false;
	best->found = true;
	best->score = score;
	best->x[0] = x[0];
	best->x[1] = x[1];
	memcpy(best->m, m, sizeof(m));
	return true;
}

/* How many splits the classes make: the product of each class's (X0, X1) choices. */
static unsigned count_splits(const struct index_class *cls, unsigned n)
{
	unsigned total = 1;

	for (unsigned c = 0; c < n; c++) {
		unsigned choices = 0;

		for (unsigned a = 0; a <= cls[c].max[0]; a++)
			for (unsigned b = 0; b <= cls[c].max[1] && a + b <= cls[c].size; b++)
				choices++;
		total *= choices;
	}
	return total;
}

/* Every split, the hint first. */
static void search_all(const struct core_sched_input *in, const struct thread_order to[2],
		       struct thread_view v[2], struct index_class *cls, unsigned n,
		       const uint8_t hint[2], struct best_split *best, unsigned *splits)
{
	for (unsigned c = 0; c < n; c++)
		cls[c].exclusive[0] = cls[c].exclusive[1] = 0;
	try_split(in, to, v, hint, best, splits);
	do {
		uint8_t y[2];

		split_of(cls, n, y);
		if (y[0] != hint[0] || y[1] != hint[1])
			try_split(in, to, v, y, best, splits);
	} while (next_split(cls, n));
}

/*
 * Too many splits to try each at every tick: from the hint's counts, each class in turn tries
 * all its (X0, X1) choices with the other classes where the best split so far has them
 * (coordinate ascent). The hint is the last tick's best, so over the ticks the search follows
 * the best split as the worths change.
 */
static void search_classes(const struct core_sched_input *in, const struct thread_order to[2],
			   struct thread_view v[2], struct index_class *cls, unsigned n,
			   const uint8_t hint[2], struct best_split *best, unsigned *splits)
{
	uint8_t y[2];

	for (unsigned c = 0; c < n; c++) {
		for (unsigned t = 0; t < 2; t++) {
			unsigned have = 0;

			for (unsigned j = 0; j < cls[c].size; j++)
				have += (hint[t] >> cls[c].index[j]) & 1;
			cls[c].exclusive[t] =
				(uint8_t)(have < cls[c].max[t] ? have : cls[c].max[t]);
		}
		if (cls[c].exclusive[0] + cls[c].exclusive[1] > cls[c].size)
			cls[c].exclusive[1] = (uint8_t)(cls[c].size - cls[c].exclusive[0]);
	}
	split_of(cls, n, y);
	try_split(in, to, v, y, best, splits);
	for (unsigned c = 0; c < n; c++) {
		uint8_t keep[2] = { cls[c].exclusive[0], cls[c].exclusive[1] };

		for (unsigned a = 0; a <= cls[c].max[0]; a++) {
			for (unsigned b = 0; b <= cls[c].max[1] && a + b <= cls[c].size; b++) {
				if (a == keep[0] && b == keep[1])
					continue;
				cls[c].exclusive[0] = (uint8_t)a;
				cls[c].exclusive[1] = (uint8_t)b;
				split_of(cls, n, y);
				if (try_split(in, to, v, y, best, splits)) {
					keep[0] = (uint8_t)a;
					keep[1] = (uint8_t)b;
				}
			}
		}
		cls[c].exclusive[0] = keep[0];
		cls[c].exclusive[1] = keep[1];
	}
}

/* Counters and groups within the bounds the arrays have. */
static bool input_valid(const struct core_sched_input *in)
{
	if (in->gp > PMU_MAX_GP || in->fixed > PMU_MAX_FIXED ||
	    in->nr_groups > CORE_SCHED_MAX_GROUPS || in->nr_pinned > in->nr_groups)
		return false;
	for (unsigned t = 0; t < 2; t++)
		if (in->thread[t].nr_events > SCHED_MAX_EVENTS)
			return false;
	for (unsigned k = 0; k < in->nr_groups; k++) {
		const struct core_sched_group *g = &in->order[k];

		if (g->thread > 1 || !g->count ||
		    g->first + g->count > in->thread[g->thread].nr_events)
			return false;
		if (g->worth > CORE_SCHED_MAX_WORTH)
			return false;
	}
	return true;
}

void core_sched(const struct core_sched_input *in, struct core_sched_result *out)
{
	struct thread_view v[2];
	struct index_class cls[PMU_MAX_GP];
	struct best_split best = { .found = false };
	struct thread_order to[2];
	uint8_t gp_all = (uint8_t)((1u << in->gp) - 1), x[2];
	unsigned n;

	memset(out, 0, sizeof(*out));
	memset(out->counter, SCHED_NO_COUNTER, sizeof(out->counter));
	if (!input_valid(in))
		return;
	prepare(in, v);
	n = classify(in, v, cls);
	thread_orders(in, to);

	x[0] = in->hint[0] & gp_all;
	x[1] = in->hint[1] & gp_all & (uint8_t)~x[0];
	if (in->exhaustive || count_splits(cls, n) <= EXHAUSTIVE_SPLITS) {
		search_all(in, to, v, cls, n, x, &best, &out->splits);
	} else {
		search_classes(in, to, v, cls, n, x, &best, &out->splits);
		/* A pinned group left out goes into the error state for good: make sure no split
		 * places it before that is decided. */
		if (in->nr_pinned && (~best.score.accepted >> (64 - in->nr_pinned)))
			search_all(in, to, v, cls, n, x, &best, &out->splits);
	}

	out->accepted = best.score.accepted;

	out->exclusive[0] = best.x[0];
	out->exclusive[1] = best.x[1];
	for (unsigned t = 0; t < 2; t++) {
		for (uint16_t u = best.m[t].matched; u; u &= u - 1) {
			unsigned y = (unsigned)__builtin_ctz(u);

			out->counter[t][best.m[t].owner[y]] = idxmsk_counter(y);
		}
	}
}
