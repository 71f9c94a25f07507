/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numbers of a bench_result record (docs/records.md): each measurement's difference per
 * repetition in hundredths, and their aggregate, exactly as tools/pmu_bench_aggregate.py computes
 * them, so that the host can check what the kernel wrote. Integers only (the kernel has no
 * floating point): a value of 1.00 is 100 hundredths.
 *
 * Pure code: compiled into the kernel and the host tests (tests/host/test_bench_aggregate.c).
 */
#ifndef TESTS_OWNCODE_AGGREGATE_H
#define TESTS_OWNCODE_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One measurement's value: difference * 100 / repetitions (the count of the longer run less the
 * count of the shorter one, per repetition), rounded half away from zero; held to the int64_t
 * range. repetitions 0 counts as 1.
 */
int64_t bench_hundredths(int64_t difference, uint64_t repetitions);

/*
 * The aggregate of n values (hundredths), by enum bundle_aggregate: BUNDLE_AVG the mean of the
 * values left when the n / 5 smallest and the n / 5 largest are set aside (nanoBench's mean
 * without the top and bottom 20%), rounded half away from zero; BUNDLE_MEDIAN the value at index
 * n / 2 of the sorted values (for an even n the upper of the two middle ones, as nanoBench);
 * BUNDLE_MIN, BUNDLE_MAX the smallest and largest. Sorts the values in place; 0 when n is 0.
 */
int64_t bench_aggregate(int64_t *values, size_t n, unsigned aggregate);

/*
 * nanoBench's aggregate of one run set (the measurements' counts of the run with N copies, or of
 * the one with 2N; signed as bench_aggregate()'s values, so one sort serves both, though a count
 * is never below zero), in hundredths of a count: BUNDLE_AVG the mean of the counts left when the
 * n / 5 smallest and the n / 5 largest are set aside, cut to hundredths as nanoBench's integer
 * arithmetic cuts it (to whole counts with `whole`, its -no_normalization); BUNDLE_MEDIAN the
 * count at index n / 2 of the sorted counts, BUNDLE_MIN, BUNDLE_MAX, each times 100. Sorts the
 * counts in place; 0 when n is 0.
 */
int64_t bench_run_aggregate(int64_t *counts, size_t n, unsigned aggregate, bool whole);

/*
 * nanoBench's result from the two run sets' aggregates (hundredths of a count): the long set's
 * less the short set's per repetition, in hundredths, rounded half away from zero (nanoBench
 * rounds half up: the same for every figure printed, none being below zero). It may come out
 * below zero: the caller names that, and prints no figure.
 */
int64_t bench_run_difference(int64_t longer, int64_t shorter, uint64_t repetitions);

/*
 * Whether an event whose count went backwards in `backwards` of its `measurements` (the longer
 * run counted less than the shorter one: a figure below zero) has no value: more than a fifth of
 * them, the share nanoBench's mean sets aside at the bottom. Fewer are left out of its values,
 * and named (bench_result's `backwards`).
 */
bool bench_backwards_too_many(unsigned backwards, unsigned measurements);

/* Whether copies in time (TSC ticks) is a faster pace than best_copies in best_time; a pace of no
 * time is none. */
bool bench_pace_faster(uint64_t copies, uint64_t time, uint64_t best_copies, uint64_t best_time);

/*
 * How much of HT0's runs the sibling's loop overlapped, in percent (bench_result's `overlap_pct`):
 * the copies it ran during them (`seen`, as HT0's reads found its count) over the copies its
 * fastest pace of the pass (pace_copies in pace_time) makes in their time; 100 at most, 0 when
 * it made no copy at any pace.
 */
unsigned bench_overlap_pct(uint64_t seen, uint64_t time, uint64_t pace_copies, uint64_t pace_time);

#endif
