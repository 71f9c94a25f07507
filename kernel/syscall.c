// SPDX-License-Identifier: GPL-2.0
/*
 * System calls from ring 3 through SYSCALL and SYSRET, as Linux's entry_SYSCALL_64 makes them (SDM
 * vol. 3A, 5.8.8). SYSCALL is the one way in: the `int 0x80` gate it replaces is refused by some
 * hypervisors (this machine's KVM raises #UD on any INT n but INT3 at CPL 3; docs/model.md,
 * "Under KVM"), and nothing outside this repository calls the kernel, so no old caller needs it.
 *
 * How the entry finds its stack. SYSCALL switches no stack, so the entry needs the per-CPU area
 * before it has a register to spare: SWAPGS makes the GS base the kernel's, as Linux's
 * entry_SYSCALL_64 does, since ring 3 owns its GS (code of your own may load any segment register,
 * tests/owncode) and the kernel's base waits in IA32_KERNEL_GS_BASE (kernel/percpu.h).
 *
 * SYSCALL at CPL 0 enters the same way, with the kernel's GS base live, which SWAPGS would then
 * take away, and on the stack it interrupted. The kernel never executes it; code that is not the
 * kernel's and runs at CPL 0 (a bundle's ring-0 part) does so with SYSCALL switched off
 * (syscall_allow()), where it raises #UD.
 */
#include <stddef.h>

#include "kernel/cpu.h"
#include "kernel/gdt.h"
#include "kernel/msr.h"
#include "kernel/percpu.h"
#include "kernel/record_stream.h"
#include "kernel/syscall.h"
#include "kernel/syscall_rules.h"

static syscall_handler handlers[SYS_COUNT];
static syscall_filter filter;

static void syscall_dispatch(struct trap_frame *frame)
{
	uint64_t number = frame->rax;

	if (filter && filter(frame))
		return;
	if (number < SYS_COUNT && handlers[number])
		frame->rax = handlers[number](frame, frame->rdi, frame->rsi, frame->rdx);
	else
		frame->rax = SYSCALL_UNKNOWN;
}

/*
 * A SYSCALL that did not leave CPL 3. This machine's KVM (kvm_pvm, which runs guests without VMX)
 * makes SYSCALL's jump to IA32_LSTAR and masks the flags, but leaves CS, and so the CPL, at 3: the
 * entry's first fetch, from a supervisor page, is a #PF at CPL 3 whose RIP and CR2 are the entry.
 * Everything SYSCALL saved is in that fault's frame (RCX the ring-3 RIP, R11 its RFLAGS, RSP
 * untouched), on the kernel stack the TSS gave it, so the system call completes there and IRETQ
 * returns as SYSRET would have. Slow (an exception each), but right; said once per boot.
 */
#define PF_USER (1u << 2) /* the #PF error code's U/S bit (SDM vol. 3A, 4.7) */

static void warn_left_at_cpl3(void)
{
	static bool said;

	if (__atomic_exchange_n(&said, true, __ATOMIC_ACQ_REL))
		return;
	record_warn(
		"syscall", "syscall", "CPL 3", "", "page fault",
		"SYSCALL reached the kernel's entry without leaving CPL 3 (a hypervisor that does "
		"not switch privilege on it): each system call completes through the page fault "
		"it raises there, at the cost of an exception");
}

static bool syscall_left_at_cpl3(struct trap_frame *frame)
{
	uint64_t entry = (uint64_t)(uintptr_t)syscall_entry;

	if (frame->vector != VECTOR_PAGE_FAULT || (frame->cs & 3) != 3 || frame->rip != entry ||
	    read_cr2() != entry || !(frame->error_code & PF_USER))
		return false;
	frame->rip = frame->rcx;
	frame->rflags = frame->r11;
	warn_left_at_cpl3();
	syscall_dispatch(frame);
	return true;
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
	trap_add_fixup(syscall_left_at_cpl3); /* once: registering it twice keeps one */
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

void syscall_set_filter(syscall_filter f)
{
	filter = f;
}

void syscall_allow(bool on)
{
	uint64_t efer = rdmsr(MSR_EFER);

	wrmsr(MSR_EFER, on ? efer | EFER_SCE : efer & ~EFER_SCE);
}
