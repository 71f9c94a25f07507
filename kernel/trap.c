// SPDX-License-Identifier: GPL-2.0
/*
 * Dispatching interrupts and exceptions. An exception nobody expected is reported in full (text
 * for a person, an `exception` record for the tools) and ends the run with verdict fail; it never
 * becomes a triple fault or a silent hang.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/lib/format.h"
#include "kernel/percpu.h"
#include "kernel/record_stream.h"
#include "kernel/serial.h"
#include "kernel/trap.h"

void idt_set_dpl3(uint8_t vector);

static trap_handler handlers[256];

/* Exception mnemonics and descriptions, SDM vol. 3A, table 6-1. */
static const char *const exception_names[32] = {
	[0] = "#DE divide error",
	[1] = "#DB debug",
	[2] = "NMI",
	[3] = "#BP breakpoint",
	[4] = "#OF overflow",
	[5] = "#BR bound range exceeded",
	[6] = "#UD invalid opcode",
	[7] = "#NM device not available",
	[8] = "#DF double fault",
	[9] = "coprocessor segment overrun",
	[10] = "#TS invalid TSS",
	[11] = "#NP segment not present",
	[12] = "#SS stack-segment fault",
	[13] = "#GP general protection",
	[14] = "#PF page fault",
	[16] = "#MF x87 floating-point error",
	[17] = "#AC alignment check",
	[18] = "#MC machine check",
	[19] = "#XM SIMD floating-point exception",
	[20] = "#VE virtualization exception",
	[21] = "#CP control protection",
	[28] = "#HV hypervisor injection",
	[29] = "#VC VMM communication",
	[30] = "#SX security exception",
};

void trap_register(uint8_t vector, trap_handler handler, int dpl3)
{
	handlers[vector] = handler;
	if (dpl3)
		idt_set_dpl3(vector);
}

static const char *vector_name(uint64_t vector)
{
	if (vector < 32)
		return exception_names[vector] ? exception_names[vector] : "reserved exception";
	return "unexpected interrupt";
}

/* The mnemonic alone ("#PF"), as the exception record gives it. */
static void vector_mnemonic(uint64_t vector, char *buf, size_t size)
{
	const char *name = vector_name(vector);
	size_t n = 0;

	if (name[0] == '#')
		while (name[n] && name[n] != ' ' && n + 1 < size)
			n++;
	if (n == 0) {
		format_snprintf(buf, size, "vector%llu", (unsigned long long)vector);
		return;
	}
	memcpy(buf, name, n);
	buf[n] = 0;
}

/* Vectors for which the CPU pushes an error code (SDM vol. 3A, table 6-1). */
static bool has_error_code(uint64_t vector)
{
	return vector == 8 || (vector >= 10 && vector <= 14) || vector == 17 || vector == 21 ||
	       vector == 29 || vector == 30;
}

extern const char __image_start[];

/* Frame-pointer walk, bounded, stopping at anything that does not look like a kernel stack. */
static unsigned backtrace(uint64_t rbp, uint64_t *out, unsigned max)
{
	unsigned n = 0;
	uint64_t low = (uint64_t)(uintptr_t)__image_start;

	while (n < max && rbp >= low && rbp < 0xc0000000ull && (rbp & 7) == 0) {
		const uint64_t *frame = (const uint64_t *)(uintptr_t)rbp;
		uint64_t next = frame[0], ret = frame[1];
		if (!ret)
			break;
		out[n++] = ret;
		if (next <= rbp)
			break;
		rbp = next;
	}
	return n;
}

static void describe_page_fault(uint64_t error, char *buf, size_t size)
{
	/* SDM vol. 3A, figure 4-12: P, W/R, U/S, RSVD, I/D. */
	const char *what = (error & 1) ? "protection violation" : "page not present";
	const char *access = (error & 16) ? "instruction fetch" : (error & 2) ? "write" : "read";
	const char *mode = (error & 4) ? "user mode" : "kernel mode";

	format_snprintf(buf, size, "%s, %s in %s", what, access, mode);
}

static void emit_exception_record(const struct trap_frame *f, uint64_t cr2, const uint64_t *trace,
				  unsigned frames)
{
	static struct record r;

	char mnemonic[16];

	vector_mnemonic(f->vector, mnemonic, sizeof(mnemonic));
	record_begin(&r, "exception");
	record_uint(&r, "vector", f->vector);
	record_string(&r, "name", mnemonic);
	record_string(&r, "description", vector_name(f->vector));
	if (has_error_code(f->vector))
		record_uint(&r, "error_code", f->error_code);
	else
		record_null(&r, "error_code");
	record_hex(&r, "rip", f->rip);
	record_hex(&r, "cr2", cr2);
	record_uint(&r, "cpu", this_cpu()->apic_id);
	record_uint(&r, "cpu_index", this_cpu()->index);
	record_uint(&r, "cpl", f->cs & 3);
	record_begin_object(&r, "registers");
	record_hex(&r, "rax", f->rax);
	record_hex(&r, "rbx", f->rbx);
	record_hex(&r, "rcx", f->rcx);
	record_hex(&r, "rdx", f->rdx);
	record_hex(&r, "rsi", f->rsi);
	record_hex(&r, "rdi", f->rdi);
	record_hex(&r, "rbp", f->rbp);
	record_hex(&r, "rsp", f->rsp);
	record_hex(&r, "r8", f->r8);
	record_hex(&r, "r9", f->r9);
	record_hex(&r, "r10", f->r10);
	record_hex(&r, "r11", f->r11);
	record_hex(&r, "r12", f->r12);
	record_hex(&r, "r13", f->r13);
	record_hex(&r, "r14", f->r14);
	record_hex(&r, "r15", f->r15);
	record_hex(&r, "rflags", f->rflags);
	record_hex(&r, "cs", f->cs);
	record_hex(&r, "ss", f->ss);
	record_end_object(&r);
	record_begin_array(&r, "backtrace");
	for (unsigned i = 0; i < frames; i++)
		record_hex(&r, NULL, trace[i]);
	record_end_array(&r);
	record_emit(&r);
}

/* The exception for a person at the console: where, the registers, the backtrace. */
static void print_exception(const struct trap_frame *f, const struct percpu *cpu, uint64_t cr2,
			    const uint64_t *trace, unsigned frames)
{
	kprintf("\n*** EXCEPTION %s (vector %llu) on CPU %u (APIC %u) at CPL %llu\n",
		vector_name(f->vector), (unsigned long long)f->vector, cpu->index, cpu->apic_id,
		(unsigned long long)(f->cs & 3));
	if (f->vector == VECTOR_PAGE_FAULT) {
		char what[96];
		describe_page_fault(f->error_code, what, sizeof(what));
		kprintf("    address %p: %s (error code 0x%llx)\n", (void *)(uintptr_t)cr2, what,
			(unsigned long long)f->error_code);
	} else {
		kprintf("    error code 0x%llx, CR2 %p\n", (unsigned long long)f->error_code,
			(void *)(uintptr_t)cr2);
	}
	kprintf("    RIP %p  CS 0x%llx  RFLAGS 0x%llx  RSP %p  SS 0x%llx\n", (void *)f->rip,
		(unsigned long long)f->cs, (unsigned long long)f->rflags, (void *)f->rsp,
		(unsigned long long)f->ss);
	kprintf("    RAX %p  RBX %p  RCX %p  RDX %p\n", (void *)f->rax, (void *)f->rbx,
		(void *)f->rcx, (void *)f->rdx);
	kprintf("    RSI %p  RDI %p  RBP %p  R8  %p\n", (void *)f->rsi, (void *)f->rdi,
		(void *)f->rbp, (void *)f->r8);
	kprintf("    R9  %p  R10 %p  R11 %p  R12 %p\n", (void *)f->r9, (void *)f->r10,
		(void *)f->r11, (void *)f->r12);
	kprintf("    R13 %p  R14 %p  R15 %p\n", (void *)f->r13, (void *)f->r14, (void *)f->r15);
	if (frames) {
		kprintf("    backtrace:");
		for (unsigned i = 0; i < frames; i++)
			kprintf(" %p", (void *)trace[i]);
		kprintf("\n    (addr2line -e build/pmu-testkernel.elf ADDRESS names the lines)\n");
	}
}

static trap_fixup fixups[TRAP_MAX_FIXUPS];
static trap_fatal fatal;

void trap_add_fixup(trap_fixup fixup)
{
	for (unsigned i = 0; i < TRAP_MAX_FIXUPS; i++) {
		if (fixups[i] == fixup)
			return;
		if (!fixups[i]) {
			fixups[i] = fixup;
			return;
		}
	}
}

void trap_set_fatal(trap_fatal f)
{
	fatal = f;
}

/* The registered fixups (RDPMC at CPL 3 under the model, a SYSCALL left at CPL 3). */
static bool fixup_applied(struct trap_frame *frame)
{
	for (unsigned i = 0; i < TRAP_MAX_FIXUPS && fixups[i]; i++)
		if (fixups[i](frame))
			return true;
	return false;
}

/* The exception table first (kernel instructions), then the registered fixups. */
static bool fixed_up(struct trap_frame *frame)
{
	return extable_fixup(frame) || fixup_applied(frame);
}

/* The registered end of the boot, or a halt before there is one. */
static __attribute__((noreturn)) void end_boot(const char *reason)
{
	if (fatal)
		fatal(reason);
	cpu_halt_forever();
}

void trap_report_unexpected(struct trap_frame *f)
{
	struct percpu *cpu = this_cpu();
	uint64_t cr2 = read_cr2();

	if (++cpu->exception_depth > 1) {
		/* The report itself faulted: say so without the machinery that failed. */
		if (cpu->exception_depth == 2) {
			/* A last word straight to the UART. */
			static const char last_word[] = "\r\n*** nested exception while reporting "
							"an exception; giving up\r\n";
			serial_write(last_word, sizeof(last_word) - 1);
			end_boot("nested exception while reporting an exception");
		}
		cpu_halt_forever();
	}
	/*
	 * One report per run: both siblings run the same ring-3 code, so a bug there faults on both
	 * at once, and the record and reason below are static. The second CPU stops here; the first
	 * one's end of the boot stops it for good.
	 */
	static bool reporting;
	if (__atomic_exchange_n(&reporting, true, __ATOMIC_ACQ_REL))
		cpu_halt_forever();
	console_take_over();

	uint64_t trace[16];
	unsigned frames = backtrace(f->rbp, trace, 16);

	print_exception(f, cpu, cr2, trace, frames);
	emit_exception_record(f, cr2, trace, frames);
	static char reason[128];
	/* The CPU as the exception record names it: cpu_index, then cpu (its APIC id). */
	format_snprintf(reason, sizeof(reason), "%s on CPU %u (APIC %u) at RIP %p",
			vector_name(f->vector), cpu->index, cpu->apic_id, (void *)f->rip);
	end_boot(reason);
}

void trap_dispatch(struct trap_frame *frame)
{
	uint64_t v = frame->vector;

	/*
	 * The fixup table covers the instructions that may fault by design (RDMSR, WRMSR and RDPMC
	 * with #GP or #UD). Only those two vectors consult it: an NMI or #MC landing on such an
	 * instruction must not be taken for its fault.
	 */
	if ((v == VECTOR_INVALID_OPCODE || v == VECTOR_GENERAL_PROTECTION) && fixed_up(frame))
		return;
	/* A page fault at CPL 3 may be a SYSCALL that a hypervisor left at CPL 3 (kernel/syscall.c);
	 * the exception table, of kernel instructions, has nothing to say about it. */
	if (v == VECTOR_PAGE_FAULT && (frame->cs & 3) == 3 && fixup_applied(frame))
		return;
	if (handlers[v]) {
		handlers[v](frame);
		return;
	}
	/* Spurious interrupts carry no state and need no EOI (SDM vol. 3A, 11.9; 8259A IRQ 7/15). */
	if (v == VECTOR_SPURIOUS_APIC || v == VECTOR_PIC_BASE + 7 || v == VECTOR_PIC_BASE + 15)
		return;
	trap_report_unexpected(frame);
}
