/* SPDX-License-Identifier: GPL-2.0 */
/*
 * selftest=profiles: the built-in workloads' model profiles against what their code does. Each
 * workload of the library (tests/workloads/workloads.h) runs at CPL 3 on thread 0 with the trap
 * flag set, one #DB per instruction (SDM vol. 3B, 17.3.1.4), three times:
 *
 *	units	units per chunk	chunks
 *	n	n		1
 *	2n	2n		1
 *	2n	n		2
 *
 * each run from the workload's entry to the time check (its RDTSC) after the last chunk. The
 * second less the first is n units and nothing else; the third less the second is one chunk's
 * own work (the time check, the ledger, the call into the loop); the rest of the first is the
 * run's entry. Each run writes a `trace` record (docs/records.md): the model's counts for what
 * the workload's ledger says it did (model_truth()) and the edges the trace took. The host
 * decodes the edges in the kernel's ELF with the disassembler of pmu-bench's decode table and
 * compares (tools/pmu_trace.py, docs/model.md "Traced and fitted"). The kernel only says whether
 * every trace was whole: the boot fails when one was not.
 */
#ifndef TESTS_PROFILES_PROFILES_H
#define TESTS_PROFILES_PROFILES_H

#include "kernel/payload.h"

/* n: the units of the shortest run. */
#define PROFILES_TRACE_UNITS 64

void profiles_run(const struct payload_env *env);

#endif
