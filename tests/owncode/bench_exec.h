/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a bundle's generated programs (tests/owncode/codegen.h) on the pair's threads: at CPL 3
 * through user_call(), or at CPL 0 with interrupts off (nanoBench's kernel mode), with every
 * exception they raise caught, the time limit (bench_ms) kept, RDPMC answered from the model PMU
 * under QEMU, and the trace's #DB counted (tests/owncode/trace.h).
 *
 * A fault or the time limit does not end the boot: it is noted once per thread (its first) with
 * its vector, part and offset, and the thread resumes at the program's epilogue, which restores
 * the caller's stack and registers and returns (at CPL 3 to bench_call(), and so to the exit
 * system call). What is caught: every exception the code can raise, #DB from a trap flag it set
 * (POPF) or from INT1 included; an NMI nobody sent (the code's own: INT 2 at CPL 0, a self-IPI, a
 * PMI it routed as an NMI); and a system call, SYSCALL or INT 0x80, which ends the code as the
 * exception "syscall" does (kernel/syscall.h's filter; at CPL 0 SYSCALL is off and raises #UD, and
 * INT 0x80 reaches vector 0x80; at CPL 3 INT 0x80 is a #GP, its gate being the kernel's).
 *
 * The time limit at CPL 3 is the tick (kernel/tick.h): each tick looks at the deadline. At CPL 0
 * the tick cannot come (interrupts are off): the sibling thread watches the deadline (its tick,
 * and bench_exec_watch() whenever it has nothing of its own to run, before its part, after it
 * ended or faulted, or without one) and sends an NMI (SDM vol. 3A, 10.6.1: delivery mode NMI),
 * which the handler takes as the tick.
 */
#ifndef TESTS_OWNCODE_BENCH_EXEC_H
#define TESTS_OWNCODE_BENCH_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/pmu.h"
#include "tests/owncode/bundle.h"
#include "tests/owncode/codegen.h"
#include "tests/owncode/trace.h"

/* A fault that ended a bundle. */
struct bench_fault {
	bool set;
	const char *vector; /* "#UD", ..., or "timeout" */
	unsigned part;	    /* enum bundle_part */
	bool has_offset;
	uint32_t offset;
};

struct bench_exec {
	const struct bundle *b;
	struct pmu *pmu;
	uint64_t code_start, code_end; /* the generated programs: RDPMC there is answered */
	uint64_t limit_tsc;	       /* bench_ms in TSC ticks */
	struct bench_data *data[2];
	struct bench_layout layout[2]; /* what each thread runs now */
	uint64_t deadline[2];
	bool active[2];
	bool ring0[2];
	bool abort[2]; /* the other thread asks this one's program to end */
	bool tracing;
	struct bench_tracer tracer;
	uint64_t trace_cap;	  /* the trace is cut at this many steps (escape, no fault) ... */
	bool trace_over;	  /* ... and then this is set */
	struct bench_fault fault; /* the first of either thread: no run starts after it */
	struct bench_fault thread[2]; /* each thread's first */
};

/* Handlers in place for a bundle's run (every exception vector, #DB, the RDPMC fixup). */
void bench_exec_begin(struct bench_exec *x);
void bench_exec_end(void);

/*
 * Run the program at entry (laid out as l) on this CPU, thread t of the pair, at CPL 3 or 0;
 * limit: whether the time limit applies (the sibling's loop runs until HT0 stops it). False when
 * the bundle has faulted (now or before).
 */
bool bench_exec_run(struct bench_exec *x, unsigned t, uint64_t entry, const struct bench_layout *l,
		    unsigned ring, bool limit);

/* A trace of the program at entry: the tracer's counts (model PMU only). The trap flag stays set
 * whatever the code does to it (POPF, IRET: the #DB after such an instruction sets it again), so
 * the trace runs to its end, or to trace_cap steps (trace_over: cut short, not a fault); its time
 * limit is BENCH_TRACE_TIME times bench_ms. */
#define BENCH_TRACE_TIME 4
bool bench_exec_trace(struct bench_exec *x, uint64_t entry, const struct bench_layout *l,
		      unsigned ring);

/*
 * HT1 with nothing of its own to run while HT0 may run at CPL 0 (no part, or its part ended,
 * faulted or was refused): watch HT0's time limit until *done.
 */
void bench_exec_watch(struct bench_exec *x, const bool *done);

/* Note a fault of thread t's program at rip (vector "timeout" for the time limit). */
void bench_exec_note(struct bench_exec *x, unsigned t, const char *vector, uint64_t rip,
		     bool known_rip);

/* The fault the records name: the measured code's (thread 0's) when it faulted, as what it did
 * ends the bundle however the sibling fared; else the sibling's; NULL when neither faulted. */
const struct bench_fault *bench_exec_fault(const struct bench_exec *x);

#endif
