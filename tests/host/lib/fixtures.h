/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared fixtures of the scheduler tests: threads built from event strings, runs of N ticks.
 */
#ifndef TESTS_HOST_LIB_FIXTURES_H
#define TESTS_HOST_LIB_FIXTURES_H

#include "pmu/mux.h"
#include "pmu/xsu.h"

/*
 * Parse events for uarch (by name) and load them into t, with gp GP counters (0: the uarch's
 * HT-on count) and the uarch's fixed counters, scheduled with Linux's XSU over xsu (xsu_hooks;
 * NULL: sched_hooks_none). Fails the test on a parse error.
 */
void fixture_thread(struct mux_thread *t, const char *uarch, unsigned gp, const char *events,
		    enum sched_algorithm algorithm, struct xsu_states *xsu, unsigned thread);

/* One thread alone: mux_start at 0, mux_tick at 1..ticks-1, mux_stop at ticks; with XSU on,
 * the invariant is checked after each of them (the sibling idle). */
void fixture_run(struct mux_thread *t, unsigned ticks);

/* The event's share of running time in hundredths of a percent. */
unsigned fixture_percent(const struct mux_thread *t, unsigned event);

#endif
