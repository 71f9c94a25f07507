// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-3 side of a bundle of your own code (tests/owncode/bench.h): the kernel generates a
 * function around the bundle's parts (tests/owncode/codegen.h) on user pages and enters it through
 * user_start() with this as the function: a call, and back to the exit system call.
 */
#include "tests/ring3/bench.h"

uint64_t bench_call(uint64_t program)
{
	((void (*)(void))(uintptr_t)program)();
	return 0;
}
