// SPDX-License-Identifier: GPL-2.0
/*
 * The XSU modes' names (pmu/xsu_mode.h): the one spelling of each.
 */
#include <string.h>

#include "pmu/xsu_mode.h"

static const char *const names[XSU_MODE_COUNT] = {
	[XSU_MODE_OFF] = XSU_MODE_NAME_OFF,
	[XSU_MODE_ON] = XSU_MODE_NAME_ON,
	[XSU_MODE_CORE] = XSU_MODE_NAME_CORE,
};

const char *xsu_mode_name(unsigned mode)
{
	return mode < XSU_MODE_COUNT ? names[mode] : "?";
}

bool xsu_mode_by_name(const char *word, size_t len, enum xsu_mode *mode)
{
	for (unsigned m = 0; m < XSU_MODE_COUNT; m++) {
		if (strlen(names[m]) == len && !memcmp(names[m], word, len)) {
			*mode = (enum xsu_mode)m;
			return true;
		}
	}
	return false;
}
