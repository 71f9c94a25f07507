/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x87/SSE/AVX for the ring-3 workloads. The kernel itself is built without vector registers
 * (-mgeneral-regs-only) and every CPU runs one workload at a time, so no vector state is ever
 * saved or restored: the tick handler and system calls touch only general registers.
 */
#ifndef KERNEL_FPU_H
#define KERNEL_FPU_H

#include "kernel/fpu_plan.h"

/* What to enable on this CPU, from its CPUID (kernel/fpu_plan.c); changes nothing. */
struct fpu_plan fpu_plan_this_cpu(void);

/* Enable SSE, and AVX where the plan has it, on the calling CPU (SDM vol. 3A, 13.1 and 13.3). */
void fpu_enable(const struct fpu_plan *plan);

#endif
