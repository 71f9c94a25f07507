/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code generated around a bundle's parts, as nanoBench generates it (Abel and Reineke,
 * "nanoBench: A Low-Overhead Tool for Running Microbenchmarks on x86 Systems", ISPASS 2020,
 * section III): a function the kernel calls (at CPL 3 through user_call(), or at CPL 0) that
 * saves the registers, points R14, RDI, RSI, RSP and RBP into the middle of their own 1 MiB
 * areas, runs init, sets up the loop (R15 = loop_count), reads the counters, runs late_init and
 * the copies of the code (in a loop of loop_count iterations back to the first copy, late_init
 * once), reads the counters again, restores the registers and returns. The padding that puts the
 * first copy at a 64-byte boundary plus alignment_offset lies before the first read (a jump over
 * it), so that between the two reads there is nothing but late_init, the copies, the loop's
 * DEC and JNZ and, with -df, nanoBench's drain of the front end (an LFENCE, 189 one-byte NOPs,
 * then 15-byte NOPs) after late_init and after the last copy, as nanoBench places them. Every
 * access to its own data is RIP-relative, so the code and its data must lie within 2 GiB of
 * each other (the kernel puts them in one allocation).
 *
 * A read saves RAX, RCX and RDX first and restores them after, so that the parts see their own
 * values: `mov ecx, n; lfence; rdpmc; lfence` per counter (the fences order the read against
 * the code, as tests/ring3/rdpmc.h does), the values stored in bench_data.count, then the TSC;
 * the sibling's loop notes its copies so far, and the measured program beside one the sibling's.
 * With -no_mem (BUNDLE_NO_MEM) HT0's reads touch no memory, as nanoBench's: R8-R11 start at 0,
 * the first read subtracts each counter (`shl rdx, 32; or rdx, rax; sub r8, rdx`), the second
 * adds it, RAX, RCX, RDX and the flags are clobbered, and only after the second read are R8-R11
 * stored (as count[1], count[0] being 0); the TSC is read only as the RDTSC event's register.
 *
 * The sibling's loop runs BENCH_SIBLING_COPIES copies of its part (or one call of its workload)
 * and then polls: adds what it ran to its copies (the workload's units as the call returns them),
 * and reads its counters when HT0 has moved the epoch word.
 *
 * Under the model PMU (model set) the program adds its work to its ledger just before the second
 * read, so that the model accounts it before the counters are read (pmu/model_ledger.h): HT0's
 * program one unit of its run's traced profile (the run with N copies or the one with 2N, in
 * basic mode none and N: tests/owncode/trace.h) and, when the trace was of fewer copies, the
 * copies it has beyond them as units of the per-copy profile; the sibling its copies; both the
 * TSC ticks since the first read as units of the cycles' profile. On real counters nothing is
 * added.
 *
 * A trace program (BENCH_PROGRAM_TRACE) is the measured program with the trap flag set in its
 * prologue and no counter read: the code between its reads is the same, at the same alignment,
 * and the layout says where that window is and which of its instructions the generator wrote
 * (the glue: the loop's and the drain's), for the tracer to count them as the counters would.
 *
 * Pure code: writes bytes into a caller's buffer; host-tested (tests/host/test_bench_trace.c).
 */
#ifndef TESTS_OWNCODE_CODEGEN_H
#define TESTS_OWNCODE_CODEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/model_ledger.h"
#include "tests/owncode/bundle.h"

/* The registers that point into areas of their own, in this order. */
enum bench_area {
	BENCH_AREA_R14,
	BENCH_AREA_RDI,
	BENCH_AREA_RSI,
	BENCH_AREA_RSP,
	BENCH_AREA_RBP,
	BENCH_AREAS
};
#define BENCH_AREA_SIZE (1u << 20)

/* Counters one read takes: every GP counter of a thread with HT off and the three fixed ones. */
#define BENCH_MAX_READS 12

/*
 * The sibling's loop runs this many copies of its part between two polls: the poll's own
 * instructions stay a small share of what HT1 does, so that HT1's loads keep pace with HT0's
 * code as they would in a tight loop (and, under the model, leak in proportion to them).
 */
#define BENCH_SIBLING_COPIES 100

/*
 * Ledger slots of a bundle's programs (pmu/model_ledger.h): HT0's run with N copies and its run
 * with 2N (a unit each: the run's traced counts), a copy beyond the traced ones (HT1: a copy of its
 * part), and the TSC ticks.
 */
enum bench_slot {
	BENCH_SLOT_SHORT,
	BENCH_SLOT_LONG,
	BENCH_SLOT_REP,
	BENCH_SLOT_CYCLES,
	BENCH_SLOTS
};

/* read_ecx of the TSC: with -no_mem the RDTSC event's read is one of the registers. */
#define BENCH_READ_TSC 0xffffffffu
/* The registers of -no_mem's reads: R8-R11. */
#define BENCH_NO_MEM_READS 4

/* What a program and the kernel share: written by the program, read by the kernel. */
struct bench_data {
	uint64_t saved_rsp;
	uint64_t save[3]; /* RAX, RCX, RDX around a read */
	uint64_t tsc[2];  /* the TSC at the first read and at the second */
	uint64_t count[2][BENCH_MAX_READS];
	/* The sibling's loop: the kernel of HT0 sets epoch, the loop reads its counters into
	 * count[epoch & 1], sets seen and waits until HT0 has read its own catchers and set acked
	 * to it; the loop ends when stop is set. */
	uint64_t epoch, seen, acked, stop;
	uint64_t last_tsc; /* the sibling's TSC at its last poll (its cycles under the model) */
	/* The sibling's loop: the copies of its part it has run (its workload's units; with no part,
	 * its iterations), counted by its code as it goes, and their number at its reads into
	 * count[0] and count[1]: its figures are per copy, as HT0's are. */
	uint64_t copies, copies_at[2];
	/* The measured program beside a sibling loop: the sibling's copies at its own first and
	 * second read, what the sibling did during the run (struct bench_codegen.sibling_data). */
	uint64_t sibling_copies[2];
	struct model_ledger ledger;
};

enum bench_program {
	BENCH_PROGRAM_MEASURE, /* init, read, late_init, copies, read */
	BENCH_PROGRAM_ONCE,    /* one_time_init */
	BENCH_PROGRAM_TRACE,   /* MEASURE with the trap flag set and no counter read */
	BENCH_PROGRAM_SIBLING, /* the sibling part (or a workload's call) in a loop with polls */
	BENCH_PROGRAM_TRACE_SIBLING, /* the trap flag set, the sibling part once; trace_end */
};

struct bench_codegen {
	enum bench_program program;
	const struct bundle *b;
	uint32_t copies;	    /* MEASURE, TRACE: copies of the code */
	uint32_t loop_count;	    /* MEASURE, TRACE: 0, or iterations of the loop around them */
	uint64_t area[BENCH_AREAS]; /* the registers' values */
	unsigned reads;		    /* counters per read */
	uint32_t read_ecx[BENCH_MAX_READS]; /* RDPMC's ECX of each */
	uint64_t data;			    /* the address of this program's struct bench_data */
	bool model;			    /* add the work to the ledger */
	enum bench_slot run_slot;	    /* MEASURE: SHORT or LONG, a unit of it a run */
	uint64_t rep_units;		    /* MEASURE: units of BENCH_SLOT_REP a run */
	uint64_t work_entry, work_arg;	    /* SIBLING with a workload: call work_entry(work_arg) */
	/* MEASURE beside a sibling loop: the address of the sibling's struct bench_data, whose
	 * copies each read notes in sibling_copies; 0 without one. */
	uint64_t sibling_data;
};

/* A run of instructions the generator wrote between the reads, all of one length: the tracer
 * counts them as the counters do (kind: enum bundle_insn_kind; cc: a Jcc's condition, 0-15). */
struct bench_glue {
	uint64_t start, end;
	uint8_t length, kind, cc;
};
#define BENCH_GLUE_MAX 12

/* Where things landed, for faults and the trace: addresses of the generated code. */
struct bench_layout {
	uint32_t size;			   /* bytes written */
	uint64_t part_start[BUNDLE_PARTS]; /* the first byte of each part's (first) copy, or 0 */
	uint64_t copies_start;		   /* MEASURE: the first copy of code (aligned) */
	uint32_t copies;		   /* MEASURE/TRACE: copies of code at copies_start */
	uint32_t sibling_copies;	   /* copies of the sibling part at its start */
	uint64_t epilogue;		   /* where a fault or the time limit resumes: back out */
	uint64_t trace_start;		   /* the first instruction after the prologue's POPF */
	uint64_t trace_end;		   /* TRACE: the first instruction after the traced parts */
	/* MEASURE, TRACE: what the counters count, from the end of the first read to the start of
	 * the second, and the generator's own instructions in it */
	uint64_t window_start, window_end;
	struct bench_glue glue[BENCH_GLUE_MAX];
	unsigned glue_count;
};

/*
 * The bytes of program g into buf, whose address will be addr (capacity bytes). False when they
 * do not fit; *out says where the parts are.
 */
bool bench_codegen(const struct bench_codegen *g, uint8_t *buf, uint64_t addr, uint32_t capacity,
		   struct bench_layout *out);

/* The bytes program g takes at most, whatever its address (alignment padding included). */
uint64_t bench_codegen_size(const struct bench_codegen *g);

/* The glue instruction at rip of a layout, into *g (its run); false when none is there. */
bool bench_layout_glue(const struct bench_layout *l, uint64_t rip, const struct bench_glue **g);

/*
 * Which part and offset in it the instruction at rip is, in a program laid out as l (a copy of
 * code counts from its own start); false when rip is in none (the generated code itself).
 */
bool bench_layout_where(const struct bench_layout *l, const struct bundle *b, uint64_t rip,
			unsigned *part, uint32_t *offset);

#endif
