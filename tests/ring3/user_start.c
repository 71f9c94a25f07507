// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-3 entry point of every workload run (kernel/user.c enters here with IRETQ).
 */
#include "tests/ring3/user.h"

void user_start(user_function fn, uint64_t arg)
{
	uint64_t result = fn(arg);

	user_syscall(SYS_EXIT, result, 0, 0);
	for (;;)
		__asm__ volatile("pause");
}
