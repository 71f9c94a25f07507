// SPDX-License-Identifier: GPL-2.0
/*
 * RDPMC from ring 3: native or emulated from the model PMU (kernel/user_rdpmc.h).
 */
#include "kernel/cpu.h"
#include "kernel/pair.h"
#include "kernel/user_rdpmc.h"

/* CR4.PCE, performance-monitoring counter enable (SDM vol. 3A, 2.5). */
#define CR4_PCE (1ull << 8)

/* RDPMC's encoding (SDM vol. 2B): 0F 33, no prefix, no operand. */
#define RDPMC_LENGTH 2

extern char __user_start[], __user_end[];

/* The model that answers, and its lock; emulated reads per pair thread, under that lock. */
static struct model_pair *model;
static struct spinlock *model_lock;
static uint64_t emulated[2];

void user_rdpmc_setup(struct model_pair *from, struct spinlock *lock)
{
	uint64_t cr4 = read_cr4();

	write_cr4(from ? cr4 & ~CR4_PCE : cr4 | CR4_PCE);
	if (!from)
		return;
	model = from;
	model_lock = lock;
	trap_add_fixup(user_rdpmc_emulate);
}

/* The faulting instruction is RDPMC, in the workloads' own pages (only their code runs at CPL 3:
 * an address elsewhere is not read). */
static bool is_user_rdpmc(const struct trap_frame *frame)
{
	uint64_t start = (uint64_t)(uintptr_t)__user_start, end = (uint64_t)(uintptr_t)__user_end;
	const uint8_t *insn = (const uint8_t *)(uintptr_t)frame->rip;

	if ((frame->cs & 3) != 3 || frame->rip < start || frame->rip > end - RDPMC_LENGTH)
		return false;
	return insn[0] == 0x0f && insn[1] == 0x33;
}

bool user_rdpmc_emulate(struct trap_frame *frame)
{
	unsigned thread;
	uint64_t value = 0;
	bool ok;

	if (!model || !pair_thread_of(this_cpu(), &thread) || !is_user_rdpmc(frame))
		return false;
	/* Exceptions come through interrupt gates: IF is clear, no tick can take the lock here. */
	spin_lock(model_lock);
	ok = model_rdpmc(&model->thread[thread], (uint32_t)frame->rcx, &value);
	if (ok)
		emulated[thread]++;
	spin_unlock(model_lock);
	if (!ok)
		return false;
	/* As the instruction does in 64-bit mode: EAX and EDX written, their upper halves cleared. */
	frame->rax = (uint32_t)value;
	frame->rdx = value >> 32;
	frame->rip += RDPMC_LENGTH;
	return true;
}

uint64_t user_rdpmc_emulated(unsigned thread)
{
	return emulated[thread & 1];
}
