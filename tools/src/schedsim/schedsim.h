/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedsim: the event scheduling simulator of the thesis, section 7.2, on the same pmu/ code the
 * kernel runs (mux_start/mux_tick/mux_stop over the generic layer, the greedy and Hopcroft-Karp
 * assignments and XSU).
 */
#ifndef SCHEDSIM_H
#define SCHEDSIM_H

#include <stdbool.h>

#include "pmu/mux_pair.h"
#include "pmu/sched.h"
#include "pmu/uarch.h"

struct sim_options {
	const struct uarch *uarch;
	unsigned gp;	/* GP counters per thread (4 with HT on, 8 with HT off) */
	unsigned fixed; /* fixed counters */
	bool ht;
	enum sched_algorithm algorithm;
	unsigned iterations;
	const char *events[2];	    /* per thread; events[1] NULL: one thread only */
	const char *constraints[2]; /* -C and --sibling-constraints, or NULL */
	const struct xsu_ops *ops;  /* --xsu: off, on (Linux's XSU) or core, with --limit */
	bool limit;		    /* Linux 4.1-rc7 starvation limit */
	unsigned offset;	    /* tick at which the sibling starts */
	bool verbose;		    /* print every iteration */
	bool past_failure;	    /* thesis 7.2: go on after the first failure, up to 2N */
	bool json;		    /* --json: the run as one JSON object */
};

/* One thread (-e) or a sibling replay (-e and --sibling). Returns the exit status. */
int simulate(const struct sim_options *options);

/*
 * --sweep: every constraint set of n events on n GP counters, scheduled once as a first
 * iteration. With past_failure, also the thesis 7.2 variant for n to 2n events.
 */
int sweep(unsigned n, bool json, bool past_failure);

/*
 * --fair-sweep: n random pairs of lists from seed, each replayed under every XSU policy and
 * compared with the exact max-min fair optimum (fair_sweep.c).
 */
int fair_sweep(unsigned n, unsigned long long seed, unsigned iterations, bool json);

/* --list: every event name of u with its static constraint, as the thesis's listing, or with
 * json the whole table (Intel's fields included) as one JSON object. */
int list_events(const struct uarch *u, unsigned gp, unsigned fixed, bool json);

/* The header of a run and of --list: processor name and counters, as the thesis's simulator. */
void sim_print_processor(const struct uarch *u, unsigned gp, unsigned fixed);

/* perf_event_attr.config as libpfm4 encodes it (EN and INT set), as the thesis prints code=. */
unsigned long long sim_event_code(const struct pmu_event *e);

#endif
