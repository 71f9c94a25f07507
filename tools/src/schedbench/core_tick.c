// SPDX-License-Identifier: GPL-2.0
/*
 * make bench, part 2: the cost of scheduling a core per multiplexing tick. Core-wide XSU
 * (xsu=core: one joint tick for both threads) beside Linux's XSU (xsu=on: mux_tick for
 * thread 0, then for thread 1, against the XSU states), on the same pairs of lists of 4+4, 8+8
 * and 16+16 events (corrupting events on both threads, counter-bound and fixed-counter events,
 * so that both multiplex). Each list pair runs TICKS ticks per round after WARMUP untimed ones;
 * the fastest of ROUNDS rounds counts, the two policies alternating which goes first. The
 * target of issue 10: a core-wide tick under 2 microseconds for 8+8 events.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pmu/event_parse.h"
#include "pmu/mux_pair.h"
#include "pmu/zero_event.h"
#include "tools/src/schedbench/schedbench.h"

#define ROUNDS 11
#define WARMUP 200
#define TICKS 20000

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
		int n = event_parse_list(p->events[i], u, events, MUX_MAX_EVENTS, &error);

		mux_init(&t[i], &config, i);
		if (n < 0 || mux_add_events(&t[i], events, (unsigned)n) < 0) {
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
	if (core->ops->joint) {
		core->ops->tick(core, 0, now);
		return;
	}
	core->ops->tick(core, 0, now);
	core->ops->tick(core, 1, now);
}

/* ns per core tick, one round; *splits gets the core-wide ticks' mean splits tried. */
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

bool bench_core_tick(void)
{
	bool met = false;

	printf("\nScheduling a core per multiplexing tick (Haswell, 4 GP + 3 fixed counters per "
	       "thread),\nfastest of %u rounds of %u ticks, both policies timed alternately in "
	       "this run:\n",
	       ROUNDS, TICKS);
	printf("  %-14s %22s %22s %8s %8s\n", "lists", "Linux XSU (2 mux_tick)",
	       "core-wide (1 call)", "core/on", "splits");
	for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		double on = 1e30, core = 1e30, splits = 0;

		for (unsigned r = 0; r < ROUNDS; r++) {
			double a, b, s;

			if (r & 1) {
				b = time_round(&pairs[i], &xsu_ops_core, &s);
				a = time_round(&pairs[i], &xsu_ops_on, &splits);
			} else {
				a = time_round(&pairs[i], &xsu_ops_on, &splits);
				b = time_round(&pairs[i], &xsu_ops_core, &s);
			}
			on = a < on ? a : on;
			core = b < core ? b : core;
			splits = s;
		}
		printf("  %-14s %19.0f ns %19.0f ns %8.2f %8.1f\n", pairs[i].name, on, core,
		       core / on, splits);
		if (i == 1)
			met = core < 2000;
	}
	printf("Target (issue 10): a core-wide tick under 2 us for 8+8 events: %s\n",
	       met ? "met" : "NOT met");
	return met;
}
