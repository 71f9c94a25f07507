/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run defined on the command line (`ht0=`, `ht1=`, `work0=`, `work1=`, `start1_ms=`): the
 * experiment `custom`, one run per XSU mode, judged by RULE_MEASURED. Bad parts of it (an event
 * this machine does not know, a group that can never fit on the counters, an unknown workload)
 * each give a `warn` naming what is accepted, and the run goes on without them.
 */
#ifndef TESTS_EXPERIMENTS_CUSTOM_H
#define TESTS_EXPERIMENTS_CUSTOM_H

#include <stdbool.h>

#include "tests/payload_config.h"
#include "pmu/enumerate.h"
#include "pmu/uarch.h"
#include "tests/experiments/experiment.h"

/* The experiment and the texts its runs point to. */
struct custom_run {
	struct experiment exp;
	char events[2][CONFIG_EVENTS_MAX]; /* each list without its bad parts */
	const char *workload[2];
};

/*
 * Build `custom` into *out. False, with a warning, when neither thread has an event left to
 * count.
 */
bool custom_build(const struct payload_config *config, const struct uarch *u,
		  const struct pmu_geometry *geometry, struct custom_run *out);

#endif
