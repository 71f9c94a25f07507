/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The name of an Intel CPU for messages: its microarchitecture's display name where the kernel
 * has tables for it (pmu/uarch.h), else the name of its family-6 model from a table of the parts
 * the kernel drives only as the generic architectural PMU ("Nehalem", "Goldmont", "Alder Lake"),
 * so that a message about an event can name the CPU it is about (tools/pmu-bench's --cpu, a
 * real machine's CPUID). The model numbers are Intel's (SDM vol. 4, table 2-1, and its later
 * editions' CPUID signatures).
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_CPU_NAMES_H
#define PMU_CPU_NAMES_H

#include <stdbool.h>

#include "pmu/enumerate.h"

/* The CPU's name, or NULL when neither table knows it (not Intel, not family 6, a model the
 * tables lack). */
const char *cpu_name(const struct pmu_info *info);

/* Only the second table: the name of an Intel family-6 model the kernel has no tables for. */
const char *cpu_name_untabled(unsigned family, unsigned model);

#endif
