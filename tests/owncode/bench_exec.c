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
#include "kernel/syscall.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/trap.h"
#include "kernel/user.h"
#include "tests/owncode/bench_exec.h"
#include "tests/ring3/bench.h"
#include "tests/ring3/user.h"

#define RFLAGS_TF (1ull << 8)
#define VECTOR_DEBUG 1
#define VECTOR_INT80 0x80 /* INT 0x80: Linux's system call gate of 32-bit code */
/* RDPMC (0F 33), SYSCALL (0F 05) and INT n (CD n) are two bytes long. */
#define INSN_LENGTH 2
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

/* The first fault into f: nothing when f has one already. */
static void note_once(struct bench_fault *f, const char *vector, unsigned part, bool where,
		      uint32_t offset)
{
	if (__atomic_exchange_n(&f->set, true, __ATOMIC_ACQ_REL))
		return;
	f->vector = vector;
	f->part = part;
	f->has_offset = where;
	f->offset = offset;
}

void bench_exec_note(struct bench_exec *e, unsigned t, const char *vector, uint64_t rip,
		     bool known_rip)
{
	unsigned part = t == 1 ? BUNDLE_PART_SIBLING : BUNDLE_PART_CODE;
	uint32_t offset = 0;
	bool where = known_rip && bench_layout_where(&e->layout[t], e->b, rip, &part, &offset);

	note_once(&e->thread[t], vector, part, where, offset);
	note_once(&e->fault, vector, part, where, offset);
}

const struct bench_fault *bench_exec_fault(const struct bench_exec *e)
{
	if (__atomic_load_n(&e->thread[0].set, __ATOMIC_ACQUIRE))
		return &e->thread[0];
	return __atomic_load_n(&e->fault.set, __ATOMIC_ACQUIRE) ? &e->fault : NULL;
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

/* The instruction at addr, in the generated programs, starts with the bytes b0 b1. */
static bool insn_at(uint64_t addr, uint8_t b0, uint8_t b1)
{
	const uint8_t *insn = (const uint8_t *)(uintptr_t)addr;

	return addr >= x->code_start && addr + INSN_LENGTH <= x->code_end && insn[0] == b0 &&
	       insn[1] == b1;
}

/*
 * What the records call the exception of frame f: its mnemonic, or "syscall" for a system call
 * the code attempted: INT 0x80 reaches its vector at CPL 0 and raises #GP at CPL 3 (its gate is
 * the kernel's; the error code's IDT index is the vector, scaled as the CPU or hypervisor does, so
 * the instruction tells), SYSCALL raises #UD at CPL 0 (SYSCALL is off there).
 */
static const char *fault_name(const struct trap_frame *f)
{
	if (f->vector == VECTOR_INT80 ||
	    (f->vector == VECTOR_GENERAL_PROTECTION && insn_at(f->rip, 0xcd, VECTOR_INT80)) ||
	    (f->vector == VECTOR_INVALID_OPCODE && insn_at(f->rip, 0x0f, 0x05)))
		return "syscall";
	return f->vector < 32 ? mnemonics[f->vector] : "?";
}

/* Where the instruction that raised f starts: INT n (CD n) is a trap, its frame's RIP follows
 * it; every other exception here is a fault at its instruction. */
static uint64_t raised_at(const struct trap_frame *f, uint8_t n)
{
	return insn_at(f->rip - INSN_LENGTH, 0xcd, n) ? f->rip - INSN_LENGTH : f->rip;
}

/* Where the breakpoint of a #BP starts: INT3 (CC) or INT 3 (CD 03) before the frame's RIP, both
 * traps. */
static uint64_t breakpoint_at(const struct trap_frame *f)
{
	const uint8_t *before = (const uint8_t *)(uintptr_t)(f->rip - 1);

	if (f->rip - 1 >= x->code_start && f->rip <= x->code_end && *before == 0xcc)
		return f->rip - 1;
	return raised_at(f, VECTOR_BREAKPOINT);
}

static void fault_handler(struct trap_frame *f)
{
	unsigned t;

	if (!this_thread(&t) || !in_program(f, t))
		trap_report_unexpected(f);
	uint64_t at = f->vector == VECTOR_INT80	       ? raised_at(f, VECTOR_INT80)
		      : f->vector == VECTOR_BREAKPOINT ? breakpoint_at(f)
						       : f->rip;
	bench_exec_note(x, t, fault_name(f), at, true);
	escape(f, t);
}

/*
 * A double fault of a CPL-0 program: code that moved RSP where nothing can be pushed (`mov rsp, 8;
 * push rax`) faults, and the CPU cannot push that fault's frame either (SDM vol. 3A, 6.15,
 * interrupt 8). #DF runs on a stack of its own (IST, kernel/idt.c), so the program ends at its
 * epilogue, on its saved stack, as at any fault. The SDM leaves a #DF's saved RIP undefined: one
 * outside the generated programs is a kernel fault, which ends the boot as before.
 */
static void double_fault_handler(struct trap_frame *f)
{
	unsigned t;

	if (!this_thread(&t) || (f->cs & 3) || !in_program(f, t))
		trap_report_unexpected(f);
	bench_exec_note(x, t, "#DF", f->rip, true);
	escape(f, t);
}

/* A #DB of the trace, or the code's own: a trap flag it set with POPF, or INT1 (which raises
 * #DB on Intel at any CPL; QEMU's TCG raises #UD). */
static void debug_handler(struct trap_frame *f)
{
	unsigned t;

	if (!this_thread(&t) || !in_program(f, t))
		trap_report_unexpected(f);
	if (!x->tracing || t != 0) {
		bench_exec_note(x, t, "#DB", f->rip, true);
		escape(f, t);
		return;
	}
	if (over_time(f, t)) {
		escape(f, t);
		return;
	}
	if (bench_trace_step(&x->tracer, f->rip, f->rflags, f->rcx)) {
		f->rflags &= ~RFLAGS_TF;
		x->tracing = false;
		return;
	}
	if (x->trace_cap && x->tracer.steps >= x->trace_cap) {
		x->trace_over = true;
		escape(f, t);
		return;
	}
	/* Code that cleared the trap flag (POPF, IRET) is traced on: the #DB after it came, as TF
	 * was set when it began (SDM vol. 3B, 17.3.1.4). */
	f->rflags |= RFLAGS_TF;
}

/* A system call from the code (kernel/syscall.h's filter): its frame's RIP follows the SYSCALL. The
 * kernel's own ring-3 code (the exit call after the program, a sibling workload's calls) lies
 * outside the generated programs and goes on to its handler. */
static bool syscall_claim(struct trap_frame *f)
{
	unsigned t;

	if (!this_thread(&t) || !in_program(f, t) || !insn_at(f->rip - INSN_LENGTH, 0x0f, 0x05))
		return false;
	bench_exec_note(x, t, "syscall", f->rip - INSN_LENGTH, true);
	escape(f, t);
	return true;
}

/* RDPMC in the generated programs under the model PMU (kernel/user_rdpmc.h does the same for
 * the workloads' own code): EDX:EAX from the model, RIP past it. */
static bool rdpmc_fixup(struct trap_frame *f)
{
	unsigned t;
	uint64_t value = 0;

	if (!this_thread(&t) || !in_program(f, t) || !x->pmu->model || !insn_at(f->rip, 0x0f, 0x33))
		return false;
	spin_lock(&x->pmu->lock);
	bool ok = model_rdpmc(&x->pmu->model_state.thread[t], (uint32_t)f->rcx, &value);
	spin_unlock(&x->pmu->lock);
	if (!ok)
		return false;
	f->rax = (uint32_t)value;
	f->rdx = value >> 32;
	f->rip += INSN_LENGTH;
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

/*
 * An NMI on a pair thread while a bundle runs: the watch's (thread 0 only), or one nobody sent,
 * which the bundle's code made (INT 2 at CPL 0, a self-IPI, a PMI it routed as an NMI): a fault
 * of the thread's program, which ends it where it runs in it. An NMI carries no state to answer.
 */
static bool nmi_claim(struct trap_frame *f)
{
	uint64_t sent = __atomic_load_n(&watch_sent, __ATOMIC_ACQUIRE);
	unsigned t;
	bool known = this_thread(&t);

	if (known && t == 0 && __atomic_load_n(&watch_taken, __ATOMIC_ACQUIRE) != sent) {
		__atomic_store_n(&watch_taken, sent, __ATOMIC_RELEASE);
		if (x && x->ring0[0] && over_time(f, 0))
			escape(f, 0);
		return true;
	}
	if (!known || !x)
		return false;
	bool in_it = in_program(f, t);
	bench_exec_note(x, t, "NMI", raised_at(f, VECTOR_NMI), in_it);
	if (in_it)
		escape(f, t);
	return true;
}

static const uint8_t caught[] = {
	0, 1, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 16, 17, 19, VECTOR_INT80
};

static void handlers(trap_handler fault, trap_handler debug, trap_handler double_fault)
{
	for (unsigned i = 0; i < sizeof(caught); i++)
		trap_register(caught[i], caught[i] == VECTOR_DEBUG ? debug : fault, 0);
	trap_register(VECTOR_DOUBLE_FAULT, double_fault, 0);
}

void bench_exec_begin(struct bench_exec *e)
{
	x = e;
	e->limit_tsc = e->limit_tsc ? e->limit_tsc : tsc_from_us(2000000);
	handlers(fault_handler, debug_handler, double_fault_handler);
	trap_add_fixup(rdpmc_fixup);
	syscall_set_filter(syscall_claim);
	smp_nmi_claim(nmi_claim);
}

/* How long thread 0 waits at the end for a watch NMI still on its way (microseconds). */
#define WATCH_LATE_US 10000

void bench_exec_end(void)
{
	uint64_t until = rdtsc() + tsc_from_us(WATCH_LATE_US);

	handlers(NULL, NULL, NULL);
	syscall_set_filter(NULL);
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
	struct percpu *cpu = this_cpu();
	__asm__ volatile("pushfq\n\tpop %0\n\tcli" : "=r"(flags)::"memory");
	/* SYSCALL at CPL 0 would enter as if from CPL 3 (kernel/syscall.c): off, it raises #UD. */
	syscall_allow(false);
	e->ring0[t] = true;
	((void (*)(void))(uintptr_t)entry)();
	e->ring0[t] = false;
	/* Code at CPL 0 may have loaded GS, whose base was the kernel's, or set CR0.TS (its #NM):
	 * both are the kernel's again. */
	percpu_install(cpu);
	__asm__ volatile("clts" ::: "memory");
	syscall_allow(true);
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
	uint64_t limit = e->limit_tsc;

	bench_trace_start(&e->tracer, e->b, l, l->trace_start);
	e->tracing = true;
	/* A #DB an instruction costs some 4-45 us under TCG: a trace may take BENCH_TRACE_TIME
	 * times the limit (its steps are capped: trace_cap). */
	e->limit_tsc = limit * BENCH_TRACE_TIME;
	bool ok = bench_exec_run(e, 0, entry, l, ring, true);
	e->limit_tsc = limit;
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
