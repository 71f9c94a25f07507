/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's side of the counters: which PMU this machine has and which backend measures (the
 * real MSRs or the model PMU), the state the chosen core's two threads share (the lock of XSU
 * transactions and of the model, the model itself) (docs/ARCHITECTURE.md, "Counters: one driver,
 * two backends").
 */
#ifndef KERNEL_PMU_H
#define KERNEL_PMU_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/spinlock.h"
#include "kernel/pmu_backend_hw.h"
#include "pmu/driver.h"
#include "pmu/enumerate.h"
#include "pmu/firmware.h"
#include "pmu/model.h"
#include "pmu/msr.h"
#include "pmu/select.h"

struct pmu {
	struct pmu_info info;
	struct pmu_choice choice;
	struct pmu_geometry geometry; /* what the driver programs, per logical CPU */
	bool smt;		      /* the pair has two threads */
	unsigned selftest;	      /* enum selftest: the firmware the model imitates */
	bool model;		      /* the model backend measures */
	bool counts; /* a backend counts (hw or model); false: nothing is measured */
	/* Taken for every XSU transaction and, under the model, for every model or driver call. */
	struct spinlock lock;
	struct model_pair model_state;
	struct msr_backend backend[2]; /* thread 0 and thread 1 of the pair */
	struct pmu_driver driver[2];

	/* The boot CPU's microcode revision (IA32_BIOS_SIGN_ID), valid on Intel outside TCG. */
	bool microcode_valid;
	uint32_t microcode;
	/* What the firmware left, per pair thread, before the kernel touched the PMU. */
	struct pmu_msr_snapshot firmware_msrs[2];
	struct pmu_takeover takeover[2];
};

extern struct pmu the_pmu;

/*
 * CPUID (and IA32_PERF_CAPABILITIES when it exists) into the_pmu.info, and the calling CPU's
 * microcode revision; safe at any time.
 */
void pmu_identify(void);

/*
 * The CPU as the texts name it: its microarchitecture ("haswell") when the tables know it,
 * otherwise its vendor, family and model ("GenuineIntel family 6 model 0x86"), into buf.
 */
const char *pmu_cpu_name(const struct pmu *pmu, char *buf, size_t size);

/*
 * Choose the backend for request (pmu=) and set up the shared state for the pair: the geometry
 * (what the driver programs) and, for the model, its registers. Emits nothing: it runs before the
 * boot record, so that what depends on the counters (the payload's event lists) is checked
 * before the record shows them. selftest (enum selftest) firmware-counters and counter-reset
 * make the model PMU imitate such firmware.
 */
void pmu_choose(unsigned request, bool smt, unsigned selftest);

/*
 * After the boot record: emit the `pmu` record. pmu=hw
 * on a machine without a PMU ends the boot here, with a clear failure record. Before anything is
 * programmed, each pair thread's PMU MSRs are recorded (the record's "msrs" are thread 0's),
 * counters the firmware left enabled are named ("firmware_counters", and a `warn`), and each
 * thread's IA32_DEBUGCTL and IA32_PEBS_ENABLE are taken over (pmu/firmware.h).
 */
void pmu_setup(void);

/*
 * On the calling CPU, pair thread `thread`: bind its driver to its backend and leave every counter
 * released (with the real MSRs this must run on that CPU), let ring 3 read them with RDPMC
 * (kernel/user_rdpmc.h), and clear `work`, the ledger of the workload the thread runs, which the
 * model then reads (pmu/model_ledger.h). pmu_thread_end() releases the counters again and unbinds
 * the ledger. Both take the_pmu.lock around the driver and the model, as the model requires.
 */
struct pmu_driver *pmu_thread_begin(unsigned thread, struct model_ledger *work);
void pmu_thread_end(unsigned thread);

/*
 * The calling CPU's MSR_SMI_COUNT (the model's, under the model: the SMIs it imitates); false
 * where the MSR faults (not an Intel CPU, a hypervisor that refuses it).
 */
bool pmu_smi_count(unsigned thread, uint64_t *count);

/* After the payload: a selftest whose model firmware acts in SMM and never did fails the boot,
 * named in a warn (key selftest): it tested nothing. */
void pmu_selftest_end(void);

/*
 * Profiles the model may read besides the workloads' own (kernel/pmu.c, profile_ok): those in
 * [start, start + bytes), kernel memory that CPL 3 cannot write, where the kernel builds the
 * profiles of code it traced (tests/owncode/trace.h). NULL: none again.
 */
void pmu_trust_profiles(const void *start, size_t bytes);

#endif
