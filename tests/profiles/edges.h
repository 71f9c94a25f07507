/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steps of a trap-flag trace as a histogram of edges: each #DB (SDM vol. 3B, 17.3.1.4) says
 * that the instruction at the previous #DB's RIP has run and that the one at this RIP runs next,
 * an edge (from, to). How often each edge was taken is all the host needs to tell, with a real
 * disassembler, what ran: an instruction's executions are the counts of the edges leaving it, a
 * conditional branch was taken where `to` is not the instruction after it (tools/pmu_trace.py).
 * The kernel keeps no decoder of its own.
 *
 * Pure code: host-tested (tests/host/test_trace_edges.c).
 */
#ifndef TESTS_PROFILES_EDGES_H
#define TESTS_PROFILES_EDGES_H

#include <stdbool.h>
#include <stdint.h>

/* Distinct edges a trace may hold: a workload's loop and what surrounds it take a few hundred
 * (branchy's 64 unrolled branches, each with two ways out, the most). A power of two. */
#define TRACE_EDGES_MAX 1024

struct trace_edge {
	uint64_t from, to;
	uint64_t count; /* 0: the slot is free */
};

struct trace_edges {
	struct trace_edge slot[TRACE_EDGES_MAX];
	unsigned used;
	uint64_t steps; /* edges added, kept or not */
	uint64_t lost;	/* steps whose edge found no free slot */
};

void trace_edges_reset(struct trace_edges *t);

/* One more step from `from` to `to`. */
void trace_edges_add(struct trace_edges *t, uint64_t from, uint64_t to);

/* The edges in the first trace_edges_sort() slots, in the order of from, then to; returns how
 * many. The table takes no more steps afterwards (until it is reset). */
unsigned trace_edges_sort(struct trace_edges *t);

#endif
