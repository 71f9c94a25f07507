/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring-3 side of selftest=profiles (tests/profiles/profiles.h): traced_call(call) runs
 * call->entry(call->arg) with the trap flag set, so that every instruction it executes at CPL 3
 * raises a #DB (SDM vol. 3B, 17.3.1.4), and returns its result.
 */
#ifndef TESTS_RING3_TRACED_H
#define TESTS_RING3_TRACED_H

#include <stdint.h>

#include "tests/ring3/user.h"

struct traced_call {
	user_function entry;
	uint64_t arg;
};

uint64_t traced_call(uint64_t call);

#endif
