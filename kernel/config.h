/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's command-line keys (the machine: console, CPUs, APIC, PMU backend, self-tests, how
 * the boot leaves) and the settings they fill. The payload's keys are its own (kernel/payload.h);
 * kernel/cmdline.h parses both. The table is data, in config.c; a key's row in
 * docs/command-line.md and its line in boot/efi/cmdline.txt are held to it
 * (tests/style/test_doc_facts.py).
 */
#ifndef KERNEL_CONFIG_H
#define KERNEL_CONFIG_H

#include <stdint.h>

#include "kernel/apic.h"
#include "kernel/cmdline.h"
#include "pmu/select.h"

enum exit_mode { EXIT_MODE_HALT, EXIT_MODE_REBOOT, EXIT_MODE_QEMU };
enum smp_mode { SMP_MODE_PAIR, SMP_MODE_ALL };
#define CONFIG_CORE_BOOT CMDLINE_CORE_BOOT /* the boot CPU's core */
/* Deliberate faults that prove the exception path ends a boot cleanly. */
enum selftest {
	SELFTEST_NONE,
	SELFTEST_FAULT,	     /* page fault on an unmapped address (#PF, CR2 reported) */
	SELFTEST_UD,	     /* invalid opcode (#UD) */
	SELFTEST_GP,	     /* general protection: a non-canonical address (#GP) */
	SELFTEST_DE,	     /* divide error (#DE) */
	SELFTEST_STACK,	     /* kernel stack overflow: double fault on its own stack (#DF) */
	SELFTEST_MISSING_AP, /* start a CPU the MADT does not list: it must time out, boot goes on */
	SELFTEST_USER_FAULT, /* a page fault in ring-3 code on a sibling: reported, boot ends */
	/* The model PMU starts as a BIOS that left counters running leaves it (pmu/model.h). */
	SELFTEST_FIRMWARE_COUNTERS,
	/* The model PMU zeroes a counter of thread 0 mid-run, as SMM code would (pmu/model.h). */
	SELFTEST_COUNTER_RESET,
	/* The hardware's behaviours that core-wide XSU must survive (docs/hardware-truth.md): */
	SELFTEST_IPI_DELAY,	/* a raised tick's IPI is acted on 2-5 ms late (kernel/tick.h) */
	SELFTEST_IPI_DROP,	/* one raised tick's IPI is lost (kernel/tick.h) */
	SELFTEST_SMM_WRITE,	/* SMM zeroes thread 0's counters mid-run, catchers too (model) */
	SELFTEST_PMU_V4_FREEZE, /* a version-4 PMU handed over with its freeze bits set (model) */
	/* Ring 3 on both threads makes system calls as a hypervisor that leaves SYSCALL at CPL 3
	 * delivers them (kernel/syscall.c): they must complete, and a warn says so; the boot goes on. */
	SELFTEST_SYSCALL_CPL3,
	/* Not a fault: each workload's code is traced with the trap flag and the traces written as
	 * records, for the host to hold against the workloads' profiles (tests/profiles/). */
	SELFTEST_PROFILES,
	/* Firmware the model PMU imitates that writes under the kernel (pmu/model.h): */
	SELFTEST_SMM_WRITE_ANY,	    /* SMM zeroes either thread's counters, read or not */
	SELFTEST_GLOBAL_CTRL_CLEAR, /* a GLOBAL_CTRL enable bit of thread 1 cleared mid-run */
	SELFTEST_EVTSEL_CLEAR,	    /* a PERFEVTSELx EN bit of thread 1 cleared mid-run */
	/* The model PMU at another version: 2, and 5 with AnyThread deprecated (CPUID.0AH:EDX[15]):
	 * neither has AnyThread, and a write of its bit raises #GP. */
	SELFTEST_PMU_V2,
	SELFTEST_PMU_V5,
};

#define CONFIG_QR_MS_DEFAULT 5000

struct config {
	uint8_t pmu;	      /* enum pmu_request */
	uint8_t exit;	      /* enum exit_mode */
	uint8_t selftest;     /* enum selftest */
	uint8_t smp;	      /* enum smp_mode: start the chosen core's threads, or every CPU */
	uint8_t apic;	      /* enum apic_request */
	uint16_t serial_port; /* 16550 I/O port, 0 for no serial console */
	uint32_t baud;
	int32_t core; /* index of the core to use, or CONFIG_CORE_BOOT */
	/* The end-of-run screen (kernel/end_screen.h): the records as QR codes, each page for
	 * qr_ms, in turn with the summary. */
	uint8_t qr; /* 1 on, 0 off */
	uint32_t qr_ms;
};

/* The kernel's keys over *settings (defaults: PMU chosen from CPUID, halt at the end, COM1). */
void config_table(struct config *settings, struct cmdline_table *table);

/* Names of enum values, for records and messages. */
const char *config_pmu_name(unsigned v);
const char *config_exit_name(unsigned v);
const char *config_selftest_name(unsigned v);
const char *config_smp_name(unsigned v);
const char *config_apic_name(unsigned v);

#endif
