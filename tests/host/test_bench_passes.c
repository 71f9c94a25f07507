// SPDX-License-Identifier: GPL-2.0
/*
 * A bundle's passes by its XSU mode's ops (pmu/xsu_passes.h): every event placed once when a
 * counter can take it, every pass safe under its mode, catchers exactly opposite corrupting
 * events under core and nowhere else; and, on the model PMU, what each mode does with the
 * erratum's leak: off lets it into the sibling's event, on loses it, core gives it back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/driver.h"
#include "pmu/event_parse.h"
#include "pmu/model.h"
#include "pmu/model_ledger.h"
#include "pmu/mux_pair.h"
#include "pmu/uarch.h"
#include "pmu/xsu_passes.h"
#include "pmu/zero_event.h"

static struct xsu_pass_input in;
static struct xsu_pass_plan plan;

static const struct pmu_event catcher = { .name = "catcher" };

static void add(unsigned t, uint8_t mask, bool corrupting, bool alone)
{
	in.event[t][in.n[t]++] = (struct xsu_pass_event){ { mask, corrupting }, alone };
}

static void reset(void)
{
	memset(&in, 0, sizeof(in));
	in.gp = 4;
	in.catcher = &catcher;
}

static void plan_under(unsigned mode)
{
	xsu_plan_passes(xsu_ops_of(mode, false), &in, &plan);
}

/* Pass p is safe under mode: no event shares a counter with another of its thread or leaves its
 * mask; under on and core no corrupting event faces a sibling's event; catchers stand opposite
 * exactly the sibling's corrupting events under core (where there is a catcher), nowhere else. */
static bool pass_safe(unsigned mode, unsigned p)
{
	struct xsu_usage use[2] = { { 0, 0 }, { 0, 0 } };

	for (unsigned t = 0; t < 2; t++)
		for (unsigned i = 0; i < in.n[t]; i++) {
			if (plan.pass[t][i] != (int16_t)p)
				continue;
			uint64_t bit = 1ull << plan.counter[t][i];
			if ((use[t].enabled & bit) || !(in.event[t][i].constraint.mask & bit))
				return false;
			use[t].enabled |= bit;
			if (in.event[t][i].constraint.corrupting)
				use[t].corrupting |= bit;
		}
	if (mode != XSU_MODE_OFF && !xsu_no_corruption(use[0], use[1]))
		return false;
	for (unsigned t = 0; t < 2; t++) {
		uint8_t want = mode == XSU_MODE_CORE && in.catcher ? xsu_catchers(use[t ^ 1]) : 0;
		if (plan.catchers[p][t] != want || (plan.catchers[p][t] & use[t].enabled))
			return false;
	}
	return true;
}

static void assert_all_safe(unsigned mode)
{
	for (unsigned p = 0; p < plan.passes; p++)
		assert_true(pass_safe(mode, p));
}

/* The sibling test: HT0 counts LBR_INSERTS, HT1 loads. */
static void test_leak_pair(void **state)
{
	(void)state;
	reset();
	add(0, 0xff, false, false);
	add(1, 0xff, true, false);
	plan_under(XSU_MODE_OFF);
	assert_int_equal(plan.passes, 1);
	assert_int_equal(plan.counter[0][0], 0);
	assert_int_equal(plan.counter[1][0], 0); /* the same index: the erratum shows */
	assert_int_equal(plan.catchers[0][0] | plan.catchers[0][1], 0);
	assert_all_safe(XSU_MODE_OFF);

	/* Linux's XSU: thread 0 first, thread 1 against its states; nothing catches the leak. */
	plan_under(XSU_MODE_ON);
	assert_int_equal(plan.passes, 1);
	assert_int_equal(plan.counter[0][0], 0);
	assert_int_equal(plan.counter[1][0], 1); /* not opposite HT0's event */
	assert_int_equal(plan.catchers[0][0] | plan.catchers[0][1], 0);
	assert_all_safe(XSU_MODE_ON);

	/* Core-wide XSU: apart too, and HT0's counter opposite the loads counts the catcher. */
	plan_under(XSU_MODE_CORE);
	assert_int_equal(plan.passes, 1);
	assert_int_not_equal(plan.counter[0][0], plan.counter[1][0]);
	assert_int_equal(plan.catchers[0][0], 1u << plan.counter[1][0]);
	assert_int_equal(plan.catchers[0][1], 0);
	assert_ptr_equal(plan.catcher, &catcher);
	assert_all_safe(XSU_MODE_CORE);
	/* Without a zero event there is nothing to catch with. */
	in.catcher = NULL;
	plan_under(XSU_MODE_CORE);
	assert_int_equal(plan.catchers[0][0] | plan.catchers[0][1], 0);
	assert_all_safe(XSU_MODE_CORE);

	/* What the checker refuses: the off plan judged under on, on's judged under core. */
	in.catcher = &catcher;
	plan_under(XSU_MODE_OFF);
	assert_false(pass_safe(XSU_MODE_ON, 0));
	plan_under(XSU_MODE_ON);
	assert_false(pass_safe(XSU_MODE_CORE, 0));
}

static void test_more_events_than_counters(void **state)
{
	(void)state;
	for (unsigned mode = XSU_MODE_ON; mode <= XSU_MODE_CORE; mode++) {
		reset();
		for (unsigned i = 0; i < 9; i++)
			add(0, 0xff, i == 1 || i == 2, false);
		plan_under(mode);
		assert_int_equal(plan.passes, 3);
		for (unsigned i = 0; i < 9; i++)
			assert_int_equal(plan.pass[0][i], i / 4);
		assert_all_safe(mode);
	}
}

static void test_alone_and_restrictions(void **state)
{
	(void)state;
	for (unsigned mode = XSU_MODE_OFF; mode < XSU_MODE_COUNT; mode++) {
		reset();
		add(0, 0xff, false, false);
		add(0, 0xff, false, true); /* TakenAlone */
		add(0, 1u << 2, false, false);
		add(0, 0, false, false); /* .CTR=5 on a PMU with 4 counters */
		plan_under(mode);
		assert_int_equal(plan.passes, 2);
		assert_int_equal(plan.pass[0][0], 0);
		assert_int_equal(plan.pass[0][1], 1);
		assert_int_equal(plan.pass[0][2], 0);
		assert_int_equal(plan.counter[0][2], 2);
		assert_int_equal(plan.pass[0][3], -1);
		assert_all_safe(mode);
	}
}

/* Random lists on both threads: each event in exactly one pass when its mask allows, and every
 * pass safe in its mode; the joint plan never needs more passes than events. */
static void test_random_lists(void **state)
{
	(void)state;
	srand(18);
	for (unsigned round = 0; round < 3000; round++) {
		unsigned mode = round % XSU_MODE_COUNT;

		reset();
		in.gp = 2 + (unsigned)rand() % 7;
		if (rand() % 5 == 0)
			in.catcher = NULL;
		for (unsigned t = 0; t < 2; t++)
			for (unsigned i = (unsigned)rand() % 12; i > 0; i--)
				add(t, (uint8_t)(rand() % 4 ? 0xff : rand()), rand() % 3 == 0,
				    rand() % 10 == 0);
		plan_under(mode);
		assert_all_safe(mode);
		assert_true(plan.passes <= in.n[0] + in.n[1]);
		uint8_t all = (uint8_t)((1u << in.gp) - 1);
		for (unsigned t = 0; t < 2; t++)
			for (unsigned i = 0; i < in.n[t]; i++)
				assert_int_equal(plan.pass[t][i] >= 0,
						 (in.event[t][i].constraint.mask & all) != 0);
	}
}

/* ---- each mode on the model PMU --------------------------------------------------------- */

static const struct model_rate load_rates[] = {
	{ .event = 0xd0, .umask = 0x81, .per_units = 1000 },
};

static const struct model_profile loads = {
	.name = "loads",
	.ring = MODEL_RING_USER,
	.instructions = 1000,
	.core_cycles = 1000,
	.ref_cycles = 1000,
	.rates = load_rates,
	.nrates = 1,
};

/* What each thread's events and catchers counted in pass 0, run on the model. */
struct model_run {
	uint64_t count[2];  /* event 0 of each thread */
	uint64_t caught[2]; /* by each thread's catchers */
	uint64_t truth, leaked, lost, exposure;
};

static struct pmu_event parsed(const char *text)
{
	struct pmu_event e;
	struct event_parse_error err;
	unsigned n = 0;

	assert_true(event_parse_list(text, uarch_by_name("haswell"), &e, 1, &n, &err));
	assert_int_equal(n, 1);
	return e;
}

/*
 * The pair of the issue on Haswell's model (HSD29): HT0 counts ROB_MISC_EVENTS.LBR_INSERTS
 * (which its work never does), HT1 MEM_UOPS_RETIRED.ALL_LOADS; pass 0 of mode's plan programmed
 * on both threads, catchers too, while HT1 does 100,000 loads.
 */
static void run_on_model(unsigned mode, struct model_run *out)
{
	static struct model_pair model;
	struct model_config cfg;
	struct pmu_driver driver[2];
	struct pmu_event ev[2] = { parsed("r20cc:u"), parsed("r81d0:u") };
	const struct uarch *u = uarch_by_name("haswell");
	struct model_ledger ledger;

	memset(out, 0, sizeof(*out));
	reset();
	in.catcher = uarch_zero_event(u);
	for (unsigned t = 0; t < 2; t++)
		add(t, 0xf, uarch_event_corrupting(u, &ev[t]), false);
	plan_under(mode);
	assert_int_equal(plan.passes, 1);
	model_config_init(&cfg, u, true);
	model_core_init(&model, &cfg);
	for (unsigned t = 0; t < 2; t++) {
		struct msr_backend b = model_backend(&model, t);
		struct pmu_assignment a[1 + PMU_MAX_GP];
		unsigned n = 0;

		pmu_driver_init(&driver[t], &b, &cfg.geo, 0);
		a[n++] = (struct pmu_assignment){ &ev[t], (unsigned)plan.counter[t][0], 0 };
		for (unsigned c = 0; c < PMU_MAX_GP; c++)
			if (plan.catchers[0][t] & (1u << c))
				a[n++] = (struct pmu_assignment){ plan.catcher, c, 0 };
		model_set_catchers(&model, t, plan.catchers[0][t]);
		assert_int_equal(pmu_driver_program(&driver[t], a, n), PMU_DRV_OK);
	}
	model_account(&model, 1, &loads, 100000);
	model_tick(&model, 1);
	for (unsigned t = 0; t < 2; t++) {
		pmu_driver_stop(&driver[t]);
		out->count[t] = pmu_driver_take(&driver[t], (unsigned)plan.counter[t][0]);
		for (unsigned c = 0; c < PMU_MAX_GP; c++)
			if (plan.catchers[0][t] & (1u << c))
				out->caught[t] += pmu_driver_take(&driver[t], c);
		out->exposure += model_exposure_ticks(&model, t);
	}
	memset(&ledger, 0, sizeof(ledger));
	model_ledger_add(&ledger, &loads, 100000);
	assert_true(model_truth(&ledger, &ev[1], &out->truth));
	out->leaked = model.thread[1].leaked;
	out->lost = model.thread[1].lost;
}

static void test_modes_on_the_model(void **state)
{
	struct model_run off, on, core;

	(void)state;
	run_on_model(XSU_MODE_OFF, &off);
	run_on_model(XSU_MODE_ON, &on);
	run_on_model(XSU_MODE_CORE, &core);
	assert_int_equal(off.truth, 100000);

	/* off: no exclusion; the leak lands in HT0's LBR_INSERTS, which its own work never counts. */
	assert_true(off.leaked > 1000);
	assert_int_equal(off.count[0], off.leaked);
	assert_int_equal(off.count[1] + off.leaked, off.truth);
	assert_true(off.exposure > 0);

	/* on: excluded, no catcher: HT0 counts 0, and HT1's leak is lost. */
	assert_int_equal(on.count[0], 0);
	assert_int_equal(on.caught[0] + on.caught[1], 0);
	assert_true(on.lost > 1000);
	assert_int_equal(on.count[1] + on.lost, on.truth);
	assert_int_equal(on.exposure, 0);

	/* core: excluded, and the catcher opposite the loads gives the leak back whole. */
	assert_int_equal(core.count[0], 0);
	assert_int_equal(core.lost, 0);
	assert_true(core.caught[0] > 1000);
	assert_int_equal(core.caught[0], core.leaked);
	assert_int_equal(core.count[1] + core.caught[0], core.truth);
	assert_int_equal(core.exposure, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leak_pair),
		cmocka_unit_test(test_more_events_than_counters),
		cmocka_unit_test(test_alone_and_restrictions),
		cmocka_unit_test(test_random_lists),
		cmocka_unit_test(test_modes_on_the_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
