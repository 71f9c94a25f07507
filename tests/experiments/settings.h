/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every run of one boot's experiments shares: the machine measured and the settings the
 * command line gave (tests/lib/payload_config.h), as the suite hands them to the runner.
 */
#ifndef TESTS_EXPERIMENTS_SETTINGS_H
#define TESTS_EXPERIMENTS_SETTINGS_H

#include <stdint.h>

#include "kernel/pair.h"
#include "kernel/pmu.h"
#include "pmu/sched.h"
#include "tests/workloads/workloads.h"

struct exp_settings {
	struct pmu *pmu; /* the machine (kernel/payload.h) */
	const struct pair *pair;
	uint32_t dur_ms;
	uint32_t mux_ms;
	uint32_t triad_reps;	    /* passes over a workload's arrays; 0: until dur_ms */
	enum sched_algorithm sched; /* for runs that take sched= */
	struct workload_settings workloads;
	struct workload_memory *memory; /* the workloads' prepared parameters */
};

#endif
