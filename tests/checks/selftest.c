// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberate faults. Each announces itself first, so a log shows what was asked for. And one path
 * that must not fault: system calls as a hypervisor that leaves SYSCALL at CPL 3 delivers them.
 */
#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/syscall.h"
#include "tests/lib/check.h"
#include "tests/checks/selftest.h"
#include "tests/profiles/profiles.h"
#include "kernel/time.h"
#include "kernel/user.h"
#include "tests/ring3/probe.h"
#include "tests/ring3/user.h"

extern char __image_start[];

/* Above the 4 GiB identity map: nothing is mapped there. */
#define UNMAPPED_ADDRESS 0x200000000ull

/* Each level keeps a frame alive (the buffer is used after the call), so this cannot become a
 * loop: the stack runs into its guard page, the page fault cannot be delivered on that stack,
 * and the CPU raises a double fault on its IST stack. */
static volatile unsigned recursion_limit = ~0u;

static __attribute__((noinline)) unsigned recurse(unsigned depth)
{
	volatile char frame[256];

	frame[depth & 0xff] = (char)depth;
	if (depth >= recursion_limit)
		return 0;
	return recurse(depth + 1) + frame[(depth + 1) & 0xff];
}

static void user_fault_thread(unsigned thread, void *arg)
{
	const struct pair *pair = arg;

	if (thread + 1 != pair->thread_count)
		return;
	user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)probe_fault,
		  (uint64_t)(uintptr_t)__image_start, this_cpu()->user_stack_top);
}

/* selftest=syscall-cpl3: each thread's imitated system calls, and what SYS_EXIT carried. */
static uint64_t syscall_cpl3_results[2];

static void syscall_cpl3_thread(unsigned thread, void *unused)
{
	(void)unused;
	syscall_cpl3_results[thread] =
		user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)probe_syscall_cpl3,
			  (uint64_t)(uintptr_t)syscall_entry, this_cpu()->user_stack_top);
}

/* Not a fault: the fallback of kernel/syscall.c must complete both calls on every thread. */
static void selftest_syscall_cpl3(const struct payload_env *env)
{
	struct pair_job job = { .fn = syscall_cpl3_thread };
	bool ok = pair_run(&job, tsc_hz() * 5);

	for (unsigned t = 0; ok && t < env->pair->thread_count; t++)
		ok = syscall_cpl3_results[t] == PROBE_SYSCALL_CPL3_DONE;
	kprintf("selftest=syscall-cpl3: system calls left at CPL 3 %s\n",
		ok ? "completed on every thread" : "did not complete");
	report(NULL, ok,
	       job.error ? job.error
			 : "selftest=syscall-cpl3: a system call left at CPL 3 did not "
			   "complete");
}

void selftest_run(const struct payload_env *env, unsigned which)
{
	if (which == SELFTEST_SYSCALL_CPL3) {
		selftest_syscall_cpl3(env);
		return;
	}
	if (which == SELFTEST_PROFILES) {
		profiles_run(env);
		return;
	}
	/* The others fault nothing: missing-ap happened during start-up (kernel/kmain.c); the
	 * firmware's and the hardware's behaviours are the model PMU's (kernel/pmu.c) and the
	 * tick's (kernel/tick.c). */
	switch (which) {
	case SELFTEST_FAULT:
	case SELFTEST_UD:
	case SELFTEST_GP:
	case SELFTEST_DE:
	case SELFTEST_STACK:
	case SELFTEST_USER_FAULT:
		break;
	default:
		return;
	}
	kprintf("selftest=%s: provoking an exception on purpose\n", config_selftest_name(which));
	switch (which) {
	case SELFTEST_FAULT:
		*(volatile uint64_t *)UNMAPPED_ADDRESS = 1;
		break;
	case SELFTEST_UD:
		__asm__ volatile("ud2");
		break;
	case SELFTEST_GP:
		/* A non-canonical address raises #GP, not #PF (SDM vol. 3A, 3.3.7.1). */
		*(volatile uint64_t *)0x8000000000000000ull = 1;
		break;
	case SELFTEST_DE:
		__asm__ volatile("xorl %%ecx, %%ecx\n\t"
				 "movl $1, %%eax\n\t"
				 "xorl %%edx, %%edx\n\t"
				 "divl %%ecx" ::
					 : "rax", "rcx", "rdx");
		break;
	case SELFTEST_STACK:
		recurse(0);
		break;
	case SELFTEST_USER_FAULT: {
		/* The last thread of the pair (the sibling AP when there is one) writes to the
		 * kernel image from ring 3: a page fault at CPL 3, reported from that CPU. */
		struct pair_job job = { .fn = user_fault_thread, .arg = (void *)env->pair };
		if (!pair_run(&job, tsc_hz() * 5))
			kprintf("selftest=user-fault: %s\n", job.error);
		break;
	}
	}
	kprintf("selftest=%s: no exception happened\n", config_selftest_name(which));
}
