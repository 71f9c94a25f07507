/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference for core-wide XSU: every joint placement of two threads' groups that keeps the
 * XSU guarantee, found by exhaustion and sharing no code with pmu/core_sched.c. For each of the
 * 3^gp ways to label the GP indices shared / exclusive to thread 0 / exclusive to thread 1, and
 * each subset of each thread's groups, an exhaustive search (brute_can_schedule) decides whether
 * the subset fits the counters that labelling leaves it. Host-only, slow on purpose.
 *
 * Groups are numbered over both threads: thread 0's groups in list order, then thread 1's.
 */
#ifndef TESTS_HOST_LIB_JOINT_PLACEMENTS_H
#define TESTS_HOST_LIB_JOINT_PLACEMENTS_H

#include <stdint.h>

#include "pmu/mux.h"

/* Groups over both threads, and maximal sets kept. */
#define JOINT_MAX_GROUPS 24
#define JOINT_MAX_SETS 4096

/*
 * The inclusion-maximal feasible joint sets of the enabled groups of t0 and t1 (bit g: global
 * group g), into sets[]. Returns how many, or -1 when there are more than max or more groups than
 * JOINT_MAX_GROUPS.
 */
int joint_maximal_sets(const struct mux_thread *t0, const struct mux_thread *t1, uint64_t *sets,
		       unsigned max);

/* The global number of thread t's group g. */
unsigned joint_group_index(const struct mux_thread *t0, unsigned thread, unsigned group);

#endif
