// SPDX-License-Identifier: GPL-2.0
/*
 * The rules that compare scheduling policies: rule_hk_vs_greedy (thesis 6.4: Hopcroft-Karp lets
 * more events run than greedy under XSU) and rule_fairness (core-wide XSU against Linux's XSU,
 * with and without the half limit: the smallest and mean running fractions).
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/lib/format.h"
#include "pmu/mux.h"
#include "tests/experiments/rule.h"

/* The sum of running fractions (hundredths of a percent) over both threads of a run. */
static uint64_t total_running(const struct exp_run_result *run, unsigned threads)
{
	uint64_t sum = 0;

	for (unsigned t = 0; t < threads; t++)
		for (unsigned i = 0; i < run->thread[t].nr_events; i++)
			sum += run->thread[t].counts[i].reading.percent;
	return sum;
}

/* The measured runs of the mode with the greedy and the Hopcroft-Karp scheduler; false when one
 * is missing (said in out). */
static bool greedy_and_hk(const struct exp_results *r, unsigned mode,
			  const struct exp_run_result **greedy, const struct exp_run_result **hk,
			  struct exp_verdict *out)
{
	const struct exp_run_result *run;

	*greedy = *hk = NULL;
	for_each_run(run, r, .modes = XSU_MODE_BIT(mode))
	{
		if (run->run->own_sched && run->run->sched == SCHED_GREEDY)
			*greedy = run;
		if (run->run->own_sched && run->run->sched == SCHED_HK)
			*hk = run;
	}
	if (*greedy && *hk)
		return true;
	rule_set(out, RESULT_FAIL, NULL);
	rule_say(out, "the greedy or the Hopcroft-Karp run is missing");
	return false;
}

/*
 * Beyond the margin (TH_HK_MARGIN per event), the difference is the schedulers'. Where the lists
 * were built so that greedy loses (thesis 6.4: Hopcroft-Karp finds a maximum assignment where
 * greedy need not), a tie means the constraints did not act and fails; elsewhere a tie is all
 * there is.
 */
static void judge_hk_vs_greedy(const struct exp_results *r, unsigned mode,
			       const struct exp_machine *m, struct exp_verdict *out)
{
	const struct exp_run_result *greedy, *hk;
	struct mode_view v;
	unsigned events = 0;
	char th[THRESHOLD_TEXT_MAX];

	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (!greedy_and_hk(r, mode, &greedy, &hk, out) ||
	    !rule_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	uint64_t g = total_running(greedy, m->threads), h = total_running(hk, m->threads);
	for (unsigned t = 0; t < m->threads; t++)
		events += hk->thread[t].nr_events;
	uint64_t margin = (uint64_t)threshold_of(TH_HK_MARGIN) * events;
	bool more = h > g + margin, not_worse = h + margin >= g;
	bool must_win = r->exp->hk_wins_on && exp_list_contains(r->exp->hk_wins_on, m->uarch);
	const char *what =
		"the same schedules here (these constraints leave greedy nothing to lose), within";
	if (more)
		what = "Hopcroft-Karp lets more events run, beyond";
	else if (!not_worse)
		what = "Hopcroft-Karp ran less, beyond";
	else if (must_win)
		what = "no more than greedy, although greedy loses these lists here, within";
	rule_set(out, (must_win ? more : not_worse) ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "mean running fraction per event: greedy %llu.%02llu%%, Hopcroft-Karp "
		 "%llu.%02llu%%: %s %s",
		 (unsigned long long)(g / events / 100), (unsigned long long)(g / events % 100),
		 (unsigned long long)(h / events / 100), (unsigned long long)(h / events % 100),
		 what, threshold_text(TH_HK_MARGIN, th, sizeof(th)));
}

static void describe_hk_vs_greedy(const struct experiment *e, char *buf, size_t size)
{
	format_snprintf(
		buf, size,
		"XSU on: Hopcroft-Karp's mean running fraction more than %u%% above greedy's "
		"where the constraints make greedy lose these lists (%s), at least greedy's "
		"elsewhere; exposure 0",
		threshold_of(TH_HK_MARGIN) / 100, e->hk_wins_on);
}
/* The smallest and the mean running fraction (hundredths of a percent) of a run's events. */
struct fractions {
	unsigned min, mean;
};

static struct fractions run_fractions(const struct exp_run_result *run, unsigned threads)
{
	struct fractions f = { 10000, 0 };
	unsigned n = 0, sum = 0;

	for (unsigned t = 0; t < threads; t++)
		for (unsigned i = 0; i < run->thread[t].nr_events; i++) {
			unsigned p = run->thread[t].counts[i].reading.percent;
			f.min = p < f.min ? p : f.min;
			sum += p;
			n++;
		}
	f.mean = n ? sum / n : 0;
	return f;
}

/* The best smallest fraction among Linux's XSU runs (on: greedy, hk, limit) of one list pair. */
static bool best_on(const struct exp_results *r, const char *label, unsigned threads,
		    unsigned *best)
{
	const struct exp_run_result *run;
	bool any = false;

	*best = 0;
	for_each_run(run, r, .xsu = XSU_MODE_BIT(XSU_MODE_ON), .label = label)
	{
		struct fractions f = run_fractions(run, threads);
		*best = f.min > *best ? f.min : *best;
		any = true;
	}
	return any;
}

static size_t append(char *buf, size_t size, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (len >= size)
		return len;
	va_start(ap, fmt);
	format_vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	return strlen(buf);
}

/* XSU on: the figures of Linux's three ways, and that XSU held. */
static void judge_fairness_on(const struct exp_results *r, const struct exp_machine *m,
			      struct exp_verdict *out)
{
	char text[sizeof(out->reason)];
	size_t len = append(text, sizeof(text), 0, "smallest running fraction (greedy/hk/limit):");
	const struct exp_run_result *run;
	const char *label = NULL;

	for_each_run(run, r, .xsu = XSU_MODE_BIT(XSU_MODE_ON))
	{
		struct fractions f = run_fractions(run, m->threads);
		bool first = !label || strcmp(label, run->run->label);
		label = run->run->label;
		if (first)
			len = append(text, sizeof(text), len, " %s ", label);
		len = append(text, sizeof(text), len, "%s%u%%", first ? "" : "/", f.min / 100);
	}
	rule_set(out, RESULT_PASS, NULL);
	rule_say(out, "%s; exposure 0", text);
}

/* What core-wide XSU's runs show against the best of Linux's XSU on the same lists. */
struct fairness {
	char text[sizeof(((struct exp_verdict *)0)->reason)];
	size_t len;
	bool fair, compared;
	unsigned held; /* runs not judged: the host held thread 0 */
};

/* One core-wide run against the best of Linux's runs of its lists (best). */
static void compare_core_run(struct fairness *f, const struct exp_run_result *run, unsigned threads,
			     unsigned best)
{
	const struct exp_thread_result *leader = &run->thread[0];

	if (leader->ticks_lost * 100 >
	    (leader->ticks + leader->ticks_lost) * threshold_of(TH_CORE_LOST_TICKS)) {
		f->held++;
		f->len = append(f->text, sizeof(f->text), f->len,
				"%s%s not judged (HT0 lost %llu of its %llu ticks)",
				f->len ? ", " : "", run->run->label,
				(unsigned long long)leader->ticks_lost,
				(unsigned long long)(leader->ticks + leader->ticks_lost));
		return;
	}
	struct fractions fr = run_fractions(run, threads);
	unsigned handover = run->joint_gap_per_mille * 10;
	f->fair = f->fair && fr.min + handover + threshold_of(TH_FAIRNESS) >= best;
	f->compared = true;
	f->len = append(f->text, sizeof(f->text), f->len,
			"%s%s %u%% (%u.%u%% handing over) against %u%%", f->len ? ", " : "",
			run->run->label, fr.min / 100, run->joint_gap_per_mille / 10,
			run->joint_gap_per_mille % 10, best / 100);
}

static void judge_fairness(const struct exp_results *r, unsigned mode, const struct exp_machine *m,
			   struct exp_verdict *out)
{
	const struct exp_run_result *run;
	struct fairness f = { .fair = true };
	struct mode_view v;
	unsigned best;
	char th[THRESHOLD_TEXT_MAX];

	rule_view_mode(r, mode, PHASE_MEASURE, m->threads, &v);
	if (!rule_xsu_held(mode, m, v.violations, v.exposure, out))
		return;
	if (mode != XSU_MODE_CORE) {
		judge_fairness_on(r, m, out);
		return;
	}
	for_each_run(run, r, .xsu = XSU_MODE_BIT(XSU_MODE_CORE)) if (best_on(r, run->run->label,
									     m->threads, &best))
		compare_core_run(&f, run, m->threads, best);
	if (!f.compared) {
		rule_set(out, RESULT_SKIP, "too_little_data");
		if (f.held)
			rule_say(out,
				 "%s: the host held thread 0, whose ticks change the joint "
				 "schedule, over %s",
				 f.text, threshold_text(TH_CORE_LOST_TICKS, th, sizeof(th)));
		else
			rule_say(out,
				 "core-wide XSU is compared with Linux's XSU, which did not run "
				 "(xsu= without on)");
		return;
	}
	rule_set(out, f.fair ? RESULT_PASS : RESULT_FAIL, NULL);
	rule_say(out,
		 "smallest running fraction, core-wide against the best of Linux's XSU less %s: "
		 "%s%s",
		 threshold_text(TH_FAIRNESS, th, sizeof(th)), f.text,
		 f.fair ? "" : ": core-wide XSU starves more");
}

static void describe_fairness(const struct experiment *e, char *buf, size_t size)
{
	(void)e;
	format_snprintf(
		buf, size,
		"XSU on (greedy, Hopcroft-Karp, the half limit): their smallest and mean "
		"running fractions; XSU core: its smallest running fraction at least that of "
		"the best of the three (less %u.%02u%% and the time spent handing over joint "
		"schedules) on every pair of lists; exposure 0",
		threshold_of(TH_FAIRNESS) / 100, threshold_of(TH_FAIRNESS) % 100);
}

const struct exp_rule rule_hk_vs_greedy = { "hk-vs-greedy", describe_hk_vs_greedy, NULL,
					    judge_hk_vs_greedy };
const struct exp_rule rule_fairness = { "fairness", describe_fairness, NULL, judge_fairness };
