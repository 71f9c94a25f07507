/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The experiments name the thesis's events (Haswell's). Where a microarchitecture does not
 * document one of them, a documented event of the same kind stands in, and the exp record says
 * so (issue 12: the built-in experiments use events that exist on the model they run on). On real
 * hardware an undocumented unit mask counts whatever it counts; a stand-in counts what Intel says.
 *
 * Pure code: host-tested.
 */
#ifndef TESTS_EXPERIMENTS_STAND_IN_H
#define TESTS_EXPERIMENTS_STAND_IN_H

#include <stddef.h>

#include "pmu/uarch.h"
#include "tests/experiments/experiment.h"

#define EXP_ADAPTED_TEXT 4096

/* An experiment rewritten for one microarchitecture: its texts live in pool. */
struct exp_adapted {
	struct experiment exp;
	char pool[EXP_ADAPTED_TEXT];
	size_t used;
};

/*
 * e as it runs on u: e itself when u documents every event it names, else a copy in *out with
 * the stand-ins written into every list and into `checked`, and a note that names them.
 */
const struct experiment *exp_adapt(const struct experiment *e, const struct uarch *u,
				   struct exp_adapted *out);

#endif
