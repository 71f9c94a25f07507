// SPDX-License-Identifier: GPL-2.0
/*
 * Calling ring-3 code and the exit system call that brings it back.
 */
#include <stddef.h>

#include "kernel/apic_hw.h"
#include "kernel/cpu.h"
#include "kernel/page_alloc.h"
#include "kernel/paging.h"
#include "kernel/percpu.h"
#include "kernel/syscall.h"
#include "kernel/user.h"

/* tss_rsp0 is the TSS's RSP0 field: 8 bytes at offset 4 of the packed TSS, so not aligned. */
uint64_t user_enter(uint64_t rip, uint64_t rsp, uint64_t arg0, uint64_t arg1, void *tss_rsp0,
		    uint64_t *return_rsp);
__attribute__((noreturn)) void user_exit(uint64_t return_rsp, uint64_t result);

extern char __user_start[], __user_end[];

static enum syscall_status sys_exit(struct trap_frame *frame, uint64_t result, uint64_t unused1,
				    uint64_t unused2)
{
	(void)frame;
	(void)unused1;
	(void)unused2;
	user_exit(this_cpu()->user_return_rsp, result);
}

/*
 * SYS_HALT: ring 3 cannot execute HLT (SDM vol. 2A, HLT: #GP at CPL > 0), so an idle workload
 * asks the kernel. SYSCALL cleared IF (IA32_FMASK); STI's one-instruction interrupt shadow (SDM
 * vol. 2B, STI) keeps an interrupt from arriving between STI and HLT, where it would be taken
 * before the halt and leave the CPU asleep until the next one. The local APIC timer (the tick) is
 * what wakes the CPU: without it armed nothing might, so the call refuses instead of hanging.
 */
static enum syscall_status sys_halt(struct trap_frame *frame, uint64_t unused0, uint64_t unused1,
				    uint64_t unused2)
{
	(void)frame;
	(void)unused0;
	(void)unused1;
	(void)unused2;
	if (!apic_timer_current(&local_apic))
		return SYSCALL_REFUSED;
	__asm__ volatile("sti\n\thlt\n\tcli" ::: "memory");
	return SYSCALL_DONE;
}

#define CR0_AM (1ull << 18)

void user_cpu_init(void)
{
	write_cr0(read_cr0() | CR0_AM);
}

void user_init(void)
{
	paging_allow_user((uint64_t)(uintptr_t)__user_start, (uint64_t)(uintptr_t)__user_end);
	syscall_register(SYS_EXIT, sys_exit);
	syscall_register(SYS_HALT, sys_halt);
}

uint64_t user_call(uint64_t entry, uint64_t arg0, uint64_t arg1, uint64_t user_stack_top)
{
	struct percpu *cpu = this_cpu();
	/* Entered as if called: RSP + 8 is 16-byte aligned at the first instruction (SysV ABI). */
	uint64_t rsp = (user_stack_top & ~0xfull) - 8;
	void *tss_rsp0 = (uint8_t *)&cpu->tables.tss + offsetof(struct tss64, rsp);
	uint64_t result = user_enter(entry, rsp, arg0, arg1, tss_rsp0, &cpu->user_return_rsp);

	cpu->tables.tss.rsp[0] = cpu->stack_top;
	cpu->entry_rsp = cpu->stack_top;
	return result;
}

void user_call_abort(uint64_t result)
{
	user_exit(this_cpu()->user_return_rsp, result);
}

uint64_t user_memory_alloc(uint64_t bytes)
{
	uint64_t base = page_alloc(bytes, PAGE_SIZE);

	if (base && !paging_allow_user(base, base + bytes))
		return 0;
	return base;
}

uint64_t user_stack_alloc(uint64_t size)
{
	uint64_t top = stack_alloc(size);

	if (top && !paging_allow_user(top - size, top))
		return 0;
	return top;
}
