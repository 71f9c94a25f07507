// SPDX-License-Identifier: GPL-2.0
/*
 * libpfm4 (Debian's libpfm4-dev, 4.13) as an independent oracle: for every name both it and we
 * know on a part, the same PERFEVTSEL selection bits (event, unit mask, edge, any, inv, cmask).
 * libpfm4 is asked with its own PMU prefix ("hsw::UOPS_ISSUED:ANY") and LIBPFM_FORCE_PMU, so the
 * host's CPU does not matter. Its known differences are listed below with the reason; a
 * difference not listed, or a listed one that no longer occurs, fails the test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <perfmon/pfmlib.h>

#include "pmu/event_names.h"
#include "pmu/event_parse.h"
#include "pmu/event_table.h"
#include "pmu/regs.h"

/* The bits that select what is counted: event, unit mask, edge, any, inv, cmask (SDM fig. 18-1). */
#define SELECTION_BITS                                                                             \
	(PERFEVTSEL_EVENT_MASK | PERFEVTSEL_UMASK_MASK | PERFEVTSEL_EDGE | PERFEVTSEL_ANY |        \
	 PERFEVTSEL_INV | PERFEVTSEL_CMASK_MASK)

/* Our parts and libpfm4's PMUs (pfm_get_pmu_info names). */
static const struct {
	const char *part, *pmu;
} pmus[] = {
	{ "sandybridge", "snb" },    { "sandybridge-x", "snb_ep" }, { "ivybridge", "ivb" },
	{ "ivybridge-x", "ivb_ep" }, { "haswell", "hsw" },	    { "haswell-x", "hsw_ep" },
	{ "broadwell", "bdw" },	     { "broadwell-x", "bdw_ep" },   { "skylake", "skl" },
	{ "skylake-x", "skx" },
};

/* A known difference: the parts (a prefix: "haswell" is Haswell and Haswell-EP), our name, why. */
struct known {
	const char *parts, *name, *reason;
	unsigned seen;
};

/* libpfm4 4.13 against Intel's files of perfmon 6dadedf3: ours are Intel's in every case. */
static struct known known[] = {
	{ "sandybridge", "BR_INST_RETIRED.ALL_BRANCHES",
	  "libpfm4 encodes Sandy Bridge's ALL_BRANCHES with unit mask 0x04 (Intel's "
	  "ALL_BRANCHES_PEBS); "
	  "Intel's file says 0x00",
	  0 },
	{ "sandybridge", "BR_MISP_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED's likewise", 0 },
	{ "sandybridge", "BR_INST_RETIRED", "libpfm4's default unit mask is its ALL_BRANCHES, 0x04",
	  0 },
	{ "sandybridge", "BR_MISP_RETIRED", "libpfm4's default unit mask is its ALL_BRANCHES, 0x04",
	  0 },
	{ "ivybridge", "MOVE_ELIMINATION.INT_ELIMINATED",
	  "libpfm4 swaps the unit masks of INT_ELIMINATED (Intel: 0x01) and INT_NOT_ELIMINATED "
	  "(0x04)",
	  0 },
	{ "ivybridge", "MOVE_ELIMINATION.INT_NOT_ELIMINATED",
	  "libpfm4 swaps the unit masks of INT_ELIMINATED and INT_NOT_ELIMINATED", 0 },
	{ "ivybridge-x", "MEM_LOAD_UOPS_LLC_MISS_RETIRED.LOCAL_DRAM",
	  "Intel's Ivy Bridge-EP file says unit mask 0x03 (its client file 0x01); libpfm4 has 0x01 "
	  "for "
	  "both",
	  0 },
	{ "haswell", "L2_RQSTS.DEMAND_DATA_RD_HIT",
	  "libpfm4 keeps the older unit masks of the L2_RQSTS hits (0x41, 0x42, 0x44), Intel's "
	  "file "
	  "0xC1, 0xC2, 0xC4",
	  0 },
	{ "haswell", "L2_RQSTS.RFO_HIT", "libpfm4's older unit mask 0x42, Intel's 0xC2", 0 },
	{ "haswell", "L2_RQSTS.CODE_RD_HIT", "libpfm4's older unit mask 0x44, Intel's 0xC4", 0 },
	{ "haswell", "L2_RQSTS.L2_PF_HIT", "libpfm4 0xD8, Intel's file 0xD0", 0 },
	{ "haswell", "L2_RQSTS.L2_PF_MISS", "libpfm4 0x38, Intel's file 0x30", 0 },
	{ "haswell", "UOPS_RETIRED.TOTAL_CYCLES",
	  "libpfm4 uses Sandy Bridge's counter mask 10, Intel's file 16 from Haswell on", 0 },
	{ "broadwell", "L2_RQSTS.DEMAND_DATA_RD_HIT", "as on Haswell", 0 },
	{ "broadwell", "L2_RQSTS.RFO_HIT", "as on Haswell", 0 },
	{ "broadwell", "L2_RQSTS.CODE_RD_HIT", "as on Haswell", 0 },
	{ "broadwell", "L2_RQSTS.L2_PF_HIT", "as on Haswell", 0 },
	{ "broadwell", "L2_RQSTS.L2_PF_MISS", "as on Haswell", 0 },
	{ "broadwell", "UOPS_RETIRED.TOTAL_CYCLES", "as on Haswell", 0 },
	{ "skylake", "UOPS_RETIRED.STALL_CYCLES",
	  "Intel's Skylake files count retire slots (unit mask 0x02) here, libpfm4 uops (0x01)",
	  0 },
	{ "skylake", "UOPS_RETIRED.TOTAL_CYCLES",
	  "Intel's Skylake files: retire slots (0x02), counter mask 16; libpfm4: uops (0x01), 10",
	  0 },
	{ NULL, NULL, NULL, 0 },
};

static struct known *known_difference(const char *part, const char *name)
{
	for (struct known *k = known; k->name; k++)
		if (!strncmp(k->parts, part, strlen(k->parts)) && !strcmp(k->name, name))
			return k;
	return NULL;
}

/* Intel's name as libpfm4 writes it: ':' for the first '.', '_' for the others. */
static void libpfm4_name(const char *pmu, const char *name, char *out, size_t size)
{
	char *c;

	snprintf(out, size, "%s::%s", pmu, name);
	c = strchr(out + strlen(pmu) + 2, '.');
	if (c)
		*c = ':';
	while ((c = strchr(out, '.')))
		*c = '_';
}

/* libpfm4's selection bits for name, or false when libpfm4 does not know the name. */
static bool libpfm4_encode(const char *name, uint64_t *selection)
{
	uint64_t *codes = NULL;
	int count = 0;
	int r = pfm_get_event_encoding(name, PFM_PLM3, NULL, NULL, &codes, &count);

	if (r == PFM_SUCCESS && count >= 1)
		*selection = codes[0] & SELECTION_BITS;
	free(codes);
	return r == PFM_SUCCESS && count >= 1;
}

static uint64_t our_selection(const struct pmu_event *e)
{
	return regs_perfevtsel(e, 0) & SELECTION_BITS;
}

struct tally {
	unsigned both, differ, unknown_to_libpfm4;
};

/* One of our names (Intel's, or a libpfm4 alias) on part u against libpfm4's PMU. */
static void compare(const struct uarch *u, const char *pmu, const char *name, struct tally *t)
{
	char pfm[160];
	uint64_t theirs, ours;
	struct pmu_event e;
	struct event_parse_error error;
	struct known *k;

	unsigned n;

	if (!event_parse_list(name, u, &e, 1, &n, &error))
		return; /* refused here (needs an MSR) */
	libpfm4_name(pmu, name, pfm, sizeof(pfm));
	if (!libpfm4_encode(pfm, &theirs)) {
		t->unknown_to_libpfm4++;
		return;
	}
	t->both++;
	ours = our_selection(&e);
	if (ours == theirs)
		return;
	t->differ++;
	k = known_difference(u->part, name);
	print_message("  %-13s %-45s ours 0x%08llx, libpfm4 0x%08llx%s%s\n", u->part, name,
		      (unsigned long long)ours, (unsigned long long)theirs, k ? ": " : " (NEW)",
		      k ? k->reason : "");
	assert_non_null(k);
	k->seen++;
}

static void test_same_encodings(void **state)
{
	(void)state;
	for (unsigned p = 0; p < sizeof(pmus) / sizeof(pmus[0]); p++) {
		const struct uarch *u = uarch_by_name(pmus[p].part);
		struct tally t = { 0, 0, 0 };
		struct event_iter it;
		struct event_info info;

		assert_non_null(u);
		setenv("LIBPFM_FORCE_PMU", pmus[p].pmu, 1);
		assert_int_equal(pfm_initialize(), PFM_SUCCESS);
		for (event_iter_start(&it, u); event_iter_next(&it, &info);)
			if (info.fixed <
			    0) /* libpfm4 has no pseudo code for Intel's fixed-only events */
				compare(u, pmus[p].pmu, info.name, &t);
		for (const struct event_alias *a = event_aliases; a->name; a++)
			compare(u, pmus[p].pmu, a->name, &t);
		pfm_terminate();
		print_message("  %-13s libpfm4 %-6s: %u names both know, %u differ; %u of ours "
			      "unknown to libpfm4\n",
			      u->part, pmus[p].pmu, t.both, t.differ, t.unknown_to_libpfm4);
		assert_true(t.both > 200);
	}
	for (struct known *k = known; k->name; k++)
		if (!k->seen)
			print_error("listed difference not seen: %s %s\n", k->parts, k->name);
	for (struct known *k = known; k->name; k++)
		assert_int_not_equal(k->seen, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_encodings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
