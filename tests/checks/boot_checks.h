/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks every boot runs on the chosen core before any experiment, so that a log says whether
 * the machinery the experiments rely on works on this machine: the tick on each sibling, ring-3
 * code on both siblings started together, and counts through the whole PMU path.
 */
#ifndef TESTS_CHECKS_BOOT_CHECKS_H
#define TESTS_CHECKS_BOOT_CHECKS_H

#include <stdint.h>

#include "kernel/payload.h"

/* Each check reports through tests/lib/check.h: its record, and the boot failed when it fails. */

/* Count ticks of period_ms on each thread over an interval timed with the TSC (200 ms, or ten
 * periods where that is longer): a `tick` record.
 * The boot fails when a thread gets no tick, or on bare metal when a count is off by more than a
 * quarter (the tick drives the multiplexing every experiment depends on); under a hypervisor that
 * only warns. */
void check_ticks(const struct payload_env *env, uint32_t period_ms);

/* Both threads run the ring-3 probe with a synchronised start: a `sibling` record with the
 * results and the start skew in TSC cycles; a wrong result fails the boot. */
void check_siblings(const struct payload_env *env);

/*
 * Both threads run the call/return workload for a known number of units with INST_RETIRED.ANY on
 * fixed counter 0 and NEAR_CALL, NEAR_RETURN, ALL_BRANCHES on GP counters 0-2, and NEAR_CALL again
 * on GP counter 3 preloaded so that it wraps halfway: a `pmu_check` record. On the model the
 * counts must be exactly the profile's; on real counters, NEAR_CALL within 1% of the units and the
 * wrapped counter equal to the plain one. A wrong count fails the boot (pmu_check.c).
 */
void check_pmu(const struct payload_env *env);

#endif
