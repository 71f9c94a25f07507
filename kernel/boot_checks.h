/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks every boot runs on the chosen core before any experiment, so that a log says whether
 * the machinery the experiments rely on works on this machine: the tick on each sibling, and
 * ring-3 code on both siblings started together.
 */
#ifndef KERNEL_BOOT_CHECKS_H
#define KERNEL_BOOT_CHECKS_H

#include <stdint.h>

/* Count ticks of period_ms on each thread over an interval timed with the TSC: a `tick` record.
 * The run fails when a thread gets no tick, or on bare metal when a count is off by more than a
 * quarter (the tick drives the multiplexing every experiment depends on); under a hypervisor that
 * only warns. */
void check_ticks(uint32_t period_ms);

/* Both threads run the ring-3 probe with a synchronised start: a `sibling` record with the
 * results and the start skew in TSC cycles; a wrong result fails the run. */
void check_siblings(void);

#endif
