// SPDX-License-Identifier: GPL-2.0
/*
 * report() (tests/lib/check.h).
 */
#include "kernel/end.h"
#include "kernel/record_stream.h"
#include "tests/lib/check.h"

bool report(struct record *r, bool ok, const char *failure)
{
	if (r)
		record_emit(r);
	if (!ok)
		boot_fail(failure);
	return ok;
}
