/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RDPMC from ring 3, as LiMiT reads counters: a workload reads its own counters around a region
 * without a system call. On real counters CR4.PCE lets RDPMC run at CPL 3 (SDM vol. 2B, RDPMC;
 * vol. 3A, 2.5: with PCE clear it raises #GP at CPL > 0). Under the model PMU PCE stays clear, so
 * that the instruction faults and the fault handler answers it from the model: the same ring-3
 * code then runs under QEMU (whose TCG raises #UD for RDPMC, or #GP at CPL 3 with PCE clear) and
 * on a real machine booted with pmu=model.
 */
#ifndef KERNEL_USER_RDPMC_H
#define KERNEL_USER_RDPMC_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/spinlock.h"
#include "kernel/trap.h"
#include "pmu/model.h"

/*
 * On the calling CPU: RDPMC at CPL 3 runs natively (CR4.PCE set; model NULL) or faults to be
 * answered from model, under lock (the lock of the model's callers).
 */
void user_rdpmc_setup(struct model_pair *model, struct spinlock *lock);

/*
 * For #UD and #GP: when the faulting instruction is an RDPMC (0F 33) at CPL 3 in the workloads'
 * code, on a thread of the measured pair, and the model PMU measures, put the model's counter
 * ECX names into EDX:EAX, step over the instruction and return true. False otherwise, also for a
 * counter the model does not have (the hardware raises #GP for it too): the fault stands.
 */
bool user_rdpmc_emulate(struct trap_frame *frame);

/* How many RDPMCs have been emulated for pair thread `thread` since boot. */
uint64_t user_rdpmc_emulated(unsigned thread);

#endif
