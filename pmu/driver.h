/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU driver: programs a counter assignment into one logical CPU's PMU and reads the counts,
 * through an MSR backend (the real MSRs or the model PMU), never touching anything else.
 *
 * Per tick on each logical CPU, the kernel does:
 *
 *	pmu_driver_stop(d);                         freeze every counter, fold in the last counts
 *	for each event e that had counter idx:
 *		e->count += pmu_driver_take(d, idx); events since the last take
 *	... schedule (XSU transaction, greedy or Hopcroft-Karp) ...
 *	pmu_driver_program(d, assignment, n);       program and start the new assignment
 *
 * and at the end of an experiment pmu_driver_stop(), the takes, and pmu_driver_release(), which
 * leaves every counter disabled. Instead of stopping, a tick that keeps the same assignment may
 * call pmu_driver_read() and take the counts while the counters run. Reading at every tick keeps
 * the 48-bit counters far from wrapping more than once between reads (2^48 events take hours
 * even at several events per cycle), and a wrap between two reads is never lost: the driver
 * compares each raw value with the previous one and checks IA32_PERF_GLOBAL_STATUS.
 *
 * An event that stays on its counter from one tick to the next keeps counting on it: after
 * pmu_driver_stop(), pmu_driver_program() leaves such a counter's value alone instead of zeroing
 * it (as Linux's x86_pmu_enable keeps events that match their previous assignment). So the driver
 * sees a counter's whole history and catches firmware that writes it behind the kernel's back:
 *
 * Interference. A value below the previous one with no overflow bit in IA32_PERF_GLOBAL_STATUS
 * (read again after the counter, to rule out a wrap between the two reads) is not a wrap: SMM
 * code or another agent wrote the counter (some server firmware reads or resets counters from
 * SMM). The driver then adds nothing for that read (the events since the previous read are
 * unknown; the count stays a lower bound instead of gaining 2^48), counts it in `interferences`,
 * and marks the counter interfered until pmu_driver_take_interfered() takes the mark. A write
 * that leaves a counter higher than it was cannot be told from events.
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
	uint64_t preload; /* the counter's starting value, normally 0 (regs_preload() for -n) */
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

/* pmu_driver_init() flags. */
#define PMU_DRV_PMI 0x1u   /* set INT / PMI so that an overflow raises a PMI (the APIC's LVT) */
#define PMU_DRV_RDPMC 0x2u /* read counters with the backend's read_pmc when it has one */

struct pmu_drv_counter {
	uint64_t last;	    /* the raw value at the last read */
	uint64_t count;	    /* events since the last take */
	uint64_t selection; /* the IA32_PERFEVTSELx value or fixed-control field it runs with */
	bool interfered;    /* went down without an overflow since the mark was last taken */
};

struct pmu_driver {
	struct msr_backend be;
	struct pmu_geometry geo;
	unsigned flags;
	uint64_t active;      /* counters programmed, as an idxmsk */
	bool stopped;	      /* pmu_driver_stop() since the last program: the values are final */
	bool tsx_force_abort; /* MSR_TSX_FORCE_ABORT[0] as the driver last wrote it */
	struct pmu_drv_counter gp[PMU_MAX_GP];
	struct pmu_drv_counter fixed[PMU_MAX_FIXED];
	uint64_t wraps;		/* counter wraps accounted since init */
	uint64_t interferences; /* reads that found a counter written behind the driver's back */
};

/*
 * Bind d to a backend and the geometry enumeration found, and put the PMU in a known state:
 * everything released (pmu_driver_release()).
 */
void pmu_driver_init(struct pmu_driver *d, const struct msr_backend *be,
		     const struct pmu_geometry *geo, unsigned flags);

/*
 * Program assignment a[0..n-1] with the SDM's sequence (vol. 3B, 18.2): global disable; each GP
 * selector cleared, its counter preloaded, the selector written with EN; IA32_FIXED_CTR_CTRL
 * cleared, the fixed counters preloaded, the control written; overflow status cleared; global
 * enable of exactly the assigned counters. Counts and interference marks not yet taken are
 * discarded. On an error nothing is written and the previous programming stays.
 *
 * After pmu_driver_stop(), a counter that gets the selection it already had, with preload 0,
 * is left as it is (its selector and value are not written): it goes on from its value.
 */
enum pmu_drv_status pmu_driver_program(struct pmu_driver *d, const struct pmu_assignment *a,
				       unsigned n);

/* Fold the counters' progress since the last read into their counts (counters keep running). */
void pmu_driver_read(struct pmu_driver *d);

/* Global disable, then a last read: the counts are final until the next program. */
void pmu_driver_stop(struct pmu_driver *d);

/* The events counter idx counted since the last take (0 when idx is not programmed)... */
uint64_t pmu_driver_count(const struct pmu_driver *d, unsigned idx);

/* ... and the same, resetting the count to zero. */
uint64_t pmu_driver_take(struct pmu_driver *d, unsigned idx);

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
