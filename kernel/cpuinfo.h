/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who the CPU says it is (CPUID leaves 0, 1, 0x80000002-4, 0x40000000), for the boot record.
 */
#ifndef KERNEL_CPUINFO_H
#define KERNEL_CPUINFO_H

#include <stdbool.h>
#include <stdint.h>

struct cpu_identity {
	char vendor[13];
	uint32_t family, model,
		stepping; /* with the extended fields folded in (SDM vol. 2A, CPUID) */
	char brand[49];
	bool hypervisor;	    /* CPUID.1:ECX[31] */
	char hypervisor_vendor[13]; /* CPUID 0x40000000, e.g. "TCGTCGTCGTCG", "KVMKVMKVM" */
};

void cpu_identify(struct cpu_identity *id);

#endif
