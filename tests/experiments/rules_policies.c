// SPDX-License-Identifier: GPL-2.0
/*
 * The rules that compare scheduling policies: RULE_HK_VS_GREEDY (thesis 6.4: Hopcroft-Karp lets
 * more events run than greedy under XSU) and RULE_FAIRNESS (core-wide XSU against Linux's XSU,
 * with and without the half limit: the smallest and mean running fractions).
 */
#include <string.h>

#include "kernel/format.h"
#include "pmu/mux.h"
#include "tests/experiments/verdict_rules.h"

/* The sum of running fractions (hundredths of a percent) over both threads of a run. */
static uint64_t total_running(const struct exp_run_result *run, unsigned threads)
{
	uint64_t sum = 0;

	for (unsigned t = 0; t < threads; t++)
		for (unsigned i = 0; i < run->thread[t].nr_events; i++)
			sum += run->thread[t].counts[i].reading.percent;
	return sum;
}

void judge_hk_vs_greedy(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
			struct exp_verdict *out)
{
	const struct exp_run_result *greedy = NULL, *hk = NULL;
	struct mode_view v;

	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		if (!r->runs[i].done || !exp_run_in_mode(r->runs[i].run, mode))
			continue;
		if (r->runs[i].run->sched == EXP_SCHED_GREEDY)
			greedy = &r->runs[i];
		if (r->runs[i].run->sched == EXP_SCHED_HK)
			hk = &r->runs[i];
	}
	if (!greedy || !hk) {
		rule_set(out, RESULT_FAIL, NULL);
		rule_say(out, "the greedy or the Hopcroft-Karp run is missing");
		return;
	}
	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (!rule_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	uint64_t g = total_running(greedy, m->threads), h = total_running(hk, m->threads);
	unsigned events = 0;
	for (unsigned t = 0; t < m->threads; t++)
		events += hk->thread[t].nr_events;
	/*
	 * Beyond the margin, the difference is the schedulers'. Where the lists were built so that
	 * greedy loses (thesis 6.4: Hopcroft-Karp finds a maximum assignment where greedy need
	 * not), a tie means the constraints did not act and fails; elsewhere a tie is all there is.
	 */
	uint64_t margin = (uint64_t)EXP_HK_MARGIN * events;
	bool more = h > g + margin, not_worse = h + margin >= g;
	bool must_win = r->exp->hk_wins_on && exp_list_contains(r->exp->hk_wins_on, m->uarch);
	const char *what =
		": the same schedules here (these constraints leave greedy nothing to lose)";
	if (more)
		what = ": Hopcroft-Karp lets more events run";
	else if (!not_worse)
		what = ": Hopcroft-Karp ran less";
	else if (must_win)
		what = ": no more than greedy, although greedy loses these lists here";
	rule_set(out, (must_win ? more : not_worse) ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "mean running fraction per event: greedy %llu.%02llu%%, Hopcroft-Karp "
		 "%llu.%02llu%%%s",
		 (unsigned long long)(g / events / 100), (unsigned long long)(g / events % 100),
		 (unsigned long long)(h / events / 100), (unsigned long long)(h / events % 100),
		 what);
}

void describe_hk_vs_greedy(const struct experiment *e, char *buf, size_t size)
{
	format_snprintf(
		buf, size,
		"XSU on: Hopcroft-Karp's mean running fraction more than %u%% above greedy's "
		"where the constraints make greedy lose these lists (%s), at least greedy's "
		"elsewhere; exposure 0",
		EXP_HK_MARGIN / 100, e->hk_wins_on);
}