// SPDX-License-Identifier: GPL-2.0
/*
 * RDPMC from ring 3: native or emulated from the model PMU (kernel/user_rdpmc.h).
 */
#include "kernel/cpu.h"
#include "kernel/pair.h"
#include "kernel/pmu_core.h"
#include "kernel/user_rdpmc.h"

/* CR4.PCE, performance-monitoring counter enable (SDM vol. 3A, 2.5). */
#define CR4_PCE (1ull << 8)

/* RDPMC's encoding (SDM vol. 2B): 0F 33, no prefix, no operand. */
#define RDPMC_LENGTH 2

extern char __user_start[], __user_end[];

/* Emulated reads per pair thread, under the_pmu.lock. */
static uint64_t emulated[2];

void user_rdpmc_setup(bool native)
{
	uint64_t cr4 = read_cr4();

	write_cr4(native ? cr4 | CR4_PCE : cr4 & ~CR4_PCE);
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
	int thread = pair_thread_of(this_cpu());
	uint64_t value = 0;
	bool ok;

	if (!the_pmu.model || thread < 0 || !is_user_rdpmc(frame))
		return false;
	/* Exceptions come through interrupt gates: IF is clear, no tick can take the lock here. */
	spin_lock(&the_pmu.lock);
	ok = model_rdpmc(&the_pmu.model_state.thread[thread], (uint32_t)frame->rcx, &value);
	if (ok)
		emulated[thread]++;
	spin_unlock(&the_pmu.lock);
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
