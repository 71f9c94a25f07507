// SPDX-License-Identifier: GPL-2.0
/*
 * Running a bundle's programs with their faults caught (tests/owncode/bench_exec.h).
 */
#include "kernel/apic.h"
#include "kernel/apic_hw.h"
#include "kernel/cpu.h"
#include "kernel/pair.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/trap.h"
#include "kernel/user.h"
#include "tests/owncode/bench_exec.h"
#include "tests/ring3/bench.h"
#include "tests/ring3/user.h"

#define RFLAGS_TF (1ull << 8)
#define VECTOR_DEBUG 1
#define RDPMC_LENGTH 2
/* The tick that keeps the time limit at CPL 3: a fraction of the default limit. */
#define BENCH_TICK_MS 10

static struct bench_exec *x;

/*
 * The NMIs of the sibling's watch (watch_ring0()) sent and taken. One may land after the program
 * it was meant for has ended (sent as it ended, or delivered late), and is still the watch's, not
 * an unexpected NMI. Two sent while the first is held may merge into one (an NMI is blocked until
 * the handler's IRET, SDM vol. 3A, 6.7.1), so one taken settles every one sent before it.
 */
static uint64_t watch_sent, watch_taken;

/* The exceptions' mnemonics (SDM vol. 3A, table 6-1), as the fault records name them. */
static const char *const mnemonics[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#CSO", "#TS",
	"#NP", "#SS", "#GP", "#PF", "#15", "#MF", "#AC", "#MC", "#XM", "#VE",  "#CP",
};

/* Which pair thread this CPU is, into *t; false on a CPU of neither. */
static bool this_thread(unsigned *t)
{
	return pair_thread_of(this_cpu(), t);
}

void bench_exec_note(struct bench_exec *e, unsigned t, const char *vector, uint64_t rip,
		     bool known_rip)
{
	unsigned part = t == 1 ? BUNDLE_PART_SIBLING : BUNDLE_PART_CODE;
	uint32_t offset = 0;
	bool where = known_rip && bench_layout_where(&e->layout[t], e->b, rip, &part, &offset);

	if (__atomic_exchange_n(&e->fault.set, true, __ATOMIC_ACQ_REL))
		return;
	e->fault.vector = vector;
	e->fault.part = part;
	e->fault.has_offset = where;
	e->fault.offset = offset;
}

/* Resume thread t at its program's epilogue, on its saved stack, the trace over. */
static void escape(struct trap_frame *f, unsigned t)
{
	f->rip = x->layout[t].epilogue;
	f->rsp = x->data[t]->saved_rsp;
	f->rflags &= ~RFLAGS_TF;
	x->tracing = false;
}

/* The frame is the bundle's code: at CPL 3 anything (a sibling workload too), at CPL 0 the
 * generated programs only. */
static bool in_program(const struct trap_frame *f, unsigned t)
{
	if (!x || !x->active[t])
		return false;
	if ((f->cs & 3) == 3)
		return true;
	return x->ring0[t] && f->rip >= x->code_start && f->rip < x->code_end;
}

static bool over_time(const struct trap_frame *f, unsigned t);

static void fault_handler(struct trap_frame *f)
{
	unsigned t;

	if (!this_thread(&t) || !in_program(f, t))
		trap_report_unexpected(f);
	bench_exec_note(x, t, f->vector < 32 ? mnemonics[f->vector] : "?", f->rip, true);
	escape(f, t);
}

static void debug_handler(struct trap_frame *f)
{
	unsigned t;

	if (!this_thread(&t) || !in_program(f, t) || !x->tracing)
		trap_report_unexpected(f);
	if (over_time(f, t)) {
		escape(f, t);
		return;
	}
	if (bench_trace_step(&x->tracer, f->rip)) {
		f->rflags &= ~RFLAGS_TF;
		x->tracing = false;
	}
}

/* RDPMC in the generated programs under the model PMU (kernel/user_rdpmc.h does the same for
 * the workloads' own code): EDX:EAX from the model, RIP past it. */
static bool rdpmc_fixup(struct trap_frame *f)
{
	unsigned t;
	uint64_t value = 0;

	if (!this_thread(&t) || !in_program(f, t) || !x->pmu->model || f->rip < x->code_start ||
	    f->rip + RDPMC_LENGTH > x->code_end)
		return false;
	const uint8_t *insn = (const uint8_t *)(uintptr_t)f->rip;
	if (insn[0] != 0x0f || insn[1] != 0x33)
		return false;
	spin_lock(&x->pmu->lock);
	bool ok = model_rdpmc(&x->pmu->model_state.thread[t], (uint32_t)f->rcx, &value);
	spin_unlock(&x->pmu->lock);
	if (!ok)
		return false;
	f->rax = (uint32_t)value;
	f->rdx = value >> 32;
	f->rip += RDPMC_LENGTH;
	return true;
}

/*
 * The sibling's watch over a CPL-0 program of thread 0, which no tick can interrupt: an NMI once
 * the deadline passed, and again every millisecond while the program still runs, as an NMI that
 * lands in a handler (a trace's #DB, an RDPMC fixup) cannot end it.
 */
static void watch_ring0(void)
{
	static uint64_t next;
	uint64_t now = rdtsc();

	if (!__atomic_load_n(&x->active[0], __ATOMIC_ACQUIRE) || !x->ring0[0] ||
	    now < x->deadline[0] || now < next)
		return;
	next = now + tsc_from_us(1000);
	/* Counted before it is sent: thread 0 may take it before apic_send_nmi() returns. */
	__atomic_add_fetch(&watch_sent, 1, __ATOMIC_ACQ_REL);
	apic_send_nmi(&local_apic, the_pair.cpu[0]->apic_id);
}

/* The time limit, and the other thread's request to end (HT1's loop once HT0 gave up on it). */
static bool over_time(const struct trap_frame *f, unsigned t)
{
	if (!in_program(f, t))
		return false;
	if (x->abort[t])
		return true;
	if (rdtsc() < x->deadline[t])
		return false;
	bench_exec_note(x, t, "timeout", f->rip, true);
	return true;
}

static void tick_hook(struct trap_frame *f, void *context)
{
	unsigned t;

	(void)context;
	if (!this_thread(&t))
		return;
	if (t == 1)
		watch_ring0();
	if (over_time(f, t))
		escape(f, t);
}

static bool nmi_claim(struct trap_frame *f)
{
	uint64_t sent = __atomic_load_n(&watch_sent, __ATOMIC_ACQUIRE);
	unsigned t;

	if (!this_thread(&t) || t != 0 || __atomic_load_n(&watch_taken, __ATOMIC_ACQUIRE) == sent)
		return false;
	__atomic_store_n(&watch_taken, sent, __ATOMIC_RELEASE);
	if (x && x->ring0[0] && over_time(f, 0))
		escape(f, 0);
	return true;
}

static const uint8_t caught[] = { 0, 1, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 16, 17, 19 };

static void handlers(trap_handler fault, trap_handler debug)
{
	for (unsigned i = 0; i < sizeof(caught); i++)
		trap_register(caught[i], caught[i] == VECTOR_DEBUG ? debug : fault, 0);
}

void bench_exec_begin(struct bench_exec *e)
{
	x = e;
	e->limit_tsc = e->limit_tsc ? e->limit_tsc : tsc_from_us(2000000);
	handlers(fault_handler, debug_handler);
	trap_add_fixup(rdpmc_fixup);
	smp_nmi_claim(nmi_claim);
}

/* How long thread 0 waits at the end for a watch NMI still on its way (microseconds). */
#define WATCH_LATE_US 10000

void bench_exec_end(void)
{
	uint64_t until = rdtsc() + tsc_from_us(WATCH_LATE_US);

	handlers(NULL, NULL);
	x = NULL;
	/* The sibling watches no more: its last NMI is taken here, not as an unexpected one. */
	while (__atomic_load_n(&watch_taken, __ATOMIC_ACQUIRE) !=
		       __atomic_load_n(&watch_sent, __ATOMIC_ACQUIRE) &&
	       rdtsc() < until)
		cpu_relax();
	smp_nmi_claim(NULL);
}

static void call(struct bench_exec *e, unsigned t, uint64_t entry, unsigned ring)
{
	if (ring == 3) {
		user_call((uint64_t)(uintptr_t)user_start, (uint64_t)(uintptr_t)bench_call, entry,
			  this_cpu()->user_stack_top);
		return;
	}
	uint64_t flags;
	__asm__ volatile("pushfq\n\tpop %0\n\tcli" : "=r"(flags)::"memory");
	e->ring0[t] = true;
	((void (*)(void))(uintptr_t)entry)();
	e->ring0[t] = false;
	if (flags & RFLAGS_IF)
		__asm__ volatile("sti" ::: "memory");
}

bool bench_exec_run(struct bench_exec *e, unsigned t, uint64_t entry, const struct bench_layout *l,
		    unsigned ring, bool limit)
{
	if (e->fault.set)
		return false;
	e->layout[t] = *l;
	e->deadline[t] = limit ? rdtsc() + e->limit_tsc : ~0ull;
	__atomic_store_n(&e->active[t], true, __ATOMIC_RELEASE);
	tick_start(BENCH_TICK_MS, tick_hook, NULL);
	call(e, t, entry, ring);
	tick_stop();
	__atomic_store_n(&e->active[t], false, __ATOMIC_RELEASE);
	return !e->fault.set;
}

bool bench_exec_trace(struct bench_exec *e, uint64_t entry, const struct bench_layout *l,
		      unsigned ring)
{
	bench_trace_start(&e->tracer, e->b, l, l->trace_start);
	e->tracing = true;
	bool ok = bench_exec_run(e, 0, entry, l, ring, true);
	e->tracing = false;
	return ok;
}

/* Kept for HT1's idle watch while HT0 runs at CPL 0 without a sibling program. */
void bench_exec_watch(struct bench_exec *e, const bool *done)
{
	(void)e;
	while (!__atomic_load_n(done, __ATOMIC_ACQUIRE)) {
		watch_ring0();
		cpu_relax();
	}
}
