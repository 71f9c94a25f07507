// SPDX-License-Identifier: GPL-2.0
/*
 * The IA32_STAR value and SYSRET's conditions (kernel/syscall_rules.h says why each holds).
 */
#include <stddef.h>

#include "kernel/syscall_rules.h"

#define SELECTOR_RPL 3u
#define SELECTOR_INDEX(s) ((uint16_t)((s) & ~SELECTOR_RPL))

bool syscall_star(uint16_t kernel_cs, uint16_t kernel_ds, uint16_t user_cs, uint16_t user_ds,
		  uint64_t *star, const char **reason)
{
	*star = 0;
	*reason = NULL;
	if ((kernel_cs & SELECTOR_RPL) != 0 || SELECTOR_INDEX(kernel_cs) == 0)
		*reason = "the kernel's code selector must be a GDT entry with RPL 0";
	else if (SELECTOR_INDEX(kernel_ds) != SELECTOR_INDEX(kernel_cs) + 8)
		*reason = "SYSCALL loads SS from STAR[47:32] + 8: the kernel's data selector must "
			  "follow its code selector";
	else if ((user_cs & SELECTOR_RPL) != SELECTOR_RPL ||
		 (user_ds & SELECTOR_RPL) != SELECTOR_RPL)
		*reason = "the user's selectors must have RPL 3";
	else if (SELECTOR_INDEX(user_ds) == 0)
		*reason = "the user's data selector must be a GDT entry, not the null selector";
	else if (SELECTOR_INDEX(user_cs) != SELECTOR_INDEX(user_ds) + 8)
		*reason = "SYSRET loads CS from STAR[63:48] + 16 and SS from STAR[63:48] + 8: the "
			  "user's code selector must follow its data selector";
	if (*reason)
		return false;
	uint64_t sysret_base = (uint64_t)(SELECTOR_INDEX(user_ds) - 8) | SELECTOR_RPL;
	*star = sysret_base << 48 | (uint64_t)kernel_cs << 32;
	return true;
}

bool sysret_allowed(uint64_t rip, uint64_t rflags, uint64_t cs, uint64_t ss, uint16_t user_cs,
		    uint16_t user_ds)
{
	/* The lower half under 4-level paging, which the kernel uses: bits 63:47 clear. Anything
	 * else takes IRETQ, which is always safe. */
	if (rip >> 47)
		return false;
	if (rflags & (RFLAGS_TRAP | RFLAGS_RESUME))
		return false;
	return cs == user_cs && ss == user_ds;
}
