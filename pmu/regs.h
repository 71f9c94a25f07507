/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register values of the architectural PMU as pure functions: IA32_PERFEVTSELx from an event,
 * the fields of IA32_FIXED_CTR_CTRL, the bits of IA32_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL, counter
 * preloads, and which MSR or RDPMC index reaches a counter. Both the driver (which writes them)
 * and the model PMU (which decodes them) use these, so the two cannot disagree on a bit.
 *
 * Counters are named by their index in the idxmsk space of pmu/counters.h: i < 32 is GP counter
 * i, PMU_FIXED_BASE + j is fixed counter j; an idxmsk is also a global enable or status mask.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_REGS_H
#define PMU_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/event.h"

/* IA32_PERFEVTSELx (SDM vol. 3B, 18.2.1.1, figure 18-1). */
#define PERFEVTSEL_EVENT_MASK 0xffull
#define PERFEVTSEL_UMASK_SHIFT 8
#define PERFEVTSEL_UMASK_MASK (0xffull << PERFEVTSEL_UMASK_SHIFT)
#define PERFEVTSEL_USR (1ull << 16) /* count at CPL 1-3 */
#define PERFEVTSEL_OS (1ull << 17)  /* count at CPL 0 */
#define PERFEVTSEL_EDGE (1ull << 18)
#define PERFEVTSEL_PC (1ull << 19)  /* pin control: never set by this driver */
#define PERFEVTSEL_INT (1ull << 20) /* APIC interrupt (PMI) on overflow */
#define PERFEVTSEL_ANY (1ull << 21) /* AnyThread (version 3) */
#define PERFEVTSEL_EN (1ull << 22)
#define PERFEVTSEL_INV (1ull << 23)
#define PERFEVTSEL_CMASK_SHIFT 24
#define PERFEVTSEL_CMASK_MASK (0xffull << PERFEVTSEL_CMASK_SHIFT)
/* Bits a write may set on SNB-SKL. 63:32 hold Haswell's IN_TX/IN_TXCP, which we never use. */
#define PERFEVTSEL_VALID_MASK 0xffffffffull

/*
 * IA32_FIXED_CTR_CTRL: four bits per fixed counter j at bit 4*j (SDM vol. 3B, 18.2.2, figure
 * 18-2; AnyThread from version 3). A field of 0 disables the counter.
 */
#define FIXED_CTRL_OS 0x1u  /* count at CPL 0 */
#define FIXED_CTRL_USR 0x2u /* count at CPL > 0 */
#define FIXED_CTRL_ANY 0x4u /* AnyThread */
#define FIXED_CTRL_PMI 0x8u /* PMI on overflow */
#define FIXED_CTRL_FIELD_BITS 4

/*
 * IA32_PERF_GLOBAL_STATUS bits above the counters (SDM vol. 3B, figure 18-4), and from version 4
 * the freeze bits (18.2.4.1, figure 18-10): set when a PMI froze the LBRs or the counters
 * (Freeze_LBR_On_PMI, Freeze_PerfMon_On_PMI), cleared by writing them to
 * IA32_PERF_GLOBAL_STATUS_RESET (the version-3 IA32_PERF_GLOBAL_OVF_CTRL). While CTR_FRZ is set
 * no counter counts.
 */
#define GLOBAL_STATUS_LBR_FRZ (1ull << 58)
#define GLOBAL_STATUS_CTR_FRZ (1ull << 59)
#define GLOBAL_STATUS_OVF_BUF (1ull << 62)
#define GLOBAL_STATUS_COND_CHGD (1ull << 63)

/* Flags of regs_perfevtsel() that are not properties of the event. */
#define REGS_EN 0x1u  /* PERFEVTSEL_EN */
#define REGS_INT 0x2u /* PERFEVTSEL_INT */

/* IA32_PERFEVTSELx for e: event, umask, USR, OS, edge, AnyThread, inv, cmask, plus flags. */
uint64_t regs_perfevtsel(const struct pmu_event *e, unsigned flags);

/* The selection a PERFEVTSEL value makes, decoded (the model's view of a write). */
struct perfevtsel_fields {
	uint8_t event, umask, cmask;
	bool usr, os, edge, inv, any, intr, en;
};
struct perfevtsel_fields regs_perfevtsel_decode(uint64_t value);

/*
 * The four-bit IA32_FIXED_CTR_CTRL field that counts e's privilege levels (OS/USR from e->os and
 * e->usr, ANY from e->any), with the PMI bit when pmi is set.
 */
unsigned regs_fixed_field(const struct pmu_event *e, bool pmi);

/* ctrl with fixed counter j's field replaced by field. */
uint64_t regs_fixed_ctrl_set(uint64_t ctrl, unsigned j, unsigned field);

/* Fixed counter j's field of ctrl. */
unsigned regs_fixed_ctrl_get(uint64_t ctrl, unsigned j);

/* The bits of IA32_FIXED_CTR_CTRL that exist with fixed fixed counters. */
uint64_t regs_fixed_ctrl_valid(unsigned fixed);

/*
 * Every counter of a PMU with gp GP and fixed fixed counters as an IA32_PERF_GLOBAL_CTRL mask
 * (bits 0..gp-1 and 32..32+fixed-1); also the overflow bits of IA32_PERF_GLOBAL_STATUS.
 */
uint64_t regs_global_all(unsigned gp, unsigned fixed);

/* The IA32_PERF_GLOBAL_CTRL / STATUS bit of counter idx. */
static inline uint64_t regs_global_bit(unsigned idx)
{
	return 1ull << idx;
}

/* All ones in the low width bits: the values a width-bit counter holds. */
uint64_t regs_width_mask(unsigned width);

/* The preload that makes a width-bit counter overflow after n more events: -n modulo 2^width. */
uint64_t regs_preload(uint64_t n, unsigned width);

/*
 * What a write of value to IA32_PMCx leaves in a width-bit counter when full-width writes are
 * not in use: bits 31:0 are written and bit 31 is copied into the bits above it (SDM vol. 3B,
 * 18.2.6).
 */
uint64_t regs_legacy_pmc_write(uint64_t value, unsigned width);

/* True when writing value through IA32_PMCx leaves exactly value in the counter. */
bool regs_preload_fits_legacy(uint64_t value, unsigned width);

/*
 * The MSR that holds counter idx: IA32_PMCi, or IA32_A_PMCi when full_width (for writes), or
 * IA32_FIXED_CTRj.
 */
uint32_t regs_counter_msr(unsigned idx, bool full_width);

/* RDPMC's ECX for counter idx. */
uint32_t regs_rdpmc_ecx(unsigned idx);

/*
 * The SDM's name of a PMU register the kernel programs or reads (vol. 4, table 2-2):
 * "IA32_PERF_GLOBAL_CTRL", "IA32_PERFEVTSEL2", "IA32_PMC0", "IA32_A_PMC0", "IA32_FIXED_CTR1",
 * ...; NULL for any other MSR.
 */
const char *regs_msr_name(uint32_t msr);

/* Whether msr holds a counter (IA32_PMCx, IA32_A_PMCx, IA32_FIXED_CTRx), not a control. */
bool regs_msr_is_counter(uint32_t msr);

/*
 * The fixed-counter events (SDM vol. 3B, table 18-2). pmu/regs.c holds the one table of them that
 * the driver, the static constraints (pmu/uarch_constraint.c) and the model PMU all read.
 */

/* The architectural event fixed counter j counts, as 0xUUEE (0 when there is no counter j). */
uint16_t regs_fixed_event_code(unsigned j);

/*
 * Whether a GP counter can count fixed counter j's event too: INST_RETIRED.ANY and
 * CPU_CLK_UNHALTED.CORE have GP encodings, reference cycles have none (false for no counter j).
 */
bool regs_fixed_event_gp_ok(unsigned j);

/*
 * Whether a fixed counter can count e, and which into *j: e must be one of the architectural
 * fixed-counter events with edge, inv and cmask clear (a fixed counter has no such filters).
 */
bool regs_fixed_counter_for(const struct pmu_event *e, unsigned *j);

static inline bool regs_idx_is_fixed(unsigned idx)
{
	return idx >= PMU_FIXED_BASE;
}

#endif
