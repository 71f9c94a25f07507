// SPDX-License-Identifier: GPL-2.0
/*
 * bench_result's numbers (aggregate.h). Sums and products are 128-bit, so that no count of a
 * 48-bit counter times 100, and no sum of 100 of them, can overflow.
 */
#include "tests/owncode/aggregate.h"
#include "tests/owncode/bundle.h"

static int64_t clamp(__int128 v)
{
	if (v > INT64_MAX)
		return INT64_MAX;
	if (v < INT64_MIN)
		return INT64_MIN;
	return (int64_t)v;
}

/* num / den rounded half away from zero, den > 0. */
static __int128 divide_rounded(__int128 num, __int128 den)
{
	__int128 magnitude = num < 0 ? -num : num;
	__int128 q = (2 * magnitude + den) / (2 * den); /* floor(magnitude / den + 1/2) */

	return num < 0 ? -q : q;
}

int64_t bench_hundredths(int64_t difference, uint64_t repetitions)
{
	__int128 den = repetitions ? (__int128)repetitions : 1;

	return clamp(divide_rounded((__int128)difference * 100, den));
}

static void sort(int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int64_t x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

int64_t bench_aggregate(int64_t *values, size_t n, unsigned aggregate)
{
	if (n == 0)
		return 0;
	sort(values, n);
	switch (aggregate) {
	case BUNDLE_MIN:
		return values[0];
	case BUNDLE_MAX:
		return values[n - 1];
	case BUNDLE_MEDIAN:
		return values[n / 2];
	default: {
		size_t cut = n / 5;
		__int128 sum = 0;

		for (size_t i = cut; i < n - cut; i++)
			sum += values[i];
		return clamp(divide_rounded(sum, (__int128)(n - 2 * cut)));
	}
	}
}

int64_t bench_run_aggregate(int64_t *counts, size_t n, unsigned aggregate, bool whole)
{
	size_t cut = n / 5;
	__int128 sum = 0;

	if (n == 0)
		return 0;
	sort(counts, n);
	switch (aggregate) {
	case BUNDLE_MIN:
		return clamp((__int128)counts[0] * 100);
	case BUNDLE_MAX:
		return clamp((__int128)counts[n - 1] * 100);
	case BUNDLE_MEDIAN:
		return clamp((__int128)counts[n / 2] * 100);
	default:
		for (size_t i = cut; i < n - cut; i++)
			sum += counts[i];
		if (whole)
			return clamp((__int128)(sum / (n - 2 * cut)) * 100);
		return clamp((__int128)(sum * 100 / (n - 2 * cut)));
	}
}

int64_t bench_run_difference(int64_t longer, int64_t shorter, uint64_t repetitions)
{
	__int128 den = repetitions ? (__int128)repetitions : 1;

	return clamp(divide_rounded((__int128)longer - shorter, den));
}

bool bench_backwards_too_many(unsigned backwards, unsigned measurements)
{
	return (uint64_t)backwards * 5 > measurements;
}

bool bench_pace_faster(uint64_t copies, uint64_t time, uint64_t best_copies, uint64_t best_time)
{
	if (!time)
		return false;
	if (!best_time)
		return true;
	return (unsigned __int128)copies * best_time > (unsigned __int128)best_copies * time;
}

unsigned bench_overlap_pct(uint64_t seen, uint64_t time, uint64_t pace_copies, uint64_t pace_time)
{
	/* seen / time over pace_copies / pace_time: seen * pace_time over pace_copies * time */
	unsigned __int128 num = (unsigned __int128)seen * pace_time;
	unsigned __int128 den = (unsigned __int128)pace_copies * time;

	if (!pace_copies)
		return 0;
	if (num >= den)
		return 100;
	while (num > ~(unsigned __int128)0 / 100) { /* both halved: the ratio stays */
		num >>= 1;
		den >>= 1;
	}
	return (unsigned)(num * 100 / den);
}
