// SPDX-License-Identifier: GPL-2.0
/*
 * The names of Intel's family-6 models the kernel has no tables for (pmu/cpu_names.h). Data only:
 * a part's name and its model numbers.
 */
#include <stddef.h>
#include <stdint.h>

#include "pmu/cpu_names.h"
#include "pmu/uarch.h"

static const struct {
	const char *name;
	uint8_t models[6]; /* 0 ends the list */
} untabled[] = {
	{ "Core", { 0x0f, 0x16 } },
	{ "Penryn", { 0x17, 0x1d } },
	{ "Nehalem", { 0x1a, 0x1e, 0x1f, 0x2e } },
	{ "Westmere", { 0x25, 0x2c, 0x2f } },
	{ "Bonnell", { 0x1c, 0x26 } },
	{ "Saltwell", { 0x27, 0x35, 0x36 } },
	{ "Silvermont", { 0x37, 0x4a, 0x4d, 0x5a, 0x5d } },
	{ "Airmont", { 0x4c, 0x75 } },
	{ "Goldmont", { 0x5c, 0x5f } },
	{ "Goldmont Plus", { 0x7a } },
	{ "Tremont", { 0x86, 0x96, 0x9c } },
	{ "Knights Landing", { 0x57 } },
	{ "Knights Mill", { 0x85 } },
	{ "Cannon Lake", { 0x66 } },
	{ "Lakefield", { 0x8a } },
	{ "Sapphire Rapids", { 0x8f } },
	{ "Alder Lake", { 0x97, 0x9a, 0xbe } },
	{ "Raptor Lake", { 0xb7, 0xba, 0xbf } },
	{ "Meteor Lake", { 0xaa, 0xac } },
	{ "Granite Rapids", { 0xad, 0xae } },
	{ "Sierra Forest", { 0xaf } },
	{ "Grand Ridge", { 0xb6 } },
	{ "Lunar Lake", { 0xbd } },
	{ "Arrow Lake", { 0xc5, 0xc6 } },
	{ "Emerald Rapids", { 0xcf } },
};

const char *cpu_name_untabled(unsigned family, unsigned model)
{
	if (family != 6)
		return NULL;
	for (size_t i = 0; i < sizeof(untabled) / sizeof(untabled[0]); i++)
		for (size_t k = 0; k < sizeof(untabled[i].models) && untabled[i].models[k]; k++)
			if (untabled[i].models[k] == model)
				return untabled[i].name;
	return NULL;
}

const char *cpu_name(const struct pmu_info *info)
{
	if (!info->intel)
		return NULL;
	if (info->uarch && info->uarch != &uarch_generic)
		return info->uarch->display_name;
	return cpu_name_untabled(info->family, info->model);
}
