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
#include "tests/payload_check.h"
#include "tests/owncode/bench.h"
#include "tests/lib/payload_config.h"
#include "tests/workloads/workloads.h"

static struct payload_config config;

/* The payload's keys against the machine the kernel found (struct pmu, kernel/pmu.h). */
static unsigned check_keys(void *settings, const void *machine, struct cmdline_warning *warnings,
			   unsigned max)
{
	const struct pmu *pmu = machine;
	struct payload_machine m = { pmu->info.uarch, &pmu->geometry, workload_names(),
				     suite_experiment_names() };

	return payload_check(settings, &m, warnings, max);
}

const struct cmdline_table *payload_keys(void)
{
	static struct cmdline_table table;

	payload_config_table(&config, &table);
	table.check = check_keys;
	return &table;
}

void payload_main(const struct payload_env *env)
{
	check_ticks(env, config.mux_ms);
	check_siblings(env);
	/* With no counters (pmu=auto on a machine with neither a PMU nor a hypervisor) there is
	 * nothing to check; every experiment says so (skip no_pmu). */
	if (env->pmu->counts) {
		check_pmu(env);
		check_rdpmc(env);
	}

	selftest_run(env, env->selftest);
	if (!boot_failed()) {
		experiments_run(env, &config);
		bench_run_all(env, &config);
	} else {
		kprintf("the checks failed: no experiment or bundle runs\n");
	}
}
