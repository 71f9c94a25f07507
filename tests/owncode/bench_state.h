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
	BENCH_SLOT_SHORT, /* N copies (none in basic mode) */
	BENCH_SLOT_LONG,  /* 2N copies (N in basic mode) */
	BENCH_SLOT_SIBLING,
	BENCH_PROGRAMS
};

/* One event's outcome. */
struct bench_result {
	bool counted;
	int16_t pass;
	int16_t counter; /* GP index, or PMU_FIXED_BASE + j; -1 when it did not count */
	const char *reason;
	/* Why this PMU or its driver would not program it (pmu_event_supported(), or the driver's
	 * status for its pass): it never counted. NULL when it was programmed. */
	const char *refused;
	unsigned n;
	int64_t values[BUNDLE_MAX_MEASUREMENTS]; /* hundredths */
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
	uint8_t gp_event[2][BUNDLE_MAX_EVENTS]; /* the plan's events: their index in the bundle */
	struct bench_result results[2][BUNDLE_MAX_EVENTS];
	/* Per pass: how much of HT0's runs the sibling's loop overlapped, the least of the
	 * measurements kept (percent, bench_overlap_pct()); -1 without a sibling loop. */
	int16_t overlap[XSU_PASS_MAX_PASSES];
	struct bench_counts traced; /* one copy of the code, under the model */
	uint64_t trace_steps;
	bool untraced; /* under the model with bench_trace=off: the code runs as on a real machine */
	struct workload_params *work; /* the sibling's workload, or NULL */
	uint64_t work_entry;
	struct bench_profiles *profiles;
};

/* The model's profiles of a bundle (bench.c). */
struct bench_profiles {
	struct model_profile code[2], cycles;
	struct model_rate rates[2][16];
};

/* bench_pass.c: the plan of the passes, and pass p on both threads. */
void bench_plan(struct bench_state *s);
void bench_pass(struct bench_state *s, unsigned p);

/* bench_record.c: the `bench` record and the `bench_result` records. */
void bench_record_bundle(const struct bench_state *s, unsigned index, const struct boot_module *m,
			 enum bundle_status status, const char *reason);
void bench_record_results(const struct bench_state *s, unsigned index);

#endif
