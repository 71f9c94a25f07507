/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of a bundle's run share (tests/owncode/bench.h): bench.c (memory, programs,
 * trace), bench_pass.c (the passes on both threads) and bench_record.c (the records).
 */
#ifndef TESTS_OWNCODE_BENCH_STATE_H
#define TESTS_OWNCODE_BENCH_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/boot_info.h"
#include "kernel/pair.h"
#include "kernel/pmu.h"
#include "pmu/xsu_passes.h"
#include "tests/owncode/bench_exec.h"
#include "tests/owncode/bundle.h"
#include "tests/owncode/codegen.h"
#include "tests/owncode/trace.h"
#include "tests/ring3/workload.h"

/* The programs' places in the buffer. */
enum bench_program_slot {
	BENCH_SLOT_ONCE,
	BENCH_SLOT_TRACE,
	BENCH_SLOT_N,  /* N copies (none in basic mode) */
	BENCH_SLOT_2N, /* 2N copies (N in basic mode) */
	BENCH_SLOT_SIBLING,
	BENCH_PROGRAMS
};

/* The two runs nanoBench's method compares: [0] the short (N copies; none and no loop in basic
 * mode), [1] the long (2N; N), each of copies in a loop of loops iterations (0: none). */
struct run_shape_pair {
	uint32_t copies[2], loops[2];
};

/* The counter of the RDTSC event (BUNDLE_EVENT_TSC): no counter, the TSC. */
#define BENCH_COUNTER_TSC 0x7fff

/* One event's outcome. */
struct bench_result {
	bool counted;
	int16_t pass;
	int16_t counter; /* GP index, PMU_FIXED_BASE + j, BENCH_COUNTER_TSC; -1: did not count */
	/* Why this PMU or its driver would not program it (pmu_event_supported(), the CPU's list of
	 * events, or the driver's status for its pass): it never counted. NULL when programmed. */
	const char *refused;
	bool absent;	  /* refused: the CPU's list of Intel's events has no such event */
	bool unknown_cpu; /* under the model on a CPU without a list: not an architectural event */
	unsigned n;
	int64_t values[BUNDLE_MAX_MEASUREMENTS]; /* hundredths: one a measurement */
	/* HT0: each measurement's count of the run with N copies and of the one with 2N (nanoBench's
	 * base and main runs), whose aggregates give the value; never below zero */
	int64_t runs[2][BUNDLE_MAX_MEASUREMENTS];
	unsigned kept;	    /* measurements in runs */
	unsigned backwards; /* measurements below zero: left out of values, named */
	bool written;	    /* a counter read lower after a run than before it: no count to trust */
};

struct bench_profiles;

struct bench_state {
	struct bundle b;
	struct pmu *pmu;
	const struct pair *pair;
	const char *source; /* "multiboot1", "multiboot2", "uefi" */
	uint64_t area[2][BENCH_AREAS];
	struct bench_data *data[2];
	uint64_t code, code_size;
	uint64_t entry[BENCH_PROGRAMS];
	struct bench_layout layout[BENCH_PROGRAMS];
	struct bench_exec x;
	struct xsu_pass_input plan_input; /* the bundle's GP events, as its mode plans them */
	struct xsu_pass_plan plan;
	uint16_t gp_event[2][BUNDLE_MAX_EVENTS]; /* the plan's events: their index in the bundle */
	/* The passes before the plan's: with -no_mem a pass of the fixed counters and RDTSC alone */
	unsigned first_gp_pass;
	unsigned passes;		 /* first_gp_pass and the plan's */
	struct bench_result *results[2]; /* each thread's events, in kernel memory (bench.c) */
	/* Per pass: how much of HT0's runs the sibling's loop overlapped, the least of the
	 * measurements kept (percent, bench_overlap_pct()); -1 without a sibling loop. */
	int16_t overlap[XSU_PASS_MAX_PASSES + 1];
	/* Per pass: the measurements made again as HT0 ran alone (bench_pass.c, ran_alone()). */
	uint16_t alone_again[XSU_PASS_MAX_PASSES + 1];
	uint64_t trace_steps;	  /* the traces' #DBs (bench_model.c) */
	uint64_t rep_units[2];	  /* per run (short, long): copies beyond the traced ones */
	const char *trace_note;	  /* why the traces were of fewer copies, or NULL */
	const char *trace_failed; /* why HT0's traced events have no value, or NULL */
	char trace_note_buf[320];
	bool untraced; /* under the model with bench_trace=off: the code runs as on a real machine */
	struct workload_params *work; /* the sibling's workload, or NULL */
	uint64_t work_entry;
	bool work_halts; /* its units halt (idle): HT0's runs meet it halted, as they should */
	struct bench_profiles *profiles;
};

/* The model's profiles of a bundle (bench.c, bench_model.c): HT0's run with N copies and with
 * 2N (a unit a run), a copy beyond the traced ones (HT0) or a copy of HT1's part, the TSC, and
 * none (HT1's slots of HT0's runs: the model reads a ledger's slots up to the first free one). */
struct bench_profiles {
	struct model_profile run[2], rep[2], cycles, none;
	struct model_rate rates[5][16];
};

/* bench.c: a codegen of program p for thread t, and program g into slot of the buffer. */
void bench_base_codegen(const struct bench_state *s, struct bench_codegen *g, enum bench_program p,
			unsigned t);
bool bench_generate(struct bench_state *s, const struct bench_codegen *g, unsigned slot);

/* bench_model.c: the short and long runs of n copies and loops iterations under the bundle's
 * mode; HT0's profiles from traces of its runs (false: the bundle faulted). */
void bench_run_shapes(const struct bundle_params *p, uint32_t n, uint32_t loops,
		      struct run_shape_pair *out);
bool bench_trace_runs(struct bench_state *s);

/* bench_pass.c: the plan of the passes, and pass p on both threads. */
void bench_plan(struct bench_state *s);
void bench_pass(struct bench_state *s, unsigned p);

/* bench_record.c: the `bench` record and the `bench_result` records. */
void bench_record_bundle(const struct bench_state *s, unsigned index, const struct boot_module *m,
			 enum bundle_status status, const char *reason);
void bench_record_results(const struct bench_state *s, unsigned index);

#endif
