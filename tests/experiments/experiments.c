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

#define TRIAD(list, offset)                                                                        \
	{                                                                                          \
		(list), WORKLOAD_TRIAD, (offset)                                                   \
	}
#define IDLE                                                                                       \
	{                                                                                          \
		"", WORKLOAD_IDLE, 0                                                               \
	}

#define CORRUPTING_FOUR "r81d0:u,r08d1:u,r10d1:u,r01d1:u"
#define NON_CORRUPTING_FOUR "r02c4:u,r20cc:u,r10c4:u,r08c4:u"
#define NON_CORRUPTING_SIX NON_CORRUPTING_FOUR ",r01c9:u,r04c8:u"

const struct experiment experiments[] = {
	{
		.name = "ch4-branch-misses",
		.title = "Branch mispredictions corrupted by retired loads on the sibling counter",
		.section = "4.2",
		.rule_text = "XSU off: HT1 r00c5:u far above its baseline where the CPU has the erratum; "
			     "XSU on: within tolerance of it, exposure 0",
		.rule = RULE_BASELINE,
		.checked = "r00c5:u",
		.nr_runs = 3,
		.runs = {
			{ PHASE_BASELINE, false, EXP_SCHED_CONFIG,
			  { TRIAD("", 0), TRIAD("r00c5:u", 0) } },
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u", 0), TRIAD("r00c5:u", 0) } },
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u", 0), TRIAD("r00c5:u", 0) } },
		},
	},
	{
		.name = "ch4-lbr-inserts",
		.title = "LBR inserts (must be 0) corrupted by retired loads on the sibling counter",
		.section = "4.2",
		.rule_text = "XSU off: HT1 r20cc:u above 0 where the CPU has the erratum; XSU on: exactly "
			     "0, exposure 0",
		.rule = RULE_ZERO,
		.checked = "r20cc:u",
		.nr_runs = 2,
		.runs = {
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u", 0), TRIAD("r20cc:u", 0) } },
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u", 0), TRIAD("r20cc:u", 0) } },
		},
	},
	{
		.name = "ch7-aligned",
		.title = "Identical lists started together: no corruption even without XSU",
		.section = "7.1",
		.rule_text = "r20cc:u exactly 0 on both threads with XSU off and on; exposure 0 with XSU "
			     "on",
		.rule = RULE_ALIGNED,
		.checked = "r20cc:u",
		.nr_runs = 2,
		.runs = {
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD("r20cc:u,r81d0:u,r08d1:u", 0), TRIAD("r20cc:u,r81d0:u,r08d1:u", 0) } },
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD("r20cc:u,r81d0:u,r08d1:u", 0), TRIAD("r20cc:u,r81d0:u,r08d1:u", 0) } },
		},
	},
	{
		.name = "ch7-three-events",
		.title = "Three events in another order, started later: corruption without XSU, "
			 "multiplexing with it",
		.section = "7.1",
		.rule_text = "XSU off: r20cc:u above 0 where the CPU has the erratum; XSU on: exactly 0 on "
			     "both threads, exposure 0",
		.rule = RULE_ZERO,
		.checked = "r20cc:u",
		.nr_runs = 2,
		.runs = {
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u,r08d1:u,r20cc:u", 0), TRIAD("r20cc:u,r81d0:u,r08d1:u", 20) } },
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u,r08d1:u,r20cc:u", 0), TRIAD("r20cc:u,r81d0:u,r08d1:u", 20) } },
		},
	},
	{
		.name = "ch7-five-events",
		.title = "One corrupting event among five, multiplexed on both threads",
		.section = "7.1",
		.rule_text = "XSU off: the four non-corrupting events far above their baselines where the "
			     "CPU has the erratum; XSU on: within tolerance, exposure 0",
		.rule = RULE_BASELINE,
		.checked = NON_CORRUPTING_FOUR,
		.nr_runs = 3,
		.runs = {
			{ PHASE_BASELINE, false, EXP_SCHED_CONFIG,
			  { TRIAD(NON_CORRUPTING_FOUR, 0), TRIAD(NON_CORRUPTING_FOUR, 7) } },
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 0),
			    TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 7) } },
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 0),
			    TRIAD("r81d0:u," NON_CORRUPTING_FOUR, 7) } },
		},
	},
	{
		.name = "ch7-ten-events",
		.title = "Four corrupting and six non-corrupting events on both threads",
		.section = "7.1",
		.rule_text = "XSU off: the six non-corrupting events above their baselines where the CPU "
			     "has the erratum; XSU on: within tolerance, exposure 0",
		.rule = RULE_BASELINE,
		.checked = NON_CORRUPTING_SIX,
		.nr_runs = 3,
		.runs = {
			{ PHASE_BASELINE, false, EXP_SCHED_CONFIG,
			  { TRIAD(NON_CORRUPTING_SIX, 0), TRIAD(NON_CORRUPTING_SIX, 7) } },
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 0),
			    TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 7) } },
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 0),
			    TRIAD(CORRUPTING_FOUR "," NON_CORRUPTING_SIX, 7) } },
		},
	},
	{
		.name = "ch8-corrupting-loss",
		.title = "Corrupting events lose counts alone, compensate each other when aligned",
		.section = "8",
		.rule_text = "XSU off (aligned): L1_MISS 20% or more above the run alone where the CPU has "
			     "the erratum; XSU on (with the half-of-the-counters limit): within 20% of "
			     "the run alone, exposure 0",
		.rule = RULE_LOSS,
		/* CORRUPTING_FOUR, L1_MISS first: it loses the largest share (thesis ch. 8). */
		.checked = "r08d1:u,r81d0:u,r10d1:u,r01d1:u",
		.nr_runs = 3,
		.runs = {
			{ PHASE_ALONE, false, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR, 0), IDLE } },
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR, 0), TRIAD(CORRUPTING_FOUR, 0) } },
			/* With the limit each thread keeps two counters, as the thesis's 50%
			 * figures show; without it the first thread takes all four. */
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR, 0), TRIAD(CORRUPTING_FOUR, 0) }, .limit = true },
		},
	},
	{
		.name = "ch8-starvation",
		.title = "Four corrupting events on one thread starve the sibling under XSU",
		.section = "8",
		.rule_text = "XSU off: branches counted; XSU on: branches <not counted> (starved, as in "
			     "the thesis), and counted again with the half-of-the-counters limit; "
			     "exposure 0",
		.rule = RULE_STARVATION,
		.checked = "branches",
		.nr_runs = 3,
		.runs = {
			{ PHASE_MEASURE, false, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20) } },
			{ PHASE_MEASURE, true, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20) } },
			{ PHASE_LIMIT, true, EXP_SCHED_CONFIG,
			  { TRIAD(CORRUPTING_FOUR, 0), TRIAD("branches", 20) }, .limit = true },
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
		.rule_text = "XSU on: Hopcroft-Karp's mean running fraction more than 2% above greedy's "
			     "where the constraints make greedy lose these lists (Sandy Bridge, "
			     "Haswell), at least greedy's elsewhere; exposure 0",
		.rule = RULE_HK_VS_GREEDY,
		.checked = "r01cd:u,r003c:u,r04a3:u,r01c0:u",
		.hk_wins_on = "sandybridge,haswell",
		.nr_runs = 2,
		.runs = {
			{ PHASE_MEASURE, true, EXP_SCHED_GREEDY,
			  { TRIAD("r00c4:u,r00c5:u,r08d1:u,r01c0:u", 0),
			    TRIAD("r01cd:u,r003c:u,r04a3:u,r01c0:u", 10) } },
			{ PHASE_MEASURE, true, EXP_SCHED_HK,
			  { TRIAD("r00c4:u,r00c5:u,r08d1:u,r01c0:u", 0),
			    TRIAD("r01cd:u,r003c:u,r04a3:u,r01c0:u", 10) } },
		},
	},
};

const unsigned experiment_count = sizeof(experiments) / sizeof(experiments[0]);

const char *const *experiment_names(void)
{
	static const char *names[sizeof(experiments) / sizeof(experiments[0]) + 1];

	for (unsigned i = 0; i < experiment_count; i++)
		names[i] = experiments[i].name;
	return names;
}

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

bool exp_run_in_mode(const struct exp_run *run, bool xsu_on)
{
	return !exp_run_is_reference(run) && run->xsu == xsu_on;
}

bool exp_has_mode(const struct experiment *e, bool xsu_on)
{
	for (unsigned i = 0; i < e->nr_runs; i++)
		if (exp_run_in_mode(&e->runs[i], xsu_on))
			return true;
	return false;
}
