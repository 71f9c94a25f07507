/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run defined on the command line (`ht0=`, `ht1=`, `work0=`, `work1=`, `start1_ms=`): the
 * experiment `custom`, one run per XSU mode, judged by rule_measured. Bad parts of it (an event
 * this machine does not know, a group that can never fit on the counters, an unknown workload)
 * were named in warnings and left out before the boot record (tests/payload_check.h): the
 * settings hold what is taken.
 */
#ifndef TESTS_EXPERIMENTS_CUSTOM_H
#define TESTS_EXPERIMENTS_CUSTOM_H

#include <stdbool.h>

#include "tests/experiments/experiment.h"
#include "tests/lib/payload_config.h"

/* The experiment and the texts its runs point to. */
struct custom_run {
	struct experiment exp;
	char events[2][CONFIG_EVENTS_MAX]; /* each thread's list */
	const char *workload[2];
};

/* Build `custom` into *out; false when neither thread has an event to count. */
bool custom_build(const struct payload_config *config, struct custom_run *out);

#endif
