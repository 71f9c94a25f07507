// SPDX-License-Identifier: GPL-2.0
/*
 * Every event of Intel's files (pmu/intel_core_events.txt, read here as text, independently of the
 * C tables made from it) against the parser the kernel and schedsim run: each encodable core event
 * (one event select, no extra MSR) parses by its Intel name, in perf's and libpfm4's spellings
 * too, and encodes exactly as Intel's fields say, on every part; the events that need an MSR the
 * kernel does not program are refused with the MSR's name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/event_names.h"
#include "pmu/event_parse.h"
#include "pmu/event_table.h"
#include "pmu/regs.h"
#include "pmu/uarch.h"
#include "pmu/uarch_constraint.h"

#define MAX_LINES 8192
#define MAX_PARTS 16

/* One event line of the table, as its fields read. */
struct line {
	char part[32], name[80], event[16], counters[24], counters_ht_off[24], msr[24], errata[64];
	unsigned umask, cmask, inv, edge, any;
};

static struct line lines[MAX_LINES];
static unsigned nlines;

static int load_table(void **state)
{
	char text[512];
	FILE *f = fopen(INTEL_EVENTS_TABLE, "r");

	(void)state;
	if (!f) {
		print_error("cannot open %s\n", INTEL_EVENTS_TABLE);
		return -1;
	}
	while (fgets(text, sizeof(text), f)) {
		struct line *l = &lines[nlines];
		char pebs[8], taken[8], offcore[8], msr_value[24], deprecated[8];

		if (text[0] == '#' || !strncmp(text, "perfmon ", 8) || !strncmp(text, "part ", 5))
			continue;
		if (nlines >= MAX_LINES ||
		    sscanf(text,
			   "%31s %79s %15s %x %u %u %u %u %23s %23s %7s %7s %7s %23s %23s %7s %63s",
			   l->part, l->name, l->event, &l->umask, &l->cmask, &l->inv, &l->edge,
			   &l->any, l->counters, l->counters_ht_off, pebs, taken, offcore, l->msr,
			   msr_value, deprecated, l->errata) != 17) {
			print_error("bad line: %s", text);
			fclose(f);
			return -1;
		}
		nlines++;
	}
	fclose(f);
	return nlines ? 0 : -1;
}

/* "0,1,2,3" -> 0xf; "fixedN" -> 0. */
static unsigned mask_of(const char *counters)
{
	unsigned mask = 0;

	if (!strncmp(counters, "fixed", 5))
		return 0;
	for (const char *p = counters; *p; p++)
		if (*p >= '0' && *p <= '7')
			mask |= 1u << (*p - '0');
	return mask;
}

/* Whether text parses on u as exactly one event, into *e. */
static bool parse_one(const char *text, const struct uarch *u, struct pmu_event *e,
		      struct event_parse_error *error)
{
	unsigned n;

	return event_parse_list(text, u, e, 1, &n, error) && n == 1;
}

/* name as perf writes it (lower case) and as libpfm4 does (':' for the first '.'). */
static void spellings(const char *name, char *perf, char *libpfm4, size_t size)
{
	snprintf(perf, size, "%s", name);
	snprintf(libpfm4, size, "%s", name);
	for (char *c = perf; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	*strchr(libpfm4, '.') = ':';
}

/* Intel's fields of l, as PERFEVTSEL selects them. */
static void expect_encoding(const struct line *l, const struct uarch *u, const struct pmu_event *e)
{
	unsigned fixed = !strncmp(l->counters, "fixed", 5);

	if (fixed) {
		/* Intel's fixed counter N is event 0x00, unit mask N + 1; the scheduler knows the
		 * event by its code (pmu/regs.h), which must put it on that fixed counter. */
		uint16_t code = regs_fixed_event_code(l->umask - 1);
		struct constraint c = uarch_constraint(u, e, uarch_gp(u, true), u->fixed);

		assert_int_equal(pmu_event_code(e), code);
		assert_true(c.mask & PMU_FIXED_BIT(l->umask - 1));
	} else {
		assert_int_equal(e->event, strtoul(l->event, NULL, 16));
		assert_int_equal(e->umask, l->umask);
	}
	assert_int_equal(e->cmask, l->cmask);
	assert_int_equal(e->inv, l->inv);
	assert_int_equal(e->edge, l->edge);
	assert_int_equal(e->any, l->any);
}

struct part_count {
	const struct uarch *u;
	unsigned encodable, parsed, msr, offcore;
};

static struct part_count *count_for(struct part_count *counts, unsigned *n, const struct uarch *u)
{
	for (unsigned i = 0; i < *n; i++)
		if (counts[i].u == u)
			return &counts[i];
	assert_true(*n < MAX_PARTS);
	counts[*n].u = u;
	return &counts[(*n)++];
}

/* The test: all of them, on all parts, by name. */
static void test_every_event_parses(void **state)
{
	struct part_count counts[MAX_PARTS];
	unsigned nparts = 0;

	(void)state;
	memset(counts, 0, sizeof(counts));
	for (unsigned i = 0; i < nlines; i++) {
		const struct line *l = &lines[i];
		const struct uarch *u = uarch_by_name(l->part);
		struct part_count *c;
		struct event_parse_error error;
		struct pmu_event e;
		char perf[96], libpfm4[96];

		if (!u)
			print_error("part %s has no struct uarch\n", l->part);
		assert_non_null(u);
		c = count_for(counts, &nparts, u);
		if (strchr(l->event, ',')) {
			/* Two event selects: OFFCORE_RESPONSE, MSR_OFFCORE_RSP_0/1. */
			c->offcore++;
			assert_false(parse_one(l->name, u, &e, &error));
			assert_non_null(strstr(error.message, "MSR_OFFCORE_RSP_0/1"));
			continue;
		}
		if (strcmp(l->msr, "-")) {
			c->msr++;
			assert_false(parse_one(l->name, u, &e, &error));
			assert_non_null(strstr(error.message,
					       strcmp(l->msr, "0x3f6") ? "(0x3F7)" : "(0x3F6)"));
			continue;
		}
		c->encodable++;
		spellings(l->name, perf, libpfm4, sizeof(perf));
		if (!parse_one(l->name, u, &e, &error))
			print_error("%s on %s: %s\n", l->name, l->part, error.message);
		assert_true(parse_one(l->name, u, &e, &error));
		expect_encoding(l, u, &e);
		assert_true(parse_one(perf, u, &e, &error));
		expect_encoding(l, u, &e);
		assert_true(parse_one(libpfm4, u, &e, &error));
		expect_encoding(l, u, &e);
		c->parsed++;
	}
	for (unsigned i = 0; i < nparts; i++)
		print_message("  %-14s %3u encodable, %3u parse; refused: %2u need an extra MSR, "
			      "%3u offcore response\n",
			      counts[i].u->part, counts[i].encodable, counts[i].parsed,
			      counts[i].msr, counts[i].offcore);
	assert_int_equal(nparts, 10);
}

/* The C tables hold what the text says: counters with HT on and off, errata. */
static void test_tables_match_text(void **state)
{
	(void)state;
	for (unsigned i = 0; i < nlines; i++) {
		const struct line *l = &lines[i];
		const struct uarch *u = uarch_by_name(l->part);
		struct event_info info;

		if (strchr(l->event, ','))
			continue;
		assert_true(event_table_find(u, l->name, strlen(l->name), &info));
		assert_string_equal(info.name, l->name);
		assert_int_equal(info.counters, mask_of(l->counters));
		assert_int_equal(info.counters_ht_off, mask_of(l->counters_ht_off));
		if (strcmp(l->errata, "-"))
			assert_string_equal(info.errata, l->errata);
		else
			assert_null(info.errata);
	}
}

/*
 * What uarch_constraint() relies on, and Intel's one inconsistency: an event Intel pins to fewer
 * than the bottom four counters keeps them with HT off; Intel's fixed counter N has unit mask
 * N + 1, except Jaketown's CPU_CLK_UNHALTED.THREAD_ANY, which says "Fixed counter 2" with fixed
 * counter 1's unit mask (the encoding follows the unit mask, as on every other part).
 */
static void test_intel_fields_consistent(void **state)
{
	unsigned inconsistent = 0;

	(void)state;
	for (unsigned i = 0; i < nlines; i++) {
		const struct line *l = &lines[i];
		unsigned on = mask_of(l->counters);

		if (!strncmp(l->counters, "fixed", 5)) {
			if ((unsigned)(l->counters[5] - '0') != l->umask - 1) {
				assert_string_equal(l->part, "sandybridge-x");
				assert_string_equal(l->name, "CPU_CLK_UNHALTED.THREAD_ANY");
				inconsistent++;
			}
			continue;
		}
		if ((on & 0xf) != 0xf)
			assert_int_equal(mask_of(l->counters_ht_off), on);
	}
	assert_int_equal(inconsistent, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_event_parses),
		cmocka_unit_test(test_tables_match_text),
		cmocka_unit_test(test_intel_fields_consistent),
	};
	return cmocka_run_group_tests(tests, load_table, NULL);
}
