// SPDX-License-Identifier: GPL-2.0
/*
 * The event-list parser (pmu/event_parse.c) and the names table (pmu/event_names.c): the
 * syntaxes users type, the events of the thesis and the Linux article, and the messages for
 * bad input, which must point at the bad part.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/event_names.h"
#include "pmu/event_parse.h"

static struct pmu_event events[8];
static struct event_parse_error error;

static int parse(const char *text, const char *uarch)
{
	return event_parse_list(text, uarch ? uarch_by_name(uarch) : NULL, events, 8, &error);
}

static void expect_event(unsigned i, uint16_t code, uint8_t cmask, bool edge, bool inv)
{
	assert_int_equal(pmu_event_code(&events[i]), code);
	assert_int_equal(events[i].cmask, cmask);
	assert_int_equal(events[i].edge, edge);
	assert_int_equal(events[i].inv, inv);
}

static void test_raw(void **state)
{
	(void)state;
	assert_int_equal(parse("r81d0", "haswell"), 1);
	expect_event(0, 0x81d0, 0, false, false);
	assert_true(events[0].usr && events[0].os); /* both levels when no modifier */
	assert_false(events[0].pinned);
	assert_string_equal(events[0].name, "r81d0");

	assert_int_equal(parse("r81d0:u,r20cc:k,R00C5:uk,r0148:D", "haswell"), -1);
	assert_int_equal(parse("r81d0:u,r20cc:k,r00C5:uk,r0148:D", "haswell"), 4);
	assert_true(events[0].usr && !events[0].os);
	assert_true(!events[1].usr && events[1].os);
	assert_true(events[2].usr && events[2].os);
	expect_event(2, 0x00c5, 0, false, false);
	assert_true(events[3].pinned);
	assert_string_equal(events[1].name, "r20cc:k");
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(events[i].group, i);

	/* The thesis's printed code for l1d_pend_miss:occurrences pastes back as the same event. */
	assert_int_equal(parse("r1570148", "haswell"), 1);
	expect_event(0, 0x0148, 1, true, false);
	assert_int_equal(parse("r1a3800000c0", NULL), -1);
	assert_int_equal(parse("r8000c0", NULL), 1);
	expect_event(0, 0x00c0, 0, false, true);
}

static void test_pmu_syntax(void **state)
{
	(void)state;
	assert_int_equal(parse("cpu/event=0xd0,umask=0x81/", "haswell"), 1);
	expect_event(0, 0x81d0, 0, false, false);
	assert_int_equal(parse("cpu/event=0x48,umask=0x1,cmask=1,edge/u", "haswell"), 1);
	expect_event(0, 0x0148, 1, true, false);
	assert_true(events[0].usr && !events[0].os);
	assert_int_equal(parse("cpu/event=0xc0,inv,cmask=16/:k,cpu/config=0x1570148/", NULL), 2);
	expect_event(0, 0x00c0, 16, false, true);
	assert_true(events[0].os && !events[0].usr);
	expect_event(1, 0x0148, 1, true, false);
	assert_int_equal(parse("cpu/event=0xd0,umask=0x81,any=1,edge=0/D", NULL), 1);
	assert_true(events[0].any && !events[0].edge && events[0].pinned);
}

/* Every event the thesis names (ch. 4, 7, 8, 7.2), in its spelling. */
static void test_thesis_names(void **state)
{
	static const struct {
		const char *name;
		uint16_t code;
		uint8_t cmask;
		bool edge;
	} names[] = {
		{ "MEM_UOPS_RETIRED:ALL_LOADS", 0x81d0, 0, false },
		{ "MEM_LOAD_UOPS_RETIRED:L1_MISS", 0x08d1, 0, false },
		{ "MEM_LOAD_UOPS_RETIRED:L2_MISS", 0x10d1, 0, false },
		{ "MEM_LOAD_UOPS_RETIRED:L1_HIT", 0x01d1, 0, false },
		{ "ROB_MISC_EVENTS:LBR_INSERTS", 0x20cc, 0, false },
		{ "BR_INST_RETIRED:NEAR_CALL", 0x02c4, 0, false },
		{ "BR_INST_RETIRED:NOT_TAKEN", 0x10c4, 0, false },
		{ "BR_INST_RETIRED:NEAR_RETURN", 0x08c4, 0, false },
		{ "BR_MISP_RETIRED", 0x00c5, 0, false },
		{ "RTM_RETIRED:START", 0x01c9, 0, false },
		{ "HLE_RETIRED:ABORTED", 0x04c8, 0, false },
		{ "l2_lines_in:any", 0x07f1, 0, false },
		{ "l1d_pend_miss:occurrences", 0x0148, 1, true },
		{ "cycle_activity:stalls_l1d_pending", 0x0ca3, 12, false },
		{ "inst_retired:any_p", 0x00c0, 0, false },
		{ "uops_retired:any", 0x01c2, 0, false },
		{ "branches", 0x00c4, 0, false },
		{ "branch-misses", 0x00c5, 0, false },
		{ "cycles", 0x003c, 0, false },
		{ "instructions", 0x00c0, 0, false },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(parse(names[i].name, "haswell"), 1);
		expect_event(0, names[i].code, names[i].cmask, names[i].edge, false);
	}
}

/* A:B and a.b, any case; codes that differ per microarchitecture. */
static void test_spellings_and_uarch(void **state)
{
	(void)state;
	assert_int_equal(parse("mem_uops_retired.all_loads,MEM_UOPS_RETIRED.ALL_LOADS,"
			       "Mem_Uops_Retired:All_Loads:u",
			       "haswell"),
			 3);
	for (unsigned i = 0; i < 3; i++)
		expect_event(i, 0x81d0, 0, false, false);
	assert_true(events[2].usr && !events[2].os);

	assert_int_equal(parse("cycle_activity.stalls_l1d_pending", "sandybridge"), 1);
	expect_event(0, 0x06a3, 6, false, false);
	assert_int_equal(parse("cycle_activity.stalls_l1d_pending", "ivybridge"), 1);
	expect_event(0, 0x0ca3, 12, false, false);
	assert_int_equal(parse("dtlb_load_misses.walk_completed", "sandybridge"), 1);
	expect_event(0, 0x0208, 0, false, false);
	assert_int_equal(parse("dtlb_load_misses.walk_completed", "haswell"), 1);
	expect_event(0, 0x0e08, 0, false, false);
	assert_int_equal(parse("mem_load_retired.fb_hit", "skylake"), 1);
	expect_event(0, 0x40d1, 0, false, false);

	/* The table says which entries are for which microarchitectures. */
	for (const struct event_name *e = event_names; e->name; e++) {
		bool elsewhere;

		assert_true(e->uarchs < UARCH_BIT(UARCH_SKYLAKE + 1));
		if (e->uarchs & UARCH_BIT(UARCH_HASWELL))
			assert_ptr_equal(event_name_lookup(e->name, strlen(e->name),
							   uarch_by_name("haswell"), &elsewhere),
					 e);
	}
}

/* The reverse lookup names what parsing gave, per microarchitecture, and only full names. */
static void test_name_for_event(void **state)
{
	(void)state;
	assert_int_equal(parse("r81d0,l1d_pend_miss.occurrences,cycle_activity.stalls_l1d_pending,"
			       "r1234",
			       "ivybridge"),
			 4);
	assert_string_equal(event_name_for(&events[0], uarch_by_name("ivybridge")),
			    "MEM_UOPS_RETIRED:ALL_LOADS");
	/* Same code as L1D_PEND_MISS:PENDING; the counter mask and edge tell them apart. */
	assert_string_equal(event_name_for(&events[1], uarch_by_name("ivybridge")),
			    "L1D_PEND_MISS:OCCURRENCES");
	assert_string_equal(event_name_for(&events[2], uarch_by_name("ivybridge")),
			    "CYCLE_ACTIVITY:STALLS_L1D_PENDING");
	/* Ivy Bridge's encoding is another event on Sandy Bridge. */
	const char *snb = event_name_for(&events[2], uarch_by_name("sandybridge"));
	assert_true(snb == NULL || strcmp(snb, "CYCLE_ACTIVITY:STALLS_L1D_PENDING") != 0);
	assert_null(event_name_for(&events[3], uarch_by_name("ivybridge")));
}

static void test_groups(void **state)
{
	(void)state;
	assert_int_equal(parse("{r81d0,r08d1:u},r20cc,{branches}:D", "haswell"), 4);
	assert_int_equal(events[0].group, 0);
	assert_int_equal(events[1].group, 0);
	assert_int_equal(events[2].group, 1);
	assert_int_equal(events[3].group, 2);
	assert_false(events[0].pinned);
	assert_true(events[3].pinned);
	assert_string_equal(events[1].name, "r08d1:u");

	/* Group modifiers apply to the members, a member's own u/k wins. */
	assert_int_equal(parse("{r81d0:u,r20cc,l1d_pend_miss.pending}:kD", "haswell"), 3);
	assert_true(events[0].usr && !events[0].os);
	assert_true(!events[1].usr && events[1].os);
	assert_true(events[2].pinned && events[0].pinned);
}

/* Bad input: the message names the bad part, and offset/length point at it. */
static void expect_error(const char *text, const char *uarch, const char *message, unsigned offset,
			 unsigned length)
{
	assert_int_equal(event_parse_list(text, uarch_by_name(uarch), events, 8, &error), -1);
	if (strcmp(error.message, message) != 0)
		print_error("'%s': got \"%s\"\n", text, error.message);
	assert_string_equal(error.message, message);
	assert_int_equal(error.offset, offset);
	assert_int_equal(error.length, length);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", "haswell", "empty event list", 0, 0);
	expect_error("r81d0,foo:u", "haswell", "unknown event 'foo'", 6, 3);
	expect_error("MEM_UOPS_RETIRED:FOO", "haswell",
		     "unknown unit mask 'FOO' of event 'MEM_UOPS_RETIRED'", 17, 3);
	expect_error("mem_uops_retired.all_loadz", "haswell",
		     "unknown unit mask 'all_loadz' of event 'mem_uops_retired'", 17, 9);
	expect_error("rtm_retired:start", "sandybridge",
		     "event 'rtm_retired:start' does not exist on Sandy Bridge", 0, 17);
	expect_error("r81d0:x", "haswell", "unknown modifier 'x' (use u, k, D)", 6, 1);
	expect_error("r81d0:pp", "haswell",
		     "modifier 'p': precise sampling does not apply to counting (use u, k, D)", 6,
		     1);
	expect_error("r81d0:", "haswell", "empty modifier after ':'", 6, 0);
	expect_error("r100000000", "haswell",
		     "raw event 'r100000000' sets pin control or bits above 31 of PERFEVTSEL", 0,
		     10);
	expect_error("r81d0,", "haswell", "missing event after the last ','", 6, 0);
	expect_error("r81d0,,r20cc", "haswell", "missing event", 6, 0);
	expect_error("{r81d0,r20cc", "haswell", "missing '}' to close the group '{r81d0,r20cc'", 0,
		     12);
	expect_error("{r81d0,{r20cc}}", "haswell", "groups cannot nest: '{'", 7, 1);
	expect_error("{}", "haswell", "empty group '{}'", 0, 2);
	expect_error("{r81d0:D,r20cc}", "haswell",
		     "pinned (D) applies to a whole group: in 'r81d0:D' write it after the '}'", 1,
		     7);
	expect_error("r81d0}", "haswell", "unexpected '}' (events are separated by ',')", 5, 1);
	expect_error("cpu/event=0xd0,umask=0x181/", "haswell",
		     "value '0x181' of 'umask' does not fit in 8 bits", 21, 5);
	expect_error("cpu/event=0xd0", "haswell", "missing '/' to close 'cpu/'", 0, 4);
	expect_error("cpu/event=0xd0,foo=1/", "haswell",
		     "unknown term 'foo' (event, umask, cmask, inv, edge, any, config)", 15, 3);
	expect_error("cpu/umask=0x81/", "haswell", "'cpu/umask=0x81/' needs event= (or config=)", 0,
		     15);
	expect_error("cpu/event=0xzz/", "haswell", "bad number '0xzz' (decimal or 0x-hexadecimal)",
		     10, 4);
	expect_error("cpu/event/", "haswell", "term 'event' needs a value (=N)", 4, 5);
	expect_error("uncore/event=1/", "haswell", "unknown PMU 'uncore' (only cpu/.../ is known)",
		     0, 6);
	expect_error("r81d0,faults", "haswell",
		     "software event 'faults' is not counted by the core PMU", 6, 6);
	expect_error("r1,r2,r3,r4,r5,r6,r7,r8,r9", "haswell", "too many events: at most 8", 24, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_pmu_syntax),
		cmocka_unit_test(test_thesis_names),
		cmocka_unit_test(test_spellings_and_uarch),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_name_for_event),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
