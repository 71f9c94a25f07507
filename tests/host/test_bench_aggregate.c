// SPDX-License-Identifier: GPL-2.0
/*
 * The numbers of a bench_result record (tests/owncode/aggregate.c): a measurement's difference
 * per repetition in hundredths, rounded half away from zero, and the aggregates nanoBench offers
 * (-avg: the mean without the top and bottom 20%, -median, -min, -max), on lists made here with
 * their expected values worked out by hand in the comments. tests/owncode/test_aggregate.py
 * holds the Python twin to the same definitions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/owncode/aggregate.h"
#include "tests/owncode/bundle.h"

static void test_hundredths(void **state)
{
	(void)state;
	assert_int_equal(bench_hundredths(2000, 1000), 200); /* 2.00 per copy */
	assert_int_equal(bench_hundredths(1, 3), 33);	     /* 0.333... */
	assert_int_equal(bench_hundredths(2, 3), 67);	     /* 0.666... */
	assert_int_equal(bench_hundredths(1, 200), 1);	     /* 0.005: a half, away from zero */
	assert_int_equal(bench_hundredths(-1, 200), -1);     /* -0.005 */
	assert_int_equal(bench_hundredths(1, 201), 0);	     /* 0.004975 */
	assert_int_equal(bench_hundredths(-2, 3), -67);	     /* -0.666... */
	assert_int_equal(bench_hundredths(0, 3500), 0);
	assert_int_equal(bench_hundredths(5, 0), 500); /* no repetitions counts as one */
	assert_int_equal(bench_hundredths(INT64_MAX, 1), INT64_MAX); /* held to the range */
	assert_int_equal(bench_hundredths(INT64_MIN, 1), INT64_MIN);
	/* A 48-bit counter's range over 7000 copies: 2^48 * 100 / 7000 = 4021071095866.51, which
	 * rounds to ...867. */
	assert_int_equal(bench_hundredths((int64_t)1 << 48, 7000), 4021071095867);
}

static void test_ten_values(void **state)
{
	/* Sorted 1..10. Without the 2 smallest and the 2 largest: 3..8, sum 33, mean 5.5, which
	 * rounds to 6; the median is the value at index 5 of the sorted list, 6. */
	int64_t v[] = { 5, 1, 9, 3, 7, 2, 8, 4, 10, 6 };

	(void)state;
	assert_int_equal(bench_aggregate(v, 10, BUNDLE_AVG), 6);
	for (int i = 0; i < 10; i++)
		assert_int_equal(v[i], i + 1); /* sorted in place */
	assert_int_equal(bench_aggregate(v, 10, BUNDLE_MEDIAN), 6);
	assert_int_equal(bench_aggregate(v, 10, BUNDLE_MIN), 1);
	assert_int_equal(bench_aggregate(v, 10, BUNDLE_MAX), 10);
}

static void test_outliers_are_trimmed(void **state)
{
	/* Twelve measurements: ten of 1.00, one interrupted (50.00), one negative (-50.00). Two
	 * are set aside at each end (12 / 5 = 2): the mean of the eight left is 1.00. */
	int64_t v[12];

	(void)state;
	for (int i = 0; i < 10; i++)
		v[i] = 100;
	v[10] = 5000;
	v[11] = -5000;
	assert_int_equal(bench_aggregate(v, 12, BUNDLE_AVG), 100);
	assert_int_equal(bench_aggregate(v, 12, BUNDLE_MIN), -5000);
	assert_int_equal(bench_aggregate(v, 12, BUNDLE_MAX), 5000);
}

static void test_short_lists(void **state)
{
	/* Fewer than five values: nothing is set aside. 10, 20, 30, 40: mean 25; an even count
	 * has as median the upper middle value (index 2), 30, as nanoBench. */
	int64_t four[] = { 40, 10, 30, 20 };
	/* -3 and -4: mean -3.5 rounds away from zero to -4; median index 1 of (-4, -3): -3. */
	int64_t negative[] = { -3, -4 };
	int64_t one[] = { 77 };
	/* Seven values: one set aside at each end (7 / 5 = 1): 2, 3, 4, 5, 6 left, mean 4. */
	int64_t seven[] = { 1, 2, 3, 4, 5, 6, 100 };

	(void)state;
	assert_int_equal(bench_aggregate(four, 4, BUNDLE_AVG), 25);
	assert_int_equal(bench_aggregate(four, 4, BUNDLE_MEDIAN), 30);
	assert_int_equal(bench_aggregate(negative, 2, BUNDLE_AVG), -4);
	assert_int_equal(bench_aggregate(negative, 2, BUNDLE_MEDIAN), -3);
	assert_int_equal(bench_aggregate(one, 1, BUNDLE_AVG), 77);
	assert_int_equal(bench_aggregate(one, 1, BUNDLE_MEDIAN), 77);
	assert_int_equal(bench_aggregate(seven, 7, BUNDLE_AVG), 4);
	assert_int_equal(bench_aggregate(one, 0, BUNDLE_MAX), 0);
}

static void test_no_overflow(void **state)
{
	/* A hundred values of 2^62: their sum needs 69 bits, their mean is 2^62. */
	int64_t v[100];

	(void)state;
	for (int i = 0; i < 100; i++)
		v[i] = (int64_t)1 << 62;
	assert_int_equal(bench_aggregate(v, 100, BUNDLE_AVG), (int64_t)1 << 62);
}

/*
 * nanoBench's arithmetic: each run set aggregated (its counts, in hundredths, cut as its integer
 * arithmetic cuts), then the difference per repetition. Ten runs of N copies count 1000 each but
 * for an interrupted one (1300); ten of 2N 2000, 2001 and 1999 alike, and one 1500 (the host held
 * the CPU in the first run, not the second): per measurement the values spread from -0.30 to
 * 1.00, while the aggregates' difference is 1.00 for every aggregate but -max (0.70).
 */
static void test_run_sets(void **state)
{
	int64_t n[10] = { 1000, 1000, 1300, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
	int64_t n2[10] = { 2000, 2001, 1999, 2000, 1500, 2000, 2000, 2001, 1999, 2000 };
	int64_t a[10], b[10];
	static const struct {
		unsigned how;
		int64_t shorter, longer, value;
	} want[] = {
		/* avg: the middle six of each set; 6000 / 6, and 1999 + 5 x 2000 = 11999 over 6,
		 * 1999.83 (cut); their difference 999.83 over 1000 copies rounds to 1.00 */
		{ BUNDLE_AVG, 100000, 199983, 100 },
		{ BUNDLE_MEDIAN, 100000, 200000, 100 }, /* sorted[5] of each */
		{ BUNDLE_MIN, 100000, 150000, 50 },
		{ BUNDLE_MAX, 130000, 200100, 70 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		memcpy(a, n, sizeof(a));
		memcpy(b, n2, sizeof(b));
		int64_t s = bench_run_aggregate(a, 10, want[i].how, false);
		int64_t l = bench_run_aggregate(b, 10, want[i].how, false);
		assert_int_equal(s, want[i].shorter);
		assert_int_equal(l, want[i].longer);
		assert_int_equal(bench_run_difference(l, s, 1000), want[i].value);
	}
	/* The mean cut to hundredths (nanoBench's sum * 100 / count): 1, 1, 2 is 1.33 */
	int64_t c[3] = { 2, 1, 1 };
	assert_int_equal(bench_run_aggregate(c, 3, BUNDLE_AVG, false), 133);
	/* ... and to whole counts with -no_normalization: 1 */
	assert_int_equal(bench_run_aggregate(c, 3, BUNDLE_AVG, true), 100);
	/* A difference that came out below zero stays so: the caller names it */
	assert_int_equal(bench_run_difference(100000, 101000, 1000), -1);
	assert_int_equal(bench_run_difference(150, 100, 100), 1); /* 0.005 rounds away from 0 */
	assert_int_equal(bench_run_aggregate(c, 0, BUNDLE_AVG, false), 0);
}

static void test_backwards(void **state)
{
	/* Ten measurements: two below zero are left out and named, a third is too many (more than
	 * the fifth nanoBench's mean sets aside at the bottom); one of one is too many. */
	(void)state;
	assert_false(bench_backwards_too_many(0, 10));
	assert_false(bench_backwards_too_many(2, 10));
	assert_true(bench_backwards_too_many(3, 10));
	assert_true(bench_backwards_too_many(1, 1));
	assert_false(bench_backwards_too_many(0, 0));
}

static void test_pace(void **state)
{
	(void)state;
	assert_true(bench_pace_faster(100, 1000, 0, 0));       /* the first pace */
	assert_false(bench_pace_faster(100, 0, 0, 0));	       /* no time: no pace */
	assert_true(bench_pace_faster(300, 2000, 100, 1000));  /* 0.15 > 0.10 a tick */
	assert_false(bench_pace_faster(200, 2000, 100, 1000)); /* the same */
	assert_false(bench_pace_faster(0, 5000, 100, 1000));
	/* Products beyond 64 bits: 2^40 copies in 2^40 ticks against 2^40 - 1 copies. */
	assert_true(bench_pace_faster(1ull << 40, 1ull << 40, (1ull << 40) - 1, 1ull << 40));
}

static void test_overlap(void **state)
{
	(void)state;
	/* At its best pace (22,700 copies in 51,500 ticks) HT1 makes 0.44 a tick. */
	assert_int_equal(bench_overlap_pct(22700, 51500, 22700, 51500), 100);
	assert_int_equal(bench_overlap_pct(11350, 51500, 22700, 51500),
			 50);						/* held half the time */
	assert_int_equal(bench_overlap_pct(0, 51500, 22700, 51500), 0); /* never beside */
	assert_int_equal(bench_overlap_pct(30000, 51500, 22700, 51500), 100); /* at most 100 */
	assert_int_equal(bench_overlap_pct(37100, 486694, 1199500, 10690420), 67);
	assert_int_equal(bench_overlap_pct(5, 100, 0, 0), 0); /* no pace: it never ran */
	/* Percent of products near 2^128, both halved alike: 2^62 seen in 2^63 ticks at 2^63 in 2^63. */
	assert_int_equal(bench_overlap_pct(1ull << 62, 1ull << 63, 1ull << 63, 1ull << 63), 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hundredths),
		cmocka_unit_test(test_ten_values),
		cmocka_unit_test(test_outliers_are_trimmed),
		cmocka_unit_test(test_short_lists),
		cmocka_unit_test(test_no_overflow),
		cmocka_unit_test(test_run_sets),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_pace),
		cmocka_unit_test(test_overlap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
