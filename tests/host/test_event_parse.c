// SPDX-License-Identifier: GPL-2.0
/*
 * The event-list parser (pmu/event_parse.c) and the names (pmu/event_names.c, the parts' own in
 * pmu/uarch_tables.c, Intel's tables): the syntaxes users type, the events of the thesis and the
 * Linux article, perf's generic names as Linux maps them per microarchitecture, the modifiers, and
 * the messages for bad input, which must point at the bad part. (Every Intel event of every part:
 * test_intel_events.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/event_names.h"
#include "pmu/event_parse.h"
#include "pmu/event_table.h"
#include "tests/host/lib/test_util.h"

static struct pmu_event events[16];
static struct event_parse_error error;

/* The number of events text parses into on uarch, or -1 (for the tables below) when refused. */
static int parse(const char *text, const char *uarch)
{
	unsigned n;

	if (event_parse_list(text, uarch ? uarch_by_name(uarch) : NULL, events, 8, &n, &error))
		return (int)n;
	print_message("  '%s' on %s: %s\n", text, uarch ? uarch : "NULL", error.message);
	return -1;
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

/* What people paste from perf (issue 20): name=, an event's name alone inside cpu/.../, and the
 * precise modifiers, which counting accepts and ignores as perf stat does. */
static void test_perf_forms(void **state)
{
	(void)state;
	assert_int_equal(parse("cpu/event=0xd0,umask=0x81,name=loads/u", "haswell"), 1);
	expect_event(0, 0x81d0, 0, false, false);
	assert_string_equal(events[0].name, "loads");
	assert_true(events[0].usr && !events[0].os);
	assert_int_equal(parse("cpu/cycles/,cpu/instructions/u", "haswell"), 2);
	expect_event(0, 0x003c, 0, false, false);
	expect_event(1, 0x00c0, 0, false, false);
	assert_string_equal(events[1].name, "cpu/instructions/u");
	assert_true(events[1].usr && !events[1].os);
	assert_int_equal(parse("cpu/branch-misses,cmask=1/", "haswell"), 1);
	expect_event(0, 0x00c5, 1, false, false);
	assert_int_equal(parse("r81d0:pp,branches:p,cycles:P,{r20cc,r00c4}:upp", "haswell"), 5);
	assert_int_equal(events[0].precise, 2);
	assert_int_equal(events[1].precise, 1);
	assert_int_equal(events[2].precise, 3);
	assert_int_equal(events[3].precise, 0); /* a group's p letters: the group is not precise */
	expect_event(0, 0x81d0, 0, false, false);
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
	assert_int_equal(parse("DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK", "haswell"), 1);
	expect_event(0, 0x0108, 0, false, false);
	/* Two dots: the longest name that exists wins, modifiers follow. */
	assert_int_equal(parse("IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE:u", "haswell"), 1);
	expect_event(0, 0x019c, 4, false, false);
	assert_true(events[0].usr && !events[0].os);
	assert_int_equal(parse("mem_load_retired.fb_hit", "skylake"), 1);
	expect_event(0, 0x40d1, 0, false, false);

	/* The same name on the client and the server part of Ivy Bridge: Intel encodes
	 * MEM_LOAD_UOPS_LLC_MISS_RETIRED.LOCAL_DRAM with unit mask 0x01 on the client, 0x03 on
	 * Ivy Bridge-EP. */
	assert_int_equal(parse("mem_load_uops_llc_miss_retired.local_dram", "ivybridge"), 1);
	expect_event(0, 0x01d3, 0, false, false);
	assert_int_equal(parse("mem_load_uops_llc_miss_retired.local_dram", "ivybridge-x"), 1);
	expect_event(0, 0x03d3, 0, false, false);
	/* Server-only names exist on the server part only. */
	assert_int_equal(parse("MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_DRAM", "haswell-x"), 1);
	expect_event(0, 0x04d3, 0, false, false);
	assert_int_equal(parse("MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_DRAM", "haswell"), -1);

	/* No part has a hand-written name twice: the second would never be found. */
	for (const struct uarch *const *u = uarch_all; *u; u++) {
		const struct event_name *a, *b;

		for (unsigned i = 0; (a = event_name_hand_written(*u, i)); i++)
			for (unsigned j = 0; j < i; j++) {
				b = event_name_hand_written(*u, j);
				assert_false(event_name_equal(a->name, b->name, strlen(b->name)));
			}
	}
}

/* The hand-written names of a part: perf's common ones first, then its own; without a part, the
 * common ones only. */
static void test_hand_written_names(void **state)
{
	const struct uarch *ivb = uarch_by_name("ivybridge");
	unsigned common = 0;

	(void)state;
	while (event_names_common[common].name)
		common++;
	assert_true(common > 0);
	for (unsigned i = 0; i < common; i++) {
		assert_ptr_equal(event_name_hand_written(NULL, i), &event_names_common[i]);
		assert_ptr_equal(event_name_hand_written(ivb, i), &event_names_common[i]);
	}
	assert_null(event_name_hand_written(NULL, common));
	assert_ptr_equal(event_name_hand_written(ivb, common), &ivb->event_names[0]);
	assert_string_equal(event_name_hand_written(ivb, common)->name, "stalled-cycles-frontend");
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
			    "MEM_UOPS_RETIRED.ALL_LOADS");
	/* libpfm4's OCCURRENCES is no Intel name: no name, though PENDING has the same code. */
	assert_null(event_name_for(&events[1], uarch_by_name("ivybridge")));
	events[1].edge = false;
	assert_string_equal(event_name_for(&events[1], uarch_by_name("ivybridge")),
			    "L1D_PEND_MISS.PENDING_CYCLES");
	/* The first of Intel's names for the encoding (0x0ca3 cmask 12 has two on Ivy Bridge). */
	assert_string_equal(event_name_for(&events[2], uarch_by_name("ivybridge")),
			    "CYCLE_ACTIVITY.STALLS_L1D_MISS");
	/* Ivy Bridge's encoding is another event on Sandy Bridge. */
	const char *snb = event_name_for(&events[2], uarch_by_name("sandybridge"));
	assert_true(snb == NULL || strncmp(snb, "CYCLE_ACTIVITY.STALLS_L1D", 25) != 0);
	assert_null(event_name_for(&events[3], uarch_by_name("ivybridge")));
	/* Where no Intel table is imported, the architectural names. */
	events[0] = ev(0x412e, true, true);
	assert_string_equal(event_name_for(&events[0], uarch_by_name("icelake")),
			    "LONGEST_LAT_CACHE.MISS");
	assert_null(event_name_for(&events[0], NULL));
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
	unsigned n = 1;

	assert_false(
		event_parse_list(text, uarch ? uarch_by_name(uarch) : NULL, events, 8, &n, &error));
	assert_int_equal(n, 0);
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
		     "unknown unit mask 'FOO' of event 'MEM_UOPS_RETIRED' (Haswell has: ALL_LOADS, "
		     "ALL_STORES, LOCK_LOADS, SPLIT_LOADS, SPLIT_STORES, STLB_MISS_LOADS, "
		     "STLB_MISS_STORES)",
		     17, 3);
	expect_error(
		"rtm_retired:start", "sandybridge",
		"event 'rtm_retired:start' does not exist on Sandy Bridge (it does on Haswell)", 0,
		17);
	expect_error("r81d0:x", "haswell",
		     "unknown modifier 'x' (use u, k, D, p, cmask=N, inv, edge)", 6, 1);
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
		     "unknown term 'foo' (event, umask, cmask, inv, edge, any, config, name, or an "
		     "event's name alone)",
		     15, 3);
	expect_error("cpu/event=0xd0,foo/", "haswell",
		     "unknown term or event 'foo' (event, umask, cmask, inv, edge, any, config, "
		     "name, or an event's name alone)",
		     15, 3);
	expect_error("cpu/event=0xd0,name=/", "haswell", "term 'name' needs a value (=WORD)", 15,
		     4);
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
	expect_error("r81d0:cmask=256", "haswell", "value of 'cmask=256' does not fit in 8 bits", 6,
		     9);
	expect_error("r81d0:cmask", "haswell", "modifier 'cmask' needs a value (cmask=N)", 6, 5);
	expect_error("r81d0:inv=2", "haswell", "value of 'inv=2' is neither 0 nor 1", 6, 5);
	expect_error("{r81d0}:cmask=1", "haswell",
		     "modifier 'cmask=1' applies to one event: write it after the event, not after "
		     "a group's '}' or a cpu/.../ event",
		     8, 7);
}

/* The messages: an unknown unit mask says so and lists the event's unit masks (not an
 * "unknown modifier"), an unknown event gets the closest names, a refused one the reason. */
static void test_error_messages(void **state)
{
	(void)state;
	/* BR_INST_RETIRED alone is libpfm4's name; COND is no modifier but a wrong unit mask. */
	expect_error("BR_INST_RETIRED:COND", "haswell",
		     "unknown unit mask 'COND' of event 'BR_INST_RETIRED' (Haswell has: "
		     "ALL_BRANCHES, ALL_BRANCHES_PEBS, CONDITIONAL, FAR_BRANCH, NEAR_CALL, "
		     "NEAR_CALL_R3, NEAR_RETURN, NEAR_TAKEN, NOT_TAKEN)",
		     16, 4);
	expect_error("mem_uops_retired.all_loadz:u", "haswell",
		     "unknown unit mask 'all_loadz' of event 'mem_uops_retired' (Haswell has: "
		     "ALL_LOADS, ALL_STORES, LOCK_LOADS, SPLIT_LOADS, SPLIT_STORES, "
		     "STLB_MISS_LOADS, STLB_MISS_STORES)",
		     17, 9);
	/* Sandy Bridge documents no L1_MISS (the review's finding): its own unit masks. */
	expect_error("MEM_LOAD_UOPS_RETIRED.L1_MISS", "sandybridge",
		     "unknown unit mask 'L1_MISS' of event 'MEM_LOAD_UOPS_RETIRED' (Sandy Bridge "
		     "has: HIT_LFB, L1_HIT, L2_HIT, LLC_HIT)",
		     22, 7);
	expect_error("UOPS_ISSUE.ANY", "haswell",
		     "unknown event 'UOPS_ISSUE.ANY' (closest: UOPS_ISSUED.ANY)", 0, 14);
	expect_error("brnach-misses", "haswell",
		     "unknown event 'brnach-misses' (closest: branch-misses)", 0, 13);
	expect_error("L1-dcache-lod-misses:u", "skylake",
		     "unknown event 'L1-dcache-lod-misses' (closest: L1-dcache-load-misses, "
		     "L1-icache-load-misses)",
		     0, 20);
	expect_error("LLC-loads", "haswell",
		     "event 'LLC-loads' needs an offcore response MSR (MSR_OFFCORE_RSP_0/1), which "
		     "this kernel does not program",
		     0, 9);
	expect_error("OFFCORE_RESPONSE.ALL_DATA_RD.LLC_HIT.ANY_RESPONSE", "haswell",
		     "event 'OFFCORE_RESPONSE.ALL_DATA_RD.LLC_HIT.ANY_RESPONSE' needs an offcore "
		     "response MSR (MSR_OFFCORE_RSP_0/1), which this kernel does not program",
		     0, 49);
	expect_error("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "ivybridge",
		     "event 'MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4' needs MSR_PEBS_LD_LAT_THRESHOLD "
		     "(0x3F6) and PEBS, which this kernel does not program",
		     0, 35);
	expect_error("FRONTEND_RETIRED.DSB_MISS", "skylake",
		     "event 'FRONTEND_RETIRED.DSB_MISS' needs MSR_PEBS_FRONTEND (0x3F7) and PEBS, "
		     "which this kernel does not program",
		     0, 25);
	expect_error(
		"L1-dcache-store-misses", "haswell",
		"event 'L1-dcache-store-misses' is not defined on this microarchitecture (Linux's "
		"cache event table has no encoding for it)",
		0, 22);
	expect_error(
		"stalled-cycles-backend", "ivybridge",
		"event 'stalled-cycles-backend' does not exist on Ivy Bridge (it does on Sandy "
		"Bridge)",
		0, 22);
	/* Skylake's L2_LINES_IN has unit masks ALL (0x1F) and a few others, not I/S/E. */
	assert_int_equal(parse("L2_LINES_IN.ALL", "skylake"), 1);
	expect_event(0, 0x1ff1, 0, false, false);
	assert_int_equal(parse("L2_LINES_IN.I", "skylake"), -1);
	assert_non_null(strstr(error.message, "unknown unit mask 'I' of event 'L2_LINES_IN'"));
}

/* The names as users type them, and the modifiers on top. */
static void test_spellings_and_modifiers(void **state)
{
	(void)state;
	assert_int_equal(parse("UOPS_ISSUED.ANY,uops_issued.any,UOPS_ISSUED:ANY,Uops_Issued.Any:k",
			       "haswell"),
			 4);
	for (unsigned i = 0; i < 4; i++)
		expect_event(i, 0x010e, 0, false, false);
	assert_true(!events[3].usr && events[3].os);

	/* perf's stalled-cycles-frontend on Sandy Bridge, written as Intel's name and filters. */
	assert_int_equal(parse("UOPS_ISSUED.ANY:u:cmask=1:inv,uops_issued.any:cmask=0x1:inv=1:edge",
			       "sandybridge"),
			 2);
	expect_event(0, 0x010e, 1, false, true);
	assert_true(events[0].usr && !events[0].os);
	expect_event(1, 0x010e, 1, true, true);
	/* Filters over the name's own: CYCLE_ACTIVITY.STALLS_L1D_PENDING carries cmask 12. */
	assert_int_equal(parse("cycle_activity.stalls_l1d_pending:cmask=0,"
			       "l1d_pend_miss.occurrences:edge=0",
			       "haswell"),
			 2);
	expect_event(0, 0x0ca3, 0, false, false);
	expect_event(1, 0x0148, 1, false, false);
	/* ... and over raw events. */
	assert_int_equal(parse("r010e:cmask=1:inv:u", "haswell"), 1);
	expect_event(0, 0x010e, 1, false, true);
	/* The examples. */
	assert_int_equal(parse("RESOURCE_STALLS.ANY,L2_RQSTS.MISS,"
			       "DTLB_LOAD_MISSES.MISS_CAUSES_A_WALK,CYCLE_ACTIVITY.STALLS_TOTAL",
			       "skylake"),
			 4);
	expect_event(0, 0x01a2, 0, false, false);
	expect_event(1, 0x3f24, 0, false, false);
	expect_event(2, 0x0108, 0, false, false);
	expect_event(3, 0x04a3, 4, false, false);
	/* The fixed-counter-only events get the code the scheduler knows them by. */
	assert_int_equal(parse("INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD_ANY,"
			       "CPU_CLK_UNHALTED.REF_TSC",
			       "haswell"),
			 3);
	expect_event(0, 0x00c0, 0, false, false);
	expect_event(1, 0x003c, 0, false, false);
	assert_true(events[1].any);
	expect_event(2, 0x0300, 0, false, false);
}

/* perf's generic names as Linux maps them on each microarchitecture (Linux 6.1,
 * arch/x86/events/intel/core.c: intel_perfmon_event_map, intel_pmu_init, *_hw_cache_event_ids). */
static void test_generic_names(void **state)
{
	static const struct {
		const char *name, *uarch;
		int code; /* -1: refused or unknown there */
		uint8_t cmask;
		bool inv;
	} cases[] = {
		{ "cycles", "generic", 0x003c, 0, false },
		{ "instructions", "icelake", 0x00c0, 0, false },
		{ "cache-references", "haswell", 0x4f2e, 0, false },
		{ "cache-misses", "skylake", 0x412e, 0, false },
		{ "bus-cycles", "broadwell", 0x013c, 0, false },
		{ "ref-cycles", "sandybridge", 0x0300, 0, false },
		{ "stalled-cycles-frontend", "sandybridge", 0x010e, 1, true },
		{ "stalled-cycles-backend", "sandybridge-x", 0x01b1, 1, true },
		{ "stalled-cycles-frontend", "ivybridge", 0x010e, 1, true },
		{ "stalled-cycles-backend", "ivybridge", -1, 0, false },
		{ "stalled-cycles-frontend", "haswell", -1, 0, false },
		/* snb_hw_cache_event_ids: MEM_UOPS_RETIRED with umask 0xF1/0xF2. */
		{ "L1-dcache-loads", "sandybridge", 0xf1d0, 0, false },
		{ "L1-dcache-stores", "ivybridge", 0xf2d0, 0, false },
		{ "L1-dcache-store-misses", "sandybridge", 0x0851, 0, false },
		{ "dTLB-load-misses", "sandybridge", 0x0108, 0, false },
		{ "dTLB-load-misses", "ivybridge", 0x8108, 0, false }, /* Linux's IVB override */
		{ "iTLB-loads", "ivybridge-x", 0x1085, 0, false },
		/* hsw_hw_cache_event_ids: L1-dcache-loads is MEM_UOPS_RETIRED.ALL_LOADS. */
		{ "L1-dcache-loads", "haswell", 0x81d0, 0, false },
		{ "L1-dcache-load-misses", "haswell", 0x0151, 0, false },
		{ "L1-icache-load-misses", "broadwell", 0x0280, 0, false },
		{ "dTLB-store-misses", "haswell", 0x0149, 0, false },
		{ "iTLB-loads", "haswell", 0x6085, 0, false },
		{ "iTLB-load-misses", "broadwell-x", 0x0185, 0, false },
		{ "branch-loads", "haswell", 0x00c4, 0, false },
		{ "branch-load-misses", "broadwell", 0x00c5, 0, false },
		/* skl_hw_cache_event_ids; Ice Lake has no iTLB-loads. */
		{ "L1-icache-load-misses", "skylake", 0x0283, 0, false },
		{ "dTLB-load-misses", "skylake", 0x0e08, 0, false },
		{ "dTLB-store-misses", "skylake-x", 0x0e49, 0, false },
		{ "iTLB-loads", "skylake", 0x2085, 0, false },
		{ "iTLB-loads", "icelake", -1, 0, false },
		{ "iTLB-load-misses", "icelake", 0x0e85, 0, false },
		/* Linux defines no cache events for the generic PMU. */
		{ "L1-dcache-loads", "generic", -1, 0, false },
		{ "LLC-loads", "skylake", -1, 0, false },
		{ "node-stores", "sandybridge", -1, 0, false },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = parse(cases[i].name, cases[i].uarch);

		print_message("  %s on %s\n", cases[i].name, cases[i].uarch);
		if (cases[i].code < 0) {
			assert_int_equal(n, -1);
			continue;
		}
		assert_int_equal(n, 1);
		expect_event(0, (uint16_t)cases[i].code, cases[i].cmask, false, cases[i].inv);
	}
	/* Case does not matter; perf's spelling comes back in the error for another part. */
	assert_int_equal(parse("l1-DCACHE-loads", "haswell"), 1);
	/* Without a microarchitecture only the names common to all exist. */
	assert_int_equal(parse("branches", NULL), 1);
	assert_int_equal(parse("UOPS_ISSUED.ANY", NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_pmu_syntax),
		cmocka_unit_test(test_perf_forms),
		cmocka_unit_test(test_thesis_names),
		cmocka_unit_test(test_spellings_and_uarch),
		cmocka_unit_test(test_hand_written_names),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_name_for_event),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_spellings_and_modifiers),
		cmocka_unit_test(test_generic_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
