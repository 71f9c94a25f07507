/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU data, reached through the GS base, as Linux reaches it: while the kernel runs,
 * IA32_GS_BASE holds this CPU's struct percpu and IA32_KERNEL_GS_BASE the GS base of ring 3; every
 * entry from CPL 3 and every return to it exchanges the two with SWAPGS (SDM vol. 2B, SWAPGS), so
 * that code at CPL 3 may load GS (a null selector clears the base on Intel) or any other segment
 * register without the kernel losing its data. Which entries swap, and how an NMI between a
 * SWAPGS and its IRETQ or SYSRET tells: kernel/isr.asm.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/gdt.h"

#define MAX_CPUS 64

/* Stack sizes: the normal kernel stack and the IST stacks of #DF, NMI and #MC (kernel/gdt.c). */
#define KERNEL_STACK_SIZE (16 * 1024)
#define IST_STACK_SIZE (8 * 1024)

struct trap_frame;

/* Work handed to a CPU (kernel/smp.c). */
struct cpu_work {
	void (*fn)(void *arg);
	void *arg;
	volatile uint64_t posted;   /* incremented by the poster */
	volatile uint64_t finished; /* set to posted by the CPU when fn returned */
};

/*
 * The entry code (kernel/syscall_entry.asm, kernel/user_entry.asm) reaches the first fields at
 * these offsets through GS; kernel/layout.inc has the same numbers for NASM.
 */
#define PERCPU_ENTRY_RSP 8
#define PERCPU_SYSCALL_USER_RSP 16
#define PERCPU_TABLES 160 /* the GDT: SGDT finds this CPU's struct percpu without GS */

struct percpu {
	struct percpu *self; /* first: this_cpu() reads %gs:0 */
	/* The kernel stack of an entry from CPL 3, as TSS.RSP0 (kernel/user.c sets both): where the
	 * SYSCALL entry switches to, since SYSCALL switches no stack. */
	uint64_t entry_rsp;
	uint64_t syscall_user_rsp; /* the ring-3 RSP while the SYSCALL entry saves it */
	uint32_t index;		   /* 0 is the boot CPU */
	uint32_t apic_id;
	uint64_t stack_top;	  /* kernel stack (TSS RSP0 for entries from CPL 3) */
	uint64_t ist_tops[3];	  /* tops of the #DF, NMI and #MC stacks */
	uint64_t user_stack_top;  /* this CPU's ring-3 stack, 0 until allocated */
	uint32_t exception_depth; /* nested exceptions while reporting one */
	volatile uint32_t online; /* the CPU runs kernel code and takes work */
	uint64_t
		user_return_rsp; /* kernel stack to resume when ring-3 code exits (kernel/user.c) */
	volatile uint64_t ticks; /* APIC timer ticks taken (kernel/tick.c) */
	void (*tick_hook)(struct trap_frame *frame, void *context); /* on every tick, or NULL */
	void *tick_context;
	struct cpu_work work;
	uint32_t initial_apic_id; /* CPUID.1:EBX[31:24] as the CPU itself reports it */
	uint32_t x2apic_id;	  /* CPUID 0x0B EDX, or the initial id without that leaf */
	struct cpu_tables tables; /* GDT and TSS */
};

_Static_assert(offsetof(struct percpu, entry_rsp) == PERCPU_ENTRY_RSP,
	       "kernel/layout.inc's PERCPU_ENTRY_RSP");
_Static_assert(offsetof(struct percpu, syscall_user_rsp) == PERCPU_SYSCALL_USER_RSP,
	       "kernel/layout.inc's PERCPU_SYSCALL_USER_RSP");
_Static_assert(offsetof(struct percpu, tables) + offsetof(struct cpu_tables, gdt) == PERCPU_TABLES,
	       "kernel/layout.inc's PERCPU_TABLES");

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

/* Every CPU's per-CPU data; percpu[0] is the boot CPU's. */
extern struct percpu percpu[MAX_CPUS];
extern unsigned percpu_count; /* CPUs with an entry (started or not) */

/* Make p this CPU's per-CPU data: IA32_GS_BASE p, IA32_KERNEL_GS_BASE ring 3's, 0 at first. */
void percpu_install(struct percpu *p);

#endif
