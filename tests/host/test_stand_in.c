// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-ins (tests/experiments/stand_in.c): on Sandy Bridge, which documents no L1_MISS or
 * L2_MISS of 0xD1, every list and the checked events name L2_HIT and LLC_HIT instead, whole words
 * only, and the note says so; elsewhere the experiments run as the thesis wrote them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/event_parse.h"
#include "tests/experiments/stand_in.h"

static const struct experiment *find(const char *name)
{
	for (unsigned i = 0; i < experiment_count; i++)
		if (!strcmp(experiments[i].name, name))
			return &experiments[i];
	fail_msg("no experiment %s", name);
	return NULL;
}

static void test_sandy_bridge_gets_documented_events(void **state)
{
	(void)state;
	static struct exp_adapted adapted;
	const struct experiment *e =
		exp_adapt(find("ch8-corrupting-loss"), uarch_by_name("sandybridge"), &adapted);

	assert_ptr_equal(e, &adapted.exp);
	assert_string_equal(e->checked, "r02d1:u,r81d0:u,r04d1:u,r01d1:u");
	assert_string_equal(e->runs[1].thread[1].events, "r81d0:u,r02d1:u,r04d1:u,r01d1:u");
	assert_non_null(strstr(e->note, "Sandy Bridge"));
	assert_non_null(strstr(e->note, "L2_HIT (r02d1) stands in for L1_MISS (r08d1)"));
	/* Every rewritten list parses on Sandy Bridge, and names only documented events. */
	for (unsigned i = 0; i < experiment_count; i++) {
		const struct experiment *a =
			exp_adapt(&experiments[i], uarch_by_name("sandybridge"), &adapted);
		for (unsigned r = 0; r < a->nr_runs; r++)
			for (unsigned t = 0; t < 2; t++) {
				const char *list = a->runs[r].thread[t].events;
				struct pmu_event events[EXP_MAX_EVENTS];
				struct event_parse_error error;
				unsigned n = 0;
				assert_null(strstr(list, "r08d1"));
				assert_null(strstr(list, "r10d1"));
				if (*list)
					assert_true(event_parse_list(
							    list, uarch_by_name("sandybridge"),
							    events, EXP_MAX_EVENTS, &n, &error) &&
						    n > 0);
			}
	}
}

static void test_elsewhere_the_thesis_events(void **state)
{
	(void)state;
	static struct exp_adapted adapted;

	for (unsigned i = 0; i < experiment_count; i++) {
		assert_ptr_equal(exp_adapt(&experiments[i], uarch_by_name("haswell"), &adapted),
				 &experiments[i]);
		assert_ptr_equal(exp_adapt(&experiments[i], uarch_by_name("ivybridge"), &adapted),
				 &experiments[i]);
	}
	/* An experiment without those events is itself on Sandy Bridge too. */
	assert_ptr_equal(exp_adapt(find("ch4-lbr-inserts"), uarch_by_name("sandybridge"), &adapted),
			 find("ch4-lbr-inserts"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sandy_bridge_gets_documented_events),
		cmocka_unit_test(test_elsewhere_the_thesis_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
