// SPDX-License-Identifier: GPL-2.0
/*
 * From the firmware hand-off to the end record (docs/ARCHITECTURE.md, "The data flow").
 */
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/apic_hw.h"
#include "kernel/boot_info.h"
#include "kernel/boot_modules.h"
#include "kernel/cmdline.h"
#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/lib/format.h"
#include "kernel/fpu.h"
#include "kernel/memmap.h"
#include "kernel/multiboot.h"
#include "kernel/page_alloc.h"
#include "kernel/paging.h"
#include "kernel/pair.h"
#include "kernel/payload.h"
#include "kernel/percpu.h"
#include "kernel/pmu.h"
#include "kernel/end_screen.h"
#include "kernel/record_stream.h"
#include "kernel/end.h"
#include "kernel/smp.h"
#include "kernel/syscall.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/topology.h"
#include "kernel/trap.h"
#include "kernel/user.h"

#ifndef PMU_VERSION
#define PMU_VERSION "unknown"
#endif

#define MAX_WARNINGS 32
#define CPUID_1_EDX_APIC (1u << 9)
#define COM1_PORT 0x3f8
/* An AP that is not up after a second is reported and skipped. Real CPUs answer in microseconds;
 * a virtual CPU its busy host holds back took more than 100 ms under TCG. */
#define AP_START_TIMEOUT_US 1000000
#define USER_STACK_SIZE (64 * 1024)

static struct boot_info boot_info;
static struct config config;
/* The kernel's keys and the payload's, parsed together (kernel/cmdline.h). */
static struct cmdline_table kernel_keys;
static const struct cmdline_table *keys[2];
static struct acpi_info acpi;
static struct acpi_result acpi_result;
static struct topology topology;
static struct fpu_plan fpu;
static uint64_t trampoline_page;
static int chosen_core = -1;
static const char *apic_warning;
static const char *topology_warning;
/* core= as given, when it names no core: the warn names it and the cores there are. */
static char core_asked[12], core_warning[120];
static const char *screen_problem;
static char serial_asked[8];	  /* the serial= port where no UART answered, "" when it did */
static const char *bring_up_step; /* the step under way; NULL once bring-up is over */

/* What happened to each AP we tried to start, for the `cpu` records after the boot record. */
static struct {
	uint32_t apic_id;
	bool started;
	uint64_t elapsed_tsc;
	struct percpu *cpu;
} ap_results[MAX_CPUS];
static unsigned ap_result_count;

extern char boot_stack_guard[], boot_stack_top[];
extern char __image_start[], __image_end[];
static uint8_t boot_ist_stacks[3][IST_STACK_SIZE] __attribute__((aligned(16)));

/* Physical memory below 4 GiB is identity mapped: a physical address is a pointer. */
static const void *identity_map(uint64_t addr, size_t len, void *ctx)
{
	(void)ctx;
	if (addr >= IDENTITY_MAP_END || len > IDENTITY_MAP_END - addr)
		return NULL;
	return (const void *)(uintptr_t)addr;
}

/* Exceptions must be reportable before anything else can go wrong. */
static void early_cpu_setup(void)
{
	struct percpu *cpu = &percpu[0];

	for (unsigned i = 0; i < 3; i++)
		cpu->ist_tops[i] = (uint64_t)(uintptr_t)(boot_ist_stacks[i] + IST_STACK_SIZE);
	cpu->index = 0;
	cpu->apic_id = cpuid(1, 0).ebx >> 24;
	cpu->stack_top = (uint64_t)(uintptr_t)boot_stack_top;
	percpu_install(cpu);
	gdt_load(&cpu->tables, cpu->stack_top, cpu->ist_tops);
	idt_init();
	trap_set_fatal(boot_abort);
	idt_load();
	pic_disable();
}

/* The serial port, and the screen: VGA text or the loader's framebuffer (kernel/console.c). */
static void console_setup(void)
{
	console_init_serial(config.serial_port, config.baud);
	/* A serial= port where no UART answers would leave the run without a word: COM1, if it
	 * answers, carries it instead, and says so. */
	if (!console_has_serial() && config.serial_port && config.serial_port != COM1_PORT) {
		console_init_serial(COM1_PORT, config.baud);
		if (console_has_serial()) {
			format_snprintf(serial_asked, sizeof(serial_asked), "0x%x",
					config.serial_port);
			config.serial_port = COM1_PORT;
		}
	}
	screen_problem =
		console_init_screen(&boot_info.framebuffer,
				    boot_info.efi_system_table || boot_info.path == BOOT_PATH_UEFI);
	console_status("pmu-testkernel: starting (the serial console has the same text and the "
		       "records)");
}

/* Free memory: the trampoline page below 1 MiB, everything else from 1 MiB to 4 GiB. */
static void memory_setup(void)
{
	static struct mem_range reserved[3 + BOOT_MODULES_MAX] = {
		{ 0, 0x1000 }, /* the real-mode IVT and BIOS data area */
	};
	static struct memmap_free low, high;
	unsigned n = 3;

	reserved[1] = (struct mem_range){ (uint64_t)(uintptr_t)__image_start,
					  (uint64_t)(uintptr_t)__image_end };
	reserved[2] = (struct mem_range){ boot_info.loader_info_start, boot_info.loader_info_end };
	/* The boot modules (bundles of your own code) stay where the loader put them until they
	 * have run: nothing allocated may overwrite them. */
	for (unsigned i = 0; i < boot_info.module_count; i++)
		reserved[n++] =
			(struct mem_range){ boot_info.modules[i].base,
					    boot_info.modules[i].base + boot_info.modules[i].size };
	memmap_free_ranges(&boot_info, reserved, n, 0, 0x100000, &low);
	memmap_free_ranges(&boot_info, reserved, n, 0x100000, IDENTITY_MAP_END, &high);
	page_alloc_init(&high);
	trampoline_page = memmap_trampoline_page(&low);
}

static void acpi_setup(void)
{
	if (!boot_info.acpi_rsdp) {
		uint64_t rsdp = acpi_rsdp_scan(identity_map, NULL);
		if (rsdp) {
			boot_info.acpi_rsdp = rsdp;
			boot_info.acpi_rsdp_source = BOOT_ACPI_BIOS_SCAN;
		}
	}
	if (boot_info.acpi_rsdp) {
		acpi_parse(boot_info.acpi_rsdp, identity_map, NULL, &acpi, &acpi_result);
		machine_use_acpi_reset(&acpi);
	}
}

static void name_missing_core(unsigned core)
{
	format_snprintf(core_asked, sizeof(core_asked), "%u", core);
	if (topology.core_count == 1)
		format_snprintf(
			core_warning, sizeof(core_warning),
			"core=%u names no core of this machine (it has one, core 0); using the "
			"boot CPU's core",
			core);
	else
		format_snprintf(core_warning, sizeof(core_warning),
				"core=%u names no core of this machine (it has %u, cores 0 to %u); "
				"using the boot CPU's core",
				core, topology.core_count, topology.core_count - 1);
	topology_warning = core_warning;
}

/* The enabled CPUs of the MADT (the boot CPU always among them), then their topology. */
static void topology_setup(void)
{
	static uint32_t ids[TOPOLOGY_MAX_CPUS];
	unsigned n = 0;
	uint32_t boot_id = percpu[0].apic_id;
	struct topology_shifts shifts;

	if (acpi.madt_found) {
		for (unsigned i = 0; i < acpi.cpu_count && n < TOPOLOGY_MAX_CPUS; i++)
			if (acpi.cpus[i].enabled)
				ids[n++] = acpi.cpus[i].apic_id;
	} else {
		topology_warning = "no usable ACPI MADT: running on the boot CPU alone";
	}
	bool has_boot = false;
	for (unsigned i = 0; i < n; i++)
		has_boot = has_boot || ids[i] == boot_id;
	if (!has_boot) {
		if (acpi.madt_found)
			topology_warning = "the MADT does not list the boot CPU; adding it";
		if (n < TOPOLOGY_MAX_CPUS)
			ids[n++] = boot_id;
	}

	struct cpuid_regs leaf0 = cpuid(0, 0);
	bool have_0b = false;
	if (leaf0.eax >= 0xb) {
		struct cpuid_regs s0 = cpuid(0xb, 0), s1 = cpuid(0xb, 1);
		have_0b = topology_shifts_from_leaf_0b(s0.eax, s0.ebx, s0.ecx, s1.eax, s1.ebx,
						       s1.ecx, &shifts);
	}
	if (!have_0b) {
		struct cpuid_regs l1 = cpuid(1, 0);
		bool have_4 = leaf0.eax >= 4;
		topology_shifts_from_leaves_1_4(l1.ebx, l1.edx, have_4,
						have_4 ? cpuid(4, 0).eax : 0, &shifts);
	}
	topology_build(ids, n, &shifts, &topology);

	unsigned boot_core;
	chosen_core = topology_core_of(&topology, boot_id, &boot_core) ? (int)boot_core : -1;
	if (config.core != CONFIG_CORE_BOOT) {
		if ((unsigned)config.core < topology.core_count)
			chosen_core = config.core;
		else
			name_missing_core((unsigned)config.core);
	}
}

static struct percpu *new_cpu(uint32_t apic_id)
{
	if (percpu_count >= MAX_CPUS)
		return NULL;
	struct percpu *cpu = &percpu[percpu_count];
	cpu->index = percpu_count++;
	cpu->apic_id = apic_id;
	return cpu;
}

static struct percpu *cpu_by_apic(uint32_t apic_id)
{
	for (unsigned i = 0; i < percpu_count; i++)
		if (percpu[i].apic_id == apic_id)
			return &percpu[i];
	return NULL;
}

static void start_ap(uint32_t apic_id)
{
	struct percpu *cpu = new_cpu(apic_id);

	if (!cpu || ap_result_count >= MAX_CPUS)
		return;
	uint64_t elapsed = 0;
	bool started = trampoline_page && smp_start_cpu(cpu, AP_START_TIMEOUT_US, &elapsed);
	ap_results[ap_result_count++] = (typeof(ap_results[0])){ apic_id, started, elapsed, cpu };
}

/* Start the chosen core's other threads (smp=pair) or every CPU (smp=all); park the unused. */
static void smp_setup(void)
{
	const struct topology_core *core = &topology.cores[chosen_core];
	uint32_t boot_id = percpu[0].apic_id;

	const struct pmu_info *id = &the_pmu.info;
	smp_init(trampoline_page,
		 (id->family == 6 && id->intel) ||
			 (id->family >= 0xf && !strcmp(id->vendor, "AuthenticAMD")));
	percpu[0].online = 1;
	for (unsigned i = 0; i < topology.cpu_count; i++) {
		uint32_t id = topology.cpus[i].apic_id;
		bool in_core = topology.cpus[i].core_index == chosen_core;
		if (id != boot_id && (in_core || config.smp == SMP_MODE_ALL))
			start_ap(id);
	}
	if (config.selftest == SELFTEST_MISSING_AP) {
		/* An id no CPU has: the start must time out and the run go on. */
		uint32_t unused = 0;
		unsigned core;
		while (cpu_by_apic(unused) || topology_core_of(&topology, unused, &core))
			unused++;
		start_ap(unused);
	}

	the_pair.thread_count = 0;
	for (unsigned t = 0; t < core->thread_count && the_pair.thread_count < 2; t++) {
		struct percpu *cpu = cpu_by_apic(core->threads[t]);
		if (cpu && cpu->online)
			the_pair.cpu[the_pair.thread_count++] = cpu;
	}
	for (unsigned t = 0; t < the_pair.thread_count; t++) {
		struct percpu *cpu = the_pair.cpu[t];
		cpu->user_stack_top = user_stack_alloc(USER_STACK_SIZE);
	}
}

/* Every started CPU that is not one of the chosen core's threads halts (interrupts off). */
static void park_unused_cpus(void)
{
	for (unsigned i = 1; i < percpu_count; i++) {
		struct percpu *cpu = &percpu[i];
		unsigned thread;
		if (cpu->online && !pair_thread_of(cpu, &thread))
			smp_post(cpu, smp_park, NULL);
	}
}

/* The command line's values in force (docs/records.md, `boot.config`), the kernel's and the
 * payload's. */
static void emit_config(struct record *r)
{
	record_begin_object(r, "config");
	cmdline_record(r, keys, keys[0] ? 2 : 0);
	record_end_object(r);
}

/* boot.cpu and boot.microcode: the boot CPU as CPUID names it. */
static void record_cpu(struct record *r)
{
	const struct pmu_info *id = &the_pmu.info;

	record_begin_object(r, "cpu");
	record_string(r, "vendor", id->vendor);
	record_uint(r, "family", id->family);
	record_uint(r, "model", id->model);
	record_uint(r, "stepping", id->stepping);
	record_string(r, "brand", id->brand);
	record_string(r, "hypervisor", id->hypervisor ? id->hv_signature : NULL);
	record_bool(r, "avx", fpu.avx);
	record_end_object(r);
	if (the_pmu.microcode_valid)
		record_hex(r, "microcode", the_pmu.microcode);
	else
		record_null(r, "microcode");
}

/* boot's topology: every core's threads, the chosen core and the pair's threads. */
static void record_topology(struct record *r)
{
	static const char *const sources[] = {
		[TOPOLOGY_LEAF_0B] = "cpuid-0x0b",
		[TOPOLOGY_LEAVES_1_4] = "cpuid-0x01-0x04",
	};
	unsigned source = topology.shifts.source;

	record_uint(r, "cpus", topology.cpu_count);
	record_uint(r, "packages", topology.package_count);
	record_uint(r, "cores", topology.core_count);
	record_uint(r, "threads_per_core", topology.threads_per_core);
	record_string(r, "topology_source",
		      source < sizeof(sources) / sizeof(sources[0]) && sources[source]
			      ? sources[source]
			      : "none");
	if (chosen_core >= 0)
		record_uint(r, "core", (uint64_t)chosen_core);
	else
		record_null(r, "core");
	record_begin_array(r, "threads");
	for (unsigned t = 0; t < the_pair.thread_count; t++)
		record_uint(r, NULL, the_pair.cpu[t]->apic_id);
	record_end_array(r);
	record_bool(r, "smt", the_pair.thread_count == 2);
	record_begin_array(r, "core_threads");
	for (unsigned c = 0; c < topology.core_count; c++) {
		record_begin_array(r, NULL);
		for (unsigned t = 0; t < topology.cores[c].thread_count; t++)
			record_uint(r, NULL, topology.cores[c].threads[t]);
		record_end_array(r);
	}
	record_end_array(r);
}

/* boot.console: where the text and the records go. */
static void record_console(struct record *r)
{
	record_begin_object(r, "console");
	if (console_has_serial())
		record_hex(r, "serial", config.serial_port);
	else
		record_null(r, "serial");
	record_uint(r, "baud", config.baud);
	record_bool(r, "vga", console_has_vga());
	record_string(r, "screen", console_screen());
	record_end_object(r);
}

static void emit_boot_record(void)
{
	static struct record r;
	const struct time_calibration *time = time_info();

	record_begin(&r, "boot");
	record_string(&r, "version", PMU_VERSION);
	record_string(&r, "boot", boot_path_name(boot_info.path));
	record_string(&r, "loader", boot_info.loader_name[0] ? boot_info.loader_name : NULL);
	record_string(&r, "cmdline", boot_info.cmdline);
	record_uint(&r, "mem_mib", boot_usable_mib(&boot_info));
	record_uint(&r, "memory_regions", boot_info.memory_region_count);
	if (boot_info.acpi_rsdp)
		record_hex(&r, "acpi_rsdp", boot_info.acpi_rsdp);
	else
		record_null(&r, "acpi_rsdp");
	record_string(&r, "acpi_source", boot_acpi_source_name(boot_info.acpi_rsdp_source));
	record_bool(&r, "uefi",
		    boot_info.efi_system_table != 0 || boot_info.path == BOOT_PATH_UEFI);
	record_cpu(&r);
	record_topology(&r);
	record_string(&r, "smp", config_smp_name(config.smp));
	record_uint(&r, "tsc_hz", time->tsc_hz);
	record_string(&r, "tsc_ref", time->reference);
	record_uint(&r, "apic_timer_hz", time->apic_timer_hz);
	record_string(&r, "apic_mode", apic_mode_name());
	record_console(&r);
	emit_config(&r);
	if (bring_up_step)
		record_string(&r, "step", bring_up_step);
	record_emit(&r);
}

static void print_banner(void)
{
	const struct time_calibration *time = time_info();

	kprintf("\npmu-testkernel %s: booted via %s%s%s\n", PMU_VERSION,
		boot_path_name(boot_info.path), boot_info.loader_name[0] ? " from " : "",
		boot_info.loader_name);
	kprintf("  command line: %s\n", boot_info.cmdline[0] ? boot_info.cmdline : "(empty)");
	const struct pmu_info *id = &the_pmu.info;
	kprintf("  CPU: %s, family %u model 0x%x stepping %u (%s)%s%s\n", id->vendor, id->family,
		id->model, id->stepping, id->brand[0] ? id->brand : "no brand string",
		id->hypervisor ? ", under hypervisor " : "",
		id->hypervisor ? id->hv_signature : "");
	kprintf("  memory: %llu MiB usable in %u regions; ACPI RSDP %s%p (%s)\n",
		(unsigned long long)boot_usable_mib(&boot_info), boot_info.memory_region_count,
		boot_info.acpi_rsdp ? "at " : "not found ", (void *)(uintptr_t)boot_info.acpi_rsdp,
		boot_acpi_source_name(boot_info.acpi_rsdp_source));
	kprintf("  TSC %llu kHz (against %s); %s; %u CPUs in %u packages, %u cores, %u thread(s) "
		"per core\n",
		(unsigned long long)(time->tsc_hz / 1000), time->reference, apic_mode_name(),
		topology.cpu_count, topology.package_count, topology.core_count,
		topology.threads_per_core);
	if (the_pair.thread_count == 2)
		kprintf("  using core %d: hyperthreads APIC %u and %u\n", chosen_core,
			the_pair.cpu[0]->apic_id, the_pair.cpu[1]->apic_id);
	else
		kprintf("  using core %d: APIC %u alone: NO SMT SIBLING, so the cross-hyperthread "
			"erratum cannot show on this core\n",
			chosen_core, the_pair.thread_count ? the_pair.cpu[0]->apic_id : 0);
}

static void emit_cpu_records(void)
{
	for (unsigned i = 0; i < ap_result_count; i++) {
		struct record r;
		struct percpu *cpu = ap_results[i].cpu;
		unsigned core;
		bool in_core = topology_core_of(&topology, ap_results[i].apic_id, &core);

		record_begin(&r, "cpu");
		record_uint(&r, "apic", ap_results[i].apic_id);
		record_uint(&r, "index", cpu->index);
		record_bool(&r, "started", ap_results[i].started);
		record_uint(&r, "start_us", tsc_to_ns(ap_results[i].elapsed_tsc) / 1000);
		if (in_core)
			record_uint(&r, "core", core);
		else
			record_null(&r, "core");
		if (ap_results[i].started) {
			record_uint(&r, "initial_apic_id", cpu->initial_apic_id);
			record_uint(&r, "x2apic_id", cpu->x2apic_id);
		} else {
			kprintf("warning: CPU %u (APIC %u) did not answer within %u ms; "
				"going on without it\n",
				cpu->index, ap_results[i].apic_id, AP_START_TIMEOUT_US / 1000);
		}
		record_emit(&r);
	}
}

/* What the command line lost on its way in, and bytes the records show escaped. */
static void emit_cmdline_warnings(void)
{
	char value[CMDLINE_VALUE_MAX], used[CMDLINE_VALUE_MAX], message[192];
	size_t kept = strlen(boot_info.cmdline);

	if (boot_info.cmdline_dropped_words) {
		format_snprintf(value, sizeof(value), "%llu bytes",
				(unsigned long long)(kept + boot_info.cmdline_dropped_bytes));
		format_snprintf(used, sizeof(used), "%llu bytes", (unsigned long long)kept);
		format_snprintf(message, sizeof(message),
				"the command line has %s, more than the %u the kernel keeps: its "
				"last %u word(s) (%u bytes) were dropped",
				value, BOOT_CMDLINE_MAX - 1, boot_info.cmdline_dropped_words,
				boot_info.cmdline_dropped_bytes);
		record_warn("boot", "cmdline", value, "at most 1023 bytes, cut after a whole word",
			    used, message);
	}
	const char *word = NULL;
	size_t word_len = 0;
	unsigned non_ascii = cmdline_non_ascii(boot_info.cmdline, &word, &word_len);
	if (non_ascii) {
		if (word_len >= sizeof(value))
			word_len = sizeof(value) - 1;
		memcpy(value, word, word_len);
		value[word_len] = 0;
		format_snprintf(
			message, sizeof(message),
			"the command line has %u byte(s) outside printable ASCII (the first "
			"in the word given as value): records show each as \\u00XX",
			non_ascii);
		record_warn("cmdline", "cmdline", value, "printable ASCII (0x20-0x7e)", NULL,
			    message);
	}
}

/* Boot modules (bundles of your own code) the loader did not pass on: each named, then a count. */
static void emit_module_warnings(void)
{
	char value[24], message[256];
	unsigned named = boot_info.module_problem_count;

	if (named > BOOT_MODULE_PROBLEMS_MAX)
		named = BOOT_MODULE_PROBLEMS_MAX;
	for (unsigned i = 0; i < named; i++) {
		struct boot_module_problem *p = &boot_info.module_problems[i];
		p->name[BOOT_MODULE_NAME_MAX - 1] = 0;
		const char *accepted = boot_module_problem_text(p, message, sizeof(message));
		record_warn("boot", "module", p->name, accepted, NULL, message);
	}
	if (boot_info.modules_dropped > named) {
		unsigned more = boot_info.modules_dropped - named;
		format_snprintf(value, sizeof(value), "%u modules", more);
		format_snprintf(
			message, sizeof(message),
			"%u %smodule(s) the loader found were not passed on (beyond the %u the "
			"kernel keeps, or unreadable)",
			more, named ? "more " : "", BOOT_MODULES_MAX);
		record_warn("boot", "module", value, BOOT_MODULES_ACCEPTED, NULL, message);
	}
}

static void emit_warnings(const char *handoff_error, const char *handoff_warning,
			  const struct cmdline_warning *warnings, unsigned warning_count)
{
	if (handoff_error)
		record_warn("boot", "boot", boot_path_name(boot_info.path),
			    "multiboot1|multiboot2|uefi", NULL, handoff_error);
	if (handoff_warning)
		record_warn("boot", "boot", boot_path_name(boot_info.path),
			    "multiboot1|multiboot2|uefi", NULL, handoff_warning);
	emit_cmdline_warnings();
	emit_module_warnings();
	for (unsigned i = 0; i < warning_count && i < MAX_WARNINGS; i++) {
		const struct cmdline_warning *w = &warnings[i];
		record_warn("cmdline", w->key, w->value, w->accepted, w->used[0] ? w->used : NULL,
			    w->message);
	}
	if (warning_count > MAX_WARNINGS)
		record_warn("cmdline", "cmdline", "", "", NULL,
			    "more command-line problems than reported here");
	for (unsigned i = 0; i < acpi_result.problem_count && i < ACPI_MAX_PROBLEMS; i++)
		record_warn("acpi", acpi_result.problems[i].table, "", "", NULL,
			    acpi_result.problems[i].message);
	if (!boot_info.acpi_rsdp)
		record_warn("acpi", "RSDP", "", "", NULL,
			    "no ACPI RSDP found: running on the boot CPU alone");
	if (screen_problem)
		record_warn("console", "screen", "", "", NULL, screen_problem);
	if (serial_asked[0])
		record_warn("console", "serial", serial_asked, "com1|com2|com3|com4|0xPORT|none",
			    "com1",
			    "no UART answers at the serial= port: the console is on COM1 (0x3f8) "
			    "instead");
	if (topology_warning)
		record_warn("smp", "core", core_asked, core_asked[0] ? "boot|0-255" : "", NULL,
			    topology_warning);
	if (apic_warning)
		record_warn("smp", "apic", config_apic_name(config.apic), "auto|xapic|x2apic",
			    apic_mode_name(), apic_warning);
	if (fpu.skipped)
		record_warn("fpu", "avx", "", "", "sse", fpu.skipped);
	if (time_info()->problem)
		record_warn("time", "tsc", "", "acpi_pm|pit", time_info()->reference,
			    time_info()->problem);
	if (!trampoline_page)
		record_warn("smp", "trampoline", "", "", NULL,
			    "no free page below 1 MiB for the AP start-up code: no AP starts");
}

/*
 * Bring-up names each step on the console before it runs, on one line ("bring-up: paging, CPU
 * identity, ..."), so a machine that stops inside a step shows which; an exception in a step has
 * the boot record (emitted first, record_set_boot_hook) name it as "step". Every step is bounded
 * and says what it found in the records after the boot record.
 */
static void step(const char *name)
{
	kprintf("%s%s", bring_up_step ? ", " : "bring-up: ", name);
	bring_up_step = name;
}

/* Bring-up is over; fatal says why the run cannot go on (it then ends here), or is NULL. */
static void end_bring_up(const char *fatal)
{
	if (!fatal) {
		kprintf(", done\n");
		bring_up_step = NULL;
		return;
	}
	kprintf(": %s\n", fatal);
	emit_boot_record();
	boot_abort(fatal);
}

/* The kernel's keys and the payload's, into config and the payload's settings. */
static unsigned parse_command_line(struct cmdline_warning *warnings, unsigned max)
{
	config_table(&config, &kernel_keys);
	keys[0] = &kernel_keys;
	keys[1] = payload_keys();
	cmdline_defaults(keys, 2);
	const char *arguments = boot_cmdline_has_image_path(&boot_info)
					? cmdline_skip_image_path(boot_info.cmdline)
					: boot_info.cmdline;
	return cmdline_parse(arguments, keys, 2, warnings, max);
}

/* The boot CPU's local APIC, in the mode its highest id needs (xAPIC or x2APIC). */
static void local_apic_setup(void)
{
	if (!(cpuid(1, 0).edx & CPUID_1_EDX_APIC))
		end_bring_up(
			"this CPU has no local APIC (CPUID.1:EDX bit 9 is 0): no timer tick, no "
			"second thread");
	uint32_t highest = percpu[0].apic_id;
	for (unsigned i = 0; i < acpi.cpu_count; i++)
		if (acpi.cpus[i].enabled && acpi.cpus[i].apic_id > highest)
			highest = acpi.cpus[i].apic_id;
	apic_warning = apic_setup_boot_cpu((enum apic_request)config.apic, highest);
	percpu[0].apic_id = apic_id(&local_apic);
}

/* Every step of the bring-up, each named for the boot record should it not return. */
static void bring_up(void)
{
	step("paging");
	paging_init();
	paging_guard_page((uint64_t)(uintptr_t)boot_stack_guard);
	step("CPU identity");
	pmu_identify();
	fpu = fpu_plan_this_cpu();
	step(fpu.osxsave ? "FPU (CR4.OSXSAVE, XCR0 for AVX)" : "FPU (SSE)");
	fpu_enable(&fpu);
	step("memory map");
	memory_setup();
	qr_end_screen_setup(config.qr, config.qr_ms);
	step("ACPI tables");
	acpi_setup();
	step("local APIC");
	local_apic_setup();
	step("TSC calibration");
	time_calibrate(acpi.pm_timer_port, acpi.pm_timer_32bit);
	if (time_info()->fatal)
		end_bring_up(time_info()->fatal);
	step("system calls");
	const char *no_syscall = syscall_cpu_init();
	if (no_syscall)
		end_bring_up(no_syscall);
	user_init();
	user_cpu_init();
	tick_init(config.selftest);
	step("topology");
	topology_setup();
	step("APs");
	smp_setup();
	end_bring_up(NULL);
}

static void kmain(const char *handoff_error, const char *handoff_warning)
{
	static struct cmdline_warning warnings[MAX_WARNINGS];

	record_set_boot_hook(emit_boot_record);
	unsigned warning_count = parse_command_line(warnings, MAX_WARNINGS);
	console_setup();
	boot_set_exit_mode(config.exit);
	bring_up();
	pmu_choose(config.pmu, the_pair.thread_count == 2, config.selftest);
	/* What needs the machine (event lists against its tables and counters): before the boot
	 * record, which shows only what is taken. */
	unsigned room = warning_count < MAX_WARNINGS ? MAX_WARNINGS - warning_count : 0;
	warning_count += cmdline_check(keys, 2, &the_pmu, warnings + (MAX_WARNINGS - room), room);

	print_banner();
	emit_boot_record();
	emit_warnings(handoff_error, handoff_warning, warnings, warning_count);
	emit_cpu_records();
	park_unused_cpus();
	pmu_setup();

	struct payload_env env = { &the_pmu, &the_pair, config.selftest, &boot_info };
	payload_main(&env);
	pmu_selftest_end();
	boot_end();
}

/* From boot/multiboot.asm, on the boot stack, in long mode on the boot identity map. */
void multiboot_main(uint32_t magic, uint32_t info_addr)
{
	early_cpu_setup();
	struct multiboot_result result =
		multiboot_parse(magic, info_addr, identity_map, NULL, &boot_info);
	kmain(result.error, result.warning);
}

/* From kernel_entry64: the native UEFI loader built a boot_info for us. */
void uefi_main(const struct boot_info *from_loader)
{
	const char *error = NULL;

	early_cpu_setup();
	if (from_loader->magic != BOOT_INFO_MAGIC || from_loader->version != BOOT_INFO_VERSION) {
		memset(&boot_info, 0, sizeof(boot_info));
		boot_info.path = BOOT_PATH_UEFI;
		error = "the UEFI loader's boot_info has a wrong magic or version";
	} else {
		memcpy(&boot_info, from_loader, sizeof(boot_info));
		boot_info.cmdline[sizeof(boot_info.cmdline) - 1] = 0;
		boot_info.loader_name[sizeof(boot_info.loader_name) - 1] = 0;
		/* memory_setup() and the payload index modules[] by it. */
		if (boot_info.module_count > BOOT_MODULES_MAX)
			boot_info.module_count = BOOT_MODULES_MAX;
	}
	kmain(error, NULL);
}
