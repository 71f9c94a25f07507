// SPDX-License-Identifier: GPL-2.0
/*
 * From the firmware hand-off to the end record (ARCHITECTURE.md, "The main data flow").
 */
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/boot_info.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/cpuinfo.h"
#include "kernel/multiboot.h"
#include "kernel/paging.h"
#include "kernel/percpu.h"
#include "kernel/record_stream.h"
#include "kernel/run.h"
#include "kernel/selftest.h"
#include "kernel/trap.h"

#ifndef PMU_VERSION
#define PMU_VERSION "unknown"
#endif

#define MAX_WARNINGS 16

static struct boot_info boot_info;
static struct config config;

extern char boot_stack_guard[], boot_stack_top[];
static uint8_t boot_ist_stacks[3][IST_STACK_SIZE] __attribute__((aligned(16)));

/* Physical memory below 4 GiB is identity mapped: a physical address is a pointer. */
static const void *identity(uint64_t addr, size_t len, void *ctx)
{
	(void)ctx;
	if (addr >= IDENTITY_MAP_END || len > IDENTITY_MAP_END - addr)
		return NULL;
	return (const void *)(uintptr_t)addr;
}

/* Exceptions must be reportable before anything else can go wrong. */
static void early_cpu_setup(void)
{
	struct percpu *cpu = &percpu_boot;
	uint64_t ist_tops[3];

	for (unsigned i = 0; i < 3; i++)
		ist_tops[i] = (uint64_t)(uintptr_t)(boot_ist_stacks[i] + IST_STACK_SIZE);
	cpu->index = 0;
	cpu->apic_id = cpuid(1, 0).ebx >> 24;
	cpu->stack_top = (uint64_t)(uintptr_t)boot_stack_top;
	percpu_install(cpu);
	gdt_load(&cpu->tables, cpu->stack_top, ist_tops);
	idt_init();
	idt_load();
	pic_disable();
}

/* The text console exists when the firmware left a VGA text mode: BIOS boots, not UEFI. */
static void console_setup(void)
{
	console_init_serial(config.serial_port, config.baud);
	const struct boot_framebuffer *fb = &boot_info.framebuffer;
	if (fb->type == BOOT_FRAMEBUFFER_EGA_TEXT)
		console_init_vga(fb->address, fb->width, fb->height);
	else if (fb->type == BOOT_FRAMEBUFFER_NONE && !boot_info.efi_system_table &&
		 boot_info.path != BOOT_PATH_UEFI)
		console_init_vga(0xb8000, 80, 25);
}

static void emit_boot_record(const struct cpu_identity *id)
{
	static struct record r;

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
	record_begin_object(&r, "cpu");
	record_string(&r, "vendor", id->vendor);
	record_uint(&r, "family", id->family);
	record_uint(&r, "model", id->model);
	record_uint(&r, "stepping", id->stepping);
	record_string(&r, "brand", id->brand);
	record_string(&r, "hypervisor", id->hypervisor ? id->hypervisor_vendor : NULL);
	record_end_object(&r);
	record_begin_object(&r, "console");
	if (console_has_serial())
		record_hex(&r, "serial", config.serial_port);
	else
		record_null(&r, "serial");
	record_uint(&r, "baud", config.baud);
	record_bool(&r, "vga", console_has_vga());
	record_end_object(&r);
	record_begin_object(&r, "config");
	record_string(&r, "exp", config.exp);
	record_string(&r, "xsu", config_xsu_name(config.xsu));
	record_string(&r, "sched", config_sched_name(config.sched));
	record_string(&r, "pmu", config_pmu_name(config.pmu));
	record_uint(&r, "mux_ms", config.mux_ms);
	record_string(&r, "exit", config_exit_name(config.exit));
	record_string(&r, "selftest", config_selftest_name(config.selftest));
	record_end_object(&r);
	record_emit(&r);
}

static void print_banner(const struct cpu_identity *id)
{
	kprintf("\npmu-testkernel %s: booted via %s%s%s\n", PMU_VERSION,
		boot_path_name(boot_info.path), boot_info.loader_name[0] ? " from " : "",
		boot_info.loader_name);
	kprintf("  command line: %s\n", boot_info.cmdline[0] ? boot_info.cmdline : "(empty)");
	kprintf("  CPU: %s, family %u model 0x%x stepping %u (%s)%s%s\n", id->vendor, id->family,
		id->model, id->stepping, id->brand[0] ? id->brand : "no brand string",
		id->hypervisor ? ", under hypervisor " : "",
		id->hypervisor ? id->hypervisor_vendor : "");
	kprintf("  memory: %llu MiB usable in %u regions; ACPI RSDP %s%p (%s)\n",
		(unsigned long long)boot_usable_mib(&boot_info), boot_info.memory_region_count,
		boot_info.acpi_rsdp ? "at " : "not found ", (void *)(uintptr_t)boot_info.acpi_rsdp,
		boot_acpi_source_name(boot_info.acpi_rsdp_source));
}

static void kmain(const char *handoff_error, const char *handoff_warning)
{
	static struct cmdline_warning warnings[MAX_WARNINGS];
	struct cpu_identity id;

	config_defaults(&config);
	unsigned warning_count =
		cmdline_parse(boot_info.cmdline, &config, NULL, warnings, MAX_WARNINGS);
	console_setup();
	run_set_exit_mode(config.exit);
	paging_init();
	paging_guard_page((uint64_t)(uintptr_t)boot_stack_guard);

	if (!boot_info.acpi_rsdp) {
		uint64_t rsdp = acpi_rsdp_scan(identity, NULL);
		if (rsdp) {
			boot_info.acpi_rsdp = rsdp;
			boot_info.acpi_rsdp_source = BOOT_ACPI_BIOS_SCAN;
		}
	}

	cpu_identify(&id);
	print_banner(&id);
	emit_boot_record(&id);

	if (handoff_error)
		record_warn("boot", "boot", boot_path_name(boot_info.path),
			    "multiboot1|multiboot2|uefi", NULL, handoff_error);
	if (handoff_warning)
		record_warn("boot", "boot", boot_path_name(boot_info.path),
			    "multiboot1|multiboot2|uefi", NULL, handoff_warning);
	for (unsigned i = 0; i < warning_count && i < MAX_WARNINGS; i++) {
		const struct cmdline_warning *w = &warnings[i];
		record_warn("cmdline", w->key, w->value, w->accepted, w->used[0] ? w->used : NULL,
			    w->message);
	}
	if (warning_count > MAX_WARNINGS)
		record_warn("cmdline", "cmdline", "", "", NULL,
			    "more command-line problems than reported here");

	selftest_run(config.selftest);

	run_end();
}

/* From boot/multiboot.asm, on the boot stack, in long mode on the boot identity map. */
void multiboot_main(uint32_t magic, uint32_t info_addr)
{
	early_cpu_setup();
	struct multiboot_result result =
		multiboot_parse(magic, info_addr, identity, NULL, &boot_info);
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
	}
	kmain(error, NULL);
}
