/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel command line: `key=value` words (ARCHITECTURE.md, "Contracts"). An unknown key or a
 * bad value yields a warning that names the accepted values, and the default stays in force.
 *
 * Pure code (host-tested). The table of keys is data, in cmdline.c.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/apic.h"
#include "pmu/select.h"

/*
 * The XSU modes a run can use (`xsu=` selects a set of them): off (no exclusion, the erratum shows),
 * on (Linux's XSU, thesis ch. 5), core (core-wide XSU: both siblings scheduled as one).
 */
enum xsu_mode { XSU_MODE_OFF, XSU_MODE_ON, XSU_MODE_CORE, XSU_MODE_COUNT };
#define XSU_MODE_BIT(m) (1u << (m))
#define XSU_MODES_BOTH (XSU_MODE_BIT(XSU_MODE_OFF) | XSU_MODE_BIT(XSU_MODE_ON))
#define XSU_MODES_ALL (XSU_MODES_BOTH | XSU_MODE_BIT(XSU_MODE_CORE))
enum sched_mode { SCHED_MODE_GREEDY, SCHED_MODE_HK };
enum exit_mode { EXIT_MODE_HALT, EXIT_MODE_REBOOT, EXIT_MODE_QEMU };
enum smp_mode { SMP_MODE_PAIR, SMP_MODE_ALL };
#define CONFIG_CORE_BOOT (-1) /* the boot CPU's core */
/* Deliberate faults that prove the exception path ends a run cleanly. */
enum selftest {
	SELFTEST_NONE,
	SELFTEST_FAULT,	     /* page fault on an unmapped address (#PF, CR2 reported) */
	SELFTEST_UD,	     /* invalid opcode (#UD) */
	SELFTEST_GP,	     /* general protection: a non-canonical address (#GP) */
	SELFTEST_DE,	     /* divide error (#DE) */
	SELFTEST_STACK,	     /* kernel stack overflow: double fault on its own stack (#DF) */
	SELFTEST_MISSING_AP, /* start a CPU the MADT does not list: it must time out, run goes on */
	SELFTEST_USER_FAULT, /* a page fault in ring-3 code on a sibling: reported, run ends */
	/* The model PMU starts as a BIOS that left counters running leaves it (pmu/model.h). */
	SELFTEST_FIRMWARE_COUNTERS,
	/* The model PMU zeroes a counter of thread 0 mid-run, as SMM code would (pmu/model.h). */
	SELFTEST_COUNTER_RESET,
};

#define CONFIG_QR_MS_DEFAULT 5000
#define CONFIG_EXP_MAX 256
#define CONFIG_EVENTS_MAX 256 /* an event list, ht0= / ht1= */
#define CONFIG_NAME_MAX 24    /* a workload name */

struct config {
	/* Comma list of experiment names as given ("all", "none" or names; the payload checks the
	 * names), or "" when exp= was not given. */
	char exp[CONFIG_EXP_MAX];
	uint8_t xsu;	      /* XSU_MODE_BIT()s of the modes to run */
	uint8_t sched;	      /* enum sched_mode */
	uint8_t pmu;	      /* enum pmu_request */
	uint8_t exit;	      /* enum exit_mode */
	uint8_t selftest;     /* enum selftest */
	uint32_t mux_ms;      /* multiplexing tick, milliseconds */
	uint16_t serial_port; /* 16550 I/O port, 0 for no serial console */
	uint32_t baud;
	int32_t core;	     /* index of the core to use, or CONFIG_CORE_BOOT */
	uint8_t smp;	     /* enum smp_mode: start the chosen core's threads, or every CPU */
	uint8_t apic;	     /* enum apic_request */
	uint32_t dur_ms;     /* how long each run of an experiment measures */
	uint32_t triad_kib;  /* size of each of triad's three arrays */
	uint32_t triad_reps; /* passes over the arrays per run; 0: as many as dur_ms allows */
	/* A run defined at boot (the payload's `custom` experiment): each thread's event list as
	 * perf stat -e takes it ("" for none) and its workload; thread 1 starts start1_ms later. */
	char events[2][CONFIG_EVENTS_MAX];
	char work[2][CONFIG_NAME_MAX];
	uint32_t start1_ms;
	uint32_t repeat;		   /* each run this many times, as perf stat -r */
	uint32_t chase_kib;		   /* the chase workload's working set */
	char survey_work[CONFIG_NAME_MAX]; /* the workload both threads run in the leak survey */
	/* The end-of-run screen (kernel/qr/end_screen.h): the records as QR codes, each page for
	 * qr_ms, in turn with the summary. Kernel keys, not the payload's. */
	uint8_t qr; /* 1 on, 0 off */
	uint32_t qr_ms;
};

/* The defaults: the full suite, XSU off and on, greedy, PMU chosen from CPUID, halt at the end. */
void config_defaults(struct config *cfg);

#define CMDLINE_KEY_MAX 32
#define CMDLINE_VALUE_MAX 64
#define CMDLINE_ACCEPTED_MAX 256

struct cmdline_warning {
	char key[CMDLINE_KEY_MAX];
	char value[CMDLINE_VALUE_MAX];
	char accepted[CMDLINE_ACCEPTED_MAX]; /* e.g. "on|off|both", or the list of keys */
	char used[CMDLINE_VALUE_MAX];	     /* the value in force instead; empty for a bad key */
	char message[CMDLINE_ACCEPTED_MAX + 128];
};

/*
 * Parse line into cfg (which the caller has set to defaults). Values are checked for their form
 * and range here; what only the payload knows (experiment, workload and event names) it checks
 * itself. Writes at most max_warnings warnings and returns how many there were in all.
 */
unsigned cmdline_parse(const char *line, struct config *cfg, struct cmdline_warning *warnings,
		       unsigned max_warnings);

/* The name of one XSU mode ("off", "on", "core"). */
const char *config_xsu_mode_name(unsigned mode);
/* A set of XSU modes as a comma list in mode order ("off,on"), into buf. */
const char *config_xsu_modes_text(unsigned modes, char *buf, size_t size);

/*
 * The command line without its first word: for a loader that puts the image's path there
 * (boot_cmdline_has_image_path(), kernel/multiboot.h). Any word may contain '/' or lack '=', so
 * the boot protocol decides, never the word itself.
 */
const char *cmdline_skip_image_path(const char *line);

/*
 * How many bytes of line are outside printable ASCII (0x20-0x7E; tab, CR and LF separate words
 * and do not count). Records show each as \u00XX (kernel/record.c). When there is one, *word and
 * *word_len give the word that holds the first.
 */
unsigned cmdline_non_ascii(const char *line, const char **word, size_t *word_len);

/* Names of enum values, for records and messages. */
const char *config_sched_name(unsigned v);
const char *config_pmu_name(unsigned v);
const char *config_exit_name(unsigned v);
const char *config_selftest_name(unsigned v);
const char *config_smp_name(unsigned v);
const char *config_apic_name(unsigned v);

#endif
