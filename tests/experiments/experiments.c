// SPDX-License-Identifier: GPL-2.0
/*
 * The experiments, as data. Event lists follow the thesis (codes are the same on Sandy Bridge,
 * Ivy Bridge and Haswell for every event used here; the TSX events of ch7-ten-events exist on
 * Haswell only and count nothing elsewhere). Both threads run triad unless said otherwise.
 *
 * Start offsets: "started later" in the thesis is a second perf started after the first; here the
 * second thread starts 20 ms (20 ticks) after the first. Lists that rotate start 7 ms apart, so
 * that the two rotations never line up (two perf commands never start on the same tick).
 */
#include <stddef.h>
#include <string.h>

#include "tests/experiments/experiment.h"
#include "tests/experiments/rule.h"

/* One run per line reads better than the formatter's layout. */
/* clang-format off */
#define TRIAD(list, offset) { .events = (list), .workload = "triad", .offset_ms = (offset) }
#define IDLE { .events = "", .workload = "idle" }
#define RUN(PHASE, MODE, ht0, ht1) \
	{ .phase = PHASE_##PHASE, .xsu = XSU_MODE_##MODE, \
	  .thread = { ht0, ht1 } }
#define RUN_SCHED(MODE, SCHED, ht0, ht1) \
	{ .phase = PHASE_MEASURE, .xsu = XSU_MODE_##MODE, .own_sched = true, .sched = SCHED_##SCHED, \
	  .thread = { ht0, ht1 } }
/* Linux 4.1-rc7's half-of-the-GP-counters limit, with XSU on. */
#define RUN_LIMIT(PHASE, ht0, ht1) \
	{ .phase = PHASE_##PHASE, .xsu = XSU_MODE_ON, .limit = true, \
	  .thread = { ht0, ht1 } }

/* One pair of lists under the four policies xsu-fairness compares. */
#define POLICIES(LABEL, ht0, ht1) \
	{ .phase = PHASE_MEASURE, .xsu = XSU_MODE_ON, .own_sched = true, .sched = SCHED_GREEDY, \
	  .thread = { ht0, ht1 }, .label = (LABEL) }, \
	{ .phase = PHASE_MEASURE, .xsu = XSU_MODE_ON, .own_sched = true, .sched = SCHED_HK, \
	  .thread = { ht0, ht1 }, .label = (LABEL) }, \
	{ .phase = PHASE_MEASURE, .xsu = XSU_MODE_ON, .own_sched = true, .sched = SCHED_GREEDY, .limit = true, \
	  .thread = { ht0, ht1 }, .label = (LABEL) }, \
	{ .phase = PHASE_MEASURE, .xsu = XSU_MODE_CORE, \
	  .thread = { ht0, ht1 }, .label = (LABEL) }

#define CORRUPTING_FOUR "r81d0:u,r08d1:u,r10d1:u,r01d1:u"
#define NON_CORRUPTING_FOUR "r02c4:u,r20cc:u,r10c4:u,r08c4:u"
#define NON_CORRUPTING_SIX NON_CORRUPTING_FOUR ",r01c9:u,r04c8:u"

const struct experiment experiments[] = {
	{
		.name = "ch4-branch-misses",
		.title = "Branch mispredictions corrupted by retired loads on the sibling counter",
		.section = "4.2",
		.rule = &rule_baseline,
		.checked = "r00c5:u",
		.nr_runs = 3,
		.runs = {
			RUN(BASELINE, OFF, TRIAD("", 0), TRIAD("r00c5:u", 0)),
			RUN(MEASURE, OFF, TRIAD("r81d0:u", 0), TRIAD("r00c5:u", 0)),
			RUN(MEASURE, ON, TRIAD("r81d0:u", 0), TRIAD("r00c5:u", 0)),
		},
	},
	{
		.name = "ch4-lbr-inserts",
		.title = "LBR inserts (must be 0) corrupted by retired loads on the sibling counter",
		.section = "4.2",
		.rule = &rule_zero,
		.checked = "r20cc:u",
		.nr_runs = 2,
		.runs = {
			RUN(MEASURE, OFF, TRIAD("r81d0:u", 0), TRIAD("r20cc:u", 0)),
			RUN(MEASURE, ON, TRIAD("r81d0:u", 0), TRIAD("r20cc:u", 0)),
		},
	},
	{
		.name = "ch7-aligned",
		.title = "Identical lists started together: no corruption even without XSU",
		.section = "7.1",
		.rule = &rule_aligned,
		.checked = "r20cc:u",
		.nr_runs = 2,
		.runs = {
			RUN(MEASURE, OFF, TRIAD("r20cc:u,r81d0:u,r08d1:u", 0),
			    TRIAD("r20cc:u,r81d0:u,r08d1:u", 0)),
			RUN(MEASURE, ON, TRIAD("r20cc:u,r81d0:u,r08d1:u", 0),
			    TRIAD("r20cc:u,r81d0:u,r08d1:u", 0)),
		},
	},
	{
		.name = "ch7-three-events",
		.title = "Three events in another order, started later: corruption without XSU, "
			 "multiplexing with it",
		.section = "7.1",
		.rule = &rule_zero,
		.checked = "r20cc:u",
		.nr_runs = 2,
		.runs = {
			RUN(MEASURE, OFF, TRIAD("r81d0:u,r08d1:u,r20cc:u", 0),
			    TRIAD("r20cc:u,r81d0:u,r08d1:u", 20)),
			RUN(MEASURE, ON, TRIAD("r81d0:u,r08d1:u,r20cc:u", 0),
			    TRIAD("r20cc:u,r81d0:u,r08d1:u", 20)),
		},
	},
	{
		.name = "ch7-five-events",
		.title = "One corrupting event among five, multiplexed on both threads",
		.section = "7.1",
		.rule = &rule_baseline,
		.checked = NON_CORRUPTING_FOUR,
		.nr_runs = 3,
		.runs = {
			RUN(BASELINE, OFF, TRIAD(NON_CORRUPTING_FOUR, 0), TRIAD(NON_CORRUPTING_FOUR, 7)),
			RUN(MEASURE, OFF, TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 0),
			    TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 7)),
			RUN(MEASURE, ON, TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 0),
			    TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 7)),
		},
	},
	{
		.name = "ch7-ten-events",
		.title = "Four corrupting and six non-corrupting events on both threads",
		.section = "7.1",
		.rule = &rule_baseline,
		.checked = NON_CORRUPTING_SIX,
		.nr_runs = 3,
		.runs = {
			RUN(BASELINE, OFF, TRIAD(NON_CORRUPTING_SIX, 0), TRIAD(NON_CORRUPTING_SIX, 7)),
			RUN(MEASURE, OFF, TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 0),
			    TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 7)),
			RUN(MEASURE, ON, TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 0),
			    TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 7)),
		},
	},
	{
		.name = "ch8-corrupting-loss",
		.title = "Corrupting events lose counts alone, compensate each other when aligned",
		.section = "8",
		.rule = &rule_loss,
		/* CORRUPTING_FOUR, L1_MISS first: it loses the largest share (thesis ch. 8). */
		.checked = "r08d1:u,r81d0:u,r10d1:u,r01d1:u",
		.nr_runs = 4,
		.runs = {
			RUN(ALONE, OFF, TRIAD(CORRUPTING_FOUR, 0), IDLE),
			RUN(MEASURE, OFF, TRIAD(CORRUPTING_FOUR, 0), TRIAD(CORRUPTING_FOUR, 0)),
			/* With the limit each thread keeps two counters, as the thesis's 50%
			 * figures show; without it the first thread takes all four. */
			RUN_LIMIT(MEASURE, TRIAD(CORRUPTING_FOUR, 0), TRIAD(CORRUPTING_FOUR, 0)),
			/* Core-wide XSU: the sibling's counter opposite each corrupting event
			 * counts a leak catcher, and what it catches is given back. */
			RUN(MEASURE, CORE, TRIAD(CORRUPTING_FOUR, 0), TRIAD(CORRUPTING_FOUR, 0)),
		},
	},
	{
		.name = "ch8-starvation",
		.title = "Four corrupting events on one thread starve the sibling under XSU",
		.section = "8",
		.rule = &rule_starvation,
		.checked = "branches",
		.nr_runs = 4,
		.runs = {
			RUN(MEASURE, OFF, TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20)),
			RUN(MEASURE, ON, TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20)),
			RUN_LIMIT(LIMIT, TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20)),
			/* Core-wide XSU: both threads scheduled as one; the optimum is 80% each. */
			RUN(MEASURE, CORE, TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20)),
		},
	},
	{
		/*
		 * Found with tools/schedsim's sibling replay: greedy puts HT0's L1_MISS on counter 3,
		 * which XSU then closes to HT1's MEM_TRANS_RETIRED.LOAD_LATENCY (counter 3 only), and
		 * the failed group ends HT1's pass; Hopcroft-Karp's assignment leaves counter 3 to HT1.
		 * That takes the erratum (XSU constraints) and LOAD_LATENCY's counter-3 constraint:
		 * Sandy Bridge and Haswell have both; Ivy Bridge has no such constraint and the two
		 * schedulers tie there, as on the parts without the erratum. To check:
		 *   tools/schedsim -u UARCH [-M] -e r00c4:u,r00c5:u,r08d1:u,r01c0:u
		 *	--sibling r01cd:u,r003c:u,r04a3:u,r01c0:u --offset 10
		 */
		.name = "xsu-hk-vs-greedy",
		.title = "Under XSU, Hopcroft-Karp lets more events run than greedy",
		.section = "6.4, 7.2",
		.rule = &rule_hk_vs_greedy,
		.checked = "r01cd:u,r003c:u,r04a3:u,r01c0:u",
		.hk_wins_on = "sandybridge,haswell",
		.nr_runs = 2,
		.runs = {
			RUN_SCHED(ON, GREEDY, TRIAD("r00c4:u,r00c5:u,r08d1:u,r01c0:u", 0),
				  TRIAD("r01cd:u,r003c:u,r04a3:u,r01c0:u", 10)),
			RUN_SCHED(ON, HK, TRIAD("r00c4:u,r00c5:u,r08d1:u,r01c0:u", 0),
				  TRIAD("r01cd:u,r003c:u,r04a3:u,r01c0:u", 10)),
		},
	},
	{
		/*
		 * The overall cost of each policy on lists the thesis uses: its smallest running
		 * fraction (who starves) and its mean (how much is counted at all), Linux's XSU with
		 * greedy and with Hopcroft-Karp, with the half-of-the-counters limit, and core-wide
		 * XSU. tools/schedsim --fair-sweep does the same over random lists.
		 */
		.name = "xsu-fairness",
		.title = "What each XSU policy costs: the smallest and the mean running fraction",
		.section = "8, 9",
		.rule = &rule_fairness,
		.checked = "",
		.policies = true,
		.nr_runs = 12,
		.runs = {
			POLICIES("ch7-three-events", TRIAD("r81d0:u,r08d1:u,r20cc:u", 0),
				 TRIAD("r20cc:u,r81d0:u,r08d1:u", 20)),
			POLICIES("ch7-ten-events", TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 0),
				 TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 7)),
			POLICIES("ch8-starvation", TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20)),
		},
	},
};
/* clang-format on */

const unsigned experiment_count = sizeof(experiments) / sizeof(experiments[0]);

bool exp_list_contains(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && strncmp(p, name, n) == 0)
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

const char *exp_selection(const struct payload_config *config)
{
	if (config->exp[0])
		return config->exp;
	return config->events[0][0] || config->events[1][0] ? "custom" : "all";
}

bool exp_selected(const char *selection, const struct experiment *e)
{
	if (!strcmp(selection, "all") && !e->on_request)
		return true;
	return exp_list_contains(selection, e->name);
}

bool exp_run_selected(const struct exp_run *run, unsigned xsu_modes)
{
	return exp_run_is_reference(run) || (xsu_modes & XSU_MODE_BIT(run->xsu));
}

bool exp_run_in_mode(const struct exp_run *run, unsigned mode)
{
	return !exp_run_is_reference(run) && run->xsu == mode;
}

const char *exp_run_policy(const struct exp_run *run, bool hk)
{
	if (run->xsu == XSU_MODE_OFF)
		return "off";
	if (run->xsu == XSU_MODE_CORE)
		return "core";
	if (run->limit)
		return "on-limit";
	return hk ? "on-hk" : "on-greedy";
}

bool exp_has_mode(const struct experiment *e, unsigned mode)
{
	for (unsigned i = 0; i < e->nr_runs; i++)
		if (exp_run_in_mode(&e->runs[i], mode))
			return true;
	return false;
}
