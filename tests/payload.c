// SPDX-License-Identifier: GPL-2.0
/*
 * The payload's entry points (kernel/payload.h): its command-line keys, and its run: the boot
 * checks, then the self-test asked for, then the experiments.
 */
#include "kernel/console.h"
#include "kernel/end.h"
#include "kernel/payload.h"
#include "tests/checks/boot_checks.h"
#include "tests/checks/rdpmc_check.h"
#include "tests/checks/selftest.h"
#include "tests/experiments/suite.h"
#include "tests/payload_config.h"

static struct payload_config config;

const struct cmdline_table *payload_keys(void)
{
	static struct cmdline_table table;

	payload_config_table(&config, &table);
	return &table;
}

void payload_main(const struct payload_env *env)
{
	check_ticks(env, config.mux_ms);
	check_siblings(env);
	check_pmu(env);
	check_rdpmc(env);

	selftest_run(env, env->selftest);
	if (!boot_failed())
		experiments_run(env, &config);
	else
		kprintf("the checks failed: no experiment runs\n");
}
