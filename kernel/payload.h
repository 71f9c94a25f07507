/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload: what the kernel runs once the machine is up (the boot checks, the self-tests and
 * the experiments, in tests/). The kernel starts it through this one entry point and never calls
 * into it otherwise; the payload calls the kernel, as a kvm-unit-tests test calls its lib/
 * (ARCHITECTURE.md, "Contracts": dependencies point one way).
 */
#ifndef KERNEL_PAYLOAD_H
#define KERNEL_PAYLOAD_H

#include "kernel/cmdline.h"

/*
 * Called on the boot CPU (thread 0 of the chosen core) once the boot record, the warnings and the
 * `pmu` record are out, with interrupts off and the sibling waiting for work (kernel/pair.h).
 * It reports its findings as records and marks the run failed through kernel/run.h; when it
 * returns the kernel emits the end record.
 */
void payload_main(const struct config *config);

#endif
