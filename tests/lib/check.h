/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload's one way to report an outcome (docs/ARCHITECTURE.md, "Errors"), as a
 * kvm-unit-tests test calls report(): a check is a list of report() lines, each writing the
 * check's record (when it has one) and failing the boot, with its reason, when the outcome is
 * not right. The verdicts of the experiments report the same way.
 */
#ifndef TESTS_LIB_CHECK_H
#define TESTS_LIB_CHECK_H

#include <stdbool.h>

struct record;

/* Emits r (none when NULL); when !ok, the boot fails with `failure`. Returns ok. */
bool report(struct record *r, bool ok, const char *failure);

#endif
