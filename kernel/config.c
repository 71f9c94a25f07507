// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's command-line keys (kernel/config.h): a table of data, its defaults, and the names
 * of its values.
 */
#include <stddef.h>
#include <string.h>

#include "kernel/config.h"

static const struct cmdline_choice pmu_choices[] = {
	{ "auto", PMU_REQ_AUTO },
	{ "hw", PMU_REQ_HW },
	{ "model", PMU_REQ_MODEL },
	{ NULL, 0 },
};
static const struct cmdline_choice exit_choices[] = {
	{ "halt", EXIT_MODE_HALT },
	{ "reboot", EXIT_MODE_REBOOT },
	{ "qemu", EXIT_MODE_QEMU },
	{ NULL, 0 },
};
static const struct cmdline_choice selftest_choices[] = {
	{ "none", SELFTEST_NONE },
	{ "fault", SELFTEST_FAULT },
	{ "ud", SELFTEST_UD },
	{ "gp", SELFTEST_GP },
	{ "de", SELFTEST_DE },
	{ "stack", SELFTEST_STACK },
	{ "missing-ap", SELFTEST_MISSING_AP },
	{ "user-fault", SELFTEST_USER_FAULT },
	{ "firmware-counters", SELFTEST_FIRMWARE_COUNTERS },
	{ "counter-reset", SELFTEST_COUNTER_RESET },
	{ "ipi-delay", SELFTEST_IPI_DELAY },
	{ "ipi-drop", SELFTEST_IPI_DROP },
	{ "smm-write", SELFTEST_SMM_WRITE },
	{ "pmu-v4-freeze", SELFTEST_PMU_V4_FREEZE },
	{ "syscall-cpl3", SELFTEST_SYSCALL_CPL3 },
	{ "profiles", SELFTEST_PROFILES },
	{ "smm-write-any", SELFTEST_SMM_WRITE_ANY },
	{ "global-ctrl-clear", SELFTEST_GLOBAL_CTRL_CLEAR },
	{ "evtsel-clear", SELFTEST_EVTSEL_CLEAR },
	{ "pmu-v2", SELFTEST_PMU_V2 },
	{ "pmu-v5", SELFTEST_PMU_V5 },
	{ NULL, 0 },
};
static const struct cmdline_choice smp_choices[] = {
	{ "pair", SMP_MODE_PAIR },
	{ "all", SMP_MODE_ALL },
	{ NULL, 0 },
};
static const struct cmdline_choice on_off_choices[] = {
	{ "on", 1 },
	{ "off", 0 },
	{ NULL, 0 },
};
static const struct cmdline_choice apic_choices[] = {
	{ "auto", APIC_REQUEST_AUTO },
	{ "xapic", APIC_REQUEST_XAPIC },
	{ "x2apic", APIC_REQUEST_X2APIC },
	{ NULL, 0 },
};

#define FIELD(f) offsetof(struct config, f)

static const struct cmdline_key keys[] = {
	{ "pmu", KEY_CHOICE, FIELD(pmu), pmu_choices, 0, 0, NULL, true },
	{ "exit", KEY_CHOICE, FIELD(exit), exit_choices, 0, 0, NULL, true },
	{ "selftest", KEY_CHOICE, FIELD(selftest), selftest_choices, 0, 0, NULL, true },
	{ "apic", KEY_CHOICE, FIELD(apic), apic_choices, 0, 0, NULL, true },
	{ "serial", KEY_SERIAL_PORT, FIELD(serial_port), NULL, 0, 0,
	  "com1|com2|com3|com4|0xPORT|none", false },
	{ "baud", KEY_BAUD, FIELD(baud), NULL, 300, 115200,
	  "115200|57600|38400|19200|9600 (a divisor of 115200)", false },
	{ "core", KEY_CORE, FIELD(core), NULL, 0, 255,
	  "boot|0-255 (a core index, see the boot record)", false },
	{ "smp", KEY_CHOICE, FIELD(smp), smp_choices, 0, 0, NULL, false },
	{ "qr", KEY_CHOICE, FIELD(qr), on_off_choices, 0, 0, NULL, true },
	{ "qr_ms", KEY_UINT, FIELD(qr_ms), NULL, 500, 600000, "an integer from 500 to 600000",
	  true },
};

static void defaults(void *settings)
{
	struct config *cfg = settings;

	memset(cfg, 0, sizeof(*cfg)); /* padding too: settings compare byte for byte */
	cfg->pmu = PMU_REQ_AUTO;
	cfg->exit = EXIT_MODE_HALT;
	cfg->selftest = SELFTEST_NONE;
	cfg->smp = SMP_MODE_PAIR;
	cfg->apic = APIC_REQUEST_AUTO;
	cfg->serial_port = 0x3f8;
	cfg->baud = 115200;
	cfg->core = CONFIG_CORE_BOOT;
	cfg->qr = 1;
	cfg->qr_ms = CONFIG_QR_MS_DEFAULT;
}

void config_table(struct config *settings, struct cmdline_table *table)
{
	*table = (struct cmdline_table){ keys, sizeof(keys) / sizeof(keys[0]), settings, defaults,
					 NULL };
}

const char *config_pmu_name(unsigned v)
{
	return cmdline_choice_name(pmu_choices, v);
}

const char *config_exit_name(unsigned v)
{
	return cmdline_choice_name(exit_choices, v);
}

const char *config_selftest_name(unsigned v)
{
	return cmdline_choice_name(selftest_choices, v);
}

const char *config_smp_name(unsigned v)
{
	return cmdline_choice_name(smp_choices, v);
}

const char *config_apic_name(unsigned v)
{
	return cmdline_choice_name(apic_choices, v);
}
