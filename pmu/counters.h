/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counter index space, as Linux's idxmsk: bit i (i < 32) is general-purpose counter i
 * (IA32_PMCi / IA32_PERFEVTSELi), bit 32 + j is fixed-function counter j (IA32_FIXED_CTRj).
 * IA32_PERF_GLOBAL_CTRL and IA32_PERF_GLOBAL_STATUS use the same bit positions (SDM vol. 3B,
 * figures 18-3 and 18-4), so a mask of this space is also a global enable or status mask.
 *
 * Constants only, so that the microarchitecture tables, the register values, the schedulers and
 * the driver can all name counters without depending on one another.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_COUNTERS_H
#define PMU_COUNTERS_H

#define PMU_FIXED_BASE 32
#define PMU_MAX_GP 8
#define PMU_MAX_FIXED 3
/* Every GP counter index and every fixed counter index of the space. */
#define PMU_GP_BITS 0x00000000ffffffffull
#define PMU_FIXED_BITS 0xffffffff00000000ull
/* GP counters 0..n-1, and fixed counter j. */
#define PMU_GP_MASK(n) ((n) >= PMU_FIXED_BASE ? PMU_GP_BITS : (1ull << (n)) - 1)
#define PMU_FIXED_BIT(j) (1ull << (PMU_FIXED_BASE + (j)))

#endif
