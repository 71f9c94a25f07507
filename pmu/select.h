/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing the MSR backend from enumeration and the command line's pmu=auto|hw|model, and the
 * fields of the `pmu` record that says which backend was chosen and why.
 *
 * Pure code: compiled unchanged into the kernel and into host tools and tests.
 */
#ifndef PMU_SELECT_H
#define PMU_SELECT_H

#include <stdbool.h>

#include "pmu/enumerate.h"

/* The command line's pmu= value. */
enum pmu_request {
	PMU_REQ_AUTO,
	PMU_REQ_HW,
	PMU_REQ_MODEL,
};

enum pmu_backend_kind {
	PMU_BACKEND_NONE, /* nothing can count: pmu=hw ends the run, pmu=auto measures nothing */
	PMU_BACKEND_HW,
	PMU_BACKEND_MODEL,
};

struct pmu_choice {
	enum pmu_backend_kind backend;
	bool fatal;	    /* NONE because pmu=hw was asked: the run ends with a failure record */
	const char *reason; /* one sentence, for the record and the console */
};

/*
 * True when the real MSRs can be used: a GenuineIntel CPU whose CPUID 0x0A reports
 * architectural performance monitoring version 2 or later (global control and fixed counters)
 * with at least 2 GP counters.
 */
bool pmu_hw_usable(const struct pmu_info *info);

/*
 * auto takes hw when pmu_hw_usable(); without it the model only under a hypervisor (QEMU, a
 * cloud: the model stands in for counters the host does not give), and on a real machine none:
 * an AMD CPU or an old Intel one, where a run on the model would end on the same PASS as a
 * measurement, so nothing is measured and every experiment is skipped (no_pmu) unless pmu=model
 * asks for the model. hw takes hw or fails (NONE, fatal) when there is no usable PMU; model
 * always takes the model.
 */
struct pmu_choice pmu_choose_backend(const struct pmu_info *info, enum pmu_request req);

/* The name of a backend: "hw", "model" or "none". */
const char *pmu_backend_name(enum pmu_backend_kind k);

/*
 * The fields of the `pmu` record, ready to print. The counter fields describe the counters the
 * run uses: CPUID's under hw, the model's emulation under model (and CPUID's, all zero under
 * QEMU, when the choice failed). NULL strings print as JSON null.
 */
struct pmu_record {
	bool ok;	     /* false: pmu=hw without a PMU, the run must end */
	const char *backend; /* "hw", "model" or "none" */
	const char *reason;
	unsigned version;
	unsigned gp, gp_width;
	unsigned fixed, fixed_width;
	const char *uarch;	/* "sandybridge" ... "skylake", or "unknown" */
	const char *erratum;	/* "BJ122", "BV98", "HSD29" or NULL */
	const char *hypervisor; /* the hypervisor's signature ("TCGTCGTCGTCG") or NULL */
	bool full_width;
	bool smt; /* the chosen core runs two logical CPUs (HT on) */
};

/*
 * Fill the record. smt says whether the core the run uses has two logical CPUs: the model then
 * emulates the HT-on counters and the erratum (and on hw CPUID already reports per-thread counts).
 */
void pmu_record_fill(struct pmu_record *r, const struct pmu_info *info,
		     const struct pmu_choice *choice, bool smt);

#endif
