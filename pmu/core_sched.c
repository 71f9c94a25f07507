// SPDX-License-Identifier: GPL-2.0
/*
 * The joint placement of both threads' groups under the XSU guarantee (see pmu/core_sched.h):
 * the splits of the GP indices, and in each split a greedy matroid pass per thread with an
 * augmenting-path check, each thread's pass made once per count of the indices it can tell
 * apart (struct memo). This runs on every multiplexing tick of a core (make bench times it):
 * the passes keep their state in registers, and a pass skips, without a search, the events
 * that a tight set of counters keeps out.
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
	uint8_t first[PMU_MAX_GP + 1]; /* the first j of them (ascending), as a mask */
	uint8_t size;
	uint8_t max[2];	      /* at most this many exclusive to thread t (see core_sched.h) */
	uint8_t exclusive[2]; /* the current split: the first exclusive[0] are X0, then X1 */
	uint32_t signature[2];
	uint8_t key[2][2]; /* thread t's number (memo_key()): per index exclusive to t, to t ^ 1 */
	uint16_t part[2];  /* its part of thread t's number of the current split */
};

/* Bits set, by nibbles: without -mpopcnt, __builtin_popcount is a libgcc call, and the masks
 * here are short. */
static inline unsigned popcount16(unsigned v)
{
	static const uint8_t bits[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

	return bits[v & 15] + bits[(v >> 4) & 15] + bits[(v >> 8) & 15] + bits[(v >> 12) & 15];
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
 *
 * *tight: counters known to be a tight set (Hall): all taken, by events allowed nowhere else.
 * No augmenting path goes through them, so they are not searched. When the search fails, the
 * counters it visited are such a set too and join *tight: an event allowed only there cannot be
 * placed, now or after any later placement (an augmenting path never frees a counter of a tight
 * set), so a pass skips it without a search.
 */
static __attribute__((noinline)) bool augment(const struct thread_view *v, struct matching *m,
					      unsigned x, uint16_t mask, uint16_t *tight)
{
	uint8_t event[DENSE_COUNTERS + 1], via[DENSE_COUNTERS + 1];
	uint16_t untried[DENSE_COUNTERS + 1];
	uint16_t visited = *tight;
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
	*tight = visited;
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
	return mask && augment(v, m, x, mask, &(uint16_t){ 0 });
}

/* All of a group's events (first..first+count-1), or none of them. */
static bool place_group(const struct thread_view *v, struct matching *m, unsigned first,
			unsigned count)
{
	struct matching saved;

	if (m->size + count > v->capacity)
		return false;
	if (count == 1)
		return place(v, m, first, allowed_mask(v, first));
	saved = *m;
	for (unsigned e = first; e < first + count; e++) {
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

/* A flexible group as a thread's pass reads it, all in one place. */
struct item {
	uint64_t worth; /* per event */
	uint16_t mask;	/* its first event's dense constraint */
	uint8_t kind;	/* and that event's kind (thread_view.kind) */
	uint8_t count;
	uint8_t first;
	uint8_t k; /* its position in the caller's order */
};

struct thread_order {
	unsigned n;
	struct item item[SCHED_MAX_EVENTS]; /* in the caller's order */
	uint8_t second[SCHED_MAX_EVENTS];   /* items, larger groups first among equal worths */
	unsigned nr_multi;
	uint8_t multi[SCHED_MAX_EVENTS]; /* items of several events */
};

/* The second pass's order (thread_pass()): larger groups first among those of equal worth. */
static void second_order(struct thread_order *o)
{
	for (unsigned i = 0; i < o->n; i++) {
		const struct item *g = &o->item[i];
		unsigned j = i;

		for (; j > 0 && o->item[o->second[j - 1]].worth == g->worth &&
		       o->item[o->second[j - 1]].count < g->count;
		     j--)
			o->second[j] = o->second[j - 1];
		o->second[j] = (uint8_t)i;
	}
}

/*
 * The events of the groups to place (thread_view.used) and each thread's flexible groups; false
 * for a group outside its thread's events or worth more than CORE_SCHED_MAX_WORTH.
 */
static bool thread_orders(const struct core_sched_input *in, struct thread_view v[2],
			  struct thread_order to[2])
{
	to[0].n = to[0].nr_multi = to[1].n = to[1].nr_multi = 0;
	v[0].used = v[1].used = 0;
	for (unsigned k = 0; k < in->nr_groups; k++) {
		const struct core_sched_group *g = &in->order[k];
		struct thread_order *o = &to[g->thread & 1];
		unsigned j = o->n;

		if (g->thread > 1 || !g->count ||
		    g->first + g->count > in->thread[g->thread].nr_events ||
		    g->worth > CORE_SCHED_MAX_WORTH)
			return false;
		v[g->thread].used |= (uint32_t)(((1ull << g->count) - 1) << g->first);
		if (k < in->nr_pinned)
			continue;

		o->item[j] = (struct item){
			.worth = g->worth,
			.k = (uint8_t)k,
			.mask = v[g->thread].mask[g->first],
			.kind = v[g->thread].kind[g->first],
			.count = g->count,
			.first = g->first,
		};
		if (g->count > 1)
			o->multi[o->nr_multi++] = (uint8_t)o->n;
		o->n++;
	}
	for (unsigned t = 0; t < 2; t++)
		if (to[t].nr_multi > ENUMERATED)
			second_order(&to[t]);
	return true;
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
 * The greedy pass over a thread's flexible groups, items in order (through idx[] when not
 * NULL), from matching *ts (where the groups it holds are placed already), skipping the groups
 * of several events when `singles_only`.
 */
static void thread_greedy(const struct thread_view *v, const struct thread_order *o,
			  const uint8_t *idx, bool singles_only, struct thread_score *ts)
{
	uint16_t tight = 0; /* see augment() */
	/* The hot state in registers: the matching's owner[] is the only memory the pass writes. */
	uint64_t worth = ts->worth, accepted = ts->accepted;
	uint16_t matched = ts->m.matched;
	unsigned size = ts->m.size, capacity = v->capacity;

	for (unsigned i = 0; i < o->n && size < capacity; i++) {
		const struct item *g = &o->item[idx ? idx[i] : i];
		uint16_t mask = g->mask & v->allowed[g->kind] & ~tight, free = mask & ~matched;

		if (g->count == 1 && free) {
			/* A free counter, fixed ones first (Linux's perf_sched_find_counter()). */
			uint16_t fixed = free & (uint16_t) ~((1u << DENSE_FIXED_SHIFT) - 1);
			unsigned y = (unsigned)__builtin_ctz(fixed ? fixed : free);

			ts->m.owner[y] = (int8_t)g->first;
			matched |= (uint16_t)(1u << y);
			size++;
			worth += g->worth;
			accepted |= core_sched_rank_bit(g->k);
			continue;
		}
		if (g->count > 1 && singles_only)
			continue;
		ts->m.matched = matched;
		ts->m.size = (uint8_t)size;
		if (g->count == 1 ? mask && augment(v, &ts->m, g->first, mask, &tight)
				  : place_group(v, &ts->m, g->first, g->count)) {
			worth += g->count * g->worth;
			accepted |= core_sched_rank_bit(g->k);
		}
		matched = ts->m.matched;
		size = ts->m.size;
	}
	ts->m.matched = matched;
	ts->m.size = (uint8_t)size;
	ts->worth = worth;
	ts->accepted = accepted;
}

/*
 * An event allowed only on GP counters, all of them taken: they are a tight set (augment()) when
 * every one is held by an event allowed on none but them, the usual reason an event does not
 * fit, known here without a search. True, and *tight extended, then.
 */
static bool gp_tight(const struct thread_view *v, const struct matching *m, uint16_t mask,
		     uint16_t *tight)
{
	uint16_t gp = v->allowed[0] & (uint16_t)((1u << DENSE_FIXED_SHIFT) - 1);

	if ((mask & ~gp) || (gp & ~m->matched))
		return false;
	for (uint16_t u = gp; u; u &= u - 1)
		if (allowed_mask(v, (unsigned)m->owner[__builtin_ctz(u)]) & ~gp)
			return false;
	*tight |= gp;
	return true;
}

/*
 * thread_greedy() for a thread whose flexible groups are all single events, the common case and
 * the hot loop of a tick: the same pass with nothing else to decide.
 */
static void singles_greedy(const struct thread_view *v, const struct thread_order *o,
			   struct thread_score *ts)
{
	uint16_t tight = 0, allowed0 = v->allowed[0], allowed1 = v->allowed[1];
	uint64_t worth = ts->worth, accepted = ts->accepted;
	uint16_t matched = ts->m.matched;
	unsigned size = ts->m.size, capacity = v->capacity;

	for (const struct item *g = o->item, *end = g + o->n; g < end && size < capacity; g++) {
		uint16_t mask = g->mask & (g->kind ? allowed1 : allowed0) & ~tight;
		uint16_t free = mask & ~matched;

		if (free) {
			uint16_t fixed = free & (uint16_t) ~((1u << DENSE_FIXED_SHIFT) - 1);
			unsigned y = (unsigned)__builtin_ctz(fixed ? fixed : free);

			ts->m.owner[y] = (int8_t)g->first;
			matched |= (uint16_t)(1u << y);
			size++;
		} else {
			ts->m.matched = matched;
			ts->m.size = (uint8_t)size;
			if (!mask || gp_tight(v, &ts->m, mask, &tight) ||
			    !augment(v, &ts->m, g->first, mask, &tight))
				continue;
			matched = ts->m.matched;
			size = ts->m.size;
		}
		worth += g->worth;
		accepted |= core_sched_rank_bit(g->k);
	}
	ts->m.matched = matched;
	ts->m.size = (uint8_t)size;
	ts->worth = worth;
	ts->accepted = accepted;
}

/*
 * The best choice of a thread's flexible groups, from *best (its matching after the pinned
 * groups, nothing else placed).
 */
static void thread_pass(const struct thread_order *o, const struct thread_view *v,
			struct thread_score *best)
{
	const struct matching pinned = best->m;
	struct thread_score ts;
	bool found = false;

	if (!o->nr_multi) {
		singles_greedy(v, o, best);
		return;
	}
	if (o->nr_multi > ENUMERATED) {
		for (unsigned pass = 0; pass < 2; pass++) {
			ts = (struct thread_score){ .m = pinned };
			thread_greedy(v, o, pass ? o->second : NULL, false, &ts);
			if (!found || thread_better(&ts, best))
				*best = ts;
			found = true;
		}
		return;
	}
	for (unsigned choice = 0; choice < 1u << o->nr_multi; choice++) {
		bool fits = true;

		ts = (struct thread_score){ .m = pinned };
		for (unsigned j = 0; j < o->nr_multi && fits; j++) {
			const struct item *g = &o->item[o->multi[j]];

			if (!(choice & (1u << j)))
				continue;
			fits = place_group(v, &ts.m, g->first, g->count);
			ts.accepted |= core_sched_rank_bit(g->k);
			ts.worth += g->count * g->worth;
		}
		if (!fits)
			continue;
		thread_greedy(v, o, NULL, true, &ts);
		if (!found || thread_better(&ts, best))
			*best = ts;
		found = true;
	}
}

/* Up to this many splits, every one is tried at every tick. */
#define EXHAUSTIVE_SPLITS 16

/* The classes of interchangeable GP indices, and how many of each may be exclusive. */
static unsigned classify(const struct core_sched_input *in, const struct thread_view v[2],
			 struct index_class *cls)
{
	uint32_t signature[PMU_MAX_GP][2];
	unsigned n = 0, everywhere[2] = { 0, 0 };
	uint16_t gp_all = (uint16_t)((1u << in->gp) - 1);

	/* Only events allowed on some GP indices and not others tell indices apart; those allowed on
	 * all of them count for every class. */
	memset(signature, 0, sizeof(signature));
	for (unsigned t = 0; t < 2; t++) {
		for (uint32_t u = v[t].used; u; u &= u - 1) {
			unsigned e = (unsigned)__builtin_ctz(u);
			unsigned gp = v[t].mask[e] & gp_all;

			if (gp == gp_all) {
				everywhere[t] += v[t].kind[e];
				continue;
			}
			for (; gp; gp &= gp - 1)
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
		cls[c].size++;
		cls[c].first[cls[c].size] = cls[c].first[cls[c].size - 1] | (uint8_t)(1u << i);
	}
	for (unsigned c = 0; c < n; c++) {
		for (unsigned t = 0; t < 2; t++) {
			unsigned can =
				sched_weight(cls[c].signature[t] & v[t].corrupting) + everywhere[t];

			cls[c].max[t] = (uint8_t)(can < cls[c].size ? can : cls[c].size);
		}
	}
	return n;
}

/* Class k's part of split x, as its exclusive counts say: the first are X0, the next X1. */
static void class_split(const struct index_class *k, uint8_t x[2])
{
	uint8_t all = k->first[k->size], x0 = k->first[k->exclusive[0]];

	x[0] = (uint8_t)((x[0] & ~all) | x0);
	x[1] = (uint8_t)((x[1] & ~all) | (k->first[k->exclusive[0] + k->exclusive[1]] & ~x0));
}

/* Each thread's view of its events. */
static void prepare(const struct core_sched_input *in, struct thread_view v[2])
{
	uint16_t present = (uint16_t)((1u << in->gp) - 1) |
			   (uint16_t)(((1u << in->fixed) - 1) << DENSE_FIXED_SHIFT);

	for (unsigned t = 0; t < 2; t++) {
		const struct core_sched_thread *th = &in->thread[t];

		for (unsigned e = 0; e < th->nr_events; e++) {
			v[t].mask[e] = dense_mask(th->mask[e], present);
			v[t].kind[e] = (th->corrupting >> e) & 1;
		}
		v[t].corrupting = th->corrupting;
	}
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

/* The best split so far, and what each thread places in it (stale[t]: to be computed). */
struct best_split {
	bool found;
	struct score score;
	uint8_t x[2];
	struct thread_score ts[2];
	bool stale[2];
};

/*
 * What a thread places in a split depends only on how many indices of each class *it* cannot
 * tell apart are exclusive to it and to its sibling (its events see no difference between them),
 * and a search meets the same counts again and again. A thread's classes are unions of the
 * split's classes (those with its part of the signature equal), so its counts are sums over
 * them, and a mixed-radix number of them, below MEMO_KEYS, names what it places: computed once
 * per search, and kept for up to MEMO_ENTRIES numbers a thread (the exhaustive search of 54
 * splits of two lists of 8 events meets about 30).
 */
#define MEMO_KEYS 256
#define MEMO_ENTRIES 32

struct memo {
	bool on; /* the numbers fit MEMO_KEYS */
	uint8_t n;
	uint8_t slot[MEMO_KEYS]; /* 1 + the entry of a number, 0: not yet */
	struct score entry[MEMO_ENTRIES];
};

/*
 * Each class's weights in thread t's number: the radix of its thread class, times the thread
 * class's size + 1 for the indices exclusive to t. Returns how many numbers there are, 0 when
 * they do not fit.
 */
static unsigned memo_weights(struct index_class *cls, unsigned n, unsigned t)
{
	unsigned radix = 1;

	for (unsigned c = 0; c < n; c++) {
		unsigned size = 0, d;

		for (d = 0; d < c && cls[d].signature[t] != cls[c].signature[t]; d++)
			;
		if (d < c) { /* its thread class has its weights already */
			cls[c].key[t][0] = cls[d].key[t][0];
			cls[c].key[t][1] = cls[d].key[t][1];
			continue;
		}
		for (unsigned e = c; e < n; e++)
			size += cls[e].signature[t] == cls[c].signature[t] ? cls[e].size : 0;
		if (radix * (size + 1) * (size + 1) > MEMO_KEYS) {
			for (c = 0; c < n; c++)
				cls[c].key[t][0] = cls[c].key[t][1] = 0;
			return 0;
		}
		cls[c].key[t][0] = (uint8_t)(radix * (size + 1));
		cls[c].key[t][1] = (uint8_t)radix;
		radix *= (size + 1) * (size + 1);
	}
	return radix;
}

/* Everything a search reads and keeps. */
struct search {
	const struct core_sched_input *in;
	const struct thread_order *to;
	struct thread_view *v;
	struct index_class *cls;
	unsigned n;
	struct memo memo[2];
	unsigned key[2];   /* each thread's number of the classes' current split */
	uint16_t counters; /* every GP and fixed counter (dense) */
	unsigned nr_counters;
	struct best_split best;
	unsigned splits;
};

/* Class c's part of the current split y: a indices exclusive to thread 0, b to thread 1. */
static inline void set_class(struct search *s, unsigned c, unsigned a, unsigned b, uint8_t y[2])
{
	struct index_class *k = &s->cls[c];
	uint16_t part0 = (uint16_t)(a * k->key[0][0] + b * k->key[0][1]);
	uint16_t part1 = (uint16_t)(b * k->key[1][0] + a * k->key[1][1]);

	s->key[0] += part0 - k->part[0];
	s->key[1] += part1 - k->part[1];
	k->part[0] = part0;
	k->part[1] = part1;
	k->exclusive[0] = (uint8_t)a;
	k->exclusive[1] = (uint8_t)b;
	class_split(k, y);
}

/* Split y from the classes' exclusive counts, and each thread's number of it. */
static void set_split(struct search *s, uint8_t y[2])
{
	y[0] = y[1] = 0;
	s->key[0] = s->key[1] = 0;
	for (unsigned c = 0; c < s->n; c++) {
		struct index_class *k = &s->cls[c];

		k->part[0] = k->part[1] = 0;
		set_class(s, c, k->exclusive[0], k->exclusive[1], y);
	}
}

/* The next split (y follows), counting through each class's (X0, X1) pairs like the digits of
 * a number. */
static bool next_split(struct search *s, uint8_t y[2])
{
	for (unsigned c = 0; c < s->n; c++) {
		const struct index_class *k = &s->cls[c];
		unsigned a = k->exclusive[0], b = k->exclusive[1];

		if (b < k->max[1] && a + b < k->size) {
			set_class(s, c, a, b + 1, y);
			return true;
		}
		if (a < k->max[0]) {
			set_class(s, c, a + 1, 0, y);
			return true;
		}
		set_class(s, c, 0, 0, y);
	}
	return false;
}

/* Thread t's number of split x. */
static unsigned memo_key(const struct search *s, unsigned t, const uint8_t x[2])
{
	unsigned key = 0;

	for (unsigned c = 0; c < s->n; c++) {
		const struct index_class *k = &s->cls[c];
		uint8_t all = k->first[k->size];

		key += popcount16(x[t] & all) * k->key[t][0] +
		       popcount16(x[t ^ 1] & all) * k->key[t][1];
	}
	return key;
}

/*
 * Thread t alone in split x: its pinned groups in order, then its pass (thread_pass()). What it
 * places does not depend on the sibling's events, only on x.
 */
static void thread_alone(const struct search *s, unsigned t, const uint8_t x[2],
			 struct thread_score *ts)
{
	const struct core_sched_input *in = s->in;
	struct thread_view *v = &s->v[t];
	uint64_t pinned = 0;

	v->allowed[0] = s->counters & (uint16_t)~x[t ^ 1];
	v->allowed[1] = x[t];
	v->capacity = s->nr_counters - popcount16(x[t ^ 1]);
	*ts = (struct thread_score){ .accepted = 0 };
	for (unsigned k = 0; k < in->nr_pinned; k++) {
		const struct core_sched_group *g = &in->order[k];

		if (g->thread == t && place_group(v, &ts->m, g->first, g->count))
			pinned |= core_sched_rank_bit(k);
	}
	thread_pass(&s->to[t], v, ts);
	ts->accepted |= pinned;
}

/*
 * Split x, key[t] its number for thread t, against the best so far, each thread's part from its
 * memo or computed; a tie keeps the earlier split (the hint, so that the schedule stays put).
 * True when x is the best now.
 */
static bool try_split(struct search *s, const uint8_t x[2], const unsigned key[2])
{
	struct thread_score ts[2];
	struct score score = { 0, 0 };
	bool computed[2];

	s->splits++;
	for (unsigned t = 0; t < 2; t++) {
		struct memo *memo = &s->memo[t];

		computed[t] = !memo->on || !memo->slot[key[t]];
		if (computed[t]) {
			thread_alone(s, t, x, &ts[t]);
			if (memo->on && memo->n < MEMO_ENTRIES) {
				memo->entry[memo->n] =
					(struct score){ ts[t].accepted, ts[t].worth };
				memo->slot[key[t]] = ++memo->n;
			}
		} else {
			ts[t].accepted = memo->entry[memo->slot[key[t]] - 1].accepted;
			ts[t].worth = memo->entry[memo->slot[key[t]] - 1].worth;
		}
		score.accepted |= ts[t].accepted;
		score.worth += ts[t].worth;
	}
	if (s->best.found && score_compare(s->in, &score, &s->best.score) <= 0)
		return false;
	s->best = (struct best_split){
		true, score, { x[0], x[1] }, { ts[0], ts[1] }, { !computed[0], !computed[1] }
	};
	return true;
}

/* Every split, the hint first. */
static void search_all(struct search *s, const uint8_t hint[2])
{
	uint8_t y[2];
	unsigned key[2] = { memo_key(s, 0, hint), memo_key(s, 1, hint) };

	for (unsigned c = 0; c < s->n; c++)
		s->cls[c].exclusive[0] = s->cls[c].exclusive[1] = 0;
	set_split(s, y);
	try_split(s, hint, key);
	do {
		if (y[0] != hint[0] || y[1] != hint[1])
			try_split(s, y, s->key);
	} while (next_split(s, y));
}

/*
 * Class c's every (X0, X1) choice in split y, the other classes as they are; y and the classes
 * end with the best.
 */
static void search_class(struct search *s, unsigned c, uint8_t y[2])
{
	struct index_class *k = &s->cls[c];
	unsigned keep[2] = { k->exclusive[0], k->exclusive[1] }, key[2];
	uint8_t all = k->first[k->size], x[2] = { y[0] & (uint8_t)~all, y[1] & (uint8_t)~all };

	for (unsigned a = 0; a <= k->max[0]; a++) {
		for (unsigned b = 0; b <= k->max[1] && a + b <= k->size; b++) {
			uint8_t z[2] = { x[0] | k->first[a],
					 x[1] | (k->first[a + b] & (uint8_t)~k->first[a]) };

			if (a == keep[0] && b == keep[1])
				continue;
			key[0] = s->key[0] - k->part[0] + a * k->key[0][0] + b * k->key[0][1];
			key[1] = s->key[1] - k->part[1] + b * k->key[1][0] + a * k->key[1][1];
			if (try_split(s, z, key)) {
				keep[0] = a;
				keep[1] = b;
			}
		}
	}
	set_class(s, c, keep[0], keep[1], y);
}

/*
 * Too many splits to try each at every tick: from the hint's counts, each class in turn tries
 * all its (X0, X1) choices with the other classes where the best split so far has them
 * (coordinate ascent). The hint is the last tick's best, so over the ticks the search follows
 * the best split as the worths change.
 */
static void search_classes(struct search *s, const uint8_t hint[2])
{
	struct index_class *cls = s->cls;
	uint8_t y[2];

	for (unsigned c = 0; c < s->n; c++) {
		for (unsigned t = 0; t < 2; t++) {
			unsigned have = popcount16(hint[t] & cls[c].first[cls[c].size]);

			cls[c].exclusive[t] =
				(uint8_t)(have < cls[c].max[t] ? have : cls[c].max[t]);
		}
		if (cls[c].exclusive[0] + cls[c].exclusive[1] > cls[c].size)
			cls[c].exclusive[1] = (uint8_t)(cls[c].size - cls[c].exclusive[0]);
	}
	set_split(s, y);
	try_split(s, y, s->key);
	for (unsigned c = 0; c < s->n; c++)
		search_class(s, c, y);
}

/* Counters, events and groups within the bounds the arrays have (prepare() checks each
 * group). */
static bool input_valid(const struct core_sched_input *in)
{
	return in->gp <= PMU_MAX_GP && in->fixed <= PMU_MAX_FIXED &&
	       in->nr_groups <= CORE_SCHED_MAX_GROUPS && in->nr_pinned <= in->nr_groups &&
	       in->thread[0].nr_events <= SCHED_MAX_EVENTS &&
	       in->thread[1].nr_events <= SCHED_MAX_EVENTS;
}

/* What to search, from the hint: every split or around the hint (see core_sched.h). */
static void search(struct search *s, const uint8_t hint[2])
{
	const struct core_sched_input *in = s->in;

	for (unsigned t = 0; t < 2; t++) {
		unsigned keys = memo_weights(s->cls, s->n, t);

		s->memo[t].on = keys;
		s->memo[t].n = 0;
		memset(s->memo[t].slot, 0, keys);
	}
	if (in->exhaustive || count_splits(s->cls, s->n) <= EXHAUSTIVE_SPLITS) {
		search_all(s, hint);
		return;
	}
	search_classes(s, hint);
	/* A pinned group left out goes into the error state for good: make sure no split places
	 * it before that is decided. */
	if (in->nr_pinned && (~s->best.score.accepted >> (64 - in->nr_pinned)))
		search_all(s, hint);
}

void core_sched(const struct core_sched_input *in, struct core_sched_result *out)
{
	struct thread_view v[2];
	struct index_class cls[PMU_MAX_GP];
	struct thread_order to[2];
	struct search s; /* not zeroed: search() sets what it reads */
	uint8_t gp_all = (uint8_t)((1u << in->gp) - 1), x[2];

	memset(out, 0, sizeof(*out));
	memset(out->counter, SCHED_NO_COUNTER, sizeof(out->counter));
	if (!input_valid(in))
		return;
	prepare(in, v);
	if (!thread_orders(in, v, to))
		return;
	s.in = in;
	s.to = to;
	s.v = v;
	s.cls = cls;
	s.n = classify(in, v, cls);
	s.counters =
		(uint16_t)(((1u << in->gp) - 1) | ((1u << in->fixed) - 1) << DENSE_FIXED_SHIFT);
	s.nr_counters = in->gp + in->fixed;
	s.best.found = false;
	s.splits = 0;

	x[0] = in->hint[0] & gp_all;
	x[1] = in->hint[1] & gp_all & (uint8_t)~x[0];
	search(&s, x);

	out->accepted = s.best.score.accepted;
	out->exclusive[0] = s.best.x[0];
	out->exclusive[1] = s.best.x[1];
	out->splits = s.splits;
	for (unsigned t = 0; t < 2; t++) {
		const struct matching *m = &s.best.ts[t].m;

		if (s.best.stale[t]) /* its part came from the memo: place it */
			thread_alone(&s, t, s.best.x, &s.best.ts[t]);
		for (uint16_t u = m->matched; u; u &= u - 1) {
			unsigned y = (unsigned)__builtin_ctz(u);

			out->counter[t][m->owner[y]] = idxmsk_counter(y);
		}
	}
}
