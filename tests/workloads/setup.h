/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads' set-ups (tests/workloads/workloads.h, struct workload's setup): each prepares a
 * thread's data in user memory at CPL 0, once, before any counter runs, and says false when there
 * is no memory for it.
 */
#ifndef TESTS_WORKLOADS_SETUP_H
#define TESTS_WORKLOADS_SETUP_H

#include <stdbool.h>

#include "tests/bench/workload.h"
#include "tests/workloads/workloads.h"

/* triad: a, b and c of triad_kib each, a and b filled with small integers. */
bool triad_setup(struct workload_params *p, const struct workload_settings *s);

/* copy: a and c of triad_kib each, a filled as triad's. */
bool copy_setup(struct workload_params *p, const struct workload_settings *s);

/* chase: chase_kib of 64-byte nodes in one random cycle, and the profile of that size. */
bool chase_setup(struct workload_params *p, const struct workload_settings *s);

/* The profile of where chase's loads hit, for a set of kib KiB per thread (chase_levels). */
const struct model_profile *chase_profile_for(uint32_t kib);

/* branchy: a table of random words. */
bool branchy_setup(struct workload_params *p, const struct workload_settings *s);

/* branchy's table: 4096 words, 32 KiB, 262,144 random branches before it repeats. */
#define BRANCHY_WORDS 4096

#endif
