/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Single instructions the kernel needs, as inline functions (Intel SDM vol. 2).
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/cpuid_regs.h"

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t value)
{
	__asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
			 : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port));
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* The control registers' MOVs (SDM vol. 2B, MOV to/from control registers), one pair a register
 * the kernel changes; CR2 (the #PF address) is only read. */
#define CR_READ(n)                                                                                 \
	static inline uint64_t read_cr##n(void)                                                    \
	{                                                                                          \
		uint64_t v;                                                                        \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));                                  \
		return v;                                                                          \
	}
#define CR_WRITE(n)                                                                                \
	static inline void write_cr##n(uint64_t v)                                                 \
	{                                                                                          \
		__asm__ volatile("mov %0, %%cr" #n ::"r"(v) : "memory");                           \
	}
CR_READ(0)
CR_WRITE(0)
CR_READ(2)
CR_READ(3)
CR_WRITE(3)
CR_READ(4)
CR_WRITE(4)
#undef CR_READ
#undef CR_WRITE

static inline uint64_t read_rflags(void)
{
	uint64_t v;

	__asm__ volatile("pushfq; popq %0" : "=r"(v));
	return v;
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline void irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

/* RFLAGS.IF (SDM vol. 1, 3.4.3.3). */
#define RFLAGS_IF (1u << 9)

/* Set IF to what a saved RFLAGS says. */
static inline void irq_restore(uint64_t rflags)
{
	if (rflags & RFLAGS_IF)
		irq_enable();
	else
		irq_disable();
}

static inline void invlpg(uint64_t addr)
{
	__asm__ volatile("invlpg (%0)" ::"r"(addr) : "memory");
}

static inline void compiler_barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

/* Halt forever with interrupts off (NMIs aside): the end of every road. */
static inline __attribute__((noreturn)) void cpu_halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt" ::: "memory");
}

#endif
