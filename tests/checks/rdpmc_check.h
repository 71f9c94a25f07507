/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot check of counting from ring 3 (tests/ring3/rdpmc.h, kernel/user_rdpmc.h): on each
 * thread, with BR_INST_RETIRED.NEAR_CALL on GP counter 0 and INST_RETIRED.ANY on fixed counter 0,
 * ring-3 code times RDPMC_CHECK_READS reads of GP counter 0 and then reads both counters around a
 * known amount of call/return work. An `rdpmc` record (docs/records.md) gives the cost of one read
 * in TSC cycles, mean, median, min and max, whether the kernel emulated the reads (the model PMU), and the
 * region's counts. A region that reads wrong fails the run: under the model it must read exactly
 * the profile's counts, on real counters the calls within 1% of the units.
 */
#ifndef TESTS_CHECKS_RDPMC_CHECK_H
#define TESTS_CHECKS_RDPMC_CHECK_H

#include "kernel/payload.h"

#define RDPMC_CHECK_UNITS 10000

void check_rdpmc(const struct payload_env *env);

#endif
