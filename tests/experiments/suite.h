/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The experiment suite: runs the experiments `exp=` selects, in the XSU modes `xsu=` selects, and
 * prints their records (docs/records.md) and a perf-stat-like table per thread.
 */
#ifndef TESTS_EXPERIMENTS_SUITE_H
#define TESTS_EXPERIMENTS_SUITE_H

#include "kernel/cmdline.h"

/* Run the selection; a failed verdict marks the run failed. */
void experiments_run(const struct config *config);

#endif
