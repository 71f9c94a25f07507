/* SPDX-License-Identifier: GPL-2.0 */
#ifndef TESTS_CHECKS_SELFTEST_H
#define TESTS_CHECKS_SELFTEST_H

#include "kernel/payload.h"

/*
 * `selftest=`: provoke one exception on purpose (enum selftest, kernel/cmdline.h) to show that
 * the exception path reports it, emits the end record with verdict fail and leaves the machine.
 * Does not return when a fault was requested.
 */
void selftest_run(const struct payload_env *env, unsigned which);

#endif
