// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberate faults. Each announces itself first, so a log shows what was asked for.
 */
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/selftest.h"

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

void selftest_run(unsigned which)
{
	if (which == SELFTEST_NONE)
		return;
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
	}
	kprintf("selftest=%s: no exception happened\n", config_selftest_name(which));
}
