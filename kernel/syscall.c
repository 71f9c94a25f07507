// SPDX-License-Identifier: GPL-2.0
/*
 * System calls from ring 3 through SYSCALL and SYSRET, as Linux's entry_SYSCALL_64 makes them (SDM
 * vol. 3A, 5.8.8). SYSCALL is the one way in: the `int 0x80` gate it replaces is refused by some
 * hypervisors (this machine's KVM raises #UD on any INT n but INT3 at CPL 3; docs/real-machine.md,
 * "Under KVM"), and nothing outside this repository calls the kernel, so no old caller needs it.
 *
 * How the entry finds its stack. SYSCALL switches no stack, so the entry needs the per-CPU area
 * before it has a register to spare. It reads it through the GS base, as every interrupt entry
 * already does: ring 3 here is the kernel's own code (the workloads, the QR maker), which never
 * loads GS nor writes its base, so the base is the kernel's on both sides and SWAPGS would swap a
 * value for itself. Linux needs SWAPGS because its user space owns GS for thread-local storage;
 * here it would mean a SWAPGS on every entry from CPL 3, and Linux's paranoid check of an NMI that
 * lands between SYSCALL and SWAPGS, for nothing. IA32_KERNEL_GS_BASE alone cannot be read without
 * RDMSR, which needs RCX, where SYSCALL keeps the ring-3 RIP.
 */
#include <stddef.h>

#include "kernel/gdt.h"
#include "kernel/msr.h"
#include "kernel/percpu.h"
#include "kernel/syscall.h"
#include "kernel/syscall_rules.h"

void syscall_entry(void);

static syscall_handler handlers[SYS_COUNT];

static void syscall_dispatch(struct trap_frame *frame)
{
	uint64_t number = frame->rax;

	if (number < SYS_COUNT && handlers[number])
		frame->rax = (uint64_t)handlers[number](frame, frame->rdi, frame->rsi, frame->rdx);
	else
		frame->rax = (uint64_t)-1;
}

/* Called by kernel/syscall_entry.asm with the frame it built; true when SYSRET may return. */
bool syscall_from_user(struct trap_frame *frame);
bool syscall_from_user(struct trap_frame *frame)
{
	syscall_dispatch(frame);
	return sysret_allowed(frame->rip, frame->rflags, frame->cs, frame->ss, GDT_USER_CS,
			      GDT_USER_DS);
}

const char *syscall_cpu_init(void)
{
	uint64_t star, efer;
	const char *reason;

	if (!syscall_star(GDT_KERNEL_CS, GDT_KERNEL_DS, GDT_USER_CS, GDT_USER_DS, &star, &reason))
		return reason;
	this_cpu()->entry_rsp = this_cpu()->stack_top;
	if (!rdmsr_safe(MSR_EFER, &efer) || !wrmsr_safe(MSR_EFER, efer | EFER_SCE))
		return "IA32_EFER.SCE cannot be set: no SYSCALL";
	if (!wrmsr_safe(MSR_STAR, star))
		return "IA32_STAR refused the GDT's selectors";
	if (!wrmsr_safe(MSR_LSTAR, (uint64_t)(uintptr_t)syscall_entry))
		return "IA32_LSTAR refused the entry's address";
	if (!wrmsr_safe(MSR_FMASK, SYSCALL_FMASK))
		return "IA32_FMASK refused the flags to clear";
	return NULL;
}

void syscall_register(unsigned number, syscall_handler handler)
{
	if (number < SYS_COUNT)
		handlers[number] = handler;
}
