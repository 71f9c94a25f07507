// SPDX-License-Identifier: GPL-2.0
/*
 * Application processors: start-up through the trampoline (boot/trampoline.asm), the per-CPU
 * set-up they do on arrival, the idle loop in which they wait for work, and the stop at the end.
 */
#include <string.h>

#include "kernel/apic_hw.h"
#include "kernel/cpu.h"
#include "kernel/fpu.h"
#include "kernel/page_alloc.h"
#include "kernel/paging.h"
#include "kernel/smp.h"
#include "kernel/syscall.h"
#include "kernel/time.h"
#include "kernel/trap.h"
#include "kernel/user.h"
#include "kernel/vectors.h"

extern const char trampoline_start[], trampoline_end[];
extern const char trampoline_cr3[], trampoline_stack[], trampoline_entry[], trampoline_argument[];

static uint8_t *trampoline;
static bool modern_start; /* skip the 10 ms INIT delay (Linux smp_quirk_init_udelay) */
static volatile uint32_t stopping;
static volatile uint32_t stopped;

static void set_parameter(const char *field, uint64_t value)
{
	memcpy(trampoline + (field - trampoline_start), &value, sizeof(value));
}

static void wake_interrupt(struct trap_frame *frame)
{
	(void)frame;
	apic_eoi(&local_apic);
}

static bool (*nmi_claim)(struct trap_frame *frame);

void smp_nmi_claim(bool (*claim)(struct trap_frame *frame))
{
	nmi_claim = claim;
}

/* NMIs come from smp_stop_others() and from a claimer (the time limit of code run at CPL 0 with
 * interrupts off, tests/owncode/bench_exec.h); anything else is reported as unexpected. */
static void nmi_interrupt(struct trap_frame *frame)
{
	if (!stopping && nmi_claim && nmi_claim(frame))
		return;
	if (stopping) {
		__atomic_add_fetch(&stopped, 1, __ATOMIC_RELEASE);
		this_cpu()->online = 0;
		cpu_halt_forever();
	}
	trap_report_unexpected(frame);
}

void smp_init(uint64_t trampoline_page, bool intel_family6_or_newer_amd)
{
	trampoline = (uint8_t *)(uintptr_t)trampoline_page;
	modern_start = intel_family6_or_newer_amd;
	memcpy(trampoline, trampoline_start, (size_t)(trampoline_end - trampoline_start));
	set_parameter(trampoline_cr3, paging_root());
	trap_register(VECTOR_WAKE, wake_interrupt, 0);
	trap_register(VECTOR_NMI, nmi_interrupt, 0);
}

static __attribute__((noreturn)) void ap_idle(struct percpu *cpu)
{
	uint64_t done = 0;

	for (;;) {
		irq_disable();
		uint64_t posted = __atomic_load_n(&cpu->work.posted, __ATOMIC_ACQUIRE);
		if (posted == done) {
			/* STI's one-instruction shadow covers HLT: a wake IPI arriving after the
			 * check still ends the HLT (SDM vol. 2B, STI). */
			__asm__ volatile("sti; hlt" ::: "memory");
			continue;
		}
		void (*fn)(void *) = cpu->work.fn;
		void *arg = cpu->work.arg;
		irq_enable();
		fn(arg);
		done = posted;
		__atomic_store_n(&cpu->work.finished, done, __ATOMIC_RELEASE);
	}
}

/* The AP's first C code, on its own stack, in long mode on the kernel's page tables. */
static __attribute__((noreturn)) void ap_entry(struct percpu *cpu)
{
	percpu_install(cpu);
	gdt_load(&cpu->tables, cpu->stack_top, cpu->ist_tops);
	idt_load();
	/* The boot CPU wrote the same MSRs first and ended the boot had it been refused; an AP that
	 * refuses anyway stays offline and is reported as not started. */
	if (syscall_cpu_init())
		cpu_halt_forever();
	user_cpu_init();
	apic_setup_this_cpu();
	/* The same plan as the boot CPU's: siblings report the same CPUID feature bits. */
	struct fpu_plan fpu = fpu_plan_this_cpu();
	fpu_enable(&fpu);
	cpu->apic_id = apic_id(&local_apic);
	cpu->initial_apic_id = cpuid(1, 0).ebx >> 24;
	cpu->x2apic_id = cpuid(0, 0).eax >= 0xb ? cpuid(0xb, 0).edx : cpu->initial_apic_id;
	__atomic_store_n(&cpu->online, 1, __ATOMIC_RELEASE);
	ap_idle(cpu);
}

static bool allocate_stacks(struct percpu *cpu)
{
	cpu->stack_top = stack_alloc(KERNEL_STACK_SIZE);
	if (!cpu->stack_top)
		return false;
	for (unsigned i = 0; i < 3; i++) {
		cpu->ist_tops[i] = stack_alloc(IST_STACK_SIZE);
		if (!cpu->ist_tops[i])
			return false;
	}
	return true;
}

static bool wait_online(struct percpu *cpu, uint64_t start, uint64_t timeout)
{
	while (rdtsc() - start < timeout) {
		if (__atomic_load_n(&cpu->online, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
	}
	return __atomic_load_n(&cpu->online, __ATOMIC_ACQUIRE);
}

bool smp_start_cpu(struct percpu *cpu, uint64_t timeout_us, uint64_t *elapsed_tsc)
{
	if (!trampoline || !allocate_stacks(cpu))
		return false;
	cpu->online = 0;
	set_parameter(trampoline_stack, cpu->stack_top);
	set_parameter(trampoline_entry, (uint64_t)(uintptr_t)ap_entry);
	set_parameter(trampoline_argument, (uint64_t)(uintptr_t)cpu);
	compiler_barrier();

	/*
	 * INIT, then two STARTUPs (SDM vol. 3A, 9.4.4.1). Older CPUs need 10 ms after INIT and 200 us
	 * after each STARTUP; Intel family 6 and AMD family 0xF and later do not, and Linux waits
	 * only 10 us there.
	 */
	uint64_t start = rdtsc(), timeout = tsc_from_us(timeout_us);
	apic_send_init(&local_apic, cpu->apic_id);
	udelay(modern_start ? 10 : 10000);
	for (unsigned i = 0; i < 2 && !cpu->online; i++) {
		apic_send_startup(&local_apic, cpu->apic_id, (uint64_t)(uintptr_t)trampoline);
		wait_online(cpu, rdtsc(), tsc_from_us(modern_start ? 10 : 200));
	}
	bool online = wait_online(cpu, start, timeout);
	*elapsed_tsc = rdtsc() - start;
	return online;
}

bool smp_post(struct percpu *cpu, void (*fn)(void *), void *arg)
{
	if (!cpu->online || cpu == this_cpu())
		return false;
	if (__atomic_load_n(&cpu->work.finished, __ATOMIC_ACQUIRE) != cpu->work.posted)
		return false; /* still busy with the last one */
	cpu->work.fn = fn;
	cpu->work.arg = arg;
	/* In x2APIC mode the ICR write is a WRMSR that could pass this store: apic_send_ipi()
	 * fences it first, or the woken CPU could read the old count and halt again. */
	__atomic_store_n(&cpu->work.posted, cpu->work.posted + 1, __ATOMIC_RELEASE);
	apic_send_ipi(&local_apic, cpu->apic_id, APIC_ICR_DELIVERY_FIXED | VECTOR_WAKE);
	return true;
}

bool smp_wait_idle(struct percpu *cpu, uint64_t deadline_tsc)
{
	while (__atomic_load_n(&cpu->work.finished, __ATOMIC_ACQUIRE) != cpu->work.posted) {
		if (rdtsc() > deadline_tsc)
			return false;
		cpu_relax();
	}
	return true;
}

void smp_park(void *unused)
{
	(void)unused;
	this_cpu()->online = 0;
	cpu_halt_forever();
}

void smp_stop_others(void)
{
	struct percpu *self = this_cpu();
	uint32_t expected = 0;

	__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < percpu_count; i++) {
		struct percpu *cpu = &percpu[i];
		if (cpu == self || !cpu->online)
			continue;
		apic_send_nmi(&local_apic, cpu->apic_id);
		expected++;
	}
	/* A CPU that does not take the NMI within 100 ms is left alone: the end record must go out. */
	uint64_t start = rdtsc(), limit = tsc_hz() / 10;
	while (__atomic_load_n(&stopped, __ATOMIC_ACQUIRE) < expected && rdtsc() - start < limit)
		cpu_relax();
}
