// SPDX-License-Identifier: GPL-2.0
/*
 * The payload's entry point (kernel/payload.h): the boot checks, then the self-test asked for,
 * then the experiments.
 */
#include "kernel/console.h"
#include "kernel/payload.h"
#include "kernel/end.h"
#include "tests/checks/boot_checks.h"
#include "tests/checks/rdpmc_check.h"
#include "tests/checks/selftest.h"
#include "tests/experiments/suite.h"

void payload_main(const struct config *config)
{
	check_ticks(config->mux_ms);
	check_siblings();
	check_pmu();
	check_rdpmc();

	selftest_run(config->selftest);
	if (!boot_failed())
		experiments_run(config);
	else
		kprintf("the checks failed: no experiment runs\n");
}
