// SPDX-License-Identifier: GPL-2.0
/*
 * idle: the thread halts (SYS_HALT: HLT until the next interrupt, which the tick brings), for the
 * runs where one thread measures alone (thesis ch. 8) or a sibling should be as quiet as a
 * sibling can be: a halted logical CPU gives the core's shared resources to the other one. A unit
 * is one halt, one tick period. Where the kernel refuses to halt (no timer is armed to wake the
 * CPU) a unit is one PAUSE instead, so that the thread still stops at its deadline.
 */
#include "tests/ring3/account.h"
#include "tests/ring3/workload.h"

/*
 * Per 1000 halts, at CPL 3, where the :u events count; the loop as compiled (objdump -d) is 18
 * instructions a halt: RDTSC and the deadline check, the system call's set-up and SYSCALL, the
 * check of its result, the unit count with the ledger's slot check, the ledger's store and the
 * limit check. That is five branches: four conditional ones, all predicted, two of them taken and
 * two not, and the SYSCALL, a far branch (its return retires at CPL 0). A trace of the code counts
 * the same (selftest=profiles, docs/model.md). No load: the loop keeps its limits and its ledger
 * slot in registers; one store, the unit count into the ledger (pmu/model_ledger.h). A halted
 * thread's CPU_CLK_UNHALTED counters stop (SDM vol. 3B, 18.2: they count unhalted cycles only), so
 * the cycles are those of the few instructions around the halt, the SYSCALL mostly.
 */
static const struct model_rate idle_rates[] = {
	{ .event = 0xc4, .umask = 0x00, .per_units = 5000 }, /* BR_INST_RETIRED.ALL_BRANCHES */
	{ .event = 0xc4, .umask = 0x01, .per_units = 4000 }, /* BR_INST_RETIRED.CONDITIONAL */
	{ .event = 0xc4, .umask = 0x10, .per_units = 2000 }, /* BR_INST_RETIRED.NOT_TAKEN */
	{ .event = 0xc4, .umask = 0x20, .per_units = 2000 }, /* BR_INST_RETIRED.NEAR_TAKEN */
	{ .event = 0xc4, .umask = 0x40, .per_units = 1000 }, /* BR_INST_RETIRED.FAR_BRANCH */
	{ .event = 0xd0, .umask = 0x82, .per_units = 1000 }, /* MEM_UOPS_RETIRED.ALL_STORES */
};

const struct model_profile idle_profile = {
	.name = "idle",
	.ring = MODEL_RING_USER,
	.instructions = 18000,
	.core_cycles = 200000,
	.ref_cycles = 200000,
	.rates = idle_rates,
	.nrates = sizeof(idle_rates) / sizeof(idle_rates[0]),
};

uint64_t idle_run(uint64_t arg)
{
	struct workload_params *p = (struct workload_params *)(uintptr_t)arg;
	/*
	 * The limits, copied once into what the compiler keeps in registers: the loop itself must
	 * not load (see the profile), and workload_done() reads them from memory on every call.
	 */
	const uint64_t deadline = p->deadline_tsc ? p->deadline_tsc : UINT64_MAX;
	/* Its ledger slot, found once: in the loop the ledger is a store of the unit count. */
	const unsigned slot = model_ledger_slot(&p->ledger, &idle_profile);
	/*
	 * The ledger holds every unit since its reset, earlier calls' too (a bundle's sibling calls
	 * once a halt): the loop counts on from them, so that it stays the 18 instructions of the
	 * profile (an addition in it made 19).
	 */
	const uint64_t before = slot < MODEL_LEDGER_SLOTS ? p->ledger.units[slot] : 0;
	const uint64_t end = p->max_units && p->max_units < UINT64_MAX - before
				     ? before + p->max_units
				     : UINT64_MAX;
	uint64_t units = before;

	while (units < end && user_rdtsc() < deadline) {
		if (user_syscall(SYS_HALT, 0, 0, 0) != SYSCALL_DONE)
			__asm__ volatile("pause");
		units++;
		model_ledger_put(&p->ledger, slot, units);
	}
	p->units_done = units - before;
	return units - before;
}
