/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Your own code on both siblings (docs/own-code.md): the bundles tools/pmu-bench writes reach the
 * kernel as boot modules (QEMU's -initrd, GRUB's module2, BENCH1.BIN ... beside the native UEFI
 * loader); bench_run_all() runs them one after another after the experiments, each with a `bench`
 * record and its `bench_result` records (docs/records.md).
 *
 * A bundle runs as nanoBench runs its code: the programs of tests/owncode/codegen.h with N and 2N
 * copies (0 and N in basic mode), warm_up_count runs kept out, n_measurements kept, once per pass
 * of the plan (pmu/xsu_passes.h, by the bundle's XSU mode), HT1 running its code or workload from
 * before HT0's first read to after its last. HT1 reads its counters when HT0 starts and ends each
 * run (a handshake through the sibling's poll, codegen.h), so its values are its counts over the
 * same runs. Under the model PMU the counts come from a trace of the parts
 * (tests/owncode/trace.h).
 */
#ifndef TESTS_OWNCODE_BENCH_H
#define TESTS_OWNCODE_BENCH_H

#include <stdint.h>

#include "kernel/payload.h"
#include "tests/lib/payload_config.h"

void bench_run_all(const struct payload_env *env, const struct payload_config *cfg);

#endif
