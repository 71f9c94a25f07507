/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model PMU: an emulation of the performance-monitoring MSRs of the two logical CPUs of one
 * physical core, with the BJ122/BV98/HSD29 cross-hyperthread corruption, for machines that have
 * no PMU (QEMU's TCG). The driver programs it through the MSR backend it returns, exactly as it
 * programs the real MSRs; workloads make its counters move with model_account().
 *
 * What is emulated, per logical CPU (Intel SDM vol. 3B, 18.2, architectural version 3):
 * IA32_PERFEVTSELx/IA32_PMCx (4 with HT on, 8 with HT off, as on SNB-SKL), their full-width
 * aliases IA32_A_PMCx, three fixed counters and IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL,
 * IA32_PERF_GLOBAL_STATUS (overflow bits, set when a counter wraps at its 48-bit width),
 * IA32_PERF_GLOBAL_OVF_CTRL and IA32_PERF_CAPABILITIES, and as plain registers IA32_DEBUGCTL and
 * IA32_PEBS_ENABLE (which the kernel checks and clears when it takes the PMU over), and
 * MSR_SMI_COUNT, the SMIs the model imitates (below). RDPMC is emulated too. With
 * MODEL_FIRMWARE_V4_FREEZE the model is version 4: IA32_PERF_GLOBAL_STATUS has the freeze bits,
 * and while CTR_FRZ is set nothing counts.
 *
 * Work, and when it happened. Each thread's workload keeps a ledger of the units it has done
 * (pmu/model_ledger.h), bound to the thread with model_bind_ledger(). Every register access
 * through the model (each read, write and RDPMC, on either thread) and every model_tick() first
 * accounts both threads' work since the last such moment (model_sync()): the events land in the
 * counters that were enabled meanwhile, since no register changed in between; a leak into a
 * sibling counter that was stopped then is lost, as on the hardware. The work of a chunk still
 * under way is accounted at the first access after the workload reports it, so attribution is
 * exact to a chunk (tests/ring3/account.h keeps chunks short under the model). What a counter
 * should have counted is not the model's business: model_truth() gives what the work of a ledger
 * produced, the truth a count is judged against. An access that would #GP on the hardware (an MSR
 * the geometry does not have, a reserved bit, a write to a read-only register, AnyThread where the
 * PMU has none: version 2, or a version that deprecates it, CPUID.0AH:EDX[15]) changes nothing and
 * is counted in the thread's fault counter.
 *
 * Firmware (model_config.firmware): the model can start as a BIOS that left counters running
 * leaves the PMU, or imitate SMM code that zeroes counters of either thread or clears an enable
 * bit in the middle of a run, so that the kernel's handling of them is tested without such a
 * machine (selftest=firmware-counters, counter-reset, smm-write, smm-write-any,
 * global-ctrl-clear, evtsel-clear).
 *
 * The erratum (thesis ch. 4 and 8), when the microarchitecture has it and HT is on: of the events
 * of a corrupting event (0xD0-0xD3) that GP counter i of one thread counts, a share (per event,
 * model_shares.c) goes to GP counter i of the sibling when that counter is enabled, whatever it
 * counts, and is lost when it is not. Both siblings leak when both count corrupting events, and
 * then the leaks roughly compensate.
 *
 * Exposure: a tick of a thread is exposed when, at some point during it, a corrupting event and
 * any other event were enabled on the same GP counter index of the two siblings: the configuration
 * XSU forbids. The experiments report the count; with XSU on it must be zero.
 *
 * Locking is the caller's: the state is shared by the two siblings (a thread's events leak into
 * the other's counters), so every call on a core, model_account(), model_tick() and every read or
 * write through a model backend, must hold that core's lock. No globals; the caller allocates.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_MODEL_H
#define PMU_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/counters.h"
#include "pmu/enumerate.h"
#include "pmu/event.h"
#include "pmu/model_ledger.h"
#include "pmu/model_profile.h"
#include "pmu/msr.h"
#include "pmu/uarch.h"

/* Shares are parts per million of the corrupting event's count. */
#define MODEL_SHARE_UNITS 1000000u

/*
 * The share of a corrupting event's count that moves to the sibling counter. An entry matches the
 * event select and, unless any_umask, the unit mask; the first match wins. Terminated by an entry
 * with name NULL.
 */
struct model_share {
	uint8_t event;
	uint8_t umask;
	bool any_umask;
	uint32_t ppm;
	const char *name;
};

/* The thesis's figures (pmu/model_shares.c), and the table for u (with its stand-ins). */
extern const struct model_share model_default_shares[];
const struct model_share *model_shares_for(const struct uarch *u);

/* The share of event/umask in table, in parts per million; 0 when no entry matches. */
uint32_t model_share_ppm(const struct model_share *table, uint8_t event, uint8_t umask);

/* What the firmware does to the model's PMU. */
enum model_firmware {
	MODEL_FIRMWARE_CLEAN, /* nothing: every register as at reset, disabled and zero */
	/*
	 * Both threads start as a BIOS left them that counts for itself (Linux: "Broken BIOS
	 * detected", seen on Ivy Bridge boards with IA32_FIXED_CTR_CTRL = 0x330): fixed counters 1
	 * and 2 counting at every level, IA32_PERF_GLOBAL_CTRL with every counter enabled (its
	 * power-on value plus the fixed counters), and more than that BIOS did so that every check is
	 * exercised: GP counter 0 counting core cycles, IA32_DEBUGCTL with LBR and
	 * FREEZE_LBRS_ON_PMI, IA32_PEBS_ENABLE for counter 0.
	 */
	MODEL_FIRMWARE_COUNTERS_ON,
	/*
	 * SMM code zeroes IA32_PMC0 of thread 0 once: at the first work thread 0 accounts after its
	 * MODEL_SMM_RESET_TICK-th tick while that counter is enabled and not zero.
	 */
	MODEL_FIRMWARE_SMM_RESET,
	/*
	 * SMM code that takes the counters for itself: once, at the first work thread 0 accounts
	 * after MODEL_SMM_RESET_TICK of its ticks that ended with a leak catcher declared (core-wide
	 * XSU runs), it zeroes every GP counter of thread 0 that is enabled and not zero, measured
	 * events and leak catchers alike (selftest=smm-write, the counter-reset case for core-wide
	 * XSU).
	 */
	MODEL_FIRMWARE_SMM_WRITE,
	/*
	 * A version-4 PMU (Skylake on) handed over frozen: a PMI with Freeze_PerfMon_On_PMI and
	 * Freeze_LBR_On_PMI left CTR_FRZ and LBR_FRZ set in IA32_PERF_GLOBAL_STATUS on both threads,
	 * so nothing counts until they are written to IA32_PERF_GLOBAL_STATUS_RESET
	 * (selftest=pmu-v4-freeze). The model is version 4 then.
	 */
	MODEL_FIRMWARE_V4_FREEZE,
	/*
	 * SMM code that writes either thread's counters at any time: once per thread, at the first
	 * work it accounts once the core has had MODEL_SMM_RESET_TICK ticks with a leak catcher
	 * declared (either thread's: core-wide XSU runs), it
	 * zeroes every GP counter of that thread that is enabled and not zero, read by the kernel or
	 * not (selftest=smm-write-any). What a reader can see stays honest: a counter zeroed before
	 * the kernel has read it above 0 SMM_KNOWN_READS times may count past the last value read
	 * before the next read, which no read tells unless the counter started above 0 (smm_unread
	 * counts those; the driver starts from PMU_DRV_START); MSR_SMI_COUNT tells of every one.
	 */
	MODEL_FIRMWARE_SMM_WRITE_ANY,
	/*
	 * Firmware (SMM code, an SMI counted) that clears an enable bit under the kernel: once, at
	 * the first work thread 1 accounts once the core has had MODEL_SMM_RESET_TICK ticks with a
	 * leak catcher declared, the
	 * IA32_PERF_GLOBAL_CTRL bit (selftest=global-ctrl-clear), or the IA32_PERFEVTSELx EN bit
	 * (selftest=evtsel-clear), of its lowest GP counter that counts. The counter stops; only a
	 * read of that register tells.
	 */
	MODEL_FIRMWARE_GLOBAL_CTRL_CLEAR,
	MODEL_FIRMWARE_EVTSEL_CLEAR,
};

#define MODEL_SMM_RESET_TICK 10

/* Whether firmware f acts in SMM mid-run (an SMI counted when it does): SMM_RESET to EVTSEL_CLEAR.
 * The others act before the kernel starts (COUNTERS_ON, V4_FREEZE) or not at all. */
bool model_firmware_in_smm(enum model_firmware f);

struct model_config {
	const struct uarch *uarch;
	bool smt;		 /* two logical CPUs share the core's counters (HT on) */
	struct pmu_geometry geo; /* per logical CPU */
	bool erratum;		 /* apply the cross-HT leak and count exposure */
	const struct model_share *shares;
	enum model_firmware firmware; /* MODEL_FIRMWARE_CLEAN unless a selftest asks */
	/* Whether a profile a ledger names may be read (the kernel: it lies in the workloads' own
	 * pages); NULL: every profile may. A profile refused is not accounted, and counted. */
	bool (*profile_ok)(const struct model_profile *p);
};

/*
 * What the model emulates for uarch u: version 3, GP counters as u has them per logical CPU with
 * HT on (smt) or off, 48-bit counters, u's fixed counters, full-width writes.
 */
struct pmu_geometry model_geometry(const struct uarch *u, bool smt);

/* The default configuration: model_geometry(), the erratum when u has it and smt, the defaults. */
void model_config_init(struct model_config *cfg, const struct uarch *u, bool smt);

/* Remainders of fractional work rates, per logical CPU and event (see model_profile.h). */
#define MODEL_CARRY_SLOTS 32

struct model_pair;

struct model_thread {
	struct model_pair *core;
	unsigned id;

	/* The registers. */
	uint64_t evtsel[PMU_MAX_GP];
	uint64_t pmc[PMU_MAX_GP];
	/* Reads of each GP counter at a value above 0 since it was last written (saturating): the
	 * count the kernel knows, which smm-write's SMM takes from it (pmu/model.c). */
	uint8_t pmc_reads[PMU_MAX_GP];
	uint64_t fixed_ctr[PMU_MAX_FIXED];
	uint64_t fixed_ctrl;
	uint64_t global_ctrl;
	uint64_t global_status;
	uint64_t debugctl;
	uint64_t pebs_enable;

	/* Exact fractions. */
	uint32_t carry_key[MODEL_CARRY_SLOTS];
	uint16_t carry_rem[MODEL_CARRY_SLOTS];
	unsigned carry_used;
	uint32_t leak_rem[PMU_MAX_GP];

	/* Accesses that would #GP on the hardware; the last such MSR. */
	uint64_t faults;
	uint32_t last_fault_msr;

	/* The work of this thread (model_bind_ledger()), and how much of it is accounted. */
	const struct model_ledger *ledger;
	uint64_t seen[MODEL_LEDGER_SLOTS];
	uint64_t refused; /* ledger entries whose profile cfg.profile_ok refused */

	/* GP counters the caller counts a leak catcher on (model_set_catchers). */
	uint8_t catchers;

	/* The erratum's effect on this thread's corrupting events. */
	uint64_t leaked;   /* moved into the sibling's enabled counter */
	uint64_t lost;	   /* leaked into a sibling counter that was not enabled */
	uint64_t received; /* moved into this thread's counters from the sibling */

	/* Exposure. */
	uint64_t ticks;
	uint64_t exposure_ticks;
	bool exposed; /* the current tick has been exposed */

	uint64_t
		smm_resets; /* counters MODEL_FIRMWARE_SMM_RESET or _WRITE(_ANY) zeroed on this thread */
	uint64_t smm_unread;	/* of those, counters no read could see go down (SMM_KNOWN_READS) */
	uint32_t cleared_msr;	/* the register whose enable bit the firmware cleared, or 0 */
	uint64_t catcher_ticks; /* ticks that ended with a leak catcher declared on this thread */
	uint64_t smis;		/* MSR_SMI_COUNT: the SMIs the model imitated, on either thread */
};

struct model_pair {
	struct model_config cfg;
	struct model_thread thread[2];
};

/* Reset every register (counters disabled and zero, unless cfg->firmware left them otherwise)
 * and every statistic. */
void model_core_init(struct model_pair *core, const struct model_config *cfg);

/* Logical CPUs the core emulates: 2 with smt, else 1. */
static inline unsigned model_threads(const struct model_pair *core)
{
	return core->cfg.smt ? 2 : 1;
}

/* The MSR backend of logical CPU thread (0 or 1) of core. */
struct msr_backend model_backend(struct model_pair *core, unsigned thread);

/* The registers, as the backend reads and writes them. */
uint64_t model_rdmsr(struct model_thread *t, uint32_t msr);
void model_wrmsr(struct model_thread *t, uint32_t msr, uint64_t value);
bool model_rdpmc(struct model_thread *t, uint32_t ecx, uint64_t *value);

/*
 * The same accesses as rdmsr_safe/wrmsr_safe see them: false where the hardware would raise #GP
 * (the kernel's fixup catches it), and then the thread's fault counter is left alone.
 */
bool model_rdmsr_safe(struct model_thread *t, uint32_t msr, uint64_t *value);
bool model_wrmsr_safe(struct model_thread *t, uint32_t msr, uint64_t value);

/*
 * n more units of work done by logical CPU thread with profile p: add the events to every
 * enabled counter selecting them at p's privilege level, apply the erratum, note exposure.
 * model_sync() calls it with what the ledgers say; tests may call it directly.
 */
void model_account(struct model_pair *core, unsigned thread, const struct model_profile *p,
		   uint64_t n);

/*
 * Account both threads' work that their ledgers show and the model has not yet accounted. Every
 * register access and model_tick() does it first; callers need it only to look at the state.
 */
void model_sync(struct model_pair *core);

/*
 * Thread's work is what ledger records from now on (NULL: none): what both ledgers showed until
 * now is accounted first, and ledger's units so far are taken as accounted.
 */
void model_bind_ledger(struct model_pair *core, unsigned thread, const struct model_ledger *ledger);

/*
 * What a counter of event e would count for the work ledger records, with no erratum: the sum
 * over its profiles of units x rate, rounded down as the model rounds (pmu/model_profile.h), at
 * the privilege levels e selects. False when the work alone does not decide it (AnyThread: the
 * sibling's work counts too).
 */
bool model_truth(const struct model_ledger *ledger, const struct pmu_event *e, uint64_t *count);

/* A tick of logical CPU thread ends: count it as exposed if it was, and start the next one. */
void model_tick(struct model_pair *core, unsigned thread);

static inline uint64_t model_exposure_ticks(const struct model_pair *core, unsigned thread)
{
	return core->thread[thread].exposure_ticks;
}

/*
 * True when the current configuration is exposed: on some GP counter index, one thread has a
 * corrupting event enabled and the sibling any enabled event that is not a leak catcher.
 */
bool model_exposed_now(const struct model_pair *core);

/*
 * The GP counters (bit i: counter i) on which thread counts a leak catcher (xsu=core,
 * pmu/xsu_core.c): a corrupting event opposite one is the configuration that catches its leak,
 * not exposure. The hardware cannot tell a catcher from a measured event, so the caller says
 * which counters hold one, each time before it programs them; 0 (the default) with xsu off and
 * on.
 */
void model_set_catchers(struct model_pair *core, unsigned thread, uint8_t gp_counters);

#endif
