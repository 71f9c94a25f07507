/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ring-3 workloads may use: the entry the kernel starts them through and the system calls
 * (kernel/lib/syscall_abi.h). Workloads are compiled with SSE/AVX allowed and placed on user pages.
 */
#ifndef TESTS_BENCH_USER_H
#define TESTS_BENCH_USER_H

#include <stdint.h>

#include "kernel/lib/syscall_abi.h"

/* A ring-3 function: one argument in, one result out (the exit system call carries it). */
typedef uint64_t (*user_function)(uint64_t arg);

/* The first ring-3 instruction of every user_call(): runs fn(arg), then exits with its result. */
__attribute__((noreturn)) void user_start(user_function fn, uint64_t arg);

static inline int64_t user_syscall(uint64_t number, uint64_t a0, uint64_t a1, uint64_t a2)
{
	int64_t result;

	/* SYSCALL keeps RIP in RCX and RFLAGS in R11 (kernel/lib/syscall_abi.h). */
	__asm__ volatile("syscall"
			 : "=a"(result)
			 : "a"(number), "D"(a0), "S"(a1), "d"(a2)
			 : "memory", "rcx", "r11");
	return result;
}

/* CPUID is allowed at CPL 3. */
static inline void user_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(regs[0]), "=b"(regs[1]), "=c"(regs[2]), "=d"(regs[3])
			 : "a"(leaf), "c"(subleaf));
}

#endif
