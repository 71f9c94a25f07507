// SPDX-License-Identifier: GPL-2.0
/*
 * Microarchitecture tables and static constraints (pmu/uarch*.c), checked
 * entry by entry against a transcription of Linux's constraint tables, against Intel's counter
 * fields, and against the thesis's examples.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/counters.h"
#include "pmu/event_table.h"
#include "pmu/regs.h"
#include "pmu/uarch.h"
#include "pmu/uarch_constraint.h"
#include "tests/host/lib/test_util.h"

static void test_models(void **state)
{
	(void)state;
	assert_string_equal(uarch_by_model(true, 6, 0x2a)->name, "sandybridge");
	assert_string_equal(uarch_by_model(true, 6, 0x2d)->erratum, "BJ122");
	assert_string_equal(uarch_by_model(true, 6, 0x3a)->erratum, "BV98");
	assert_string_equal(uarch_by_model(true, 6, 0x3e)->name, "ivybridge");
	assert_string_equal(uarch_by_model(true, 6, 0x3c)->erratum, "HSD29");
	assert_string_equal(uarch_by_model(true, 6, 0x3f)->name, "haswell");
	assert_string_equal(uarch_by_model(true, 6, 0x45)->name, "haswell");
	assert_string_equal(uarch_by_model(true, 6, 0x46)->name, "haswell");
	assert_null(uarch_by_model(true, 6, 0x3d)->erratum); /* Broadwell */
	assert_string_equal(uarch_by_model(true, 6, 0x5e)->name, "skylake");
	assert_null(uarch_by_model(true, 6, 0x5e)->erratum);
	/* A server part shares its client's id, tables, erratum, zero event and hand-written names;
	 * Intel's event names are its own. */
	assert_string_equal(uarch_by_model(true, 6, 0x2d)->part, "sandybridge-x");
	assert_int_equal(uarch_by_model(true, 6, 0x2d)->id, UARCH_SANDYBRIDGE);
	assert_ptr_equal(uarch_by_model(true, 6, 0x3f)->constraints,
			 uarch_by_name("haswell")->constraints);
	assert_ptr_equal(uarch_by_model(true, 6, 0x3f)->zero_event,
			 uarch_by_name("haswell")->zero_event);
	assert_ptr_equal(uarch_by_model(true, 6, 0x3f)->event_names,
			 uarch_by_name("haswell")->event_names);
	assert_string_equal(uarch_by_model(true, 6, 0x56)->part, "broadwell-x");
	assert_string_equal(uarch_by_model(true, 6, 0x55)->display_name, "Skylake-SP");
	/* Ice Lake (QEMU's Icelake-Server is 0x6A): Linux's rules, 8 GP counters with HT on. */
	assert_string_equal(uarch_by_model(true, 6, 0x6a)->name, "icelake");
	assert_int_equal(uarch_gp(uarch_by_model(true, 6, 0x7e), true), 8);
	assert_null(uarch_by_model(true, 6, 0x7e)->erratum);
	/* Every part's name is unique. */
	for (const struct uarch *const *u = uarch_all; *u; u++)
		assert_ptr_equal(uarch_by_name((*u)->part), *u);
	/* QEMU's qemu64 reports AuthenticAMD family 15: no tables. */
	assert_ptr_equal(uarch_by_model(false, 15, 107), &uarch_generic);
	assert_ptr_equal(uarch_by_model(true, 6, 0x1a), &uarch_generic); /* Nehalem: not tabled */
	assert_ptr_equal(uarch_by_name("HasWell"), uarch_by_model(true, 6, 0x3c));
	assert_null(uarch_by_name("pentium"));
}

/*
 * The fixture: Linux's event constraint tables as Linux 6.1.192 (Debian 12's linux-source-6.1,
 * 6.1.192-2) has them in arch/x86/events/intel/core.c, every entry in Linux's order, by the macro
 * that makes it: FIXED_EVENT_CONSTRAINT(code, n), INTEL_EVENT_CONSTRAINT(event, mask),
 * INTEL_UEVENT_CONSTRAINT(code, mask), INTEL_UBIT_EVENT_CONSTRAINT(code, mask),
 * INTEL_EXCLEVT_CONSTRAINT(event, mask), INTEL_EVENT_CONSTRAINT_RANGE(first, last, mask),
 * METRIC_EVENT_CONSTRAINT(metric, n).
 */
enum linux_macro { FIXED, EVENT, UEVENT, UBIT, EXCLEVT, RANGE, METRIC, END };

struct linux_entry {
	enum linux_macro macro;
	uint16_t code;	/* the event (select) or code; the fixed counter's code; the metric */
	uint16_t other; /* RANGE: the last event select; FIXED, METRIC: the counter */
	uint64_t mask;
};

#define L_FIXED(c, n)                                                                              \
	{                                                                                          \
		FIXED, (c), (n), 0                                                                 \
	}
#define L_FIXED3 L_FIXED(0x00c0, 0), L_FIXED(0x003c, 1), L_FIXED(0x0300, 2)
#define L_EXCL4                                                                                    \
	{ EXCLEVT, 0xd0, 0, 0xf }, { EXCLEVT, 0xd1, 0, 0xf }, { EXCLEVT, 0xd2, 0, 0xf },           \
	{                                                                                          \
		EXCLEVT, 0xd3, 0, 0xf                                                              \
	}
#define L_END                                                                                      \
	{                                                                                          \
		END, 0, 0, 0                                                                       \
	}

/* clang-format off */
static const struct linux_entry linux_snb[] = {
	L_FIXED3,
	{ UEVENT, 0x04a3, 0, 0xf }, { UEVENT, 0x05a3, 0, 0xf }, { UEVENT, 0x02a3, 0, 0x4 },
	{ UEVENT, 0x06a3, 0, 0x4 }, { EVENT, 0x48, 0, 0x4 }, { UEVENT, 0x01c0, 0, 0x2 },
	{ EVENT, 0xcd, 0, 0x8 }, { UEVENT, 0x04a3, 0, 0xf }, { UEVENT, 0x02a3, 0, 0x4 },
	L_EXCL4, L_END,
};
static const struct linux_entry linux_ivb[] = {
	L_FIXED3,
	{ UEVENT, 0x0148, 0, 0x4 }, { UEVENT, 0x0279, 0, 0xf }, { UEVENT, 0x019c, 0, 0xf },
	{ UEVENT, 0x02a3, 0, 0xf }, { UEVENT, 0x04a3, 0, 0xf }, { UEVENT, 0x05a3, 0, 0xf },
	{ UEVENT, 0x06a3, 0, 0xf }, { UEVENT, 0x08a3, 0, 0x4 }, { UEVENT, 0x0ca3, 0, 0x4 },
	{ UEVENT, 0x01c0, 0, 0x2 },
	L_EXCL4, L_END,
};
static const struct linux_entry linux_hsw[] = {
	L_FIXED3,
	{ UEVENT, 0x0148, 0, 0x4 }, { UEVENT, 0x01c0, 0, 0x2 }, { EVENT, 0xcd, 0, 0x8 },
	{ UEVENT, 0x08a3, 0, 0x4 }, { UEVENT, 0x0ca3, 0, 0x4 }, { UEVENT, 0x04a3, 0, 0xf },
	L_EXCL4, L_END,
};
static const struct linux_entry linux_bdw[] = {
	L_FIXED3,
	{ UEVENT, 0x0148, 0, 0x4 }, { UBIT, 0x08a3, 0, 0x4 }, { EVENT, 0xd0, 0, 0xf },
	{ EVENT, 0xd1, 0, 0xf }, { EVENT, 0xd2, 0, 0xf }, { EVENT, 0xcd, 0, 0xf },
	L_END,
};
static const struct linux_entry linux_skl[] = {
	L_FIXED3,
	{ UEVENT, 0x01c0, 0, 0x2 }, { EVENT, 0xd0, 0, 0xf }, { EVENT, 0xd1, 0, 0xf },
	{ EVENT, 0xd2, 0, 0xf }, { EVENT, 0xcd, 0, 0xf }, { EVENT, 0xc6, 0, 0xf },
	L_END,
};
static const struct linux_entry linux_icl[] = {
	L_FIXED(0x00c0, 0), L_FIXED(0x01c0, 0), L_FIXED(0x0100, 0), L_FIXED(0x003c, 1),
	L_FIXED(0x0300, 2), L_FIXED(0x0400, 3),
	{ METRIC, 1, 0, 0 }, { METRIC, 2, 1, 0 }, { METRIC, 3, 2, 0 }, { METRIC, 4, 3, 0 },
	{ RANGE, 0x03, 0x0a, 0xf }, { RANGE, 0x1f, 0x28, 0xf }, { EVENT, 0x32, 0, 0xf },
	{ RANGE, 0x48, 0x56, 0xf }, { RANGE, 0x60, 0x8b, 0xf }, { UEVENT, 0x04a3, 0, 0xff },
	{ UEVENT, 0x10a3, 0, 0xff }, { UEVENT, 0x14a3, 0, 0xff }, { EVENT, 0xa3, 0, 0xf },
	{ RANGE, 0xa8, 0xb0, 0xf }, { RANGE, 0xb7, 0xbd, 0xf }, { RANGE, 0xd0, 0xe6, 0xf },
	{ EVENT, 0xef, 0, 0xf }, { RANGE, 0xf0, 0xf4, 0xf },
	L_END,
};
/* clang-format on */

static const struct {
	const char *uarch;
	const struct linux_entry *table;
} linux_tables[] = {
	{ "sandybridge", linux_snb }, { "ivybridge", linux_ivb }, { "haswell", linux_hsw },
	{ "broadwell", linux_bdw },   { "skylake", linux_skl },	  { "icelake", linux_icl },
};

/* Linux's entries the kernel does not model: Ice Lake's fixed counter 3 (SLOTS), the other
 * encodings of fixed counter 0 and the topdown metrics (the kernel drives three fixed counters). */
static bool not_modelled(const struct linux_entry *l)
{
	if (l->macro == METRIC)
		return true;
	if (l->macro != FIXED)
		return false;
	return l->other > 2 || (l->other == 0 && l->code != 0x00c0);
}

/* The test: our tables are Linux's, entry by entry. */
static void test_linux_tables(void **state)
{
	(void)state;
	for (unsigned t = 0; t < sizeof(linux_tables) / sizeof(linux_tables[0]); t++) {
		const struct uarch *u = uarch_by_name(linux_tables[t].uarch);
		const struct event_constraint *c = u->constraints;
		unsigned fixed = 0, skipped = 0;

		print_message("  %s\n", u->part);
		for (const struct linux_entry *l = linux_tables[t].table; l->macro != END; l++) {
			if (not_modelled(l)) {
				skipped++;
				continue;
			}
			if (l->macro == FIXED) {
				/* The three architectural fixed events come from pmu/regs.c. */
				assert_int_equal(regs_fixed_event_code(l->other), l->code);
				fixed++;
				continue;
			}
			assert_int_not_equal(c->mask, 0); /* ours ends no earlier */
			assert_int_equal(c->mask, l->mask);
			assert_int_equal((c->flags & CONSTRAINT_CORRUPTING) != 0,
					 l->macro == EXCLEVT);
			switch (l->macro) {
			case EVENT:
			case EXCLEVT:
				assert_int_equal(c->match, MATCH_EVENT);
				assert_int_equal(c->code & 0xff, l->code);
				break;
			case UEVENT:
				assert_int_equal(c->match, MATCH_EVENT_UMASK);
				assert_int_equal(c->code, l->code);
				break;
			case UBIT:
				assert_int_equal(c->match, MATCH_UMASK_BITS);
				assert_int_equal(c->code, l->code);
				break;
			case RANGE:
				assert_int_equal(c->match, MATCH_EVENT_RANGE);
				assert_int_equal(c->code & 0xff, l->code);
				assert_int_equal(c->last, l->other);
				break;
			default:
				fail();
			}
			c++;
		}
		assert_int_equal(c->mask, 0); /* and no later */
		assert_int_equal(fixed, 3);
		assert_int_equal(skipped, !strcmp(u->name, "icelake") ? 7 : 0);
	}
}

/* Linux pins every 0xA3 unit mask with bit 3 set to counter 2 on Broadwell
 * (INTEL_UBIT_EVENT_CONSTRAINT(0x8a3, 0x4)), not 0x08a3 alone. */
static void test_broadwell_a3(void **state)
{
	const struct uarch *bdw = uarch_by_name("broadwell");
	struct pmu_event e;

	(void)state;
	for (unsigned umask = 0; umask < 256; umask++) {
		e = ev((uint16_t)(umask << 8 | 0xa3), true, true);
		e.cmask = (uint8_t)
			umask; /* the cmask does not take part (CYCLE_ACTIVITY's is its umask) */
		assert_int_equal(uarch_linux_constraint(bdw, &e).mask,
				 umask & 0x08 ? 0x4 : PMU_GP_BITS);
		assert_int_equal(uarch_constraint(bdw, &e, 8, 3).mask, umask & 0x08 ? 0x4 : 0xff);
	}
	/* The example: 0x0ca3, CYCLE_ACTIVITY.STALLS_L1D_MISS/PENDING. */
	e = ev(0x0ca3, true, true);
	assert_int_equal(uarch_constraint(bdw, &e, 4, 3).mask, 0x4);
	assert_int_equal(uarch_constraint(uarch_by_name("broadwell-x"), &e, 4, 3).mask, 0x4);
	/* Haswell pins the two listed unit masks only. */
	e = ev(0x0ea3, true, true);
	assert_int_equal(uarch_constraint(uarch_by_name("haswell"), &e, 4, 3).mask, 0xf);
}

/* Where Intel's Counter (HT on) names fewer counters than Linux's table allows. */
struct stricter {
	const char *part, *name;
	uint8_t linux_mask, intel_mask, used; /* used: what uarch_constraint() gives */
};

/*
 * The cases, frozen: Intel pins these to fewer counters than Linux (HT on), and the kernel follows
 * Intel (pmu/uarch_constraint.h). INST_RETIRED.TOTAL_CYCLES_PS is 0x01c0 with cmask 10:
 * Linux's INST_RETIRED.PREC_DIST entry puts every 0x01c0 on counter 1, Intel says 0, 2, 3 for it.
 * The load-latency events need MSR 0x3F6 and are refused by name; their raw code gets Intel's
 * counter all the same.
 */
static const struct stricter stricter_ht_on[] = {
	{ "ivybridge", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128", 0xf, 0x8, 0x8 },
	{ "ivybridge", "MEM_TRANS_RETIRED.PRECISE_STORE", 0xf, 0x8, 0x8 },
	{ "ivybridge-x", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128", 0xf, 0x8, 0x8 },
	{ "ivybridge-x", "MEM_TRANS_RETIRED.PRECISE_STORE", 0xf, 0x8, 0x8 },
	{ "broadwell", "INST_RETIRED.PREC_DIST", 0xf, 0x2, 0x2 },
	{ "broadwell", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128", 0xf, 0x8, 0x8 },
	{ "broadwell-x", "INST_RETIRED.PREC_DIST", 0xf, 0x2, 0x2 },
	{ "broadwell-x", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128", 0xf, 0x8, 0x8 },
	{ "skylake", "INST_RETIRED.TOTAL_CYCLES_PS", 0x2, 0xd, 0xd },
	{ "skylake-x", "INST_RETIRED.TOTAL_CYCLES_PS", 0x2, 0xd, 0xd },
};

/*
 * The list: every event (of every part) whose Intel counters are stricter than Linux's,
 * with HT on (applied: the table above) and with HT off (Intel keeps many events on counters 0-3
 * where Linux allows all eight: not applied, the scheduling follows Linux there). Events with the
 * same encoding as one listed (LOAD_LATENCY_GT_4 ... _512 after _128) count once.
 */
static void test_intel_stricter_than_linux(void **state)
{
	unsigned found = 0;

	(void)state;
	for (const struct uarch *const *up = uarch_all; *up; up++) {
		const struct uarch *u = *up;
		struct event_iter it;
		struct event_info info;
		unsigned ht_off = 0, linux_stricter = 0, events = 0;

		for (event_iter_start(&it, u); event_iter_next(&it, &info);) {
			struct pmu_event e = ev(0, true, true);
			uint64_t on, off;
			struct event_info first;

			if (info.fixed >= 0)
				continue;
			events++;
			event_info_to_event(&info, &e);
			on = uarch_linux_constraint(u, &e).mask & 0xf;
			off = uarch_linux_constraint(u, &e).mask & 0xff;
			if ((info.counters & on) != on) {
				/* HT on: Intel stricter. Once per encoding. */
				assert_true(event_table_match(u, &e, &first));
				if (first.name == info.name) {
					unsigned k;

					for (k = 0;
					     k < sizeof(stricter_ht_on) / sizeof(stricter_ht_on[0]);
					     k++)
						if (!strcmp(stricter_ht_on[k].part, u->part) &&
						    !strcmp(stricter_ht_on[k].name, info.name))
							break;
					print_message(
						"  %-12s HT on:  %s: Linux 0x%llx, Intel 0x%x\n",
						u->part, info.name, (unsigned long long)on,
						info.counters);
					assert_true(k < sizeof(stricter_ht_on) /
								sizeof(stricter_ht_on[0]));
					assert_int_equal(stricter_ht_on[k].linux_mask, on);
					assert_int_equal(stricter_ht_on[k].intel_mask,
							 info.counters);
					assert_int_equal(uarch_constraint(u, &e, 4, 3).mask,
							 stricter_ht_on[k].used);
					found++;
				}
			} else if ((info.counters_ht_off & off) != off) {
				/* HT off: Intel keeps it on 0-3, Linux allows 0-7; Linux followed. */
				assert_int_equal(info.counters_ht_off, 0xf);
				assert_int_equal(off, 0xff);
				assert_int_equal(uarch_constraint(u, &e, 8, 3).mask, 0xff);
				ht_off++;
			}
			if ((on & info.counters) != info.counters)
				linux_stricter++; /* Linux narrower: followed, as Linux does */
		}
		if (events)
			print_message(
				"  %-12s %u events: Intel stricter with HT off (0-3, Linux 0-7): "
				"%u; Linux stricter with HT on: %u\n",
				u->part, events, ht_off, linux_stricter);
	}
	assert_int_equal(found, sizeof(stricter_ht_on) / sizeof(stricter_ht_on[0]));
}

static void test_static_constraints(void **state)
{
	(void)state;
	const struct uarch *hsw = uarch_by_name("haswell");
	const struct uarch *snb = uarch_by_name("sandybridge");
	struct pmu_event e;

	/* L1D_PEND_MISS.PENDING: counter 2 only, with HT on and off. */
	e = ev(0x0148, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0x4);
	assert_int_equal(uarch_constraint(hsw, &e, 8, 3).mask, 0x4);
	/* On Sandy Bridge any unit mask of 0x48 is constrained. */
	e = ev(0x0248, true, true);
	assert_int_equal(uarch_constraint(snb, &e, 4, 3).mask, 0x4);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0xf);
	/* l1d_pend_miss:occurrences (edge, cmask 1) is still 0x0148 to the table: 0x4 (thesis 7.2). */
	e = ev(0x0148, true, true);
	e.edge = true;
	e.cmask = 1;
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0x4);

	/* Corrupting events: bottom four counters, flagged, also with HT off. */
	e = ev(0x81d0, true, true);
	struct constraint c = uarch_constraint(hsw, &e, 8, 3);
	assert_int_equal(c.mask, 0xf);
	assert_true(c.corrupting);
	e = ev(0x08d1, true, true);
	assert_true(uarch_constraint(snb, &e, 4, 3).corrupting);
	/* Same code on Skylake: restricted but not corrupting. */
	assert_false(uarch_constraint(uarch_by_name("skylake"), &e, 4, 3).corrupting);

	/* Unconstrained events take every GP counter. */
	e = ev(0x00c5, true, true);
	c = uarch_constraint(hsw, &e, 4, 3);
	assert_int_equal(c.mask, 0xf);
	assert_false(c.corrupting);
	assert_int_equal(uarch_constraint(hsw, &e, 8, 3).mask, 0xff);

	/* Fixed-counter events: fixed counter plus GP, except reference cycles (fixed 2 only). */
	e = ev(0x00c0, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, PMU_FIXED_BIT(0) | 0xf);
	e = ev(0x003c, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, PMU_FIXED_BIT(1) | 0xf);
	e = ev(0x0300, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, PMU_FIXED_BIT(2));
	/* With a counter mask the event no longer fits a fixed counter. */
	e = ev(0x00c0, true, true);
	e.cmask = 1;
	assert_int_equal(uarch_constraint(hsw, &e, 4, 3).mask, 0xf);
	/* Without fixed counters reference cycles cannot be counted at all. */
	e = ev(0x0300, true, true);
	assert_int_equal(uarch_constraint(hsw, &e, 4, 0).mask, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_models),
		cmocka_unit_test(test_static_constraints),
		cmocka_unit_test(test_linux_tables),
		cmocka_unit_test(test_broadwell_a3),
		cmocka_unit_test(test_intel_stricter_than_linux),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
