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
		int j = regs_fixed_counter_for(a[k].event);
		if (fixed && j != (int)(idx - PMU_FIXED_BASE))
			return PMU_DRV_EFIXED;
		/* Reference cycles exist only on their fixed counter (no GP encoding). */
		if (!fixed && j >= 0 && !regs_fixed_event_gp_ok((unsigned)j))
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

/* What program() writes: per counter its selection and preload, and the enable mask. */
struct programming {
	uint64_t selection[PMU_FIXED_BASE + PMU_MAX_FIXED]; /* PERFEVTSEL value or fixed field */
	uint64_t preload[PMU_FIXED_BASE + PMU_MAX_FIXED];
	uint64_t active;
};

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
		p->preload[idx] = a[k].preload;
	}
}

/*
 * Counter idx goes on from its value: the counters were stopped and read (so its last value is
 * final), it ran with the same selection, and the caller asks for no particular start value.
 */
static bool keeps_running(const struct pmu_driver *d, const struct programming *p, unsigned idx)
{
	uint64_t bit = regs_global_bit(idx);

	return d->stopped && (d->active & bit) && (p->active & bit) && p->preload[idx] == 0 &&
	       slot((struct pmu_driver *)d, idx)->selection == p->selection[idx];
}

/* A counter that starts afresh: its count and mark discarded, its value the preload. */
static void start_counter(struct pmu_drv_counter *c, const struct programming *p, unsigned idx)
{
	memset(c, 0, sizeof(*c));
	c->last = p->preload[idx];
	c->selection = p->selection[idx];
}

static void program_gp(struct pmu_driver *d, const struct programming *p)
{
	for (unsigned i = 0; i < d->geo.gp; i++) {
		struct pmu_drv_counter *c = &d->gp[i];

		if (keeps_running(d, p, i)) {
			c->count = 0;
			c->interfered = false;
			continue;
		}
		msr_write(&d->be, IA32_PERFEVTSEL(i), 0);
		memset(c, 0, sizeof(*c));
		if (!(p->active & regs_global_bit(i)))
			continue;
		msr_write(&d->be, regs_counter_msr(i, d->geo.full_width), p->preload[i]);
		msr_write(&d->be, IA32_PERFEVTSEL(i), p->selection[i]);
		start_counter(c, p, i);
	}
}

static void program_fixed(struct pmu_driver *d, const struct programming *p)
{
	uint64_t ctrl = 0;

	msr_write(&d->be, IA32_FIXED_CTR_CTRL, 0);
	for (unsigned j = 0; j < d->geo.fixed; j++) {
		unsigned idx = PMU_FIXED_BASE + j;
		struct pmu_drv_counter *c = &d->fixed[j];

		if (!(p->active & regs_global_bit(idx))) {
			memset(c, 0, sizeof(*c));
			continue;
		}
		ctrl = regs_fixed_ctrl_set(ctrl, j, (unsigned)p->selection[idx]);
		if (keeps_running(d, p, idx)) {
			c->count = 0;
			c->interfered = false;
			continue;
		}
		msr_write(&d->be, IA32_FIXED_CTR(j), p->preload[idx]);
		start_counter(c, p, idx);
	}
	if (ctrl)
		msr_write(&d->be, IA32_FIXED_CTR_CTRL, ctrl);
}

/* Linux's TFA: the bit set while GP counter PMU_TFA_COUNTER is in use, written on change only. */
static void set_tsx_force_abort(struct pmu_driver *d, uint64_t active)
{
	bool want = d->geo.tsx_force_abort && (active & regs_global_bit(PMU_TFA_COUNTER));

	if (want == d->tsx_force_abort)
		return;
	msr_write(&d->be, MSR_TSX_FORCE_ABORT, want ? TSX_FORCE_ABORT_RTM : 0);
	d->tsx_force_abort = want;
}

enum pmu_drv_status pmu_driver_program(struct pmu_driver *d, const struct pmu_assignment *a,
				       unsigned n)
{
	enum pmu_drv_status s = check(d, a, n);
	struct programming p;

	if (s != PMU_DRV_OK)
		return s;
	/* A PMU without counters (version < 2) has none of these MSRs: touch nothing. */
	if (d->geo.gp == 0 && d->geo.fixed == 0)
		return PMU_DRV_OK;
	plan(d, a, n, &p);

	/* Nothing counts while the PMU is being reprogrammed. */
	msr_write(&d->be, IA32_PERF_GLOBAL_CTRL, 0);
	program_gp(d, &p);
	program_fixed(d, &p);
	set_tsx_force_abort(d, p.active);
	/* Stale overflow bits would otherwise look like wraps of the new counts. */
	msr_write(&d->be, IA32_PERF_GLOBAL_OVF_CTRL, all_counters(d));
	d->active = p.active;
	d->stopped = false;
	if (p.active)
		msr_write(&d->be, IA32_PERF_GLOBAL_CTRL, p.active);
	return PMU_DRV_OK;
}

static uint64_t read_raw(struct pmu_driver *d, unsigned idx)
{
	uint64_t v;

	if ((d->flags & PMU_DRV_RDPMC) && d->be.read_pmc &&
	    d->be.read_pmc(d->be.ctx, regs_rdpmc_ecx(idx), &v))
		return v;
	return msr_read(&d->be, regs_counter_msr(idx, false));
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
		overflow = (msr_read(&d->be, IA32_PERF_GLOBAL_STATUS) & bit) != 0;
	if (raw < c->last && !overflow) {
		c->interfered = true;
		d->interferences++;
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
	status = msr_read(&d->be, IA32_PERF_GLOBAL_STATUS);
	for (unsigned idx = 0; idx < 64; idx++)
		if ((d->active & regs_global_bit(idx)) && fold(d, idx, status))
			clear |= regs_global_bit(idx);
	if (clear)
		msr_write(&d->be, IA32_PERF_GLOBAL_OVF_CTRL, clear);
}

void pmu_driver_stop(struct pmu_driver *d)
{
	/* With nothing programmed the global control is already 0. */
	if (d->active)
		msr_write(&d->be, IA32_PERF_GLOBAL_CTRL, 0);
	pmu_driver_read(d);
	d->stopped = true;
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
	msr_write(&d->be, IA32_PERF_GLOBAL_CTRL, 0);
	for (unsigned i = 0; i < d->geo.gp; i++) {
		msr_write(&d->be, IA32_PERFEVTSEL(i), 0);
		msr_write(&d->be, regs_counter_msr(i, d->geo.full_width), 0);
	}
	msr_write(&d->be, IA32_FIXED_CTR_CTRL, 0);
	for (unsigned j = 0; j < d->geo.fixed; j++)
		msr_write(&d->be, IA32_FIXED_CTR(j), 0);
	msr_write(&d->be, IA32_PERF_GLOBAL_OVF_CTRL, all_counters(d));
	/* Its state is unknown after init: cleared whether or not the driver set it. */
	if (d->geo.tsx_force_abort)
		msr_write(&d->be, MSR_TSX_FORCE_ABORT, 0);
	d->tsx_force_abort = false;
	memset(d->gp, 0, sizeof(d->gp));
	memset(d->fixed, 0, sizeof(d->fixed));
	d->active = 0;
	d->stopped = false;
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
