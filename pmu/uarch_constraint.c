// SPDX-License-Identifier: GPL-2.0
/*
 * The static constraint of one event (see pmu/uarch_constraint.h).
 */
#include "pmu/counters.h"
#include "pmu/event_table.h"
#include "pmu/regs.h"
#include "pmu/uarch_constraint.h"

/*
 * Intel's counters for exactly e's selection when Intel pins it to fewer than the bottom four
 * (Counter "2", "3", "0,2,3"), 0 otherwise. Such events keep the same counters with HT off
 * (test_intel_events checks it).
 */
static uint64_t intel_restriction(const struct uarch *u, const struct pmu_event *e)
{
	struct event_info info;

	if (!event_table_match(u, e, &info) || info.fixed >= 0 || (info.counters & 0xf) == 0xf)
		return 0;
	return info.counters;
}

struct constraint uarch_constraint(const struct uarch *u, const struct pmu_event *e, unsigned gp,
				   unsigned fixed)
{
	uint64_t gp_all = PMU_GP_MASK(gp);
	struct constraint out;
	uint64_t intel;
	unsigned j;

	/*
	 * The fixed-counter events head every Linux table (FIXED_EVENT_CONSTRAINT) and are the same
	 * in all of them: their fixed counter, if this PMU has it, and every GP counter when the
	 * event has a GP encoding too (Linux intel_pmu_init; pmu/regs.c has the table).
	 */
	if (regs_fixed_counter_for(e, &j)) {
		out.mask = j < fixed ? PMU_FIXED_BIT(j) : 0;
		out.corrupting = false;
		if (regs_fixed_event_gp_ok(j))
			out.mask |= gp_all;
		return out;
	}
	out = uarch_linux_constraint(u, e);
	out.mask &= gp_all;
	intel = intel_restriction(u, e) & gp_all;
	if (intel)
		out.mask = (out.mask & intel) ? out.mask & intel : intel;
	return out;
}
