/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random pairs of Haswell event lists for the core-wide XSU tests and schedsim --fair-sweep:
 * corrupting events (0xD0-0xD3), unconstrained ones, events the tables tie to one counter
 * (0x0148 and 0x08a3 on counter 2, 0x01cd on counter 3, 0x01c0 on counter 1), fixed-counter
 * events (instructions and cycles, which may also take a GP counter, and reference cycles, which
 * may not), groups of two and pinned events. Deterministic for a seed (brute_random()).
 */
#ifndef TESTS_HOST_LIB_RANDOM_LISTS_H
#define TESTS_HOST_LIB_RANDOM_LISTS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/event.h"

#define RANDOM_LIST_MAX 16

struct random_list {
	unsigned n;
	struct pmu_event events[RANDOM_LIST_MAX]; /* as event_parse_list() gives them */
};

struct random_lists_options {
	unsigned min_events, max_events; /* per thread, at most RANDOM_LIST_MAX */
	bool groups;			 /* some groups of two events */
	bool pinned;			 /* at most one pinned group per thread, sometimes */
};

void random_lists(uint64_t *state, const struct random_lists_options *o, struct random_list out[2]);

/* The list as perf stat -e would take it ("r81d0:u,{r00c0:u,r0148:u},r00c5:u:D"). */
void random_list_text(const struct random_list *l, char *buf, unsigned size);

#endif
