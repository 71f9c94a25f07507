// SPDX-License-Identifier: GPL-2.0
/*
 * The experiments' verdict rules (tests/experiments/verdict.c) on synthetic results: each rule
 * passes what the thesis shows and fails what it does not, with and without the erratum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/experiments/experiment.h"
#include "tests/experiments/verdict.h"

static const struct exp_machine haswell_model = { true, true, "haswell", 2 };
static const struct exp_machine skylake_model = { false, true, "skylake", 2 };
static const struct exp_machine haswell_hw = { true, false, "haswell", 2 };
static const struct exp_machine ivybridge_model = { true, true, "ivybridge", 2 };

static const struct experiment *find_experiment(const char *name)
{
	for (unsigned i = 0; i < experiment_count; i++)
		if (!strcmp(experiments[i].name, name))
			return &experiments[i];
	fail_msg("no experiment %s", name);
	return NULL;
}

/* Results with every run done, and no events yet. */
static void start(struct exp_results *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->exp = find_experiment(name);
	for (unsigned i = 0; i < r->exp->nr_runs; i++) {
		r->runs[i].run = &r->exp->runs[i];
		r->runs[i].done = true;
		r->runs[i].thread[0].units = r->runs[i].thread[1].units = 1000000;
		r->runs[i].thread[0].ticks = r->runs[i].thread[1].ticks = 500;
		r->runs[i].overlap_pct = 100;
	}
}

/* One count: scaled, running percent (in hundredths), counted unless percent is 0. */
static void count(struct exp_results *r, unsigned run, unsigned thread, const char *given,
		  uint64_t scaled, unsigned percent)
{
	struct exp_thread_result *t = &r->runs[run].thread[thread];
	struct exp_count *c = &t->counts[t->nr_events++];

	memset(c, 0, sizeof(*c));
	strcpy(c->event.name, given);
	c->reading.counted = percent > 0;
	c->reading.scaled = scaled;
	c->reading.raw = scaled * percent / 10000;
	c->reading.percent = percent;
	c->reading.time_enabled = 10000;
	c->reading.time_running = percent;
	c->corrupting = given[1] == '8' || given[3] == 'd';
}

static void annotate_all(struct exp_results *r)
{
	for (unsigned i = 0; i < r->exp->nr_runs; i++)
		exp_annotate(r, i);
}

static struct exp_verdict judge(struct exp_results *r, unsigned mode, const struct exp_machine *m)
{
	struct exp_verdict v;

	annotate_all(r);
	assert_true(exp_judge(r, mode, m, &v));
	/* Every reason fits, with room for a repetition's words (suite.c): none is cut. */
	if (strlen(v.reason) + 48 >= sizeof(v.reason))
		print_error("a reason of %zu bytes: %s\n", strlen(v.reason), v.reason);
	assert_true(strlen(v.reason) + 48 < sizeof(v.reason));
	return v;
}

/* The verdict names the threshold it applied, as thresholds.h words it. */
static void assert_names(const struct exp_verdict *v, enum threshold_id id)
{
	char th[THRESHOLD_TEXT_MAX];

	threshold_text(id, th, sizeof(th));
	if (!strstr(v->reason, th))
		print_error("\"%s\" does not name %s\n", v->reason, th);
	assert_non_null(strstr(v->reason, th));
}

/* rule_baseline's tolerance, both its thresholds in one: "the baseline threshold (25% or ...". */
static void assert_names_baseline(const struct exp_verdict *v)
{
	char th[THRESHOLD_TEXT_MAX], share[24], floor[24];

	snprintf(th, sizeof(th), "the baseline threshold (%s or %s, the hardware's)",
		 threshold_value_text(TH_BASELINE, share, sizeof(share)),
		 threshold_value_text(TH_BASELINE_FLOOR, floor, sizeof(floor)));
	if (!strstr(v->reason, th))
		print_error("\"%s\" does not name %s\n", v->reason, th);
	assert_non_null(strstr(v->reason, th));
}

#define OFF XSU_MODE_OFF
#define ON XSU_MODE_ON
#define CORE XSU_MODE_CORE

/* ch4-branch-misses: runs baseline, off, on; HT1 counts r00c5:u. */
static void branch_misses(struct exp_results *r, uint64_t off, uint64_t on)
{
	start(r, "ch4-branch-misses");
	count(r, 0, 1, "r00c5:u", 700, 10000);
	count(r, 1, 0, "r81d0:u", 5000000000, 10000);
	count(r, 1, 1, "r00c5:u", off, 10000);
	count(r, 2, 0, "r81d0:u", 5000000000, 10000);
	count(r, 2, 1, "r00c5:u", on, 10000);
}

static void test_checked(void **state)
{
	(void)state;
	const struct experiment *e = find_experiment("ch7-five-events");
	assert_true(exp_is_checked(e, "r02c4:u"));
	assert_true(exp_is_checked(e, "r08c4:u"));
	assert_false(exp_is_checked(e, "r81d0:u"));
	assert_false(exp_is_checked(e, "r02c4"));
}

static void test_baseline_rule(void **state)
{
	(void)state;
	static struct exp_results r;
	struct exp_verdict v;

	/* The thesis: 644 mispredictions become 40,960,843. */
	branch_misses(&r, 40960843, 781);
	v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_int_equal(v.corrupted, 1);
	assert_non_null(strstr(v.reason, "40,960,843"));
	assert_names_baseline(&v);
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_int_equal(v.checked, 1);
	assert_names_baseline(&v);

	/* The baseline follows the work done: twice the units, twice the count, still clean. */
	r.runs[2].thread[1].units = 2000000;
	r.runs[2].thread[1].counts[0].reading.scaled = 1400;
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_int_equal(r.runs[2].thread[1].counts[0].baseline, 1400);

	/* XSU on but corrupted: fail. */
	branch_misses(&r, 40960843, 40960843);
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_names_baseline(&v);
	/* The erratum, XSU off, but nothing corrupted: the corruption did not show, fail. */
	branch_misses(&r, 700, 700);
	assert_int_equal(judge(&r, OFF, &haswell_model).result, RESULT_FAIL);
	/* No erratum and clean: not observable, skipped with its code. */
	v = judge(&r, OFF, &skylake_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "no_erratum");
	/* No erratum but corrupted: something else is wrong, fail. */
	branch_misses(&r, 40960843, 700);
	assert_int_equal(judge(&r, OFF, &skylake_model).result, RESULT_FAIL);
	/* Within the tolerance (25% or 100 counts) is clean; beyond it is not. */
	branch_misses(&r, 40960843, 799);
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_PASS);
	branch_misses(&r, 40960843, 900);
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
	/* Far below the baseline is as wrong as far above. */
	branch_misses(&r, 40960843, 0);
	r.runs[0].thread[1].counts[0].reading.scaled = 70000;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
}

/* ch7-ten-events' loop exits: three per pass over the arrays, a handful of passes per run. */
static void test_baseline_multiplexed(void **state)
{
	(void)state;
	static struct exp_results r;
	struct exp_verdict v;

	start(&r, "ch7-ten-events");
	count(&r, 0, 1, "r10c4:u", 13, 6667);
	count(&r, 2, 1, "r10c4:u", 153, 978);
	/* Fifteen loop exits seen in 9.78% of the run scale to 153: luck of the window, not
	 * corruption (the floor of 100 events grows to 1,022 with the scaling). */
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_int_equal(r.runs[2].thread[1].counts[0].tolerance, 1022);
	/* The same count read without multiplexing is 79 events too many: corrupted. */
	count(&r, 2, 0, "r10c4:u", 180, 10000);
	count(&r, 0, 0, "r10c4:u", 13, 10000);
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_int_equal(v.corrupted, 1);
	/* The erratum's leak stays visible however short the window: 10,000 events in 9.78%. */
	start(&r, "ch7-ten-events");
	count(&r, 0, 1, "r10c4:u", 13, 6667);
	count(&r, 1, 1, "r10c4:u", 102249, 978);
	v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_int_equal(v.corrupted, 1);
	/* A large count keeps its 25%: the floor does not swallow it. */
	count(&r, 0, 0, "r10c4:u", 100000, 6667);
	count(&r, 1, 0, "r10c4:u", 130000, 5000);
	annotate_all(&r);
	const struct exp_count *c = &r.runs[1].thread[0].counts[0];
	assert_int_equal(c->tolerance, 25000);
	assert_true(c->reading.scaled > c->baseline + c->tolerance);
}

static void test_exposure_and_invariant(void **state)
{
	(void)state;
	static struct exp_results r;

	branch_misses(&r, 40960843, 781);
	r.runs[2].thread[0].exposure = 3;
	struct exp_verdict v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "exposed"));
	/* Real counters cannot see exposure: it is not held against the run. */
	assert_int_equal(judge(&r, ON, &haswell_hw).result, RESULT_PASS);
	r.runs[2].thread[0].exposure = 0;
	r.runs[2].thread[1].invariant_violations = 1;
	assert_int_equal(judge(&r, ON, &haswell_hw).result, RESULT_FAIL);
}

static void test_zero_and_aligned_rules(void **state)
{
	(void)state;
	static struct exp_results r;

	start(&r, "ch4-lbr-inserts");
	count(&r, 0, 1, "r20cc:u", 41284632, 10000);
	count(&r, 1, 1, "r20cc:u", 0, 10000);
	assert_int_equal(judge(&r, OFF, &haswell_model).result, RESULT_PASS);
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_PASS);
	/* One LBR insert with XSU on is one too many. */
	r.runs[1].thread[1].counts[0].reading.scaled = 1;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
	/* Never counted cannot prove zero. */
	r.runs[1].thread[1].counts[0].reading.scaled = 0;
	r.runs[1].thread[1].counts[0].reading.counted = false;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
	/* But an event XSU starved beside one that ran and stayed clean is reported, not failed. */
	count(&r, 1, 0, "r20cc:u", 0, 6000);
	struct exp_verdict v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "1 never ran"));
	assert_null(strstr(v.reason, "threshold")); /* exactly 0: no threshold applies */

	start(&r, "ch7-aligned");
	for (unsigned run = 0; run < 2; run++)
		for (unsigned t = 0; t < 2; t++)
			count(&r, run, t, "r20cc:u", 0, 10000);
	/* Aligned siblings share counter indices with XSU off: the model counts exposure there,
	 * which is no failure of that mode. */
	r.runs[0].thread[0].exposure = r.runs[0].thread[1].exposure = 250;
	assert_int_equal(judge(&r, OFF, &haswell_model).result, RESULT_PASS);
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_PASS);
	/* Corrupted with XSU off: failed for the count, not for exposure or an XSU-on mode. */
	r.runs[0].thread[1].counts[0].reading.scaled = 137641709;
	v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_int_equal(v.corrupted, 1);
	assert_non_null(strstr(v.reason, "with XSU off"));
	assert_non_null(strstr(v.reason, "137,641,709"));
	assert_null(strstr(v.reason, "XSU on"));
	assert_null(strstr(v.reason, "exposed"));
	/* Never counted with XSU off cannot prove zero either. */
	r.runs[0].thread[1].counts[0].reading = (struct mux_reading){ .time_enabled = 1 };
	v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "only 1 of the 2 checked counts ran"));
}

/* ch8-corrupting-loss: alone (HT0), off (aligned), on; r08d1:u decides. */
static void loss(struct exp_results *r, uint64_t alone, uint64_t off, uint64_t on)
{
	start(r, "ch8-corrupting-loss");
	count(r, 0, 0, "r08d1:u", alone, 10000);
	for (unsigned t = 0; t < 2; t++) {
		count(r, 1, t, "r08d1:u", off, 10000);
		count(r, 2, t, "r08d1:u", on, 5000);
	}
}

static void test_loss_rule(void **state)
{
	(void)state;
	static struct exp_results r;

	/* Thesis ch. 8: 292M aligned, 159M alone, 157M with XSU on. */
	loss(&r, 159592403, 292858367, 157542131);
	struct exp_verdict v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "1.83 times"));
	assert_non_null(strstr(v.reason, "r08d1:u")); /* the first checked event decides */
	assert_names(&v, TH_COMPENSATION);
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_names(&v, TH_RATE);
	/* Aligned but no compensation on a CPU with the erratum: fail. */
	loss(&r, 159592403, 160000000, 157542131);
	assert_int_equal(judge(&r, OFF, &haswell_model).result, RESULT_FAIL);
	/* XSU on far from the rate alone: fail. */
	loss(&r, 159592403, 292858367, 292858367);
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
	/* Without the erratum nothing is lost: skipped. */
	loss(&r, 292858367, 292858367, 292858367);
	v = judge(&r, OFF, &skylake_model);
	assert_string_equal(v.skip, "no_erratum");
	assert_names(&v, TH_RATE);
	/* The aggregate does not care how the work was shared between the siblings. */
	loss(&r, 159592403, 292858367, 157542131);
	r.runs[1].thread[0].units = 500000;
	r.runs[1].thread[0].counts[0].reading.scaled = 292858367 / 2 - 40000000;
	r.runs[1].thread[1].units = 1500000;
	r.runs[1].thread[1].counts[0].reading.scaled = 292858367 * 3 / 2 + 40000000;
	assert_int_equal(judge(&r, OFF, &haswell_model).result, RESULT_PASS);
	/* Under the model, XSU on is judged by the share of the true count kept, which a host that
	 * ran a virtual CPU in bursts does not move: a rate 1.32 times the rate alone (QEMU's
	 * SandyBridge under load) keeps 54.75% of its true count, as alone. */
	loss(&r, 45589, 56962, 31228);
	r.runs[2].thread[1].counts[0].reading.scaled = 23196;
	r.runs[0].thread[0].units = 2523136;
	r.runs[2].thread[0].units = 1495040;
	r.runs[2].thread[1].units = 778240;
	const uint64_t truth[3] = { 83264, 57048, 42352 };
	struct exp_count *kept[3] = { &r.runs[0].thread[0].counts[0],
				      &r.runs[2].thread[0].counts[0],
				      &r.runs[2].thread[1].counts[0] };
	assert_int_equal(judge(&r, ON, &haswell_hw).result, RESULT_FAIL); /* the rate: 1.32 */
	for (unsigned i = 0; i < 3; i++) {
		kept[i]->has_true = true;
		kept[i]->truth = truth[i];
	}
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "keeps its true count at 1000 per mille"));
	/* Keeping all of it (no loss with XSU on) is not what XSU does. */
	kept[1]->reading.scaled = 57048;
	kept[2]->reading.scaled = 42352;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
}

static void test_starvation_rule(void **state)
{
	(void)state;
	static struct exp_results r;

	start(&r, "ch8-starvation");
	count(&r, 0, 1, "branches", 3000000, 10000);
	count(&r, 1, 1, "branches", 0, 0);
	count(&r, 2, 1, "branches", 3000000, 10000);
	assert_int_equal(judge(&r, OFF, &haswell_model).result, RESULT_PASS);
	struct exp_verdict v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "starved"));
	assert_non_null(strstr(v.reason, "branches"));
	assert_names(&v, TH_STARVED);
	/* Not starved where the thesis was: fail; not relieved by the limit: fail. */
	r.runs[1].thread[1].counts[0].reading =
		(struct mux_reading){ 1, 1, 1, 3000000, true, 5000, 0, 0 };
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
	r.runs[1].thread[1].counts[0].reading = (struct mux_reading){ .time_enabled = 1 };
	r.runs[2].thread[1].counts[0].reading = (struct mux_reading){ .time_enabled = 1 };
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
}

static void test_hk_vs_greedy_rule(void **state)
{
	(void)state;
	static struct exp_results r;
	const char *ht1[] = { "r01cd:u", "r003c:u", "r04a3:u", "r01c0:u" };

	start(&r, "xsu-hk-vs-greedy");
	for (unsigned i = 0; i < 4; i++) {
		count(&r, 0, 0, "r00c4:u", 1, 10000);
		count(&r, 1, 0, "r00c4:u", 1, 10000);
		count(&r, 0, 1, ht1[i], 1, 2500 * i);
		count(&r, 1, 1, ht1[i], 1, 10000);
	}
	struct exp_verdict v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "lets more events run"));
	assert_names(&v, TH_HK_MARGIN);
	/* No XSU-off run: no verdict for XSU off. */
	struct exp_verdict none;
	assert_false(exp_judge(&r, OFF, &haswell_model, &none));
	/* Hopcroft-Karp running less than greedy fails. */
	for (unsigned i = 0; i < 4; i++)
		r.runs[1].thread[1].counts[i].reading.percent = 100;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
	/* A tie, or a gain within the margin of a run's timing (1% per event), on Haswell, where
	 * greedy loses these lists: the constraints did not act, fail. */
	for (unsigned i = 0; i < 4; i++)
		r.runs[1].thread[1].counts[i].reading.percent = 2500 * i;
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "no more than greedy"));
	assert_names(&v, TH_HK_MARGIN);
	for (unsigned i = 0; i < 4; i++)
		r.runs[1].thread[1].counts[i].reading.percent = 2500 * i + 200;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
	/* Where the constraints leave greedy nothing to lose (Ivy Bridge: no counter-3 constraint
	 * for LOAD_LATENCY; Skylake: no erratum), a tie is what the lists give: pass. */
	v = judge(&r, ON, &ivybridge_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "the same schedules"));
	assert_int_equal(judge(&r, ON, &skylake_model).result, RESULT_PASS);
}

static void test_missing_run_fails(void **state)
{
	(void)state;
	static struct exp_results r;

	branch_misses(&r, 40960843, 781);
	r.runs[0].done = false; /* the baseline could not be measured */
	r.runs[0].error = "a sibling thread did not finish in time";
	struct exp_verdict v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "did not finish"));
}

/* Issue 13: a verdict with too little data to judge is a skip with the reason, never a pass. */
static void test_too_little_data_skips(void **state)
{
	(void)state;
	static struct exp_results r;
	struct exp_verdict v;

	/* A thread started later than the run lasted did no work: the clean XSU-on figure of
	 * ch7-three-events would otherwise pass on a thread that never ran. */
	start(&r, "ch7-three-events");
	count(&r, 1, 0, "r20cc:u", 0, 10000);
	count(&r, 1, 1, "r20cc:u", 0, 0);
	r.runs[1].thread[1].units = 0;
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "too_little_data");
	assert_non_null(strstr(v.reason, "HT1 did no work"));

	/* A multiplexed list judged over too few ticks (dur_ms=30, mux_ms=1000). */
	start(&r, "ch7-ten-events");
	count(&r, 2, 1, "r10c4:u", 13, 3000);
	r.runs[2].thread[1].ticks = threshold_of(TH_TICKS) - 1;
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_non_null(strstr(v.reason, "multiplexed over 19 ticks"));
	assert_names(&v, TH_TICKS);
	/* Most ticks lost: the thread worked in bursts, a scaled count is a guess. */
	r.runs[2].thread[1].ticks = 99;
	r.runs[2].thread[1].ticks_lost = 406;
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_non_null(strstr(v.reason, "lost 406 of its 505 ticks"));
	assert_names(&v, TH_LOST_TICKS);
	r.runs[2].thread[1].ticks_lost = 66; /* 66 of 165: 40% */
	assert_int_not_equal(judge(&r, ON, &haswell_model).result, RESULT_SKIP);
	r.runs[2].thread[1].ticks = threshold_of(TH_TICKS) - 1;
	r.runs[2].thread[1].ticks_lost = 0;
	/* Not multiplexed, and still too few ticks (issue 20: mux_ms=1000 dur_ms=20 ticked 0 times
	 * and passed): XSU's guarantee and the exposure are checked at ticks, a skip. */
	r.runs[2].thread[1].counts[0].reading.time_running = 10000;
	r.runs[2].thread[1].counts[0].reading.percent = 10000;
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "too_little_data");
	assert_non_null(strstr(v.reason, "HT1 ticked 19 times"));
	assert_names(&v, TH_TICKS);
	r.runs[2].thread[1].ticks = threshold_of(TH_TICKS);
	v = judge(&r, ON, &haswell_model);
	assert_int_not_equal(v.result, RESULT_SKIP);

	/* A sibling held back by its host: the counting windows hardly overlap. */
	start(&r, "ch8-corrupting-loss");
	count(&r, 0, 0, "r08d1:u", 159592403, 10000);
	count(&r, 1, 0, "r08d1:u", 160000000, 10000);
	count(&r, 1, 1, "r08d1:u", 160000000, 10000);
	r.runs[1].overlap_pct = threshold_of(TH_OVERLAP) - 1;
	v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_non_null(strstr(v.reason, "side by side"));
	assert_names(&v, TH_OVERLAP);
	/* Side by side, the same counts are judged: no compensation where the erratum is. */
	r.runs[1].overlap_pct = threshold_of(TH_OVERLAP);
	assert_int_equal(judge(&r, OFF, &haswell_model).result, RESULT_FAIL);
}

static void test_starvation_without_erratum_skips(void **state)
{
	(void)state;
	static struct exp_results r;

	start(&r, "ch8-starvation");
	count(&r, 1, 1, "branches", 3000000, 10000);
	count(&r, 2, 1, "branches", 3000000, 10000);
	struct exp_verdict v = judge(&r, ON, &skylake_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "no_erratum");
	assert_names(&v, TH_STARVED);
	/* Starved where nothing is corrupting: something is wrong. */
	r.runs[1].thread[1].counts[0].reading = (struct mux_reading){ .time_enabled = 1 };
	assert_int_equal(judge(&r, ON, &skylake_model).result, RESULT_FAIL);
}

/* The rule texts are made from the constants the judgement uses. */
static void test_rule_texts(void **state)
{
	(void)state;
	char text[512], number[16];

	exp_rule_text(find_experiment("ch4-branch-misses"), text, sizeof(text));
	snprintf(number, sizeof(number), "%u%%", threshold_of(TH_BASELINE));
	assert_non_null(strstr(text, number));
	snprintf(number, sizeof(number), "%u events", threshold_of(TH_BASELINE_FLOOR));
	assert_non_null(strstr(text, number));
	assert_non_null(strstr(text, "r00c5:u"));
	exp_rule_text(find_experiment("ch8-corrupting-loss"), text, sizeof(text));
	snprintf(number, sizeof(number), "%u%%", threshold_of(TH_RATE));
	assert_non_null(strstr(text, number));
	assert_non_null(strstr(text, "r08d1:u"));
	const struct exp_rule *const rules[] = {
		&rule_baseline,	    &rule_zero,	    &rule_aligned,  &rule_loss,	  &rule_starvation,
		&rule_hk_vs_greedy, &rule_fairness, &rule_measured, &rule_survey,
	};
	for (unsigned i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		assert_non_null(rules[i]->name);
		assert_non_null(rules[i]->describe);
		/* The survey judges its own measurements (survey_judge). */
		assert_true(rules[i]->judge != NULL || rules[i] == &rule_survey);
	}
	for (unsigned i = 0; i < experiment_count; i++) {
		assert_non_null(experiments[i].rule);
		exp_rule_text(&experiments[i], text, sizeof(text));
		assert_true(strlen(text) > 20 && strlen(text) < sizeof(text) - 1);
	}
}

/* repeat=N: any failing repetition fails the verdict and names it; skips do not hide passes. */
static void test_repetitions(void **state)
{
	(void)state;
	struct exp_verdict_tally t;
	struct exp_verdict pass = { .result = RESULT_PASS }, fail = { .result = RESULT_FAIL },
			   skip = { .result = RESULT_SKIP, .skip = "too_little_data" };

	strcpy(pass.reason, "clean");
	strcpy(fail.reason, "corrupted");
	strcpy(skip.reason, "too few ticks");
	memset(&t, 0, sizeof(t));
	exp_verdict_add(&t, &skip, 0, 3);
	exp_verdict_add(&t, &pass, 1, 3);
	exp_verdict_add(&t, &pass, 2, 3);
	assert_int_equal(t.verdict.result, RESULT_PASS);
	assert_int_equal(t.passed, 2);
	assert_int_equal(t.skipped, 1);
	exp_verdict_add(&t, &fail, 3, 5);
	exp_verdict_add(&t, &pass, 4, 5);
	assert_int_equal(t.verdict.result, RESULT_FAIL);
	assert_string_equal(t.verdict.reason, "repetition 4 of 5: corrupted");
	memset(&t, 0, sizeof(t));
	exp_verdict_add(&t, &skip, 0, 2);
	exp_verdict_add(&t, &skip, 1, 2);
	assert_int_equal(t.verdict.result, RESULT_SKIP);
}

static void test_measured_rule(void **state)
{
	(void)state;
	static struct exp_results r;
	static struct experiment custom = {
		.name = "custom",
		.rule = &rule_measured,
		.checked = "",
		.nr_runs = 2,
		.runs = { { .phase = PHASE_MEASURE, .xsu = XSU_MODE_OFF },
			  { .phase = PHASE_MEASURE, .xsu = XSU_MODE_ON } },
	};

	memset(&r, 0, sizeof(r));
	r.exp = &custom;
	for (unsigned i = 0; i < 2; i++) {
		r.runs[i].run = &custom.runs[i];
		r.runs[i].done = true;
		r.runs[i].overlap_pct = 100;
		r.runs[i].thread[0].units = r.runs[i].thread[1].units = 1000;
		r.runs[i].thread[0].ticks = r.runs[i].thread[1].ticks = 100;
		count(&r, i, 0, "r81d0:u", 1000, 10000);
		count(&r, i, 1, "r20cc:u", 0, 0);
	}
	struct exp_verdict v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "measured: 2 events"));
	assert_non_null(strstr(v.reason, "1 of them never on a counter"));
	r.runs[1].thread[0].exposure = 2;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);
}

/* Issue 13: a counter written behind the kernel's back fails the verdict, naming the count; an
 * event this PMU cannot count skips it. */
static void test_interference_and_unsupported(void **state)
{
	(void)state;
	static struct exp_results r;

	branch_misses(&r, 40960843, 781);
	r.runs[1].thread[0].counts[0].interfered = true;
	struct exp_verdict v = judge(&r, OFF, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "HT0 r81d0:u in the measured run of XSU off"));
	assert_non_null(strstr(v.reason, "went down without an overflow"));
	/* The other mode's runs were not touched. */
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_PASS);
	/* In the baseline run it serves every mode. */
	r.runs[1].thread[0].counts[0].interfered = false;
	r.runs[0].thread[1].counts[0].interfered = true;
	assert_int_equal(judge(&r, ON, &haswell_model).result, RESULT_FAIL);

	branch_misses(&r, 40960843, 781);
	r.runs[2].done = false;
	r.runs[2].unsupported = true;
	r.runs[2].error = "r00c5:u cannot be counted here: CPUID.0AH:EBX marks it unavailable";
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "unsupported_event");
	assert_non_null(strstr(v.reason, "EBX"));
}

/* Issue 10: with core-wide XSU no thread starves in the thesis's case (the optimum is 80%). */
static void test_core_starvation(void **state)
{
	(void)state;
	static struct exp_results r;
	const char *four[] = { "r81d0:u", "r08d1:u", "r10d1:u", "r01d1:u" };

	start(&r, "ch8-starvation");
	for (unsigned i = 0; i < 4; i++)
		count(&r, 3, 0, four[i], 1000000, 8000 + i);
	count(&r, 3, 1, "branches", 3000000, 8008);
	struct exp_verdict v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "HT0's r81d0:u, ran 80.00%"));
	assert_names(&v, TH_CORE_RUNNING);
	/* Below 70% for any event of either thread: it starves. */
	r.runs[3].thread[1].counts[0].reading.percent = threshold_of(TH_CORE_RUNNING) - 1;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "HT1's branches"));
	assert_names(&v, TH_CORE_RUNNING);
	/* And XSU's own guarantee: exposure fails it whatever the fractions. */
	r.runs[3].thread[1].counts[0].reading.percent = 8008;
	r.runs[3].thread[0].exposure = 1;
	assert_int_equal(judge(&r, CORE, &haswell_model).result, RESULT_FAIL);
	/* Without the erratum core schedules as without XSU, and says so. */
	r.runs[3].thread[0].exposure = 0;
	v = judge(&r, CORE, &skylake_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "schedules as without XSU"));
}

/*
 * A virtual CPU run in bursts: a scaled count is judged against its truth at its thread's pace
 * (the work clock, pmu/mux.h), so a count as far off as the thread's own work passes and says
 * so, a count short of it still fails, and a pace too uneven to judge is a skip with the figure.
 */
static void test_core_loss_at_the_threads_pace(void **state)
{
	(void)state;
	static struct exp_results r;

	loss(&r, 159592403, 292858367, 157542131);
	for (unsigned t = 0; t < 2; t++) {
		count(&r, 3, t, "r08d1:u", 304000000, 5000);
		struct exp_count *c = &r.runs[3].thread[t].counts[0];
		c->corrupting = true;
		c->has_true = true;
		c->truth = 292858367;
		c->leak = 6000000;
		c->reading.work_enabled = 1000000;
		c->reading.work_scaled = 1040000; /* its work sampled 4.0% high */
	}
	struct exp_verdict v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(
		strstr(v.reason, "within 0.1% of their true counts at their threads' pace"));
	assert_non_null(strstr(
		v.reason, "304,000,000 against 304,572,701 at its thread's pace, 292,858,367"));
	assert_names(&v, TH_CORE_TRUTH);
	/* A pace more uneven than TH_CORE_PACE: a 3% judgement cannot be made. */
	r.runs[3].thread[0].counts[0].reading.work_scaled = 1070000;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_non_null(strstr(v.reason, "HT0's work, sampled as its counts were, came 7.0% off"));
	assert_names(&v, TH_CORE_PACE);
	r.runs[3].thread[0].counts[0].reading.work_scaled = 1040000;
	/* Short of the truth at that pace (3.7% off the whole truth too): counts lost. */
	r.runs[3].thread[1].counts[0].reading.scaled = 282000000;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "counts lost"));
	/* Work sampled 30% off: too uneven a pace for any scaled count. */
	r.runs[3].thread[1].counts[0].reading.work_scaled = 700000;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "too_little_data");
	assert_non_null(strstr(v.reason,
			       "HT1's own work, sampled as its r08d1:u was, came 30.0% off "
			       "the 1,000,000 units"));
	assert_names(&v, TH_PACE);
}

/* Issue 10: with core-wide XSU the leak is caught and given back: counts match their true ones. */
static void test_core_loss(void **state)
{
	(void)state;
	static struct exp_results r;

	loss(&r, 159592403, 292858367, 157542131);
	for (unsigned t = 0; t < 2; t++) {
		count(&r, 3, t, "r08d1:u", 292000000, 5000);
		struct exp_count *c = &r.runs[3].thread[t].counts[0];
		c->corrupting = true;
		c->has_true = true;
		c->truth = 292858367;
		c->leak = 66000000;
	}
	struct exp_verdict v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "within 0.2%"));
	assert_non_null(strstr(v.reason, "132,000,000 leaked events caught"));
	/* Handovers that took a tenth of the run: nothing is lost, the model compares with true. */
	r.runs[3].joint_gap_per_mille = 100;
	assert_int_equal(judge(&r, CORE, &haswell_model).result, RESULT_PASS);
	/* 4% short of the true count: counts lost. */
	r.runs[3].thread[1].counts[0].reading.scaled = 281000000;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "HT1 r08d1:u 281,000,000 against 292,858,367"));
	assert_names(&v, TH_CORE_TRUTH);
	/* Nothing caught where the erratum is: the catchers did not work. */
	r.runs[3].thread[1].counts[0].reading.scaled = 292000000;
	r.runs[3].thread[0].counts[0].leak = r.runs[3].thread[1].counts[0].leak = 0;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "caught nothing"));
	/* Real counters have no true count: against the aligned rate, where leaks compensate. */
	r.runs[3].thread[0].counts[0].has_true = r.runs[3].thread[1].counts[0].has_true = false;
	v = judge(&r, CORE, &haswell_hw);
	assert_int_equal(v.result, RESULT_SKIP); /* ... which needs the work counted: 10% was not */
	assert_non_null(strstr(v.reason, "10.0% of the run handing over"));
	assert_names(&v, TH_HANDOVER);
	r.runs[3].joint_gap_per_mille = threshold_of(TH_HANDOVER);
	v = judge(&r, CORE, &haswell_hw);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "of the aligned XSU-off rate"));
	assert_names(&v, TH_RATE);
	/* No erratum: nothing corrupts, nothing to give back; the rate must still be the rate alone,
	 * unless the handovers took too much of the run to tell. */
	for (unsigned t = 0; t < 2; t++)
		r.runs[3].thread[t].counts[0].corrupting = false;
	v = judge(&r, CORE, &skylake_model);
	assert_int_equal(v.result, RESULT_FAIL); /* 1.8 times the rate alone */
	assert_non_null(strstr(v.reason, "skylake has no cross-HT erratum"));
	assert_names(&v, TH_RATE);
	for (unsigned t = 0; t < 2; t++)
		r.runs[3].thread[t].counts[0].reading.scaled = 159592403;
	v = judge(&r, CORE, &skylake_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "no_erratum");
	r.runs[3].joint_gap_per_mille = threshold_of(TH_HANDOVER) + 1;
	for (unsigned t = 0; t < 2; t++)
		r.runs[3].thread[t].counts[0].reading.scaled = 80000000;
	v = judge(&r, CORE, &skylake_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "too_little_data");
}

/*
 * Issue 16: on real counters, core-wide XSU's re-integration is checked with triad's own truth:
 * each thread's MEM_UOPS_RETIRED.ALL_LOADS, counted and caught, is twice its elements within 1%.
 */
static void test_core_loads_per_unit(void **state)
{
	(void)state;
	static struct exp_results r;

	loss(&r, 159592403, 292858367, 157542131);
	for (unsigned t = 0; t < 2; t++)
		count(&r, 3, t, "r08d1:u", 292000000, 5000);
	count(&r, 3, 0, "r81d0:u", 44703744, 5000);
	count(&r, 3, 1, "r81d0:u", 40000000, 5000);
	r.runs[3].thread[0].units = 22351872;
	r.runs[3].thread[1].units = 20000000;
	struct exp_verdict v = judge(&r, CORE, &haswell_hw);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "no load lost"));
	assert_non_null(strstr(v.reason, "within 0.00%"));
	assert_names(&v, TH_CORE_LOADS);
	/* 0.8% short is within; 4.4% short (the defect of issue 16) is not, and named. */
	r.runs[3].thread[1].counts[1].reading.scaled = 39680000;
	assert_int_equal(judge(&r, CORE, &haswell_hw).result, RESULT_PASS);
	r.runs[3].thread[1].counts[1].reading.scaled = 38240000;
	v = judge(&r, CORE, &haswell_hw);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "loads lost"));
	assert_non_null(strstr(v.reason, "HT1 38,240,000 against 40,000,000"));
	assert_names(&v, TH_CORE_LOADS);
	/* Too much of the run handing over: the scaled counts are guesses, not judged. */
	r.runs[3].joint_gap_per_mille = threshold_of(TH_HANDOVER) + 1;
	assert_int_equal(judge(&r, CORE, &haswell_hw).result, RESULT_SKIP);
}

/* Issue 10: xsu-fairness, core's smallest running fraction against the best of Linux's XSU. */
static void test_fairness(void **state)
{
	(void)state;
	static struct exp_results r;
	/* Per pair of lists: greedy, hk, limit, core; the smallest fraction of each. */
	const unsigned smallest[3][4] = { { 3300, 3300, 5000, 6600 },
					  { 0, 900, 1500, 4000 },
					  { 0, 0, 5000, 8000 } };

	start(&r, "xsu-fairness");
	assert_int_equal(r.exp->nr_runs, 12);
	for (unsigned pair = 0; pair < 3; pair++)
		for (unsigned p = 0; p < 4; p++) {
			count(&r, pair * 4 + p, 0, "r81d0:u", 1000, smallest[pair][p]);
			count(&r, pair * 4 + p, 1, "r20cc:u", 0, 9000);
		}
	struct exp_verdict v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "ch8-starvation 80% (0.0% handing over) against 50%"));
	assert_names(&v, TH_FAIRNESS);
	v = judge(&r, ON, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "ch7-ten-events 0%/9%/15%"));
	/* Core within the margin of the half limit passes; starving more than that fails. */
	r.runs[11].thread[0].counts[0].reading.percent = 5000 - threshold_of(TH_FAIRNESS);
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	r.runs[11].thread[0].counts[0].reading.percent = 5000 - threshold_of(TH_FAIRNESS) - 100;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	assert_non_null(strstr(v.reason, "starves more"));
	assert_names(&v, TH_FAIRNESS);
	/* The time spent handing over joint schedules is the IPIs' cost, not the schedule's. */
	r.runs[11].joint_gap_per_mille = 10;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(strstr(v.reason, "(1.0% handing over)"));
	r.runs[11].joint_gap_per_mille = 0;
	/* A core run whose thread 0 its host held is not judged; all of them held: a skip. */
	r.runs[11].thread[0].ticks = 30;
	r.runs[11].thread[0].ticks_lost = 11;
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_PASS);
	assert_non_null(
		strstr(v.reason, "ch8-starvation not judged (HT0 lost 11 of its 41 ticks)"));
	for (unsigned pair = 0; pair < 3; pair++) {
		r.runs[pair * 4 + 3].thread[0].ticks = 30;
		r.runs[pair * 4 + 3].thread[0].ticks_lost = 11;
	}
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_SKIP);
	assert_string_equal(v.skip, "too_little_data");
	assert_names(&v, TH_CORE_LOST_TICKS);
	r.runs[11].thread[0].ticks = 38;
	r.runs[11].thread[0].ticks_lost = 2; /* 2 of 40: 5%, the margin, still judged */
	v = judge(&r, CORE, &haswell_model);
	assert_int_equal(v.result, RESULT_FAIL);
	static const char *const policies[4] = { "on-greedy", "on-greedy", "on-limit", "core" };
	for (unsigned i = 0; i < r.exp->nr_runs; i++)
		assert_string_equal(exp_run_policy(&r.exp->runs[i], false), policies[i % 4]);
	assert_string_equal(exp_run_policy(&r.exp->runs[1], true), "on-hk");
}

/* The table of thresholds: each named, with its rules and its reason, worded as the verdicts
 * say it; and the relations its reasons state. */
static void test_thresholds(void **state)
{
	(void)state;
	char text[THRESHOLD_TEXT_MAX];
	unsigned largest = 0;

	for (unsigned i = 0; i < THRESHOLD_COUNT; i++) {
		assert_non_null(thresholds[i].name);
		assert_non_null(thresholds[i].rules);
		assert_true(strlen(thresholds[i].why) > 40);
		assert_true(thresholds[i].value > 0);
		threshold_text((enum threshold_id)i, text, sizeof(text));
		assert_true(strlen(text) + 1 < sizeof(text));
	}
	assert_string_equal(threshold_text(TH_PACE, text, sizeof(text)),
			    "the pace threshold (25%, a busy host's)");
	assert_string_equal(threshold_text(TH_HANDOVER, text, sizeof(text)),
			    "the handover threshold (2%, a busy host's)"); /* 20 per mille */
	assert_string_equal(threshold_value_text(TH_STARVED, text, sizeof(text)), "5%");
	assert_string_equal(threshold_value_text(TH_TICKS, text, sizeof(text)), "20 ticks");
	assert_string_equal(threshold_text(TH_BASELINE_FLOOR, text, sizeof(text)),
			    "the baseline floor threshold (100 events, the hardware's)");
	/* A stall of a share of thread 0's ticks moves a running fraction by up to that share:
	 * core's lost ticks no more than the fairness margin. */
	assert_int_equal(threshold_of(TH_CORE_LOST_TICKS) * 100, threshold_of(TH_FAIRNESS));
	/* The pace of any scaled count: the largest tolerance of any rule in percent. */
	const enum threshold_id tolerances[] = { TH_BASELINE, TH_RATE, TH_CORE_TRUTH,
						 TH_CORE_LOADS };
	for (unsigned i = 0; i < sizeof(tolerances) / sizeof(tolerances[0]); i++)
		largest = threshold_of(tolerances[i]) > largest ? threshold_of(tolerances[i])
								: largest;
	assert_int_equal(threshold_of(TH_PACE), largest);
}

/* What exp= and xsu= select: every experiment not on request with exp=all, custom alone when a
 * run is defined at boot, names as given; reference runs whatever xsu= says. */
static void test_selection(void **state)
{
	(void)state;
	static struct payload_config config;
	const struct experiment survey = { .name = "leak-survey", .on_request = true };
	const struct exp_run measure_on = { .phase = PHASE_MEASURE, .xsu = XSU_MODE_ON };
	const struct exp_run baseline = { .phase = PHASE_BASELINE, .xsu = XSU_MODE_OFF };

	memset(&config, 0, sizeof(config));
	assert_string_equal(exp_selection(&config), "all");
	strcpy(config.events[1], "r20cc:u");
	assert_string_equal(exp_selection(&config), "custom");
	strcpy(config.exp, "none");
	assert_string_equal(exp_selection(&config), "none");
	assert_true(exp_selected("all", &experiments[0]));
	assert_false(exp_selected("all", &survey));
	assert_true(exp_selected("ch7-aligned,leak-survey", &survey));
	assert_false(exp_selected("none", &experiments[0]));
	assert_true(exp_run_selected(&measure_on, XSU_MODES_BOTH));
	assert_false(exp_run_selected(&measure_on, XSU_MODE_BIT(XSU_MODE_OFF)));
	assert_true(exp_run_selected(&baseline, XSU_MODE_BIT(XSU_MODE_CORE)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checked),
		cmocka_unit_test(test_baseline_rule),
		cmocka_unit_test(test_baseline_multiplexed),
		cmocka_unit_test(test_exposure_and_invariant),
		cmocka_unit_test(test_zero_and_aligned_rules),
		cmocka_unit_test(test_loss_rule),
		cmocka_unit_test(test_starvation_rule),
		cmocka_unit_test(test_hk_vs_greedy_rule),
		cmocka_unit_test(test_missing_run_fails),
		cmocka_unit_test(test_too_little_data_skips),
		cmocka_unit_test(test_starvation_without_erratum_skips),
		cmocka_unit_test(test_rule_texts),
		cmocka_unit_test(test_repetitions),
		cmocka_unit_test(test_measured_rule),
		cmocka_unit_test(test_interference_and_unsupported),
		cmocka_unit_test(test_core_starvation),
		cmocka_unit_test(test_core_loss),
		cmocka_unit_test(test_core_loss_at_the_threads_pace),
		cmocka_unit_test(test_fairness),
		cmocka_unit_test(test_core_loads_per_unit),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_selection),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
