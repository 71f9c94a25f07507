/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counts from what ran, for the model PMU (QEMU's TCG has no counters): the kernel runs one pass
 * of a bundle's parts with the trap flag set, one #DB per instruction (SDM vol. 3B, 17.3.1.4),
 * and hands each RIP to bench_trace_step(). The instruction that just executed is the one at the
 * previous RIP; the bundle's decode table (docs/own-code.md, "The decode table") says what it
 * did, and the new RIP whether a branch was taken (it is not the next instruction's address).
 *
 * A REP string instruction traps once per iteration with RIP unchanged: each trap counts its
 * reads and writes, and the instruction retires once, when RIP moves on. An address in a part
 * with no entry of the table (a jump into the middle of an instruction) is counted as unknown:
 * one instruction, nothing else. Addresses outside the parts (the generated code) are not counted.
 *
 * The counts become a model profile (pmu/model_profile.h) per copy of the code, for the events
 * of bench_trace_events: what a trace can give. Everything else is "not modelled".
 *
 * Pure code: host-tested (tests/host/test_bench_trace.c).
 */
#ifndef TESTS_OWNCODE_TRACE_H
#define TESTS_OWNCODE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/model_profile.h"
#include "tests/owncode/bundle.h"
#include "tests/owncode/codegen.h"

struct bench_counts {
	uint64_t instructions;
	uint64_t branches;    /* every branch retired: near and far */
	uint64_t conditional; /* Jcc, JrCXZ, LOOPcc */
	uint64_t not_taken;   /* conditional branches that fell through */
	uint64_t taken;	      /* near branches taken: conditional, jumps, calls, returns */
	uint64_t calls, returns, far;
	uint64_t loads, stores;
	uint64_t unknown; /* instructions at an offset the decode table has no entry for */
};

/* What the trace gives, per microarchitecture with the erratum (SNB, IVB, HSW: the same codes,
 * SDM vol. 3B, 19.3-19.5): one line per event, its field in struct bench_counts. */
struct bench_trace_event {
	uint8_t event, umask;
	const char *name;
	size_t field; /* offsetof(struct bench_counts, ...) */
};
extern const struct bench_trace_event bench_trace_events[];
extern const unsigned bench_trace_event_count;

/* The model counts this event select (IA32_PERFEVTSELx) from the trace, the TSC (cycles), or as
 * zero (ROB_MISC_EVENTS.LBR_INSERTS: the LBR is off); false: not modelled. */
bool bench_trace_modelled(uint64_t evtsel);

/* Event e of a bundle is counted under the model without a trace (bench_trace=off): the cycles
 * (fixed counters 1 and 2, CPU_CLK_UNHALTED.THREAD_P: the TSC) and LBR_INSERTS (0, and what leaks
 * into it). */
bool bench_trace_needs_none(const struct bundle_event *e);

struct bench_tracer {
	const struct bundle *b;
	const struct bench_layout *l;
	uint64_t prev; /* the instruction executing now */
	uint64_t steps;
	struct bench_counts part[BUNDLE_PARTS];
};

/* A trace of the program laid out as l, whose first traced instruction is at first. */
void bench_trace_start(struct bench_tracer *t, const struct bundle *b, const struct bench_layout *l,
		       uint64_t first);

/* A #DB with RIP next: counts the instruction at the previous RIP. True when the trace is over
 * (next is l->trace_end: the caller clears the trap flag). */
bool bench_trace_step(struct bench_tracer *t, uint64_t next);

/* The profile of one unit of counts c: rates per MODEL_RATE_UNITS units into rates[] (at least
 * bench_trace_event_count entries), at privilege level ring. */
void bench_trace_profile(const struct bench_counts *c, enum model_ring ring, const char *name,
			 struct model_rate *rates, struct model_profile *p);

/* The profile of the cycles: one core and one reference cycle per unit (a TSC tick). */
void bench_cycles_profile(enum model_ring ring, struct model_profile *p);

#endif
