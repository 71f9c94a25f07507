// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing the MSR backend, and the `pmu` record (see pmu/select.h).
 */
#include <stddef.h>
#include <string.h>

#include "pmu/model.h"
#include "pmu/select.h"

bool pmu_hw_usable(const struct pmu_info *info)
{
	/*
	 * Version 2 brings IA32_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL and the fixed counters (SDM vol. 3B,
	 * 18.2.2), which the driver's programming sequence needs. The MSRs are Intel's: another
	 * vendor reporting leaf 0x0A would still not have them.
	 */
	return info->intel && info->version >= 2 && info->gp >= 2;
}

/* Why there is no usable PMU. */
static const char *why_not(const struct pmu_info *info)
{
	if (info->hypervisor && info->version == 0)
		return "hypervisor without a PMU (CPUID 0x0A reports version 0)";
	if (!info->intel)
		return "not a GenuineIntel CPU: no Intel architectural PMU";
	if (info->version == 0)
		return "no architectural PMU (CPUID 0x0A reports version 0)";
	if (info->version < 2)
		return "architectural PMU version 1 has no global control or fixed counters";
	return "fewer than 2 GP counters (CPUID 0x0A)";
}

struct pmu_choice pmu_choose_backend(const struct pmu_info *info, enum pmu_request req)
{
	struct pmu_choice c = { PMU_BACKEND_NONE, false, NULL };
	bool usable = pmu_hw_usable(info);

	switch (req) {
	case PMU_REQ_MODEL:
		c.backend = PMU_BACKEND_MODEL;
		c.reason = "pmu=model requested";
		return c;
	case PMU_REQ_HW:
		if (usable) {
			c.backend = PMU_BACKEND_HW;
			c.reason = "pmu=hw requested; architectural PMU version 2 or later present";
		} else {
			c.backend = PMU_BACKEND_NONE;
			c.fatal = true;
			c.reason = info->hypervisor && info->version == 0
					   ? "pmu=hw requested, but hypervisor without a PMU "
					     "(CPUID 0x0A reports version 0)"
					   : "pmu=hw requested, but there is no usable "
					     "architectural PMU";
		}
		return c;
	case PMU_REQ_AUTO:
		break;
	}
	if (usable) {
		c.backend = PMU_BACKEND_HW;
		c.reason = "architectural PMU version 2 or later with at least 2 GP counters";
	} else if (info->hypervisor) {
		c.backend = PMU_BACKEND_MODEL;
		c.reason = why_not(info);
	} else {
		c.reason = info->intel
				   ? "no hypervisor and no usable Intel PMU: nothing is measured "
				     "(pmu=model runs the model PMU)"
				   : "no hypervisor and not a GenuineIntel CPU: nothing is "
				     "measured (pmu=model runs the model PMU)";
	}
	return c;
}

const char *pmu_backend_name(enum pmu_backend_kind k)
{
	switch (k) {
	case PMU_BACKEND_HW:
		return "hw";
	case PMU_BACKEND_MODEL:
		return "model";
	case PMU_BACKEND_NONE:
		break;
	}
	return "none";
}

void pmu_record_fill(struct pmu_record *r, const struct pmu_info *info,
		     const struct pmu_choice *choice, bool smt)
{
	struct pmu_geometry g = choice->backend == PMU_BACKEND_MODEL
					? model_geometry(info->uarch, smt)
					: pmu_info_geometry(info);

	memset(r, 0, sizeof(*r));
	r->ok = !choice->fatal;
	r->backend = pmu_backend_name(choice->backend);
	r->reason = choice->reason;
	/* Under hw the record gives CPUID's own counts, unclamped. */
	if (choice->backend == PMU_BACKEND_HW) {
		g.gp = info->gp;
		g.fixed = info->fixed;
	}
	r->version = g.version;
	r->gp = g.gp;
	r->gp_width = g.gp_width;
	r->fixed = g.fixed;
	r->fixed_width = g.fixed_width;
	r->full_width = g.full_width;
	r->uarch = info->uarch->id == UARCH_GENERIC ? "unknown" : info->uarch->name;
	r->erratum = info->uarch->erratum;
	r->hypervisor = info->hypervisor ? info->hv_signature : NULL;
	r->smt = smt;
}
