// SPDX-License-Identifier: GPL-2.0
/*
 * Enumeration, backend choice, taking the PMU over from the firmware, and the `pmu` record.
 */
#include <stddef.h>
#include <string.h>

#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/lib/format.h"
#include "kernel/msr.h"
#include "kernel/pair.h"
#include "kernel/pmu.h"
#include "kernel/record_stream.h"
#include "kernel/end.h"
#include "kernel/time.h"
#include "kernel/user_rdpmc.h"
#include "pmu/counters.h"

struct pmu the_pmu = { .lock = SPINLOCK_INIT };

extern char __user_start[], __user_end[];

/* Shares in the record as fractions with six decimals, from parts per million. */
#define PPM_DECIMALS 6
#define PROFILE_RATES_MAX 64

/* Firmware-counter names in the record and the warn: at most this many. */
#define FIRMWARE_COUNTERS_MAX (PMU_MAX_GP + PMU_MAX_FIXED)

void pmu_identify(void)
{
	struct pmu_cpuid raw;

	pmu_cpuid_collect(&raw, pmu_hw_cpuid, pmu_hw_rdmsr_probe, NULL);
	pmu_info_decode(&raw, &the_pmu.info);
	the_pmu.microcode_valid =
		pmu_microcode_revision(&the_pmu.info, pmu_hw_rdmsr_probe, pmu_hw_wrmsr_safe,
				       pmu_hw_cpuid, NULL, &the_pmu.microcode);
}

/* The whole of [p, p + len) lies in the workloads' own pages. */
static bool in_user_image(uint64_t p, uint64_t len)
{
	uint64_t start = (uint64_t)(uintptr_t)__user_start, end = (uint64_t)(uintptr_t)__user_end;

	return p >= start && p <= end && len <= end - p;
}

/*
 * The model reads the profiles the workloads' ledgers name (pmu/model_ledger.h): only one of the
 * workloads' own, in the .user sections, with its rate table there too, or one the kernel built
 * in a range it trusts (pmu_trust_profiles()).
 */
/* A second range the kernel itself fills (profiles of code it traced, tests/owncode/trace.h):
 * kernel memory, which CPL 3 cannot write. Empty when nothing is trusted. */
static uint64_t trusted_start, trusted_end;

void pmu_trust_profiles(const void *start, size_t bytes)
{
	trusted_start = (uint64_t)(uintptr_t)start;
	trusted_end = start ? trusted_start + bytes : 0;
}

static bool in_trusted(uint64_t p, uint64_t len)
{
	return trusted_end && p >= trusted_start && p <= trusted_end && len <= trusted_end - p;
}

/* The profile and its rates lie in one of the two places. */
static bool in_place(const void *p, uint64_t len)
{
	return in_user_image((uint64_t)(uintptr_t)p, len) ||
	       in_trusted((uint64_t)(uintptr_t)p, len);
}

static bool profile_ok(const struct model_profile *p)
{
	return in_place(p, sizeof(*p)) && p->nrates <= PROFILE_RATES_MAX &&
	       (!p->nrates || in_place(p->rates, p->nrates * sizeof(p->rates[0])));
}

/*
 * Safe MSR access to a pair thread's PMU for the firmware check (ctx: its model thread): the
 * model's registers, or the real MSRs of the calling CPU through the exception fixup.
 */
static bool thread_rdmsr(void *ctx, uint32_t msr, uint64_t *value)
{
	return the_pmu.model ? model_rdmsr_safe(ctx, msr, value)
			     : pmu_hw_rdmsr_probe(NULL, msr, value);
}

static bool thread_wrmsr(void *ctx, uint32_t msr, uint64_t value)
{
	return the_pmu.model ? model_wrmsr_safe(ctx, msr, value)
			     : pmu_hw_wrmsr_safe(NULL, msr, value);
}

/*
 * On each pair thread's own CPU: what the firmware left, then the takeover: the driver releases
 * every counter, and pmu/firmware.c clears what the driver does not own.
 */
static void firmware_thread(unsigned thread, void *arg)
{
	void *ctx = &the_pmu.model_state.thread[thread];
	(void)arg;

	spin_lock(&the_pmu.lock);
	pmu_msr_snapshot_take(&the_pmu.firmware_msrs[thread], &the_pmu.geometry, thread_rdmsr, ctx);
	pmu_driver_init(&the_pmu.driver[thread], &the_pmu.backend[thread], &the_pmu.geometry, 0);
	the_pmu.takeover[thread] = pmu_firmware_takeover(thread_rdmsr, thread_wrmsr, ctx);
	spin_unlock(&the_pmu.lock);
}

/* The counters the firmware left enabled on any pair thread, each named once. */
static unsigned firmware_counters(const char **names)
{
	unsigned n = 0;

	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		const char *found[FIRMWARE_COUNTERS_MAX];
		unsigned m = pmu_firmware_counters(&the_pmu.firmware_msrs[t], &the_pmu.geometry,
						   found, FIRMWARE_COUNTERS_MAX);
		for (unsigned k = 0; k < m && k < FIRMWARE_COUNTERS_MAX; k++) {
			bool seen = false;
			for (unsigned i = 0; i < n; i++)
				seen = seen || strcmp(names[i], found[k]) == 0;
			if (!seen && n < FIRMWARE_COUNTERS_MAX)
				names[n++] = found[k];
		}
	}
	return n;
}

static void emit_firmware_keys(struct record *r)
{
	const char *names[FIRMWARE_COUNTERS_MAX];
	unsigned n = firmware_counters(names);
	const struct pmu_msr_snapshot *s = &the_pmu.firmware_msrs[0];

	record_begin_array(r, "firmware_counters");
	for (unsigned k = 0; k < n; k++)
		record_string(r, NULL, names[k]);
	record_end_array(r);
	record_begin_object(r, "msrs");
	for (unsigned k = 0; k < s->n; k++) {
		if (s->msrs[k].valid)
			record_hex(r, s->msrs[k].name, s->msrs[k].value);
		else
			record_null(r, s->msrs[k].name);
	}
	record_end_object(r);
}

static void emit_pmu_record(const struct pmu_record *rec)
{
	static struct record r;

	record_begin(&r, "pmu");
	record_string(&r, "backend", rec->backend);
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
	record_bool(&r, "tsx_force_abort", the_pmu.counts && the_pmu.geometry.tsx_force_abort);
	if (the_pmu.counts) {
		emit_firmware_keys(&r);
	} else {
		record_null(&r, "firmware_counters");
		record_null(&r, "msrs");
	}
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

struct pmu_driver *pmu_thread_begin(unsigned thread, struct model_ledger *work)
{
	struct pmu_driver *d = &the_pmu.driver[thread];
	uint64_t probe;
	/*
	 * Counters are read with RDPMC where it works on this CPU (a hypervisor may raise #UD for
	 * it): probed here, on the thread's own CPU, so that a refusal costs one fault, not one
	 * per read. The model emulates RDPMC.
	 */
	unsigned flags = the_pmu.model || rdpmc_safe(0, &probe) ? PMU_DRV_RDPMC : 0;

	/* Where MSR_SMI_COUNT reads, the read-back looks at every selector after an SMI. */
	if (pmu_smi_count(thread, &probe))
		flags |= PMU_DRV_SMI_COUNT;
	spin_lock(&the_pmu.lock);
	pmu_driver_init(d, &the_pmu.backend[thread], &the_pmu.geometry, flags);
	memset(work, 0, sizeof(*work));
	if (the_pmu.model)
		model_bind_ledger(&the_pmu.model_state, thread, work);
	spin_unlock(&the_pmu.lock);
	/* Ring 3 reads counters natively on real ones, through the fault under the model. */
	user_rdpmc_setup(the_pmu.model ? &the_pmu.model_state : NULL, &the_pmu.lock);
	return d;
}

bool pmu_smi_count(unsigned thread, uint64_t *count)
{
	bool ok;

	if (!the_pmu.model)
		return pmu_hw_rdmsr_probe(NULL, MSR_SMI_COUNT, count);
	spin_lock(&the_pmu.lock);
	ok = model_rdmsr_safe(&the_pmu.model_state.thread[thread & 1], MSR_SMI_COUNT, count);
	spin_unlock(&the_pmu.lock);
	return ok;
}

void pmu_thread_end(unsigned thread)
{
	spin_lock(&the_pmu.lock);
	if (the_pmu.model)
		model_bind_ledger(&the_pmu.model_state, thread, NULL);
	pmu_driver_release(&the_pmu.driver[thread]);
	spin_unlock(&the_pmu.lock);
}

/* The firmware the model imitates for a selftest (kernel/config.h). */
static enum model_firmware model_firmware_for(unsigned selftest)
{
	switch (selftest) {
	case SELFTEST_FIRMWARE_COUNTERS:
		return MODEL_FIRMWARE_COUNTERS_ON;
	case SELFTEST_COUNTER_RESET:
		return MODEL_FIRMWARE_SMM_RESET;
	case SELFTEST_SMM_WRITE:
		return MODEL_FIRMWARE_SMM_WRITE;
	case SELFTEST_PMU_V4_FREEZE:
		return MODEL_FIRMWARE_V4_FREEZE;
	case SELFTEST_SMM_WRITE_ANY:
		return MODEL_FIRMWARE_SMM_WRITE_ANY;
	case SELFTEST_GLOBAL_CTRL_CLEAR:
		return MODEL_FIRMWARE_GLOBAL_CTRL_CLEAR;
	case SELFTEST_EVTSEL_CLEAR:
		return MODEL_FIRMWARE_EVTSEL_CLEAR;
	}
	return MODEL_FIRMWARE_CLEAN;
}

/* The model's version for a selftest: 3 (Sandy Bridge to Skylake), or one without AnyThread. */
static void model_version_for(unsigned selftest, struct pmu_geometry *g)
{
	if (selftest == SELFTEST_PMU_V2)
		g->version = 2;
	if (selftest == SELFTEST_PMU_V5) {
		g->version = 5;
		g->any_thread_deprecated = true;
	}
}

/* Record what the firmware left and take the PMU over, on both threads. */
static void take_over_from_firmware(void)
{
	struct pair_job job = { .fn = firmware_thread };

	if (!pair_run(&job, tsc_hz() * 5)) {
		kprintf("PMU takeover: %s\n", job.error);
		boot_fail("the PMU could not be taken over from the firmware on both threads");
	}
}

/* After the pmu record: a warn for counters the firmware left enabled, and for a failed takeover. */
static void warn_about_firmware(void)
{
	static char value[160];
	const char *names[FIRMWARE_COUNTERS_MAX];
	unsigned n = firmware_counters(names);

	value[0] = 0;
	for (unsigned k = 0; k < n; k++)
		format_snprintf(value + strlen(value), sizeof(value) - strlen(value), "%s%s",
				k ? "," : "", names[k]);
	if (n)
		record_warn("pmu", "firmware_counters", value, "", NULL,
			    "the firmware left performance counters enabled (Linux: \"Broken BIOS "
			    "detected\"); the kernel took them over, but firmware that counts may "
			    "also write them during a run: look for counts marked interfered");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		if (the_pmu.takeover[t].failed)
			record_warn("pmu", "takeover", the_pmu.takeover[t].failed, "", NULL,
				    "the firmware's LBR, BTS or freeze-on-PMI bits or PEBS enables "
				    "could not be cleared: counts may be disturbed");
}

const char *pmu_cpu_name(const struct pmu *pmu, char *buf, size_t size)
{
	const struct pmu_info *id = &pmu->info;

	if (id->uarch->id != UARCH_GENERIC)
		format_snprintf(buf, size, "%s", id->uarch->name);
	else
		format_snprintf(buf, size, "%s family %u model 0x%x",
				id->vendor[0] ? id->vendor : "a CPU of no vendor", id->family,
				id->model);
	return buf;
}

void pmu_selftest_end(void)
{
	static char reason[240];
	const char *name = config_selftest_name(the_pmu.selftest);

	if (!the_pmu.model || !model_firmware_in_smm(model_firmware_for(the_pmu.selftest)) ||
	    the_pmu.model_state.thread[0].smis)
		return;
	format_snprintf(
		reason, sizeof(reason),
		"selftest=%s never acted: the model's firmware acts mid-run, after %u ticks (%s), "
		"and no run of this boot had them: nothing was tested",
		name, MODEL_SMM_RESET_TICK,
		the_pmu.selftest == SELFTEST_COUNTER_RESET
			? "of thread 0's, with its counter 0 counting"
			: "of the core's with a leak catcher declared: xsu=core with a sibling");
	record_warn("pmu", "selftest", name, "", NULL, reason);
	boot_fail(reason);
}

void pmu_choose(unsigned request, bool smt, unsigned selftest)
{
	the_pmu.choice = pmu_choose_backend(&the_pmu.info, (enum pmu_request)request);
	the_pmu.model = the_pmu.choice.backend == PMU_BACKEND_MODEL;
	the_pmu.counts = the_pmu.choice.backend != PMU_BACKEND_NONE;
	if (the_pmu.model) {
		struct model_config cfg;
		model_config_init(&cfg, the_pmu.info.uarch, smt);
		cfg.firmware = model_firmware_for(selftest);
		model_version_for(selftest, &cfg.geo);
		cfg.profile_ok = profile_ok;
		model_core_init(&the_pmu.model_state, &cfg);
		the_pmu.geometry = the_pmu.model_state.cfg.geo;
		for (unsigned t = 0; t < 2; t++)
			the_pmu.backend[t] = model_backend(&the_pmu.model_state, t);
	} else if (the_pmu.choice.backend == PMU_BACKEND_HW) {
		the_pmu.geometry = pmu_info_geometry(&the_pmu.info);
		for (unsigned t = 0; t < 2; t++)
			the_pmu.backend[t] = pmu_backend_hw();
	}
	the_pmu.smt = smt;
	the_pmu.selftest = selftest;
}

void pmu_setup(void)
{
	struct pmu_record rec;
	unsigned selftest = the_pmu.selftest;

	pmu_record_fill(&rec, &the_pmu.info, &the_pmu.choice, the_pmu.smt);
	if (the_pmu.model)
		rec.version = the_pmu.geometry.version; /* 4 with selftest=pmu-v4-freeze */
	char cpu[64];
	kprintf("PMU: %s backend (%s); %s%s%s\n", rec.backend, rec.reason,
		pmu_cpu_name(&the_pmu, cpu, sizeof(cpu)),
		rec.erratum ? ", erratum " : ", no cross-HT erratum",
		rec.erratum ? rec.erratum : "");
	if (the_pmu.counts)
		take_over_from_firmware();
	emit_pmu_record(&rec);
	if (!rec.ok)
		boot_abort(rec.reason);
	/* Nothing real is measured: the verdict says so wherever it shows (kernel/end.h). */
	if (the_pmu.model)
		boot_set_caveat("model PMU: nothing measured", "MODEL PASS", "MODEL FAIL");
	else if (!the_pmu.counts)
		boot_set_caveat("no PMU: nothing measured", "NO PMU", "NO PMU");
	warn_about_firmware();
	if (the_pmu.info.uarch->id == UARCH_GENERIC)
		record_warn(
			"pmu", "uarch", cpu, "", "generic",
			"this CPU is in no table of the kernel: no cross-HT erratum is known for "
			"it (the corruption and loss experiments are skipped, no_erratum), and its "
			"events are scheduled with the architectural constraints only");
	if (model_firmware_for(selftest) != MODEL_FIRMWARE_CLEAN && !the_pmu.model)
		record_warn("pmu", "selftest", config_selftest_name(selftest), "", NULL,
			    "this selftest makes the model PMU imitate firmware; the real counters "
			    "measure here, so it does nothing");
}
