// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-3 probe (tests/ring3/probe.h).
 */
#include "tests/ring3/probe.h"
#include "tests/ring3/user.h"

struct probe_slot probe_slots[2];

static uint64_t sum_sse(uint64_t seed)
{
	volatile double sum = 0;

	for (int i = 0; i < 1000; i++)
		sum += (double)(seed + (uint64_t)i) * 0.5;
	return (uint64_t)sum;
}

/* The same sum with 256-bit AVX vectors: it faults with #UD unless the kernel set XCR0. */
__attribute__((target("avx"))) static uint64_t sum_avx(uint64_t seed)
{
	typedef double v4 __attribute__((vector_size(32)));
	v4 acc = { 0, 0, 0, 0 };
	v4 step = { 0, 1, 2, 3 };
	v4 base = { (double)seed, (double)seed, (double)seed, (double)seed };

	for (int i = 0; i < 1000; i += 4) {
		v4 index = { (double)i, (double)i, (double)i, (double)i };
		acc += (base + index + step) * 0.5;
	}
	volatile double total = acc[0] + acc[1] + acc[2] + acc[3];
	return (uint64_t)total;
}

static int cpu_has_avx(void)
{
	uint32_t r[4];
	uint64_t xcr0_low;

	user_cpuid(1, 0, r);
	/* AVX and OSXSAVE (the kernel enabled XSAVE), then XCR0 must have SSE and AVX state on. */
	if (!((r[2] >> 28) & 1) || !((r[2] >> 27) & 1))
		return 0;
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	xcr0_low = lo;
	return (xcr0_low & 6) == 6;
}

uint64_t probe_run(uint64_t arg)
{
	struct probe_slot *slot = &probe_slots[arg & 1];
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	slot->cpl = cs & 3;
	slot->sse = sum_sse(slot->seed);
	slot->avx = cpu_has_avx() ? sum_avx(slot->seed) : 0;
	return slot->sse;
}

uint64_t probe_fault(uint64_t arg)
{
	*(volatile uint64_t *)(uintptr_t)arg = 0xbad;
	return 0;
}

/* SYSCALL's jump without its change of privilege: RCX the return address, R11 RFLAGS. */
static int64_t syscall_left_at_cpl3(uint64_t entry, uint64_t number, uint64_t a0)
{
	int64_t result;

	__asm__ volatile("leaq 1f(%%rip), %%rcx\n\t"
			 "pushfq\n\t"
			 "popq %%r11\n\t"
			 "jmp *%[entry]\n"
			 "1:"
			 : "=a"(result)
			 : "a"(number), "D"(a0), [entry] "r"(entry)
			 : "memory", "rcx", "r11");
	return result;
}

uint64_t probe_syscall_cpl3(uint64_t arg)
{
	int64_t unknown = syscall_left_at_cpl3(arg, SYS_COUNT, 0);

	syscall_left_at_cpl3(arg, SYS_EXIT,
			     unknown == SYSCALL_UNKNOWN ? PROBE_SYSCALL_CPL3_DONE : 0);
	return 0; /* not reached: SYS_EXIT does not come back */
}
