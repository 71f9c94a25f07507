// SPDX-License-Identifier: GPL-2.0
/*
 * CPU identification for the boot record: vendor, family/model/stepping with the extended fields
 * as the SDM defines them (family 0xF adds the extended family; families 6 and 0xF take the
 * extended model), the brand string, and whether a hypervisor says it is there.
 */
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/cpuinfo.h"

static void copy_registers(char *dst, const uint32_t *regs, unsigned count)
{
	memcpy(dst, regs, count * 4);
	dst[count * 4] = 0;
}

static void trim(char *s)
{
	char *start = s;
	while (*start == ' ')
		start++;
	size_t n = strlen(start);
	while (n && start[n - 1] == ' ')
		n--;
	memmove(s, start, n);
	s[n] = 0;
}

void cpu_identify(struct cpu_identity *id)
{
	struct cpuid_regs r = cpuid(0, 0);
	uint32_t vendor[3] = { r.ebx, r.edx, r.ecx };
	uint32_t max_leaf = r.eax;

	memset(id, 0, sizeof(*id));
	copy_registers(id->vendor, vendor, 3);
	if (max_leaf >= 1) {
		r = cpuid(1, 0);
		uint32_t family = (r.eax >> 8) & 0xf, model = (r.eax >> 4) & 0xf;
		if (family == 0xf)
			family += (r.eax >> 20) & 0xff;
		if (family == 0x6 || family >= 0xf)
			model |= ((r.eax >> 16) & 0xf) << 4;
		id->family = family;
		id->model = model;
		id->stepping = r.eax & 0xf;
		id->hypervisor = (r.ecx >> 31) & 1;
	}
	if (cpuid(0x80000000, 0).eax >= 0x80000004) {
		uint32_t brand[12];
		for (unsigned i = 0; i < 3; i++) {
			r = cpuid(0x80000002 + i, 0);
			brand[i * 4] = r.eax;
			brand[i * 4 + 1] = r.ebx;
			brand[i * 4 + 2] = r.ecx;
			brand[i * 4 + 3] = r.edx;
		}
		copy_registers(id->brand, brand, 12);
		trim(id->brand);
	}
	if (id->hypervisor) {
		r = cpuid(0x40000000, 0);
		uint32_t signature[3] = { r.ebx, r.ecx, r.edx };
		copy_registers(id->hypervisor_vendor, signature, 3);
	}
}
