// SPDX-License-Identifier: GPL-2.0
/*
 * The model PMU (see pmu/model.h).
 */
#include <stddef.h>
#include <string.h>

#include "pmu/counters.h"
#include "pmu/model.h"
#include "pmu/regs.h"

/* ---- configuration ------------------------------------------------------------------------- */

/* SNB to SKL: 48-bit counters (CPUID.0AH:EAX[23:16] and EDX[12:5] = 48 on all of them). */
#define MODEL_WIDTH 48

/* The erratum concerns the bottom four GP counters, the ones a logical CPU has with HT on. */
#define MODEL_ERRATUM_COUNTERS 4

struct pmu_geometry model_geometry(const struct uarch *u, bool smt)
{
	struct pmu_geometry g = {
		.version = 3,
		.gp = uarch_gp(u, smt),
		.gp_width = MODEL_WIDTH,
		.fixed = u->fixed,
		.fixed_width = MODEL_WIDTH,
		.full_width = true,
	};
	if (g.gp > PMU_MAX_GP)
		g.gp = PMU_MAX_GP;
	if (g.fixed > PMU_MAX_FIXED)
		g.fixed = PMU_MAX_FIXED;
	return g;
}

void model_config_init(struct model_config *cfg, const struct uarch *u, bool smt)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->uarch = u;
	cfg->smt = smt;
	cfg->geo = model_geometry(u, smt);
	cfg->erratum = smt && uarch_has_erratum(u);
	cfg->shares = model_shares_for(u);
}

uint32_t model_share_ppm(const struct model_share *table, uint8_t event, uint8_t umask)
{
	for (const struct model_share *s = table; s->name; s++)
		if (s->event == event && (s->any_umask || s->umask == umask))
			return s->ppm > MODEL_SHARE_UNITS ? MODEL_SHARE_UNITS : s->ppm;
	return 0;
}

/*
 * MODEL_FIRMWARE_COUNTERS_ON (model.h): the registers as such a BIOS hands them over. The values
 * are what the kernel must find and take back; the fixed-control value is the Ivy Bridge case.
 */
#define FIRMWARE_FIXED_CTRL 0x330ull
#define FIRMWARE_EVTSEL0 (PERFEVTSEL_EN | PERFEVTSEL_OS | PERFEVTSEL_USR | 0x3cull)
#define FIRMWARE_DEBUGCTL (DEBUGCTL_LBR | DEBUGCTL_FREEZE_LBRS_ON_PMI)

static void firmware_counters_on(struct model_thread *t)
{
	const struct pmu_geometry *g = &t->core->cfg.geo;

	t->fixed_ctrl = FIRMWARE_FIXED_CTRL & regs_fixed_ctrl_valid(g->fixed);
	t->global_ctrl = regs_global_all(g->gp, g->fixed);
	if (g->gp) {
		t->evtsel[0] = FIRMWARE_EVTSEL0;
		t->pebs_enable = 1;
	}
	t->debugctl = FIRMWARE_DEBUGCTL;
}

void model_core_init(struct model_pair *core, const struct model_config *cfg)
{
	memset(core, 0, sizeof(*core));
	core->cfg = *cfg;
	if (!core->cfg.shares)
		core->cfg.shares = model_default_shares;
	if (cfg->firmware == MODEL_FIRMWARE_V4_FREEZE)
		core->cfg.geo.version = 4;
	for (unsigned t = 0; t < 2; t++) {
		core->thread[t].core = core;
		core->thread[t].id = t;
		if (cfg->firmware == MODEL_FIRMWARE_COUNTERS_ON && t < model_threads(core))
			firmware_counters_on(&core->thread[t]);
		if (cfg->firmware == MODEL_FIRMWARE_V4_FREEZE)
			core->thread[t].global_status =
				GLOBAL_STATUS_CTR_FRZ | GLOBAL_STATUS_LBR_FRZ;
	}
}

/* ---- selections ---------------------------------------------------------------------------- */

/*
 * What a GP counter selects, as one number: event select, unit mask, counter mask, edge, inv.
 * A workload's event reaches a counter when the numbers are equal. A fixed-counter event with no
 * GP encoding (reference cycles) carries KEY_FIXED_ONLY so that no PERFEVTSEL value selects it.
 */
#define KEY_FIXED_ONLY (1u << 26)

static uint32_t sel_key(uint8_t event, uint8_t umask, uint8_t cmask, bool edge, bool inv)
{
	return (uint32_t)event | (uint32_t)umask << 8 | (uint32_t)cmask << 16 |
	       (uint32_t)edge << 24 | (uint32_t)inv << 25;
}

static uint32_t evtsel_key(uint64_t evtsel)
{
	struct perfevtsel_fields f = regs_perfevtsel_decode(evtsel);

	return sel_key(f.event, f.umask, f.cmask, f.edge, f.inv);
}

/*
 * The event fixed counter j counts (SDM vol. 3B, table 18-2; pmu/regs.c): its code, which is also
 * the key of its GP encoding when it has one (INST_RETIRED.ANY_P, CPU_CLK_UNHALTED.THREAD_P).
 */
static uint32_t fixed_key(unsigned j)
{
	return regs_fixed_event_code(j) | (regs_fixed_event_gp_ok(j) ? 0 : KEY_FIXED_ONLY);
}

/* Whether the selection key is one of the erratum's corrupting events: the uarch table says. */
static bool key_corrupting(const struct model_pair *core, uint32_t key)
{
	struct pmu_event e;

	if (key & KEY_FIXED_ONLY)
		return false;
	memset(&e, 0, sizeof(e));
	e.event = (uint8_t)key;
	e.umask = (uint8_t)(key >> 8);
	e.cmask = (uint8_t)(key >> 16);
	e.edge = (key >> 24) & 1;
	e.inv = (key >> 25) & 1;
	return uarch_event_corrupting(core->cfg.uarch, &e);
}

/* ---- registers ----------------------------------------------------------------------------- */

static bool thread_exists(const struct model_thread *t)
{
	return t->id < model_threads(t->core);
}

static const struct pmu_geometry *geo_of(const struct model_thread *t)
{
	return &t->core->cfg.geo;
}

static void fault(struct model_thread *t, uint32_t msr)
{
	t->faults++;
	t->last_fault_msr = msr;
}

/* Version 4: a PMI froze the counters (regs.h, GLOBAL_STATUS_CTR_FRZ). */
static bool frozen(const struct model_thread *t)
{
	return (t->global_status & GLOBAL_STATUS_CTR_FRZ) != 0;
}

static bool gp_enabled(const struct model_thread *t, unsigned i)
{
	return (t->evtsel[i] & PERFEVTSEL_EN) && (t->global_ctrl & regs_global_bit(i)) &&
	       !frozen(t);
}

/* GP counter i counts at ring (USR for CPL 3, OS for CPL 0). */
static bool gp_ring(const struct model_thread *t, unsigned i, enum model_ring ring)
{
	return t->evtsel[i] & (ring == MODEL_RING_USER ? PERFEVTSEL_USR : PERFEVTSEL_OS);
}

static unsigned fixed_field(const struct model_thread *t, unsigned j)
{
	return regs_fixed_ctrl_get(t->fixed_ctrl, j);
}

static bool fixed_counts(const struct model_thread *t, unsigned j, enum model_ring ring)
{
	unsigned want = ring == MODEL_RING_USER ? FIXED_CTRL_USR : FIXED_CTRL_OS;

	return (fixed_field(t, j) & want) &&
	       (t->global_ctrl & regs_global_bit(PMU_FIXED_BASE + j)) && !frozen(t);
}

bool model_exposed_now(const struct model_pair *core)
{
	const struct model_thread *a = &core->thread[0], *b = &core->thread[1];
	unsigned n = core->cfg.geo.gp < MODEL_ERRATUM_COUNTERS ? core->cfg.geo.gp
							       : MODEL_ERRATUM_COUNTERS;

	if (!core->cfg.erratum || model_threads(core) < 2)
		return false;
	for (unsigned i = 0; i < n; i++) {
		bool a_corrupts = key_corrupting(core, evtsel_key(a->evtsel[i]));
		bool b_corrupts = key_corrupting(core, evtsel_key(b->evtsel[i]));

		if (!gp_enabled(a, i) || !gp_enabled(b, i))
			continue;
		/* A catcher opposite a corrupting event is there to receive its leak. */
		if ((a_corrupts && !(b->catchers & (1u << i))) ||
		    (b_corrupts && !(a->catchers & (1u << i))))
			return true;
	}
	return false;
}

/* The configuration changed or work happened: remember an exposure for both siblings' ticks. */
static void note_exposure(struct model_pair *core)
{
	if (model_exposed_now(core))
		core->thread[0].exposed = core->thread[1].exposed = true;
}

/* Which register msr is, for this thread's geometry. */
enum reg_kind { REG_NONE, REG_PMC, REG_A_PMC, REG_EVTSEL, REG_FIXED_CTR, REG_OTHER };

static enum reg_kind classify(const struct model_thread *t, uint32_t msr, unsigned *index)
{
	const struct pmu_geometry *g = geo_of(t);

	if (msr >= IA32_PMC0 && msr < IA32_PMC0 + g->gp) {
		*index = msr - IA32_PMC0;
		return REG_PMC;
	}
	if (msr >= IA32_A_PMC0 && msr < IA32_A_PMC0 + g->gp && g->full_width) {
		*index = msr - IA32_A_PMC0;
		return REG_A_PMC;
	}
	if (msr >= IA32_PERFEVTSEL0 && msr < IA32_PERFEVTSEL0 + g->gp) {
		*index = msr - IA32_PERFEVTSEL0;
		return REG_EVTSEL;
	}
	if (msr >= IA32_FIXED_CTR0 && msr < IA32_FIXED_CTR0 + g->fixed) {
		*index = msr - IA32_FIXED_CTR0;
		return REG_FIXED_CTR;
	}
	switch (msr) {
	case IA32_FIXED_CTR_CTRL:
	case IA32_PERF_GLOBAL_STATUS:
	case IA32_PERF_GLOBAL_CTRL:
	case IA32_PERF_GLOBAL_OVF_CTRL:
	case IA32_PERF_CAPABILITIES:
	case IA32_DEBUGCTL:
	case IA32_PEBS_ENABLE:
	case MSR_SMI_COUNT:
		return REG_OTHER;
	}
	return REG_NONE;
}

/* The kernel read GP counter i (model_thread.pmc_reads). */
static void seen(struct model_thread *t, unsigned i)
{
	if (t->pmc[i] && t->pmc_reads[i] < UINT8_MAX)
		t->pmc_reads[i]++;
}

uint64_t model_rdmsr(struct model_thread *t, uint32_t msr)
{
	unsigned i = 0;
	enum reg_kind kind = thread_exists(t) ? classify(t, msr, &i) : REG_NONE;

	model_sync(t->core);
	switch (kind) {
	case REG_PMC:
	case REG_A_PMC:
		seen(t, i);
		return t->pmc[i];
	case REG_EVTSEL:
		return t->evtsel[i];
	case REG_FIXED_CTR:
		return t->fixed_ctr[i];
	case REG_OTHER:
		break;
	case REG_NONE:
		fault(t, msr);
		return 0;
	}
	switch (msr) {
	case IA32_FIXED_CTR_CTRL:
		return t->fixed_ctrl;
	case IA32_PERF_GLOBAL_STATUS:
		return t->global_status;
	case IA32_PERF_GLOBAL_CTRL:
		return t->global_ctrl;
	case IA32_PERF_CAPABILITIES:
		return geo_of(t)->full_width ? PERF_CAP_FW_WRITE : 0;
	case IA32_DEBUGCTL:
		return t->debugctl;
	case IA32_PEBS_ENABLE:
		return t->pebs_enable;
	case MSR_SMI_COUNT:
		return t->smis;
	}
	return 0; /* IA32_PERF_GLOBAL_OVF_CTRL reads as zero */
}

/* Some field of IA32_FIXED_CTR_CTRL value v sets AnyThread. */
static bool fixed_ctrl_any(uint64_t v, unsigned fixed)
{
	for (unsigned j = 0; j < fixed; j++)
		if (regs_fixed_ctrl_get(v, j) & FIXED_CTRL_ANY)
			return true;
	return false;
}

/* The rest of the registers; AnyThread where the PMU has none is reserved (SDM vol. 3B, 18.2.3:
 * from version 3; CPUID.0AH:EDX[15] deprecates it), and a reserved bit raises #GP. */
static void write_other(struct model_thread *t, uint32_t msr, uint64_t v)
{
	const struct pmu_geometry *g = geo_of(t);
	uint64_t counters = regs_global_all(g->gp, g->fixed);

	switch (msr) {
	case IA32_FIXED_CTR_CTRL:
		if ((v & ~regs_fixed_ctrl_valid(g->fixed)) ||
		    (fixed_ctrl_any(v, g->fixed) && !pmu_geometry_any_thread(g)))
			break;
		t->fixed_ctrl = v;
		return;
	case IA32_PERF_GLOBAL_CTRL:
		if (v & ~counters)
			break;
		t->global_ctrl = v;
		note_exposure(t->core);
		return;
	case IA32_PERF_GLOBAL_OVF_CTRL:
		/* Writing 1 clears the status bit (SDM vol. 3B, 18.2.2); version 4 clears the freeze
		 * bits too (18.2.4.1, IA32_PERF_GLOBAL_STATUS_RESET at the same address). */
		if (v & ~(counters | GLOBAL_STATUS_OVF_BUF | GLOBAL_STATUS_COND_CHGD |
			  (g->version >= 4 ? GLOBAL_STATUS_CTR_FRZ | GLOBAL_STATUS_LBR_FRZ : 0)))
			break;
		t->global_status &= ~v;
		return;
	case IA32_DEBUGCTL:
		/* Bits 15:0 exist on SNB-SKL (SDM vol. 3B, 17.4.1); the model only stores them. */
		if (v & ~0xffffull)
			break;
		t->debugctl = v;
		return;
	case IA32_PEBS_ENABLE:
		/* One enable per GP counter (SDM vol. 3B, 18.3.1.1.1); no PEBS is emulated. */
		if (v & ~PMU_GP_MASK(g->gp))
			break;
		t->pebs_enable = v;
		return;
	}
	/* Reserved bits, IA32_PERF_GLOBAL_STATUS and IA32_PERF_CAPABILITIES (read-only). */
	fault(t, msr);
}

void model_wrmsr(struct model_thread *t, uint32_t msr, uint64_t v)
{
	unsigned i = 0;
	enum reg_kind kind = thread_exists(t) ? classify(t, msr, &i) : REG_NONE;
	const struct pmu_geometry *g = geo_of(t);

	/* The work done so far was done under the registers as they were. */
	model_sync(t->core);
	switch (kind) {
	case REG_PMC:
		/* A legacy write: 32 bits, sign-extended (SDM vol. 3B, 18.2.6). */
		t->pmc[i] = regs_legacy_pmc_write(v, g->gp_width);
		t->pmc_reads[i] = 0;
		return;
	case REG_A_PMC:
		if (v & ~regs_width_mask(g->gp_width))
			break;
		t->pmc[i] = v;
		t->pmc_reads[i] = 0;
		return;
	case REG_EVTSEL:
		if ((v & ~PERFEVTSEL_VALID_MASK) ||
		    ((v & PERFEVTSEL_ANY) && !pmu_geometry_any_thread(g)))
			break;
		t->evtsel[i] = v;
		note_exposure(t->core);
		return;
	case REG_FIXED_CTR:
		if (v & ~regs_width_mask(g->fixed_width))
			break;
		t->fixed_ctr[i] = v;
		return;
	case REG_OTHER:
		write_other(t, msr, v);
		return;
	case REG_NONE:
		break;
	}
	fault(t, msr);
}

bool model_rdpmc(struct model_thread *t, uint32_t ecx, uint64_t *value)
{
	const struct pmu_geometry *g = geo_of(t);
	unsigned index = ecx & ~RDPMC_FIXED;

	if (!thread_exists(t))
		return false;
	model_sync(t->core);
	if (ecx & RDPMC_FIXED) {
		if (index >= g->fixed)
			return false;
		*value = t->fixed_ctr[index];
		return true;
	}
	if (index >= g->gp)
		return false;
	*value = t->pmc[index];
	seen(t, index);
	return true;
}

bool model_rdmsr_safe(struct model_thread *t, uint32_t msr, uint64_t *value)
{
	uint64_t faults = t->faults;
	uint32_t last = t->last_fault_msr;

	*value = model_rdmsr(t, msr);
	if (t->faults == faults)
		return true;
	t->faults = faults;
	t->last_fault_msr = last;
	return false;
}

bool model_wrmsr_safe(struct model_thread *t, uint32_t msr, uint64_t value)
{
	uint64_t faults = t->faults;
	uint32_t last = t->last_fault_msr;

	model_wrmsr(t, msr, value);
	if (t->faults == faults)
		return true;
	t->faults = faults;
	t->last_fault_msr = last;
	return false;
}

static uint64_t backend_read(void *ctx, uint32_t msr)
{
	return model_rdmsr(ctx, msr);
}

static void backend_write(void *ctx, uint32_t msr, uint64_t value)
{
	model_wrmsr(ctx, msr, value);
}

static bool backend_read_pmc(void *ctx, uint32_t ecx, uint64_t *value)
{
	return model_rdpmc(ctx, ecx, value);
}

struct msr_backend model_backend(struct model_pair *core, unsigned thread)
{
	struct msr_backend b = {
		.name = "model",
		.read = backend_read,
		.write = backend_write,
		.read_pmc = backend_read_pmc,
		.ctx = &core->thread[thread & 1],
	};
	return b;
}

/* ---- counting ------------------------------------------------------------------------------ */

/* Add d events to a width-bit counter; a wrap sets its overflow bit in the global status. */
static void add_count(struct model_thread *t, uint64_t *ctr, unsigned width, unsigned idx,
		      uint64_t d)
{
	uint64_t mask = regs_width_mask(width);

	if (d > mask - *ctr)
		t->global_status |= regs_global_bit(idx);
	*ctr = (*ctr + d) & mask;
}

static void add_gp(struct model_thread *t, unsigned i, uint64_t d)
{
	add_count(t, &t->pmc[i], geo_of(t)->gp_width, i, d);
}

static void add_fixed(struct model_thread *t, unsigned j, uint64_t d)
{
	add_count(t, &t->fixed_ctr[j], geo_of(t)->fixed_width, PMU_FIXED_BASE + j, d);
}

/* This thread's remainder slot for event key, or NULL when every slot is taken. */
static uint16_t *carry_slot(struct model_thread *t, uint32_t key)
{
	for (unsigned s = 0; s < t->carry_used; s++)
		if (t->carry_key[s] == key)
			return &t->carry_rem[s];
	if (t->carry_used == MODEL_CARRY_SLOTS)
		return NULL;
	t->carry_key[t->carry_used] = key;
	t->carry_rem[t->carry_used] = 0;
	return &t->carry_rem[t->carry_used++];
}

/*
 * floor((n * rate + carry) / units) with the new remainder kept in *rem, without overflowing
 * for rate < MODEL_RATE_MAX (n is split into whole multiples of units and a rest).
 */
static uint64_t scale(uint64_t n, uint64_t rate, uint64_t units, uint64_t *rem)
{
	uint64_t whole = n / units * rate;
	uint64_t part = n % units * rate + *rem;

	*rem = part % units;
	return whole + part / units;
}

/* The events n units produce at rate, with this thread's remainder for key. */
static uint64_t events_for(struct model_thread *t, uint32_t key, uint64_t rate, uint64_t n)
{
	uint16_t *slot = carry_slot(t, key);
	uint64_t rem = slot ? *slot : 0;
	uint64_t d = scale(n, rate, MODEL_RATE_UNITS, &rem);

	/* Without a free slot (never in practice) the remainder is dropped. */
	if (slot)
		*slot = (uint16_t)rem;
	return d;
}

/*
 * The erratum: of d corrupting events counted on GP counter i of t, the share that goes to the
 * sibling's counter i; it arrives when that counter is enabled and is lost otherwise. Returns the
 * events t's own counter keeps.
 */
static uint64_t leak(struct model_thread *t, unsigned i, uint32_t key, uint64_t d)
{
	struct model_pair *core = t->core;
	struct model_thread *sib = &core->thread[t->id ^ 1];
	uint64_t ppm = model_share_ppm(core->cfg.shares, (uint8_t)key, (uint8_t)(key >> 8));
	uint64_t rem = t->leak_rem[i];
	uint64_t moved = scale(d, ppm, MODEL_SHARE_UNITS, &rem);

	t->leak_rem[i] = (uint32_t)rem;
	if (moved == 0)
		return d;
	t->leaked += moved;
	if (gp_enabled(sib, i)) {
		add_gp(sib, i, moved);
		sib->received += moved;
	} else {
		t->lost += moved;
	}
	return d - moved;
}

/* Deliver d events of kind key, produced by t at ring, to every counter that counts them. */
static void deliver(struct model_thread *t, uint32_t key, uint64_t d, enum model_ring ring)
{
	struct model_pair *core = t->core;
	struct model_thread *sib = model_threads(core) > 1 ? &core->thread[t->id ^ 1] : NULL;
	const struct pmu_geometry *g = &core->cfg.geo;
	bool corrupting = core->cfg.erratum && key_corrupting(core, key);

	for (unsigned i = 0; i < g->gp; i++) {
		if (!gp_enabled(t, i) || !gp_ring(t, i, ring) || evtsel_key(t->evtsel[i]) != key)
			continue;
		uint64_t kept = d;
		if (corrupting && i < MODEL_ERRATUM_COUNTERS)
			kept = leak(t, i, key, d);
		add_gp(t, i, kept);
	}
	/* AnyThread counters of the sibling count this thread's events too (SDM vol. 3B, 18.2.3). */
	for (unsigned i = 0; sib && i < g->gp; i++) {
		if ((sib->evtsel[i] & PERFEVTSEL_ANY) && gp_enabled(sib, i) &&
		    gp_ring(sib, i, ring) && evtsel_key(sib->evtsel[i]) == key)
			add_gp(sib, i, d);
	}

	for (unsigned j = 0; j < g->fixed; j++) {
		if (fixed_key(j) != key)
			continue;
		if (fixed_counts(t, j, ring))
			add_fixed(t, j, d);
		if (sib && (fixed_field(sib, j) & FIXED_CTRL_ANY) && fixed_counts(sib, j, ring))
			add_fixed(sib, j, d);
	}
}

static void account_kind(struct model_thread *t, uint32_t key, uint64_t rate, uint64_t n,
			 enum model_ring ring)
{
	uint64_t d;

	if (rate == 0)
		return;
	d = events_for(t, key, rate < MODEL_RATE_MAX ? rate : MODEL_RATE_MAX - 1, n);
	if (d)
		deliver(t, key, d, ring);
}

/* An SMI: every logical CPU enters SMM, and counts it in MSR_SMI_COUNT. */
static void smi(struct model_pair *core)
{
	for (unsigned t = 0; t < 2; t++)
		core->thread[t].smis++;
}

/*
 * MODEL_FIRMWARE_SMM_RESET, _WRITE and _WRITE_ANY (model.h): once, mid-run, SMM zeroes thread 0's
 * IA32_PMC0, or every GP counter of a thread that counts. _WRITE takes only counters the kernel
 * has read above 0 at least SMM_KNOWN_READS times since it wrote them: what they hold is then at
 * least that many read intervals of counting, more than they count before the next read, so the
 * value goes down as any read can see. A counter zeroed sooner after the kernel's own write counts
 * past what the kernel last read before it reads again, and only a reader that started it above
 * 0 can tell (the driver starts counters from PMU_DRV_START for that); smm-write is the selftest
 * of the write that destroys what was counted. _WRITE_ANY writes whatever counts, on either
 * thread, and counts in smm_unread the counters it zeroed before two reads: the writes a reader
 * that started from 0 would miss.
 */
#define SMM_KNOWN_READS 2

/* The new firmware's clock: the core's ticks that ended with a leak catcher declared, either
 * thread's (thread 1 ticks at each joint tick, pmu/handover.h), so that it acts while core-wide
 * XSU runs, the runs whose checks it is for. */
static uint64_t core_catcher_ticks(const struct model_pair *core)
{
	return core->thread[0].catcher_ticks + core->thread[1].catcher_ticks;
}

/* SMM zeroes t's first n GP counters that count and are not zero, of those the kernel has read
 * above 0 at least known times since it wrote them (0: whatever it read). */
static void smm_zero(struct model_thread *t, unsigned n, unsigned known)
{
	uint64_t zeroed = 0;

	for (unsigned i = 0; i < n && i < geo_of(t)->gp; i++) {
		if (!gp_enabled(t, i) || !t->pmc[i] || t->pmc_reads[i] < known)
			continue;
		t->smm_unread += t->pmc_reads[i] < SMM_KNOWN_READS;
		t->pmc[i] = 0;
		zeroed++;
	}
	if (!zeroed)
		return;
	t->smm_resets += zeroed;
	smi(t->core);
}

/* MODEL_FIRMWARE_GLOBAL_CTRL_CLEAR and _EVTSEL_CLEAR: the enable bit of t's lowest counting GP
 * counter, in IA32_PERF_GLOBAL_CTRL or its IA32_PERFEVTSELx, cleared in SMM. */
static void firmware_clears(struct model_thread *t, bool global)
{
	for (unsigned i = 0; i < geo_of(t)->gp; i++) {
		if (!gp_enabled(t, i))
			continue;
		if (global)
			t->global_ctrl &= ~regs_global_bit(i);
		else
			t->evtsel[i] &= ~PERFEVTSEL_EN;
		t->cleared_msr = global ? IA32_PERF_GLOBAL_CTRL : IA32_PERFEVTSEL0 + i;
		smi(t->core);
		return;
	}
}

bool model_firmware_in_smm(enum model_firmware f)
{
	static const bool in_smm[] = {
		[MODEL_FIRMWARE_SMM_RESET] = true,     [MODEL_FIRMWARE_SMM_WRITE] = true,
		[MODEL_FIRMWARE_SMM_WRITE_ANY] = true, [MODEL_FIRMWARE_GLOBAL_CTRL_CLEAR] = true,
		[MODEL_FIRMWARE_EVTSEL_CLEAR] = true,
	};

	return (unsigned)f < sizeof(in_smm) / sizeof(in_smm[0]) && in_smm[f];
}

static void smm_interferes(struct model_thread *t)
{
	bool due = core_catcher_ticks(t->core) >= MODEL_SMM_RESET_TICK;

	switch (t->core->cfg.firmware) {
	case MODEL_FIRMWARE_SMM_RESET:
		if (t->id == 0 && !t->smm_resets && t->ticks >= MODEL_SMM_RESET_TICK)
			smm_zero(t, 1, 0);
		break;
	case MODEL_FIRMWARE_SMM_WRITE:
		if (t->id == 0 && !t->smm_resets && t->catcher_ticks >= MODEL_SMM_RESET_TICK)
			smm_zero(t, PMU_MAX_GP, SMM_KNOWN_READS);
		break;
	case MODEL_FIRMWARE_SMM_WRITE_ANY:
		if (due && !t->smm_resets)
			smm_zero(t, PMU_MAX_GP, 0);
		break;
	case MODEL_FIRMWARE_GLOBAL_CTRL_CLEAR:
	case MODEL_FIRMWARE_EVTSEL_CLEAR:
		if (due && t->id == 1 && !t->cleared_msr)
			firmware_clears(t,
					t->core->cfg.firmware == MODEL_FIRMWARE_GLOBAL_CTRL_CLEAR);
		break;
	default:
		break;
	}
}

void model_account(struct model_pair *core, unsigned thread, const struct model_profile *p,
		   uint64_t n)
{
	struct model_thread *t = &core->thread[thread & 1];

	if (!thread_exists(t) || n == 0)
		return;
	smm_interferes(t);
	note_exposure(core);
	account_kind(t, fixed_key(0), p->instructions, n, p->ring);
	account_kind(t, fixed_key(1), p->core_cycles, n, p->ring);
	account_kind(t, fixed_key(2), p->ref_cycles, n, p->ring);
	for (unsigned r = 0; r < p->nrates; r++) {
		const struct model_rate *m = &p->rates[r];
		account_kind(t, sel_key(m->event, m->umask, m->cmask, m->edge, m->inv),
			     m->per_units, n, p->ring);
	}
}

void model_tick(struct model_pair *core, unsigned thread)
{
	struct model_thread *t = &core->thread[thread & 1];

	model_sync(core);
	t->ticks++;
	t->catcher_ticks += t->catchers != 0;
	if (t->exposed)
		t->exposure_ticks++;
	/* A configuration that is still exposed exposes the next tick as well. */
	t->exposed = model_exposed_now(core);
}

/* ---- what the hardware cannot show ------------------------------------------------------- */

void model_set_catchers(struct model_pair *core, unsigned thread, uint8_t gp_counters)
{
	core->thread[thread & 1].catchers = gp_counters;
	note_exposure(core);
}

/* ---- the workloads' ledgers ---------------------------------------------------------------- */

static void sync_thread(struct model_pair *core, unsigned thread)
{
	struct model_thread *t = &core->thread[thread];
	const struct model_ledger *l = t->ledger;

	for (unsigned s = 0; l && s < MODEL_LEDGER_SLOTS; s++) {
		const struct model_profile *p = __atomic_load_n(&l->profile[s], __ATOMIC_ACQUIRE);
		if (!p)
			break;
		uint64_t units = __atomic_load_n(&l->units[s], __ATOMIC_ACQUIRE);
		uint64_t n = units - t->seen[s];
		if (!n)
			continue;
		t->seen[s] = units;
		if (core->cfg.profile_ok && !core->cfg.profile_ok(p))
			t->refused++;
		else
			model_account(core, thread, p, n);
	}
}

void model_sync(struct model_pair *core)
{
	for (unsigned t = 0; t < model_threads(core); t++)
		sync_thread(core, t);
}

void model_bind_ledger(struct model_pair *core, unsigned thread, const struct model_ledger *ledger)
{
	struct model_thread *t = &core->thread[thread & 1];

	model_sync(core);
	t->ledger = ledger;
	for (unsigned s = 0; s < MODEL_LEDGER_SLOTS; s++)
		t->seen[s] = ledger ? __atomic_load_n(&ledger->units[s], __ATOMIC_ACQUIRE) : 0;
}

/* The events of key that n units at rate produce, rounded down as the model rounds. */
static uint64_t truth_of(uint64_t rate, uint64_t n)
{
	uint64_t rem = 0;

	return rate ? scale(n, rate < MODEL_RATE_MAX ? rate : MODEL_RATE_MAX - 1, MODEL_RATE_UNITS,
			    &rem)
		    : 0;
}

/* What one profile's n units count on a counter of key at the levels usr/os select. */
static uint64_t profile_truth(const struct model_profile *p, uint32_t key, bool usr, bool os,
			      uint64_t n)
{
	uint64_t sum = 0;

	if (!(p->ring == MODEL_RING_USER ? usr : os))
		return 0;
	if (key == fixed_key(0))
		sum += truth_of(p->instructions, n);
	if (key == fixed_key(1))
		sum += truth_of(p->core_cycles, n);
	if (key == fixed_key(2))
		sum += truth_of(p->ref_cycles, n);
	for (unsigned r = 0; r < p->nrates; r++) {
		const struct model_rate *m = &p->rates[r];
		if (sel_key(m->event, m->umask, m->cmask, m->edge, m->inv) == key)
			sum += truth_of(m->per_units, n);
	}
	return sum;
}

bool model_truth(const struct model_ledger *ledger, const struct pmu_event *e, uint64_t *count)
{
	unsigned j;
	uint32_t key = regs_fixed_counter_for(e, &j)
			       ? fixed_key(j)
			       : sel_key(e->event, e->umask, e->cmask, e->edge, e->inv);

	*count = 0;
	if (e->any)
		return false;
	for (unsigned s = 0; s < MODEL_LEDGER_SLOTS; s++) {
		const struct model_profile *p =
			__atomic_load_n(&ledger->profile[s], __ATOMIC_ACQUIRE);
		if (!p)
			break;
		*count += profile_truth(p, key, e->usr, e->os,
					__atomic_load_n(&ledger->units[s], __ATOMIC_ACQUIRE));
	}
	return true;
}
