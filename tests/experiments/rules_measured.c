// SPDX-License-Identifier: GPL-2.0
/*
 * The rule of a run defined on the command line (the experiment `custom`, custom.c): every run
 * ran to its end; XSU held where it was on. No verdict on the counts: they are the user's.
 */
#include "kernel/lib/format.h"
#include "pmu/xsu_mode.h"
#include "tests/experiments/rule.h"

static void judge(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
		  struct exp_verdict *out)
{
	struct mode_view v;
	unsigned events = 0, not_counted = 0;

	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (mode != XSU_MODE_OFF && !rule_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	const struct exp_run_result *run;

	for_each_run(run, r, .modes = XSU_MODE_BIT(mode))
	{
		for (unsigned t = 0; t < m->threads; t++)
			for (unsigned k = 0; k < run->thread[t].nr_events; k++) {
				events++;
				not_counted += !run->thread[t].counts[k].reading.counted;
			}
	}
	rule_set(out, RESULT_PASS, NULL);
	rule_say(out, "measured: %u events on both threads, %u of them never on a counter", events,
		 not_counted);
}

static void describe(const struct experiment *e, char *buf, size_t size)
{
	(void)e;
	format_snprintf(buf, size, "measured: every run ran to its end; no verdict on the counts");
}

const struct exp_rule rule_measured = { "measured", describe, NULL, judge };
