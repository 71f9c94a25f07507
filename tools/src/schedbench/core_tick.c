// SPDX-License-Identifier: GPL-2.0
/*
 * make bench, part 2: the cost of scheduling a core per multiplexing tick. Core-wide XSU
 * (xsu=core: one joint tick for both threads) beside Linux's XSU (xsu=on: mux_tick for
 * thread 0, then for thread 1, against the XSU states), on the same pairs of lists of 4+4, 8+8
 * and 16+16 events (corrupting events on both threads, counter-bound and fixed-counter events,
 * so that both multiplex). Each list pair runs TICKS ticks per round after WARMUP untimed ones;
 * the two policies alternate which goes first. A shared machine only ever adds time, so the
 * fastest round of each counts, and their ratio is the figure that carries from one machine or
 * load to another; the median of the rounds' own ratios (each side by side) shows the spread.
 * Targets: issue 10, a core-wide tick under 2 microseconds for 8+8 events; issue 16, at most
 * 3.5 times Linux's path for 8+8 events (about 1 microsecond on this project's machine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmu/event_parse.h"
#include "pmu/mux_pair.h"
#include "pmu/zero_event.h"
#include "tools/src/schedbench/schedbench.h"

#define ROUNDS 11
#define WARMUP 200
#define TICKS 20000
/* Issue 16: core-wide XSU's tick for 8+8 events at most this many times Linux's. */
#define TARGET_RATIO 3.5

struct pair_lists {
	const char *name;
	const char *events[2];
};

static const struct pair_lists pairs[] = {
	{ "4+4 events", { "r81d0:u,r08d1:u,r10d1:u,r01d1:u", "r00c5:u,r81d0:u,r0148:u,r00c0:u" } },
	{ "8+8 events",
	  { "r81d0:u,r08d1:u,r10d1:u,r01d1:u,r00c5:u,r00c4:u,r0148:u,r00c0:u",
	    "r20cc:u,r81d0:u,r08d1:u,r412e:u,r3f24:u,r01cd:u,r003c:u,r01d2:u" } },
	{ "16+16 events",
	  { "r81d0:u,r08d1:u,r10d1:u,r01d1:u,r00c5:u,r00c4:u,r0148:u,r00c0:u,"
	    "r20d1:u,r01d2:u,r412e:u,r3f24:u,r0151:u,r01c2:u,r08a3:u,r003c:u",
	    "r20cc:u,r81d0:u,r08d1:u,r412e:u,r3f24:u,r01cd:u,r003c:u,r01d2:u,"
	    "r10d1:u,r01d1:u,r00c5:u,r00c4:u,r01c0:u,r0151:u,r01d3:u,r00c0:u" } },
};

#define NR_PAIRS (sizeof(pairs) / sizeof(pairs[0]))

/* One list pair's timings: the fastest round of each policy, and the rounds' ratios. */
struct timing {
	double on, core, ratio_median, splits;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void load(struct mux_thread t[2], struct mux_pair *core, const struct pair_lists *p,
		 const struct xsu_ops *policy)
{
	const struct uarch *u = uarch_by_name("haswell");
	struct mux_config config = { .uarch = u, .gp = 4, .fixed = 3 };

	for (unsigned i = 0; i < 2; i++) {
		struct pmu_event events[MUX_MAX_EVENTS];
		struct event_parse_error error;
		unsigned n;
		bool parsed = event_parse_list(p->events[i], u, events, MUX_MAX_EVENTS, &n, &error);

		mux_init(&t[i], &config, i);
		if (!parsed || !mux_add_events(&t[i], events, n)) {
			fprintf(stderr, "schedbench: bad list '%s'\n", p->events[i]);
			return;
		}
	}
	mux_pair_init(core, policy, &t[0], &t[1], uarch_zero_event(u));
	for (unsigned i = 0; i < 2; i++)
		policy->start(core, i, 0);
}

/* One core tick under policy: one joint call, or each thread's. */
static void tick(struct mux_pair *core, uint64_t now)
{
	if (core->ops->ticking == XSU_TICK_JOINT) {
		core->ops->tick(core, 0, now);
		return;
	}
	core->ops->tick(core, 0, now);
	core->ops->tick(core, 1, now);
}

/* ns per core tick, one round; *splits gets the ticks' mean splits tried (core-wide). */
static double time_round(const struct pair_lists *p, const struct xsu_ops *policy, double *splits)
{
	static struct mux_thread t[2];
	struct mux_pair core;
	unsigned long tried = 0;
	double start;

	load(t, &core, p, policy);
	for (uint64_t k = 1; k <= WARMUP; k++)
		tick(&core, k);
	start = now_ns();
	for (uint64_t k = WARMUP + 1; k <= WARMUP + TICKS; k++) {
		tick(&core, k);
		tried += core.splits;
	}
	*splits = (double)tried / TICKS;
	return (now_ns() - start) / TICKS;
}

static int compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ROUNDS rounds of both policies on one list pair, alternating which goes first. */
static struct timing time_pair(const struct pair_lists *p)
{
	struct timing r = { 1e30, 1e30, 0, 0 };
	double ratio[ROUNDS], ignored;

	for (unsigned i = 0; i < ROUNDS; i++) {
		double on, core;

		if (i & 1) {
			core = time_round(p, &xsu_ops_core, &r.splits);
			on = time_round(p, &xsu_ops_on, &ignored);
		} else {
			on = time_round(p, &xsu_ops_on, &ignored);
			core = time_round(p, &xsu_ops_core, &r.splits);
		}
		r.on = on < r.on ? on : r.on;
		r.core = core < r.core ? core : r.core;
		ratio[i] = core / on;
	}
	qsort(ratio, ROUNDS, sizeof(double), compare);
	r.ratio_median = ratio[ROUNDS / 2];
	return r;
}

bool bench_core_tick(void)
{
	struct timing r[NR_PAIRS];
	bool met;

	printf("\nScheduling a core per multiplexing tick (Haswell, 4 GP + 3 fixed counters per "
	       "thread),\nfastest of %u rounds of %u ticks, both policies timed alternately in "
	       "this run:\n",
	       ROUNDS, TICKS);
	printf("  %-14s %22s %19s %11s %8s %7s\n", "lists", "Linux XSU (2 mux_tick)",
	       "core-wide (1 call)", "core/Linux", "median", "splits");
	for (unsigned i = 0; i < NR_PAIRS; i++) {
		r[i] = time_pair(&pairs[i]);
		printf("  %-14s %19.0f ns %16.0f ns %11.2f %8.2f %7.1f\n", pairs[i].name, r[i].on,
		       r[i].core, r[i].core / r[i].on, r[i].ratio_median, r[i].splits);
	}
	printf("Core-wide/Linux ratio:");
	for (unsigned i = 0; i < NR_PAIRS; i++)
		printf(" %s %.2f%s", pairs[i].name, r[i].core / r[i].on,
		       i + 1 < NR_PAIRS ? "," : "\n");
	printf("Target (issue 10): a core-wide tick under 2 us for 8+8 events: %.0f ns, %s\n",
	       r[1].core, r[1].core < 2000 ? "met" : "NOT met");
	met = r[1].core / r[1].on <= TARGET_RATIO;
	printf("Target (issue 16): 8+8 events at most %.1f times Linux's path in the same run: "
	       "%.2f, %s\n",
	       TARGET_RATIO, r[1].core / r[1].on, met ? "met" : "NOT met");
	return met;
}
