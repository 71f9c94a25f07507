// SPDX-License-Identifier: GPL-2.0
/*
 * schedsim --sweep: the thesis's exhaustive comparison (7.2). Every constraint set of N events on
 * N GP counters, (2^N - 1)^N of them, is scheduled once as a first iteration would be: the
 * generic layer (sched_generic) passes windows of 1..N events and stops at the first failure;
 * nothing has run before, so there is no fast path, and there is no rotation.
 *
 * --past-failure adds the thesis's variant of the generic layer: a failed event is left out and
 * the next one is passed down, until L events (N <= L <= 2N) have been passed. (2^N - 1)^L
 * instances are too many to run one by one for L = 2N, so they are counted exactly by dynamic
 * programming: the outcome of an instance depends only on the events accepted so far (and, for
 * the unmodified layer, on whether it has stopped), so instances that agree on that are counted
 * together. Each transition is one window, scheduled by sched_events() exactly as sched_generic()
 * schedules it; a sample of instances is replayed through sched_generic() itself to check that.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/sched.h"
#include "tools/src/schedsim/schedsim.h"

#define SWEEP_MAX 5

/* ---- the sweep --------------------------------------------------------------------------- */

struct totals {
	unsigned long long instances;
	unsigned long long greedy;
	unsigned long long hk;
	unsigned long long better;
	unsigned long long worse;
};

static unsigned run_generic(enum sched_algorithm algorithm, const uint64_t *masks, unsigned n,
			    unsigned counters, bool past_failure)
{
	struct sched_group order[2 * SWEEP_MAX];
	int8_t previous[2 * SWEEP_MAX];
	struct sched_generic_params params = {
		.algorithm = algorithm,
		.gpmax = counters,
		.max_events = counters,
		.past_first_failure = past_failure,
		.max_passed = 0,
	};
	struct sched_generic_result result;

	for (unsigned i = 0; i < n; i++) {
		order[i] = (struct sched_group){ (uint8_t)i, 1, false };
		previous[i] = SCHED_NO_COUNTER;
	}
	sched_generic(&params, masks, previous, n, order, n, &result);
	return result.nr_scheduled;
}

static struct totals first_iteration_sweep(unsigned n)
{
	uint64_t masks[SWEEP_MAX] = { 0 };
	uint64_t last = (1ull << n) - 1;
	struct totals t = { 0, 0, 0, 0, 0 };

	for (unsigned i = 0; i < n; i++)
		masks[i] = 1;
	for (;;) {
		unsigned g = run_generic(SCHED_GREEDY, masks, n, n, false);
		unsigned h = run_generic(SCHED_HK, masks, n, n, false);
		unsigned i;

		t.instances++;
		t.greedy += g;
		t.hk += h;
		t.better += h > g;
		t.worse += h < g;
		/* next constraint set: -C 0x1,...,0x1 up to 0xf,...,0xf, as an odometer */
		for (i = 0; i < n && masks[i] == last; i++)
			masks[i] = 1;
		if (i == n)
			break;
		masks[i]++;
	}
	return t;
}

/* ---- past the first failure: counting by states ------------------------------------------ */

/* The events one variant of the generic layer has accepted so far. */
struct side {
	uint8_t len;
	bool stopped; /* the unmodified generic layer has met its first failure */
	uint8_t mask[SWEEP_MAX];
};

enum variant {
	GREEDY_STOP, /* Linux: greedy, stop at the first failure */
	GREEDY_PAST, /* greedy, past the first failure */
	HK_PAST,     /* Hopcroft-Karp, past the first failure */
};

static unsigned side_bits(unsigned n)
{
	return n * n + 4;
}

static uint64_t side_encode(const struct side *s, unsigned n)
{
	uint64_t v = s->len | (uint64_t)s->stopped << 3;

	for (unsigned i = 0; i < s->len; i++)
		v |= (uint64_t)s->mask[i] << (4 + i * n);
	return v;
}

static struct side side_decode(uint64_t v, unsigned n)
{
	struct side s;

	memset(&s, 0, sizeof(s));
	s.len = v & 7;
	s.stopped = (v >> 3) & 1;
	for (unsigned i = 0; i < s.len; i++)
		s.mask[i] = (v >> (4 + i * n)) & ((1u << n) - 1);
	return s;
}

/* A table key holds the pair of sides: a in the low side_bits(n) bits, b above them. */
static uint64_t pair_encode(const struct side *a, const struct side *b, unsigned n)
{
	return side_encode(a, n) | side_encode(b, n) << side_bits(n);
}

static void pair_decode(uint64_t key, unsigned n, struct side *a, struct side *b)
{
	*a = side_decode(key & ((1ull << side_bits(n)) - 1), n);
	*b = side_decode(key >> side_bits(n), n);
}

/* Would the window "accepted events, then e" schedule (one pass of sched_generic)? */
static bool accepts(enum sched_algorithm algorithm, const struct side *s, unsigned e, unsigned n)
{
	uint64_t masks[SWEEP_MAX] = { 0 };
	int8_t previous[SWEEP_MAX], assign[SWEEP_MAX];

	if (s->len >= n)
		return false; /* the window would exceed the counters */
	for (unsigned i = 0; i < s->len; i++) {
		masks[i] = s->mask[i];
		previous[i] = SCHED_NO_COUNTER;
	}
	masks[s->len] = e;
	previous[s->len] = SCHED_NO_COUNTER;
	return sched_events(algorithm, masks, previous, s->len + 1u, n, assign) == 0;
}

static struct side step(enum variant v, struct side s, unsigned e, unsigned n)
{
	if (s.stopped)
		return s;
	if (accepts(v == HK_PAST ? SCHED_HK : SCHED_GREEDY, &s, e, n)) {
		unsigned i = s.len++;

		s.mask[i] = (uint8_t)e;
		/* A matching does not depend on the order of its events: keep HK's set sorted so
		 * that equal sets share a state. Greedy's order matters (weight ties). */
		if (v == HK_PAST)
			for (; i > 0 && s.mask[i - 1] > s.mask[i]; i--) {
				uint8_t tmp = s.mask[i];

				s.mask[i] = s.mask[i - 1];
				s.mask[i - 1] = tmp;
			}
	} else if (v == GREEDY_STOP) {
		s.stopped = true;
	}
	return s;
}

/* Open-addressing map from a pair of encoded sides to the number of instances in that state. */
struct table {
	uint64_t *key;
	unsigned long long *count;
	size_t capacity;
	size_t used;
};

#define EMPTY_KEY UINT64_MAX

static void table_init(struct table *t, size_t capacity)
{
	t->capacity = capacity;
	t->used = 0;
	t->key = malloc(capacity * sizeof(*t->key));
	t->count = calloc(capacity, sizeof(*t->count));
	if (!t->key || !t->count) {
		fprintf(stderr, "schedsim: out of memory\n");
		exit(1);
	}
	memset(t->key, 0xff, capacity * sizeof(*t->key));
}

static void table_free(struct table *t)
{
	free(t->key);
	free(t->count);
}

static void table_add(struct table *t, uint64_t key, unsigned long long count);

static void table_grow(struct table *t)
{
	struct table bigger;

	table_init(&bigger, t->capacity * 2);
	for (size_t i = 0; i < t->capacity; i++)
		if (t->key[i] != EMPTY_KEY)
			table_add(&bigger, t->key[i], t->count[i]);
	table_free(t);
	*t = bigger;
}

static void table_add(struct table *t, uint64_t key, unsigned long long count)
{
	size_t i;

	if (2 * (t->used + 1) > t->capacity)
		table_grow(t);
	i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (t->capacity - 1);
	while (t->key[i] != EMPTY_KEY && t->key[i] != key)
		i = (i + 1) & (t->capacity - 1);
	if (t->key[i] == EMPTY_KEY) {
		t->key[i] = key;
		t->used++;
	}
	t->count[i] += count;
}

struct past_row {
	unsigned events;
	unsigned long long instances;
	unsigned long long scheduled[3]; /* per enum variant */
	unsigned long long better;	 /* HK_PAST schedules more than the other side */
	unsigned long long worse;
	unsigned long long states;
};

/*
 * Count, for L = n..2n events, how the pair (a, b) of variants fares. rows[L - n] receives the
 * totals; scheduled[] is filled for a and b only.
 */
static void count_pair(unsigned n, enum variant a, enum variant b, struct past_row *rows)
{
	struct table now;
	struct side empty;
	unsigned masks = (1u << n) - 1;

	memset(&empty, 0, sizeof(empty));
	table_init(&now, 1024);
	table_add(&now, pair_encode(&empty, &empty, n), 1);

	for (unsigned events = 1; events <= 2 * n; events++) {
		struct table next;

		table_init(&next, now.capacity);
		for (size_t i = 0; i < now.capacity; i++) {
			struct side sa, sb;

			if (now.key[i] == EMPTY_KEY)
				continue;
			pair_decode(now.key[i], n, &sa, &sb);
			for (unsigned e = 1; e <= masks; e++) {
				struct side na = step(a, sa, e, n), nb = step(b, sb, e, n);

				table_add(&next, pair_encode(&na, &nb, n), now.count[i]);
			}
		}
		table_free(&now);
		now = next;

		if (events >= n) {
			struct past_row *row = &rows[events - n];

			row->events = events;
			row->instances = 0;
			row->better = row->worse = 0;
			row->states = now.used;
			row->scheduled[a] = row->scheduled[b] = 0;
			for (size_t i = 0; i < now.capacity; i++) {
				struct side sa, sb;

				if (now.key[i] == EMPTY_KEY)
					continue;
				pair_decode(now.key[i], n, &sa, &sb);
				row->instances += now.count[i];
				row->scheduled[a] += now.count[i] * sa.len;
				row->scheduled[b] += now.count[i] * sb.len;
				row->better += sb.len > sa.len ? now.count[i] : 0;
				row->worse += sb.len < sa.len ? now.count[i] : 0;
			}
		}
	}
	table_free(&now);
}

/* Replay random instances through sched_generic() and compare with the state transitions. */
static unsigned long cross_check(unsigned n, unsigned samples)
{
	unsigned long differences = 0;
	unsigned long long seed = 0x5eed5eedull;

	for (unsigned s = 0; s < samples; s++) {
		uint64_t masks[2 * SWEEP_MAX];
		unsigned events = n + s % (n + 1);
		struct side side[3];

		memset(side, 0, sizeof(side));
		for (unsigned i = 0; i < events; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			masks[i] = 1 + (seed >> 33) % ((1u << n) - 1);
			for (unsigned v = 0; v < 3; v++)
				side[v] = step((enum variant)v, side[v], (unsigned)masks[i], n);
		}
		differences += run_generic(SCHED_GREEDY, masks, events, n, false) != side[0].len;
		differences += run_generic(SCHED_GREEDY, masks, events, n, true) != side[1].len;
		differences += run_generic(SCHED_HK, masks, events, n, true) != side[2].len;
	}
	return differences;
}

static double percent(unsigned long long part, unsigned long long whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

int sweep(unsigned n, bool json, bool past_failure)
{
	struct totals t = first_iteration_sweep(n);
	struct past_row vs_linux[SWEEP_MAX + 1], vs_greedy[SWEEP_MAX + 1];
	unsigned long differences = 0;
	unsigned long long worse_linux = 0, worse_greedy = 0;
	unsigned samples = 100000;

	if (past_failure) {
		if (n > 4) {
			fprintf(stderr, "schedsim: --past-failure counts up to --sweep 4\n");
			return 2;
		}
		count_pair(n, GREEDY_STOP, HK_PAST, vs_linux);
		count_pair(n, GREEDY_PAST, HK_PAST, vs_greedy);
		differences = cross_check(n, samples);
	}

	if (json) {
		printf("{\"counters\": %u, \"events\": %u, \"instances\": %llu, "
		       "\"greedy_scheduled\": %llu, \"hk_scheduled\": %llu, \"hk_better\": %llu, "
		       "\"hk_worse\": %llu, \"hk_better_percent\": %.2f",
		       n, n, t.instances, t.greedy, t.hk, t.better, t.worse,
		       percent(t.better, t.instances));
		if (past_failure) {
			printf(", \"past_failure\": [");
			for (unsigned r = 0; r <= n; r++) {
				printf("%s{\"events\": %u, \"instances\": %llu, "
				       "\"greedy_linux_scheduled\": %llu, "
				       "\"greedy_past_failure_scheduled\": %llu, "
				       "\"hk_past_failure_scheduled\": %llu, "
				       "\"hk_past_failure_better_than_greedy_linux\": %llu, "
				       "\"hk_past_failure_better_than_greedy_past_failure\": %llu}",
				       r ? ", " : "", vs_linux[r].events, vs_linux[r].instances,
				       vs_linux[r].scheduled[GREEDY_STOP],
				       vs_greedy[r].scheduled[GREEDY_PAST],
				       vs_linux[r].scheduled[HK_PAST], vs_linux[r].better,
				       vs_greedy[r].better);
			}
			printf("], \"cross_check_samples\": %u, \"cross_check_differences\": %lu",
			       samples, differences);
		}
		printf("}\n");
		return differences ? 1 : 0;
	}

	printf("Sweep: every constraint set of %u events on %u generic counters "
	       "((2^%u-1)^%u = %llu instances),\n"
	       "scheduled as a first iteration: windows of 1..%u events, stop at the first "
	       "failure, no rotation\n",
	       n, n, n, n, t.instances, n);
	printf("  greedy scheduled          %llu events (%.2f%% of %llu)\n", t.greedy,
	       percent(t.greedy, t.instances * n), t.instances * n);
	printf("  hopcroft-karp scheduled   %llu events (%.2f%%)\n", t.hk,
	       percent(t.hk, t.instances * n));
	printf("  hopcroft-karp better in   %llu instances (%.2f%%)\n", t.better,
	       percent(t.better, t.instances));
	printf("  hopcroft-karp worse in    %llu instances\n", t.worse);
	if (!past_failure)
		return 0;

	printf("\nPast the first failure (thesis 7.2): L events per instance; the generic layer "
	       "leaves a failed\nevent out and passes the next one, until all L have been "
	       "passed. Exact counts over all\n(2^%u-1)^L instances. Events scheduled per "
	       "variant, and instances where HK (past failure) beats:\n",
	       n);
	printf("  %2s %12s %13s %13s %13s   %-22s %-22s\n", "L", "instances", "greedy Linux",
	       "greedy past", "HK past", "greedy Linux", "greedy past");
	for (unsigned r = 0; r <= n; r++) {
		printf("  %2u %12llu %13llu %13llu %13llu   %11llu (%6.2f%%)  %11llu (%6.2f%%)\n",
		       vs_linux[r].events, vs_linux[r].instances,
		       vs_linux[r].scheduled[GREEDY_STOP], vs_greedy[r].scheduled[GREEDY_PAST],
		       vs_linux[r].scheduled[HK_PAST], vs_linux[r].better,
		       percent(vs_linux[r].better, vs_linux[r].instances), vs_greedy[r].better,
		       percent(vs_greedy[r].better, vs_greedy[r].instances));
	}
	for (unsigned r = 0; r <= n; r++) {
		worse_linux += vs_linux[r].worse;
		worse_greedy += vs_greedy[r].worse;
	}
	printf("  (\"greedy Linux\" stops at the first failure as perf does; HK past failure "
	       "scheduled fewer\n  events than greedy Linux in %llu instances, than greedy past "
	       "failure in %llu)\n",
	       worse_linux, worse_greedy);
	printf("Cross-check against sched_generic() on %u random instances: %lu differences\n",
	       samples, differences);
	return differences ? 1 : 0;
}
