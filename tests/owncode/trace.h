/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counts from what ran, for the model PMU (QEMU's TCG has no counters): the kernel runs a bundle's
 * programs with the trap flag set, one #DB per instruction (SDM vol. 3B, 17.3.1.4), and hands
 * each RIP, RFLAGS and RCX to bench_trace_step(). The instruction that just executed is the one
 * at the previous RIP; the bundle's decode table (docs/own-code.md, "The decode table") says what
 * it did. A conditional branch was taken when its condition held (bench_branch_taken(): the flags
 * and RCX at the next #DB are those it saw, as no Jcc, JrCXZ or LOOPcc writes a flag and only
 * LOOPcc writes RCX), whatever its target: a taken jump to the next instruction is taken.
 *
 * The programs traced are the runs nanoBench's method compares (the run with N copies and the one
 * with 2N, or with none and N in basic mode: tests/owncode/codegen.h), so code whose work
 * depends on state (a REP MOVSB whose count only the first copy has, a branch that one copy takes)
 * is counted as it ran in each. What the counters would count is the window between the two
 * reads (late_init, the copies, the loop's DEC and JNZ, -df's NOPs: the layout's glue): its
 * counts are the run's (run), the parts' counts are kept too (part[]).
 *
 * A REP string instruction traps once per iteration with RIP unchanged: each trap counts its
 * reads and writes, and the instruction retires once, when RIP moves on; one whose count (RCX,
 * ECX with 67) was 0 as it began traps once and moved nothing. MOV SS holds the #DB of the next
 * instruction back (SDM vol. 3A, 6.8.3): a #DB after a MOV SS that lies past its end counts the
 * instruction it shadowed too. An address in a part
 * with no entry of the table (a jump into the middle of an instruction) is counted as unknown:
 * one instruction, nothing else. Other addresses of the generated code are not counted.
 *
 * The counts become model profiles (pmu/model_profile.h): one unit a run, for the events of
 * bench_trace_events, what a trace can give. Everything else is "not modelled".
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
	uint64_t prev;	   /* the instruction executing now */
	uint64_t prev_rcx; /* RCX as it began (a REP string instruction's count) */
	uint64_t steps;
	struct bench_counts part[BUNDLE_PARTS];
	struct bench_counts run; /* the window between the reads: what the counters count */
	uint64_t copies;	 /* copies of the code begun (its first instruction counted) */
};

/* RFLAGS' condition bits (SDM vol. 1, 3.4.3.1). */
#define BENCH_RFLAGS_CF (1ull << 0)
#define BENCH_RFLAGS_PF (1ull << 2)
#define BENCH_RFLAGS_ZF (1ull << 6)
#define BENCH_RFLAGS_SF (1ull << 7)
#define BENCH_RFLAGS_OF (1ull << 11)

/* Whether condition code cc (0-15, Jcc's low nibble: O, NO, B, AE, E, NE, BE, A, S, NS, P, NP,
 * L, GE, LE, G; SDM vol. 2, appendix B.1.4.7) holds for rflags. */
bool bench_condition(unsigned cc, uint64_t rflags);

/*
 * Whether the conditional branch of these bytes (length of them: a Jcc, JrCXZ or LOOPcc, with any
 * prefixes) was taken, from RFLAGS and RCX as they are after it executed; false for bytes that are
 * none of them.
 */
bool bench_branch_taken(const uint8_t *insn, unsigned length, uint64_t rflags, uint64_t rcx);

/* A trace of the program laid out as l, whose first traced instruction is at first. */
void bench_trace_start(struct bench_tracer *t, const struct bundle *b, const struct bench_layout *l,
		       uint64_t first);

/* A #DB with RIP next, RFLAGS and RCX as the trap left them: counts the instruction at the
 * previous RIP. True when the trace is over (next is l->trace_end: the caller clears the trap
 * flag). */
bool bench_trace_step(struct bench_tracer *t, uint64_t next, uint64_t rflags, uint64_t rcx);

/* The profile of counts c made over `units` units (a run: 1; copies beyond the traced ones: the
 * traced runs' difference over theirs): rates per MODEL_RATE_UNITS units, rounded down, into
 * rates[] (at least bench_trace_event_count entries), at privilege level ring. */
void bench_trace_profile(const struct bench_counts *c, uint64_t units, enum model_ring ring,
			 const char *name, struct model_rate *rates, struct model_profile *p);

/* The profile of the cycles: one core and one reference cycle per unit (a TSC tick). */
void bench_cycles_profile(enum model_ring ring, struct model_profile *p);

#endif
