/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exact max-min fair (leximin) time shares of groups that can run together in given sets:
 * the reference the core-wide XSU tests and schedsim --fair-sweep measure the schedulers by.
 *
 * A schedule over time is a distribution lambda over the feasible sets; group g then runs the
 * fraction x_g = sum of lambda_S over the sets S holding g. The max-min value is the largest
 * smallest x_g; the leximin allocation maximises the smallest x_g, then the next smallest, and so
 * on, and is unique. It is found by progressive filling, one linear programme per level (a dense
 * two-phase simplex, exact enough for a few dozen sets and groups): maximise t subject to
 * x_g >= t for the groups not yet fixed (and the fixed ones kept); the groups whose constraint
 * has a positive dual value cannot rise above t (complementary slackness) and are fixed there;
 * repeat until every group is fixed. Only inclusion-maximal sets are needed (a larger set never
 * lowers a share).
 */
#ifndef TESTS_HOST_LIB_LEXIMIN_H
#define TESTS_HOST_LIB_LEXIMIN_H

#include <stdbool.h>
#include <stdint.h>

/*
 * x[0..nr_groups-1] receives the leximin shares of groups 0..nr_groups-1 (at most 64) over the
 * sets[0..nr_sets-1] (bit g: group g). Groups in `required` are in every set used (pinned
 * groups): the sets without all of them are ignored, and they run all the time. Returns false
 * when no set holds every required group.
 */
bool leximin(const uint64_t *sets, unsigned nr_sets, unsigned nr_groups, uint64_t required,
	     double *x);

/*
 * How close shares x come to a max-min optimal allocation: the least d such that some y that the
 * same sets (with every required group) allow, each group running at most as much as its sets,
 * has every runnable group at the max-min value or above and |x_g - y_g| <= d for every group. x_opt is leximin()'s result for these sets (its
 * smallest runnable share is the max-min value). A negative result: no such y (cannot happen
 * when leximin() succeeded).
 */
double maxmin_distance(const uint64_t *sets, unsigned nr_sets, unsigned nr_groups,
		       uint64_t required, const double *x_opt, const double *x);

/* The smallest of x[0..n-1] over the groups in `which` (1.0 when none). */
double leximin_min(const double *x, unsigned n, uint64_t which);

#endif
