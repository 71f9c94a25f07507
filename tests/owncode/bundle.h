/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader of bundles: the benchmarks of your own code that tools/pmu-bench writes and the
 * kernel runs (docs/own-code.md, "The bundle", is the format; tools/pmu_bench_bundle.py writes it
 * and reads it back with the same checks).
 *
 * bundle_parse() checks everything once: the header, the CRC, every section's place and size,
 * the parameters' ranges, every event, every string and every decode table. After it returned
 * BUNDLE_OK the accessors cannot meet a bad offset; they only check their own arguments. Nothing
 * is copied: the struct bundle points into the caller's bytes, which must stay in place. The
 * bytes may sit at any alignment (every field is read byte by byte, little-endian).
 *
 * Pure code: no allocation, no libc beyond <string.h>; compiled into the kernel, the host tests
 * (tests/host/test_bundle.c) and the fuzzer (tests/fuzz/fuzz_bundle.c).
 */
#ifndef TESTS_OWNCODE_BUNDLE_H
#define TESTS_OWNCODE_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/xsu_mode.h"

#define BUNDLE_VERSION 2
#define BUNDLE_HEADER_SIZE 32
#define BUNDLE_SECTION_SIZE 16
#define BUNDLE_PARAMS_SIZE 48
#define BUNDLE_EVENT_SIZE 32
#define BUNDLE_INSN_SIZE 12
#define BUNDLE_NONE 0xffffffffu /* a string offset that names no string */

/* Limits; tools/pmu_bench_bundle.py has the same. */
#define BUNDLE_MAX_SECTIONS 32
#define BUNDLE_MAX_PART (1u << 20)
#define BUNDLE_MAX_UNROLL_COUNT 1000000u
#define BUNDLE_MAX_UNROLLED_BYTES (8u << 20) /* unroll_count x code; the 2N run holds twice this */
#define BUNDLE_MAX_LOOP_COUNT 0x7fffffffu
#define BUNDLE_MAX_MEASUREMENTS 100u /* a bench_result's values fit in a 4096-byte record */
#define BUNDLE_MAX_WARM_UP 10000u
#define BUNDLE_MAX_ALIGNMENT_OFFSET 4095u
#define BUNDLE_MAX_EVENTS 2000u /* per thread, as nanoBench's configs hold */
#define BUNDLE_MAX_STRING 255u
#define BUNDLE_MAX_ACCESSES 15u

enum bundle_status {
	BUNDLE_OK,
	BUNDLE_TRUNCATED,   /* shorter than its header or its total size */
	BUNDLE_BAD_MAGIC,   /* not a bundle */
	BUNDLE_BAD_VERSION, /* a version this reader does not read */
	BUNDLE_BAD_CRC,	    /* damaged */
	BUNDLE_BAD_LAYOUT,  /* header fields, the section table, a section's place or kind */
	BUNDLE_BAD_PARAMS,
	BUNDLE_BAD_STRING,
	BUNDLE_BAD_EVENT,
	BUNDLE_BAD_PART, /* a part, its decode table, or their sizes against the parameters */
};

/* The parts, in the order the kernel runs them; the names are those of the fault records. */
enum bundle_part {
	BUNDLE_PART_ONE_TIME_INIT,
	BUNDLE_PART_INIT,
	BUNDLE_PART_LATE_INIT,
	BUNDLE_PART_CODE,
	BUNDLE_PART_SIBLING,
	BUNDLE_PARTS
};

enum bundle_aggregate { BUNDLE_AVG, BUNDLE_MEDIAN, BUNDLE_MIN, BUNDLE_MAX };
enum bundle_sibling { BUNDLE_SIBLING_NONE, BUNDLE_SIBLING_CODE, BUNDLE_SIBLING_WORK };

/* Parameter flags. */
#define BUNDLE_BASIC_MODE 0x1u
#define BUNDLE_NO_NORMALIZATION 0x2u
#define BUNDLE_USR 0x4u
#define BUNDLE_OS 0x8u
#define BUNDLE_FIXED_COUNTERS 0x10u /* the list begins with RDTSC and the three fixed counters */
#define BUNDLE_RANGE 0x20u	    /* nanoBench's -range: the results' range is printed */
#define BUNDLE_REMOVE_EMPTY 0x40u   /* -remove_empty_events: 0.00 is not printed */
#define BUNDLE_VERBOSE 0x80u	    /* -verbose: every run's count (bench_counts records) */
#define BUNDLE_DF 0x100u	    /* -df: the front end drained around the copies */
#define BUNDLE_NO_MEM 0x200u /* -no_mem: HT0's reads keep the counts in R8-R11, not in memory */
#define BUNDLE_FLAGS 0x3ffu  /* every flag this reader knows */

struct bundle_params {
	uint32_t unroll_count;
	uint32_t loop_count; /* 0: no loop around the copies; else R15 counts it */
	uint32_t n_measurements;
	uint32_t warm_up_count;
	uint32_t initial_warm_up_count;
	uint32_t alignment_offset; /* the code starts at a 64-byte boundary plus this */
	uint8_t aggregate;	   /* enum bundle_aggregate */
	uint8_t xsu;		   /* enum xsu_mode (pmu/xsu_mode.h): 0 off, 1 on, 2 core */
	uint8_t ring;		   /* 0 or 3 */
	uint8_t sibling;	   /* enum bundle_sibling */
	uint32_t flags;		   /* BUNDLE_BASIC_MODE ... */
	const char *sibling_work;  /* the workload's name with BUNDLE_SIBLING_WORK, else NULL */
};

enum bundle_event_kind {
	BUNDLE_EVENT_GP,    /* evtsel goes into an IA32_PERFEVTSELx as it is */
	BUNDLE_EVENT_FIXED, /* fixed counter fixed_index, with fixed_ctrl in IA32_FIXED_CTR_CTRL */
	BUNDLE_EVENT_REFUSED, /* never programmed: reason says why */
	BUNDLE_EVENT_TSC, /* RDTSC between the reads (nanoBench's first line with fixed counters) */
};
#define BUNDLE_EVENT_ALONE 0x1u /* nanoBench's TakenAlone: a pass of its own */

struct bundle_event {
	uint64_t evtsel;      /* GP: EN set, INT and PC clear, bits 63:32 clear */
	const char *name;     /* the config's name ("MEM_UOPS_RETIRED.ALL_LOADS") */
	const char *spec;     /* as the config wrote it ("D0.81"), or "fixed0".."fixed2" */
	const char *reason;   /* REFUSED: why, else NULL */
	uint8_t kind;	      /* enum bundle_event_kind */
	uint8_t fixed_index;  /* FIXED: 0-2 */
	uint8_t fixed_ctrl;   /* FIXED: the 4-bit field (OS 1, USR 2, AnyThread 4; never PMI) */
	uint8_t counter_mask; /* GP counters it may use, bit n = IA32_PMCn (0xff: any) */
	uint8_t flags;	      /* BUNDLE_EVENT_ALONE */
};

enum bundle_insn_kind {
	BUNDLE_INSN_NONE,
	BUNDLE_INSN_JCC,  /* conditional near branch (Jcc, JrCXZ, LOOPcc) */
	BUNDLE_INSN_JMP,  /* unconditional near jump */
	BUNDLE_INSN_CALL, /* near call */
	BUNDLE_INSN_RET,  /* near return */
	BUNDLE_INSN_FAR,  /* far jump, call, return, IRET, INT n, SYSCALL and kin */
};
#define BUNDLE_INSN_INDIRECT 0x1u  /* a JMP or CALL through a register or memory */
#define BUNDLE_INSN_UNDECODED 0x2u /* a byte the disassembler could not decode (length 1) */
#define BUNDLE_INSN_REP 0x4u	   /* a string instruction with a REP prefix: per iteration */

struct bundle_insn {
	uint32_t offset; /* in its part */
	uint8_t length;	 /* 1-15 */
	uint8_t kind;	 /* enum bundle_insn_kind */
	uint8_t flags;	 /* BUNDLE_INSN_* */
	uint8_t reads;	 /* memory reads, implicit ones included */
	uint8_t writes;	 /* memory writes, implicit ones included */
};

struct bundle_part_view {
	const uint8_t *bytes; /* NULL when the part is empty */
	uint32_t size;
	const uint8_t *decode; /* the raw decode entries */
	uint32_t insns;
};

struct bundle {
	const uint8_t *data;
	uint32_t size; /* the total size from the header (trailing bytes are not the bundle's) */
	uint32_t crc;
	struct bundle_params params;
	struct bundle_part_view part[BUNDLE_PARTS];
	const uint8_t *events[2]; /* the raw entries of each thread */
	uint32_t event_count[2];
	const uint8_t *strings;
	uint32_t strings_size;
};

/*
 * Checks the size bytes at data and fills *b. Returns BUNDLE_OK, or the first problem with a
 * sentence for a person in *reason (a static string; reason may be NULL).
 */
enum bundle_status bundle_parse(const void *data, size_t size, struct bundle *b,
				const char **reason);

/* Event i of a thread (0 or 1); false when there is no such event. */
bool bundle_event(const struct bundle *b, unsigned thread, uint32_t i, struct bundle_event *e);

/* Instruction i of a part's decode table; false when there is no such entry. */
bool bundle_insn(const struct bundle *b, enum bundle_part part, uint32_t i,
		 struct bundle_insn *insn);

/* The instruction that starts at offset in a part (binary search); false when none does. */
bool bundle_insn_at(const struct bundle *b, enum bundle_part part, uint32_t offset,
		    struct bundle_insn *insn);

/* "one_time_init", "init", "late_init", "code", "sibling"; "?" for another value. */
const char *bundle_part_name(unsigned part);
/* "avg", "median", "min", "max"; "none", "code", "work"; "?" otherwise (the XSU mode's names are
 * xsu_mode_name()'s). */
const char *bundle_aggregate_name(unsigned aggregate);
const char *bundle_sibling_name(unsigned sibling);

/* What a measurement's difference is divided by: max(loop_count, 1) x unroll_count, or 1 with
 * BUNDLE_NO_NORMALIZATION. */
uint64_t bundle_repetitions(const struct bundle_params *p);

#endif
