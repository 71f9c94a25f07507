/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sibling check's ring-3 probe: proves a thread runs at CPL 3 with SSE (and AVX where the CPU
 * has it) enabled, by computing a value the kernel knows in advance and writing it to user memory.
 */
#ifndef TESTS_BENCH_PROBE_H
#define TESTS_BENCH_PROBE_H

#include <stdint.h>

struct probe_slot {
	uint64_t seed; /* in: given by the kernel */
	uint64_t sse;  /* out: from SSE2 arithmetic */
	uint64_t avx;  /* out: from AVX arithmetic, 0 without AVX */
	uint64_t cpl;  /* out: the privilege level the code saw (CS & 3) */
};

/* Two slots, one per thread, on user pages. */
extern struct probe_slot probe_slots[2];

/* arg: the thread index. Returns the SSE value too. */
uint64_t probe_run(uint64_t arg);

/* For selftest=user-fault: writes to arg, a kernel address, which must fault at CPL 3. */
uint64_t probe_fault(uint64_t arg);

/*
 * For selftest=syscall-cpl3: system calls made as a hypervisor that leaves SYSCALL at CPL 3
 * delivers them, a jump to the kernel's entry (arg) with RCX and R11 as SYSCALL sets them. An
 * unknown call must come back with -1, then SYS_EXIT leaves with PROBE_SYSCALL_CPL3_DONE.
 */
uint64_t probe_syscall_cpl3(uint64_t arg);
#define PROBE_SYSCALL_CPL3_DONE 0x5ca11ed3ull

/* What the probe must compute for a seed (the kernel checks with integer arithmetic). */
static inline uint64_t probe_expected(uint64_t seed)
{
	/* The sum of (seed + i) / 2 for i < 1000, in doubles: exact, since every term is a
	 * multiple of 0.5 and the total stays far below 2^53. */
	return (1000 * seed + 999 * 1000 / 2) / 2;
}

#endif
