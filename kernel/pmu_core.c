// SPDX-License-Identifier: GPL-2.0
/*
 * Enumeration, backend choice, the `pmu` record, and SYS_PMU_ACCOUNT.
 */
#include <stddef.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/format.h"
#include "kernel/msr.h"
#include "kernel/pair.h"
#include "kernel/pmu_core.h"
#include "kernel/record_stream.h"
#include "kernel/run.h"
#include "kernel/syscall.h"
#include "kernel/user_rdpmc.h"

struct pmu_core the_pmu = { .lock = SPINLOCK_INIT };

extern char __user_start[], __user_end[];

/* Shares in the record as fractions with six decimals, from parts per million. */
#define PPM_DECIMALS 6
#define PROFILE_RATES_MAX 64

void pmu_identify(void)
{
	struct pmu_cpuid raw;

	pmu_cpuid_collect(&raw, pmu_hw_cpuid, pmu_hw_rdmsr_probe, NULL);
	pmu_info_decode(&raw, &the_pmu.info);
}

/* The whole of [p, p + len) lies in the workloads' own pages. */
static bool in_user_image(uint64_t p, uint64_t len)
{
	uint64_t start = (uint64_t)(uintptr_t)__user_start, end = (uint64_t)(uintptr_t)__user_end;

	return p >= start && p <= end && len <= end - p;
}

/*
 * SYS_PMU_ACCOUNT(profile, units). The profile is read by the kernel, so it must be one of the
 * workloads' own (in the .user sections), with its rate table there too.
 */
static int64_t sys_pmu_account(struct trap_frame *frame, uint64_t profile, uint64_t units,
			       uint64_t unused)
{
	(void)frame;
	(void)unused;
	int thread = pair_thread_of(this_cpu());
	const struct model_profile *p = (const struct model_profile *)(uintptr_t)profile;

	if (!the_pmu.model || thread < 0)
		return 0;
	if (!in_user_image(profile, sizeof(*p)) || p->nrates > PROFILE_RATES_MAX ||
	    (p->nrates &&
	     !in_user_image((uint64_t)(uintptr_t)p->rates, p->nrates * sizeof(p->rates[0]))))
		return -1;
	spin_lock(&the_pmu.lock);
	model_account(&the_pmu.model_state, (unsigned)thread, p, units);
	spin_unlock(&the_pmu.lock);
	return 0;
}

static void emit_pmu_record(const struct pmu_record *rec)
{
	static struct record r;

	record_begin(&r, "pmu");
	record_string(&r, "backend", rec->ok ? rec->backend : "none");
	record_string(&r, "reason", rec->reason);
	record_uint(&r, "version", rec->version);
	record_uint(&r, "gp", rec->gp);
	record_uint(&r, "gp_width", rec->gp_width);
	record_uint(&r, "fixed", rec->fixed);
	record_uint(&r, "fixed_width", rec->fixed_width);
	record_bool(&r, "full_width", rec->full_width);
	record_string(&r, "uarch", rec->uarch);
	record_string(&r, "erratum", rec->erratum);
	record_string(&r, "hypervisor", rec->hypervisor);
	record_bool(&r, "smt", rec->smt);
	if (the_pmu.model) {
		const struct model_config *cfg = &the_pmu.model_state.cfg;
		record_begin_object(&r, "model");
		record_bool(&r, "erratum_applied", cfg->erratum);
		record_begin_array(&r, "shares");
		for (const struct model_share *s = cfg->shares; s && s->name; s++) {
			char event[16];
			format_snprintf(event, sizeof(event),
					s->any_umask ? "0x%02x" : "0x%02x%02x",
					s->any_umask ? s->event : s->umask, s->event);
			record_begin_object(&r, NULL);
			record_string(&r, "event", event);
			record_string(&r, "name", s->name);
			record_fixed(&r, "share", s->ppm, PPM_DECIMALS);
			record_end_object(&r);
		}
		record_end_array(&r);
		record_end_object(&r);
	}
	record_emit(&r);
}

struct pmu_driver *pmu_thread_begin(unsigned thread)
{
	struct pmu_driver *d = &the_pmu.driver[thread];
	uint64_t probe;
	/*
	 * Counters are read with RDPMC where it works on this CPU (a hypervisor may raise #UD for
	 * it): probed here, on the thread's own CPU, so that a refusal costs one fault, not one
	 * per read. The model emulates RDPMC.
	 */
	unsigned flags = the_pmu.model || rdpmc_safe(0, &probe) ? PMU_DRV_RDPMC : 0;

	spin_lock(&the_pmu.lock);
	pmu_driver_init(d, &the_pmu.backend[thread], &the_pmu.geometry, flags);
	spin_unlock(&the_pmu.lock);
	/* Ring 3 reads counters natively on real ones, through the fault under the model. */
	user_rdpmc_setup(!the_pmu.model);
	return d;
}

void pmu_thread_end(unsigned thread)
{
	spin_lock(&the_pmu.lock);
	pmu_driver_release(&the_pmu.driver[thread]);
	spin_unlock(&the_pmu.lock);
}

void pmu_core_setup(unsigned request, bool smt)
{
	struct pmu_record rec;

	the_pmu.choice = pmu_choose_backend(&the_pmu.info, (enum pmu_request)request);
	the_pmu.model = the_pmu.choice.backend == PMU_BACKEND_MODEL;
	if (the_pmu.model) {
		struct model_config cfg;
		model_config_init(&cfg, the_pmu.info.uarch, smt);
		model_core_init(&the_pmu.model_state, &cfg);
		the_pmu.geometry = model_geometry(the_pmu.info.uarch, smt);
		for (unsigned t = 0; t < 2; t++)
			the_pmu.backend[t] = model_backend(&the_pmu.model_state, t);
	} else if (the_pmu.choice.backend == PMU_BACKEND_HW) {
		the_pmu.geometry = pmu_info_geometry(&the_pmu.info);
		for (unsigned t = 0; t < 2; t++)
			the_pmu.backend[t] = pmu_backend_hw();
	}
	pmu_record_fill(&rec, &the_pmu.info, &the_pmu.choice, smt);
	kprintf("PMU: %s backend (%s); %s%s%s\n", rec.ok ? rec.backend : "no", rec.reason,
		rec.uarch, rec.erratum ? ", erratum " : ", no cross-HT erratum",
		rec.erratum ? rec.erratum : "");
	emit_pmu_record(&rec);
	if (!rec.ok) {
		run_fail(rec.reason);
		run_end();
	}
	syscall_register(SYS_PMU_ACCOUNT, sys_pmu_account);
}
