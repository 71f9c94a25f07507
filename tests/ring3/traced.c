// SPDX-License-Identifier: GPL-2.0
/*
 * A workload under the trap flag (tests/ring3/traced.h). POPF sets TF; the first #DB comes after
 * the instruction that follows it (SDM vol. 3B, 17.3.1.4), and the trace goes on until the kernel
 * has seen enough and abandons the ring-3 code, or until the second POPF clears TF.
 */
#include "tests/ring3/traced.h"

#define RFLAGS_TF 0x100

uint64_t traced_call(uint64_t call)
{
	const struct traced_call *c = (const struct traced_call *)(uintptr_t)call;
	uint64_t result;

	__asm__ volatile("pushfq\n\torq %0, (%%rsp)\n\tpopfq" ::"i"(RFLAGS_TF) : "memory", "cc");
	result = c->entry(c->arg);
	__asm__ volatile("pushfq\n\tandq %0, (%%rsp)\n\tpopfq" ::"i"(~RFLAGS_TF) : "memory", "cc");
	return result;
}
