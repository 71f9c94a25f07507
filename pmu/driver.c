// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU driver (see pmu/driver.h).
 */
#include <stddef.h>
#include <string.h>

#include "pmu/counters.h"
#include "pmu/driver.h"
#include "pmu/regs.h"

static struct pmu_drv_counter *slot(struct pmu_driver *d, unsigned idx)
{
	if (!pmu_geometry_has(&d->geo, idx))
		return NULL;
	return regs_idx_is_fixed(idx) ? &d->fixed[idx - PMU_FIXED_BASE] : &d->gp[idx];
}

static unsigned width_of(const struct pmu_driver *d, unsigned idx)
{
	return regs_idx_is_fixed(idx) ? d->geo.fixed_width : d->geo.gp_width;
}

static uint64_t all_counters(const struct pmu_driver *d)
{
	return regs_global_all(d->geo.gp, d->geo.fixed);
}

void pmu_driver_init(struct pmu_driver *d, const struct msr_backend *be,
		     const struct pmu_geometry *geo, unsigned flags)
{
	memset(d, 0, sizeof(*d));
	d->be = *be;
	d->geo = *geo;
	if (d->geo.gp > PMU_MAX_GP)
		d->geo.gp = PMU_MAX_GP;
	if (d->geo.fixed > PMU_MAX_FIXED)
		d->geo.fixed = PMU_MAX_FIXED;
	/* Version 1 has no global control, fixed counters or overflow status; we need them all. */
	if (d->geo.version < 2)
		d->geo.gp = d->geo.fixed = 0;
	d->flags = flags;
	pmu_driver_release(d);
}

static enum pmu_drv_status check(const struct pmu_driver *d, const struct pmu_assignment *a,
				 unsigned n)
{
	uint64_t used = 0;

	for (unsigned k = 0; k < n; k++) {
		unsigned idx = a[k].idx;
		bool fixed = regs_idx_is_fixed(idx);

		if (!a[k].event)
			return PMU_DRV_EEVENT;
		if (!pmu_geometry_has(&d->geo, idx))
			return PMU_DRV_EINDEX;
		if (used & regs_global_bit(idx))
			return PMU_DRV_EBUSY;
		used |= regs_global_bit(idx);
		unsigned j;
		bool fixed_event = regs_fixed_counter_for(a[k].event, &j);
		if (fixed && (!fixed_event || j != idx - PMU_FIXED_BASE))
			return PMU_DRV_EFIXED;
		/* Reference cycles exist only on their fixed counter (no GP encoding). */
		if (!fixed && fixed_event && !regs_fixed_event_gp_ok(j))
			return PMU_DRV_EFIXED;
		if (a[k].event->any && !pmu_geometry_any_thread(&d->geo))
			return PMU_DRV_EANY;
		if (a[k].preload & ~regs_width_mask(width_of(d, idx)))
			return PMU_DRV_EPRELOAD;
		/* Without IA32_A_PMCx a GP counter takes 32 bits, sign-extended (SDM 18.2.6). */
		if (!fixed && !d->geo.full_width &&
		    !regs_preload_fits_legacy(a[k].preload, d->geo.gp_width))
			return PMU_DRV_EPRELOAD;
	}
	return PMU_DRV_OK;
}

/* Every register access goes through these: the driver counts them (pmu/driver.h). */
static uint64_t rd(struct pmu_driver *d, uint32_t msr)
{
	d->reads++;
	return msr_read(&d->be, msr);
}

static void wr(struct pmu_driver *d, uint32_t msr, uint64_t value)
{
	d->writes++;
	msr_write(&d->be, msr, value);
}

/* IA32_PERF_GLOBAL_CTRL, written only when it changes. */
static void set_global(struct pmu_driver *d, uint64_t value)
{
	if (value == d->global)
		return;
	wr(d, IA32_PERF_GLOBAL_CTRL, value);
	d->global = value;
}

/* What program() writes: per counter its selection and preload, and the enable mask. */
struct programming {
	uint64_t selection[PMU_FIXED_BASE + PMU_MAX_FIXED]; /* PERFEVTSEL value or fixed field */
	uint64_t preload[PMU_FIXED_BASE + PMU_MAX_FIXED];
	uint64_t asked; /* the counters whose preload the caller asked for (not start_value()) */
	uint64_t active;
};

/*
 * The value a counter starts from when no preload is asked: not 0, so that firmware that writes 0
 * to a counter (SMM code resetting the PMU, a BIOS's own counting) makes it go down, which the next
 * read sees (fold()), however soon after the driver's own write it came. 2^30 is written by a
 * legacy 32-bit write without sign extension (SDM 18.2.6) and leaves 2^48 - 2^30 events before a
 * 48-bit counter wraps; a counter of 32 bits or fewer starts from 0.
 */
static uint64_t start_value(const struct pmu_driver *d, unsigned idx)
{
	return width_of(d, idx) > 32 ? PMU_DRV_START : 0;
}

static void plan(const struct pmu_driver *d, const struct pmu_assignment *a, unsigned n,
		 struct programming *p)
{
	unsigned intr = d->flags & PMU_DRV_PMI ? REGS_INT : 0;

	memset(p, 0, sizeof(*p));
	for (unsigned k = 0; k < n; k++) {
		unsigned idx = a[k].idx;

		p->active |= regs_global_bit(idx);
		p->selection[idx] = regs_idx_is_fixed(idx)
					    ? regs_fixed_field(a[k].event, intr != 0)
					    : regs_perfevtsel(a[k].event, REGS_EN | intr);
		p->preload[idx] = a[k].preload ? a[k].preload : start_value(d, idx);
		p->asked |= a[k].preload ? regs_global_bit(idx) : 0;
	}
}

/* The counters p keeps as they are: programmed with the same selection, no start value asked. */
static uint64_t kept(struct pmu_driver *d, const struct programming *p)
{
	uint64_t keep = 0;

	for (unsigned idx = 0; idx < 64; idx++) {
		uint64_t bit = regs_global_bit(idx);
		if ((d->active & p->active & bit) && !(p->asked & bit) &&
		    slot(d, idx)->selection == p->selection[idx])
			keep |= bit;
	}
	return keep;
}

/* A counter that starts afresh: its count and mark discarded, its value the preload. */
static void start_counter(struct pmu_drv_counter *c, const struct programming *p, unsigned idx)
{
	memset(c, 0, sizeof(*c));
	c->last = p->preload[idx];
	c->selection = p->selection[idx];
}

/*
 * Stop the counters in `change` that count now, before their registers are rewritten. Their
 * counts since the last read are discarded (the caller read them); a wrap since then would leave
 * an overflow bit that looks like a wrap of the new count, so such bits are cleared.
 */
static void stop_changing(struct pmu_driver *d, uint64_t change)
{
	uint64_t live = change & d->global, status;

	if (!live)
		return;
	set_global(d, d->global & ~live);
	status = rd(d, IA32_PERF_GLOBAL_STATUS) & live;
	if (status)
		wr(d, IA32_PERF_GLOBAL_OVF_CTRL, status);
}

static void program_gp(struct pmu_driver *d, const struct programming *p, uint64_t change)
{
	for (unsigned i = 0; i < d->geo.gp; i++) {
		struct pmu_drv_counter *c = &d->gp[i];
		uint64_t bit = regs_global_bit(i);

		if (!(change & bit)) {
			c->count = 0;
			c->interfered = false;
			continue;
		}
		if (!(p->active & bit)) {
			/* Linux's way: a counter no event uses is disabled at its selector too. */
			if (c->selection)
				wr(d, IA32_PERFEVTSEL(i), 0);
			memset(c, 0, sizeof(*c));
			continue;
		}
		wr(d, regs_counter_msr(i, d->geo.full_width), p->preload[i]);
		if (c->selection != p->selection[i])
			wr(d, IA32_PERFEVTSEL(i), p->selection[i]);
		start_counter(c, p, i);
	}
}

static void program_fixed(struct pmu_driver *d, const struct programming *p, uint64_t change)
{
	uint64_t ctrl = 0;

	for (unsigned j = 0; j < d->geo.fixed; j++) {
		unsigned idx = PMU_FIXED_BASE + j;
		struct pmu_drv_counter *c = &d->fixed[j];

		if (!(p->active & regs_global_bit(idx))) {
			memset(c, 0, sizeof(*c));
			continue;
		}
		ctrl = regs_fixed_ctrl_set(ctrl, j, (unsigned)p->selection[idx]);
		if (!(change & regs_global_bit(idx))) {
			c->count = 0;
			c->interfered = false;
			continue;
		}
		wr(d, IA32_FIXED_CTR(j), p->preload[idx]);
		start_counter(c, p, idx);
	}
	if (ctrl != d->fixed_ctrl)
		wr(d, IA32_FIXED_CTR_CTRL, ctrl);
	d->fixed_ctrl = ctrl;
}

/* Linux's TFA: the bit set while GP counter PMU_TFA_COUNTER is in use, written on change only. */
static void set_tsx_force_abort(struct pmu_driver *d, uint64_t active)
{
	bool want = d->geo.tsx_force_abort && (active & regs_global_bit(PMU_TFA_COUNTER));

	if (want == d->tsx_force_abort)
		return;
	wr(d, MSR_TSX_FORCE_ABORT, want ? TSX_FORCE_ABORT_RTM : 0);
	d->tsx_force_abort = want;
}

uint64_t pmu_driver_changes(struct pmu_driver *d, const struct pmu_assignment *a, unsigned n)
{
	struct programming p;

	plan(d, a, n, &p);
	return (d->active | p.active) & ~kept(d, &p);
}

enum pmu_drv_status pmu_driver_program_held(struct pmu_driver *d, const struct pmu_assignment *a,
					    unsigned n, uint64_t hold)
{
	enum pmu_drv_status s = check(d, a, n);
	struct programming p;

	if (s != PMU_DRV_OK)
		return s;
	/* A PMU without counters (version < 2) has none of these MSRs: touch nothing. */
	if (d->geo.gp == 0 && d->geo.fixed == 0)
		return PMU_DRV_OK;
	plan(d, a, n, &p);
	uint64_t change = (d->active | p.active) & ~kept(d, &p);

	/* Nothing that changes counts while it is reprogrammed; the rest goes on. */
	stop_changing(d, change);
	program_gp(d, &p, change);
	program_fixed(d, &p, change);
	set_tsx_force_abort(d, p.active);
	d->active = p.active;
	set_global(d, p.active & ~hold);
	return PMU_DRV_OK;
}

enum pmu_drv_status pmu_driver_program(struct pmu_driver *d, const struct pmu_assignment *a,
				       unsigned n)
{
	return pmu_driver_program_held(d, a, n, 0);
}

void pmu_driver_start(struct pmu_driver *d, uint64_t counters)
{
	set_global(d, d->global | (counters & d->active));
}

static uint64_t read_raw(struct pmu_driver *d, unsigned idx)
{
	uint64_t v;

	if ((d->flags & PMU_DRV_RDPMC) && d->be.read_pmc) {
		d->reads++;
		if (d->be.read_pmc(d->be.ctx, regs_rdpmc_ecx(idx), &v))
			return v;
	}
	return rd(d, regs_counter_msr(idx, false));
}

/* A register written behind the driver's back: counted, the first noted. */
static void interfered(struct pmu_driver *d, uint32_t msr, uint64_t wrote, uint64_t read)
{
	d->interferences++;
	if (!d->interference.msr)
		d->interference = (struct pmu_drv_interference){ msr, wrote, read };
}

/*
 * Fold one counter's progress into its count. status is IA32_PERF_GLOBAL_STATUS, read before the
 * counter. Returns true when the counter's overflow bit was consumed and must be cleared.
 *
 * With its overflow bit, a value below the previous one is one wrap, and a value that did not go
 * down is a whole period (2^width more events) plus the difference. Without the bit, a value that
 * went down either wrapped after the status was read, which the status read again shows, or was
 * written behind the driver's back: interference (pmu/driver.h), which adds nothing.
 */
static bool fold(struct pmu_driver *d, unsigned idx, uint64_t status)
{
	struct pmu_drv_counter *c = slot(d, idx);
	uint64_t mask = regs_width_mask(width_of(d, idx));
	uint64_t raw = read_raw(d, idx) & mask;
	uint64_t bit = regs_global_bit(idx);
	bool overflow = (status & bit) != 0;
	uint64_t delta = (raw - c->last) & mask;

	if (raw < c->last && !overflow)
		overflow = (rd(d, IA32_PERF_GLOBAL_STATUS) & bit) != 0;
	if (raw < c->last && !overflow) {
		c->interfered = true;
		interfered(d, regs_counter_msr(idx, false), c->last, raw);
		delta = 0;
	} else if (overflow) {
		d->wraps++;
		if (raw >= c->last)
			delta += mask + 1;
	}
	c->count += delta;
	c->last = raw;
	return overflow;
}

void pmu_driver_read(struct pmu_driver *d)
{
	uint64_t status, clear = 0;

	if (!d->active)
		return;
	status = rd(d, IA32_PERF_GLOBAL_STATUS);
	for (unsigned idx = 0; idx < 64; idx++)
		if ((d->active & regs_global_bit(idx)) && fold(d, idx, status))
			clear |= regs_global_bit(idx);
	if (clear)
		wr(d, IA32_PERF_GLOBAL_OVF_CTRL, clear);
}

void pmu_driver_stop_some(struct pmu_driver *d, uint64_t counters)
{
	set_global(d, d->global & ~counters);
	pmu_driver_read(d);
}

void pmu_driver_stop(struct pmu_driver *d)
{
	pmu_driver_stop_some(d, ~0ull);
}

uint64_t pmu_driver_count(const struct pmu_driver *d, unsigned idx)
{
	if (idx >= 64 || !(d->active & regs_global_bit(idx)))
		return 0;
	return slot((struct pmu_driver *)d, idx)->count;
}

uint64_t pmu_driver_take(struct pmu_driver *d, unsigned idx)
{
	uint64_t v = pmu_driver_count(d, idx);

	if (v)
		slot(d, idx)->count = 0;
	return v;
}

/* Counters in `counters` (idxmsk) that are programmed: their counts marked interfered. */
static void mark(struct pmu_driver *d, uint64_t counters)
{
	for (unsigned idx = 0; idx < 64; idx++)
		if (counters & d->active & regs_global_bit(idx))
			slot(d, idx)->interfered = true;
}

/* The next programmed GP counter after the last one checked, into *i; false when none is. */
static bool next_gp(struct pmu_driver *d, unsigned *i)
{
	for (unsigned k = 1; k <= d->geo.gp; k++) {
		unsigned n = (d->verify_next + k) % d->geo.gp;
		if (d->active & regs_global_bit(n)) {
			*i = d->verify_next = n;
			return true;
		}
	}
	return false;
}

/* GP counter i's selector read back; what differs is interference, written back. */
static void verify_selector(struct pmu_driver *d, unsigned i)
{
	uint64_t selection = rd(d, IA32_PERFEVTSEL(i));

	if (selection == d->gp[i].selection)
		return;
	mark(d, regs_global_bit(i));
	interfered(d, IA32_PERFEVTSEL(i), d->gp[i].selection, selection);
	wr(d, IA32_PERFEVTSEL(i), d->gp[i].selection);
}

/* IA32_FIXED_CTR_CTRL read back: the fixed counters whose field differs are marked. */
static void verify_fixed_ctrl(struct pmu_driver *d)
{
	uint64_t ctrl = rd(d, IA32_FIXED_CTR_CTRL);

	if (ctrl == d->fixed_ctrl)
		return;
	for (unsigned j = 0; j < d->geo.fixed; j++) {
		/* Field j's bits in place: the value with the field cleared, XORed with it. */
		uint64_t now = ctrl ^ regs_fixed_ctrl_set(ctrl, j, 0);
		uint64_t wrote = d->fixed_ctrl ^ regs_fixed_ctrl_set(d->fixed_ctrl, j, 0);

		if (now != wrote)
			mark(d, regs_global_bit(PMU_FIXED_BASE + j));
	}
	interfered(d, IA32_FIXED_CTR_CTRL, d->fixed_ctrl, ctrl);
	wr(d, IA32_FIXED_CTR_CTRL, d->fixed_ctrl);
}

/* With PMU_DRV_SMI_COUNT: whether an SMI came since the last look (the first look: no). */
static bool smi_since(struct pmu_driver *d)
{
	uint64_t smis = rd(d, MSR_SMI_COUNT);
	bool moved = d->smis_read && smis != d->smis;

	d->smis = smis;
	d->smis_read = true;
	return moved;
}

void pmu_driver_verify(struct pmu_driver *d)
{
	if (d->geo.gp == 0 && d->geo.fixed == 0)
		return;
	uint64_t global = rd(d, IA32_PERF_GLOBAL_CTRL);
	if (global != d->global) {
		mark(d, global ^ d->global);
		interfered(d, IA32_PERF_GLOBAL_CTRL, d->global, global);
		wr(d, IA32_PERF_GLOBAL_CTRL, d->global);
	}
	if (!d->active)
		return;
	if (d->flags & PMU_DRV_SMI_COUNT) {
		if (!smi_since(d))
			return;
		for (unsigned i = 0; i < d->geo.gp; i++)
			if (d->active & regs_global_bit(i))
				verify_selector(d, i);
		if (d->active & regs_global_all(0, d->geo.fixed))
			verify_fixed_ctrl(d);
		return;
	}
	unsigned i;
	if (next_gp(d, &i))
		verify_selector(d, i);
}

bool pmu_driver_take_interfered(struct pmu_driver *d, unsigned idx)
{
	struct pmu_drv_counter *c;
	bool v;

	if (idx >= 64 || !(d->active & regs_global_bit(idx)))
		return false;
	c = slot(d, idx);
	v = c->interfered;
	c->interfered = false;
	return v;
}

void pmu_driver_release(struct pmu_driver *d)
{
	if (d->geo.gp == 0 && d->geo.fixed == 0) {
		d->active = 0;
		return;
	}
	/* Every register written, whatever the shadows say: after init their state is unknown. */
	wr(d, IA32_PERF_GLOBAL_CTRL, 0);
	for (unsigned i = 0; i < d->geo.gp; i++) {
		wr(d, IA32_PERFEVTSEL(i), 0);
		wr(d, regs_counter_msr(i, d->geo.full_width), 0);
	}
	wr(d, IA32_FIXED_CTR_CTRL, 0);
	for (unsigned j = 0; j < d->geo.fixed; j++)
		wr(d, IA32_FIXED_CTR(j), 0);
	wr(d, IA32_PERF_GLOBAL_OVF_CTRL, all_counters(d));
	if (d->geo.tsx_force_abort)
		wr(d, MSR_TSX_FORCE_ABORT, 0);
	d->tsx_force_abort = false;
	memset(d->gp, 0, sizeof(d->gp));
	memset(d->fixed, 0, sizeof(d->fixed));
	d->active = 0;
	d->global = 0;
	d->fixed_ctrl = 0;
}

const char *pmu_drv_status_name(enum pmu_drv_status s)
{
	switch (s) {
	case PMU_DRV_OK:
		return "ok";
	case PMU_DRV_EINDEX:
		return "no such counter";
	case PMU_DRV_EBUSY:
		return "two events on one counter";
	case PMU_DRV_EFIXED:
		return "the counter cannot count this event";
	case PMU_DRV_EPRELOAD:
		return "preload does not fit the counter";
	case PMU_DRV_EEVENT:
		return "no event";
	case PMU_DRV_EANY:
		return "AnyThread needs PMU version 3";
	}
	return "?";
}
