// SPDX-License-Identifier: GPL-2.0
/*
 * The experiment `custom`, built from the command line.
 */
#include <string.h>

#include "tests/experiments/custom.h"
#include "tests/experiments/rule.h"
#include "tests/workloads/workloads.h"

bool custom_build(const struct payload_config *config, struct custom_run *out)
{
	struct experiment *e = &out->exp;

	memset(e, 0, sizeof(*e));
	if (!config->events[0][0] && !config->events[1][0])
		return false;
	for (unsigned t = 0; t < 2; t++) {
		memcpy(out->events[t], config->events[t], sizeof(out->events[t]));
		out->workload[t] = config->work[t];
	}
	e->name = "custom";
	e->title = "A run defined on the command line";
	e->section = "-";
	e->rule = &rule_measured;
	e->checked = "";
	for (unsigned mode = 0; mode < XSU_MODE_COUNT && e->nr_runs < EXP_MAX_RUNS; mode++) {
		struct exp_run *run = &e->runs[e->nr_runs++];
		run->phase = PHASE_MEASURE;
		run->xsu = (uint8_t)mode;
		for (unsigned t = 0; t < 2; t++) {
			run->thread[t].events = out->events[t];
			run->thread[t].workload = out->workload[t];
		}
		run->thread[1].offset_ms = config->start1_ms;
	}
	return true;
}
