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
};

/* pmu_driver_init() flags. */
#define PMU_DRV_PMI 0x1u   /* set INT / PMI so that an overflow raises a PMI (the APIC's LVT) */
#define PMU_DRV_RDPMC 0x2u /* read counters with the backend's read_pmc when it has one */

struct pmu_drv_counter {
	uint64_t last;	   /* the raw value at the last read */
	uint64_t count;	   /* events since the last take */
	bool pending_wrap; /* a wrap was seen in the values before its status bit */
};

struct pmu_driver {
	struct msr_backend be;
	struct pmu_geometry geo;
	unsigned flags;
	uint64_t active; /* counters programmed, as an idxmsk */
	struct pmu_drv_counter gp[PMU_MAX_GP];
	struct pmu_drv_counter fixed[PMU_MAX_FIXED];
	uint64_t wraps; /* counter wraps accounted since init */
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
 * enable of exactly the assigned counters. Counts not yet taken are discarded. On an error
 * nothing is written and the previous programming stays.
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
 * Leave the PMU as firmware should have: global disable, every selector and the fixed control
 * cleared, every counter zeroed, the overflow status cleared. Counts not taken are discarded.
 */
void pmu_driver_release(struct pmu_driver *d);

const char *pmu_drv_status_name(enum pmu_drv_status s);

#endif
