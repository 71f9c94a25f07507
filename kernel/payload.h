/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload: what the kernel runs once the machine is up (the boot checks, the self-tests and
 * the experiments, in tests/; docs/ARCHITECTURE.md, "Layers"). The kernel knows it by two calls
 * and never calls into it otherwise: payload_keys() for its command-line keys, payload_main() to
 * run it. The payload calls the kernel as a kvm-unit-tests test calls its lib/, and reaches the
 * machine it measures (the PMU, the two threads) through what payload_main() hands it.
 */
#ifndef KERNEL_PAYLOAD_H
#define KERNEL_PAYLOAD_H

#include "kernel/boot_info.h"
#include "kernel/cmdline.h"
#include "kernel/pair.h"
#include "kernel/pmu.h"

/* What the kernel hands the payload. */
struct payload_env {
	struct pmu *pmu;	 /* the PMU, its backend, the lock the pair's counters share */
	const struct pair *pair; /* the chosen core's threads */
	unsigned selftest;	 /* enum selftest (kernel/config.h): the self-test asked for */
	/* How the kernel was booted and its boot modules (the bundles of your own code that the
	 * payload runs, tests/owncode/bench.h), which stay in place for the whole boot. */
	const struct boot_info *boot;
};

/*
 * The payload's command-line keys and the settings they fill, which stay the payload's: the
 * kernel parses them with its own before the boot record, which shows both.
 */
const struct cmdline_table *payload_keys(void);

/*
 * Called on the boot CPU (thread 0 of the chosen core) once the boot record, the warnings and the
 * `pmu` record are out, with interrupts off and the sibling waiting for work (kernel/pair.h).
 * It reports its findings as records and marks the boot failed through kernel/end.h; when it
 * returns the kernel emits the end record.
 */
void payload_main(const struct payload_env *env);

#endif
