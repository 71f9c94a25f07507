/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU driver: programs a counter assignment into one logical CPU's PMU and reads the counts,
 * through an MSR backend (the real MSRs or the model PMU), never touching anything else.
 *
 * Per tick on each logical CPU, the kernel does (pmu/thread_counters.h):
 *
 *	... schedule (XSU transaction, greedy or Hopcroft-Karp) ...
 *	pmu_driver_stop_some(d, pmu_driver_changes(d, assignment, n));
 *	                                            stop what changes, fold in every count
 *	for each event e that had counter idx:
 *		e->count += pmu_driver_take(d, idx); events since the last take
 *	pmu_driver_program(d, assignment, n);       program and start what changes
 *
 * and at the end of an experiment pmu_driver_stop(), the takes, and pmu_driver_release(), which
 * leaves every counter disabled. Reading at every tick keeps
 * the 48-bit counters far from wrapping more than once between reads (2^48 events take hours
 * even at several events per cycle), and a wrap between two reads is never lost: the driver
 * compares each raw value with the previous one and checks IA32_PERF_GLOBAL_STATUS.
 *
 * Registers are written only when they change. The driver keeps shadow copies of what it last
 * wrote (each IA32_PERFEVTSELx, IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL), and an event that
 * stays on its counter from one schedule to the next keeps counting on it, untouched, stopped or
 * not (as Linux's x86_pmu_enable keeps events that match their previous assignment): an unchanged
 * assignment costs no write at all. pmu_driver_stop_some() stops chosen counters (their
 * IA32_PERF_GLOBAL_CTRL bits) while the others go on, and a program can leave counters held,
 * selected but not started until pmu_driver_start(). The driver counts its register accesses
 * (reads: RDMSR and RDPMC; writes: WRMSR), the figures a tick costs on any backend. And since a
 * counter keeps its value, the driver sees its whole history and catches firmware that writes it
 * behind the kernel's back:
 *
 * Interference. A value below the previous one with no overflow bit in IA32_PERF_GLOBAL_STATUS
 * (read again after the counter, to rule out a wrap between the two reads) is not a wrap: SMM
 * code or another agent wrote the counter (some server firmware reads or resets counters from
 * SMM). The driver then adds nothing for that read (the events since the previous read are
 * unknown; the count stays a lower bound instead of gaining 2^48), counts it in `interferences`,
 * notes the register (the first such, in `interference`) and marks the counter interfered until
 * pmu_driver_take_interfered() takes the mark. A write that leaves a counter higher than it was
 * cannot be told from events. An enable bit cleared behind its back is seen by
 * pmu_driver_verify(), which reads the control registers back.
 *
 * TSX_FORCE_ABORT (geometry.tsx_force_abort, Skylake with the 2019 microcode): GP counter 3 counts
 * only while MSR_TSX_FORCE_ABORT[0] makes every RTM transaction abort. The driver does what Linux
 * does by default (allow_tsx_force_abort = 1): it sets the bit while counter 3 is programmed and
 * clears it when counter 3 is unused or released (intel_tfa_commit_scheduling,
 * intel_tfa_pmu_enable_all). No workload of this kernel uses TSX, so nothing is lost by it.
 *
 * Under the model backend, every driver call on a core's CPU must hold that core's lock (the
 * model's state is shared by the siblings; pmu/model.h). The driver itself takes no lock and keeps
 * no global state.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_DRIVER_H
#define PMU_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/enumerate.h"
#include "pmu/event.h"
#include "pmu/msr.h"
#include "pmu/uarch.h"

/* One event placed on one counter. */
struct pmu_assignment {
	const struct pmu_event *event;
	unsigned idx;	  /* idxmsk index: GP counter i < 32, fixed counter PMU_FIXED_BASE + j */
	uint64_t preload; /* the starting value (regs_preload() for -n); 0: PMU_DRV_START */
};

enum pmu_drv_status {
	PMU_DRV_OK,
	PMU_DRV_EINDEX,	  /* no such counter on this PMU */
	PMU_DRV_EBUSY,	  /* two events on one counter */
	PMU_DRV_EFIXED,	  /* a fixed counter cannot count this event (or a GP counter REF cycles) */
	PMU_DRV_EPRELOAD, /* the preload does not fit the counter, or needs full-width writes */
	PMU_DRV_EEVENT,	  /* no event */
	PMU_DRV_EANY,	  /* AnyThread on a PMU without it (version 2: the write would #GP) */
};

/* What a counter starts from when no preload is asked (pmu/driver.c: start_value()). */
#define PMU_DRV_START ((uint64_t)1 << 30)

/* pmu_driver_init() flags. */
#define PMU_DRV_PMI 0x1u       /* set INT / PMI so that an overflow raises a PMI (the APIC's LVT) */
#define PMU_DRV_RDPMC 0x2u     /* read counters with the backend's read_pmc when it has one */
#define PMU_DRV_SMI_COUNT 0x4u /* MSR_SMI_COUNT can be read: pmu_driver_verify() looks after SMIs */

struct pmu_drv_counter {
	uint64_t last;	    /* the raw value at the last read */
	uint64_t count;	    /* events since the last take */
	uint64_t selection; /* the IA32_PERFEVTSELx value or fixed-control field it runs with */
	bool interfered;    /* went down without an overflow since the mark was last taken */
};

/* A register found written behind the driver's back: the first such, for the warn that names it. */
struct pmu_drv_interference {
	uint32_t msr;	/* 0: none yet */
	uint64_t wrote; /* what the driver wrote (a counter: the value it last read) */
	uint64_t read;	/* what it read */
};

struct pmu_driver {
	struct msr_backend be;
	struct pmu_geometry geo;
	unsigned flags;
	uint64_t active;      /* counters programmed, as an idxmsk */
	uint64_t global;      /* IA32_PERF_GLOBAL_CTRL as last written: the counters counting */
	uint64_t fixed_ctrl;  /* IA32_FIXED_CTR_CTRL as last written */
	bool tsx_force_abort; /* MSR_TSX_FORCE_ABORT[0] as the driver last wrote it */
	struct pmu_drv_counter gp[PMU_MAX_GP];
	struct pmu_drv_counter fixed[PMU_MAX_FIXED];
	uint64_t wraps;		/* counter wraps accounted since init */
	uint64_t interferences; /* reads that found a register written behind the driver's back */
	struct pmu_drv_interference interference; /* the first of them */
	unsigned verify_next; /* the GP counter whose selector is checked next */
	uint64_t smis;	/* MSR_SMI_COUNT at the last pmu_driver_verify() (PMU_DRV_SMI_COUNT) */
	bool smis_read; /* smis holds a value read */
	uint64_t reads, writes; /* register accesses since init: RDMSR and RDPMC; WRMSR */
};

/*
 * Bind d to a backend and the geometry enumeration found, and put the PMU in a known state:
 * everything released (pmu_driver_release()).
 */
void pmu_driver_init(struct pmu_driver *d, const struct msr_backend *be,
		     const struct pmu_geometry *geo, unsigned flags);

/*
 * Program assignment a[0..n-1], the counters in `hold` (idxmsk) selected but not started. A
 * counter that gets the selection it already had, with preload 0, is left as it is: it goes on
 * from its value (started, unless held). The others change with the SDM's sequence (vol. 3B,
 * 18.2): their IA32_PERF_GLOBAL_CTRL bits cleared (and a stale overflow bit, were one there); a
 * GP counter preloaded (PMU_DRV_START where the preload is 0) and its selector written, or its
 * selector cleared when no event uses it; a fixed counter preloaded, then IA32_FIXED_CTR_CTRL;
 * last the global enable of the assigned counters not held. Counts and interference marks not yet taken are discarded. On an error
 * nothing is written and the previous programming stays.
 */
enum pmu_drv_status pmu_driver_program_held(struct pmu_driver *d, const struct pmu_assignment *a,
					    unsigned n, uint64_t hold);
enum pmu_drv_status pmu_driver_program(struct pmu_driver *d, const struct pmu_assignment *a,
				       unsigned n); /* nothing held */

/* The counters (idxmsk) programming a[0..n-1] would change: the ones not left as they are. */
uint64_t pmu_driver_changes(struct pmu_driver *d, const struct pmu_assignment *a, unsigned n);

/* Start the held counters among `counters`. */
void pmu_driver_start(struct pmu_driver *d, uint64_t counters);

/* Fold the counters' progress since the last read into their counts (counters keep running). */
void pmu_driver_read(struct pmu_driver *d);

/*
 * Stop the counters among `counters` (their IA32_PERF_GLOBAL_CTRL bits), then read every counter:
 * the stopped ones' counts are final until they start again, the others go on counting.
 */
void pmu_driver_stop_some(struct pmu_driver *d, uint64_t counters);

/* Stop every counter, then a last read: the counts are final until the next program. */
void pmu_driver_stop(struct pmu_driver *d);

/* The events counter idx counted since the last take (0 when idx is not programmed)... */
uint64_t pmu_driver_count(const struct pmu_driver *d, unsigned idx);

/* ... and the same, resetting the count to zero. */
uint64_t pmu_driver_take(struct pmu_driver *d, unsigned idx);

/*
 * Read back what the driver wrote that decides whether a counter counts, and compare (xsu=core's
 * tick, once per thread: pmu/handover.h): IA32_PERF_GLOBAL_CTRL, and then either, with
 * PMU_DRV_SMI_COUNT, MSR_SMI_COUNT, and every programmed IA32_PERFEVTSELx and IA32_FIXED_CTR_CTRL
 * when an SMI came since the last call (firmware changes the PMU from SMM, and every SMI counts
 * there: SDM vol. 4, table 2-20), or else the IA32_PERFEVTSELx of one programmed GP counter, the
 * next in turn, so that each selector is checked every few calls. A selector checked in turn can
 * be rewritten by the next program before its turn, which hides the change: the SMI count misses
 * none. Firmware that clears an enable bit (SMM code, a BIOS that takes a counter) stops a counter
 * silently: no value goes down. A register that differs is interference: each counter it touched
 * is marked interfered (its count is a lower bound), counted in `interferences`, noted in
 * `interference` when it is the first, and the register is written back so that the counters
 * count as programmed again. Two reads a call (one without GP counters programmed, and after an
 * SMI one a programmed selector more), and a write only when something differs.
 */
void pmu_driver_verify(struct pmu_driver *d);

/*
 * Whether counter idx was written behind the driver's back (it went down without an overflow)
 * since this was last asked, clearing the mark. Take it with the count: the events of the count
 * it goes with are a lower bound. False when idx is not programmed.
 */
bool pmu_driver_take_interfered(struct pmu_driver *d, unsigned idx);

/*
 * Leave the PMU as firmware should have: global disable, every selector and the fixed control
 * cleared, every counter zeroed, the overflow status cleared, MSR_TSX_FORCE_ABORT cleared where
 * the geometry has it. Counts not taken are discarded.
 */
void pmu_driver_release(struct pmu_driver *d);

const char *pmu_drv_status_name(enum pmu_drv_status s);

#endif
