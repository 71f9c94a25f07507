// SPDX-License-Identifier: GPL-2.0
/*
 * The command-line parser (kernel/cmdline.c): every key, every kind of bad input, and the
 * contract that a bad value names what is accepted and leaves the default in force.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "kernel/config.h"
#include "tests/lib/payload_config.h"

/* The kernel's keys and the payload's, parsed together as the kernel does (kernel/kmain.c). */
static struct config k;
static struct payload_config p;
static struct cmdline_warning warnings[8];

static unsigned parse(const char *line)
{
	static struct cmdline_table kernel_keys, payload_keys;
	const struct cmdline_table *tables[2] = { &kernel_keys, &payload_keys };

	config_table(&k, &kernel_keys);
	payload_config_table(&p, &payload_keys);
	cmdline_defaults(tables, 2);
	memset(warnings, 0, sizeof(warnings));
	return cmdline_parse(line, tables, 2, warnings, 8);
}

/* A payload key's value as the command line spells it (cmdline_value_text). */
static const char *value_of(const char *name, char *buf, size_t size)
{
	struct cmdline_table table;

	payload_config_table(&p, &table);
	for (unsigned i = 0; i < table.count; i++)
		if (!strcmp(table.keys[i].name, name))
			return cmdline_value_text(&table.keys[i], &p, buf, size);
	fail_msg("no payload key %s", name);
	return NULL;
}

static void test_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse(""), 0);
	assert_string_equal(p.exp, ""); /* not given: the payload decides (all, or custom) */
	assert_int_equal(p.xsu, XSU_MODES_ALL);
	assert_int_equal(p.sched, SCHED_GREEDY);
	assert_int_equal(k.pmu, PMU_REQ_AUTO);
	assert_int_equal(k.exit, EXIT_MODE_HALT);
	assert_int_equal(p.mux_ms, 1);
	assert_int_equal(k.serial_port, 0x3f8);
	assert_int_equal(k.baud, 115200);
	assert_int_equal(k.selftest, SELFTEST_NONE);
	assert_int_equal(k.core, CONFIG_CORE_BOOT);
	assert_int_equal(k.smp, SMP_MODE_PAIR);
	assert_int_equal(k.apic, APIC_REQUEST_AUTO);
	assert_int_equal(p.dur_ms, 500);
	assert_int_equal(p.triad_kib, 4096);
	assert_int_equal(p.triad_reps, 0);
	assert_string_equal(p.events[0], "");
	assert_string_equal(p.events[1], "");
	assert_string_equal(p.work[0], "triad");
	assert_string_equal(p.work[1], "triad");
	assert_int_equal(p.start1_ms, 0);
	assert_int_equal(p.repeat, 1);
	assert_string_equal(p.survey_work, "triad");
	assert_int_equal(p.bench_ms, 2000);
	assert_int_equal(p.bench_trace, 1);
}

/* Issue 11: a run defined at boot, repetitions, the workload keys. */
static void test_custom_run_keys(void **state)
{
	(void)state;
	assert_int_equal(parse("ht0=r81d0:u,{cycles,instructions}:u "
			       "ht1=cpu/event=0xcc,umask=0x20/u,MEM_UOPS_RETIRED.ALL_LOADS:D "
			       "work0=chase work1=branchy start1_ms=20 repeat=5 chase_kib=64 "
			       "survey_work=alu"),
			 0);
	assert_string_equal(p.events[0], "r81d0:u,{cycles,instructions}:u");
	assert_string_equal(p.events[1],
			    "cpu/event=0xcc,umask=0x20/u,MEM_UOPS_RETIRED.ALL_LOADS:D");
	assert_string_equal(p.work[0], "chase");
	assert_string_equal(p.work[1], "branchy");
	assert_int_equal(p.start1_ms, 20);
	assert_int_equal(p.repeat, 5);
	assert_int_equal(p.chase_kib, 64);
	assert_string_equal(p.survey_work, "alu");
	/* The limits: repeat 1-100, names of [a-z0-9_-], event lists of printable ASCII. */
	assert_int_equal(parse("repeat=0 repeat=101 repeat=100"), 2);
	assert_int_equal(p.repeat, 100);
	assert_string_equal(warnings[0].accepted, "an integer from 1 to 100");
	assert_int_equal(parse("work0=Triad work1=a/b work0= start1_ms=60001"), 4);
	assert_string_equal(p.work[0], "triad");
	assert_string_equal(p.work[1], "triad");
	assert_int_equal(parse("ht0= ht1=\x01"), 2);
	assert_string_equal(p.events[0], "");
	/* A list too long for the field is refused whole, not cut. */
	char line[CONFIG_EVENTS_MAX + 16] = "ht0=";
	memset(line + 4, 'r', CONFIG_EVENTS_MAX);
	assert_int_equal(parse(line), 1);
	assert_string_equal(p.events[0], "");
}

/* Issue 10: xsu= is a comma list of modes; both and all are names for two sets. */
static void test_xsu_modes(void **state)
{
	(void)state;
	char text[32];

	assert_int_equal(parse("xsu=core"), 0);
	assert_int_equal(p.xsu, XSU_MODE_BIT(XSU_MODE_CORE));
	assert_int_equal(parse("xsu=off,core"), 0);
	assert_string_equal(value_of("xsu", text, sizeof(text)), "off,core");
	assert_int_equal(parse("xsu=all"), 0);
	assert_string_equal(value_of("xsu", text, sizeof(text)), "off,on,core");
	assert_int_equal(parse("xsu=both"), 0);
	assert_string_equal(value_of("xsu", text, sizeof(text)), "off,on");
	assert_int_equal(parse("xsu=on,bogus xsu=,on xsu=on,"), 3);
	assert_int_equal(p.xsu, XSU_MODES_ALL);
	assert_string_equal(warnings[0].accepted, "off|on|core|both|all (comma-separated)");
	assert_string_equal(warnings[0].used, "off,on,core");
}

static void test_workload_keys(void **state)
{
	(void)state;
	assert_int_equal(parse("dur_ms=10000 triad_kib=64 triad_reps=3"), 0);
	assert_int_equal(p.dur_ms, 10000);
	assert_int_equal(p.triad_kib, 64);
	assert_int_equal(p.triad_reps, 3);
	assert_int_equal(parse("dur_ms=5 triad_kib=0 triad_reps=x"), 3);
	assert_int_equal(p.dur_ms, 500);
}

static void test_topology_keys(void **state)
{
	(void)state;
	assert_int_equal(parse("core=3 smp=all apic=x2apic"), 0);
	assert_int_equal(k.core, 3);
	assert_int_equal(k.smp, SMP_MODE_ALL);
	assert_int_equal(k.apic, APIC_REQUEST_X2APIC);
	assert_int_equal(parse("core=2 core=boot"), 0);
	assert_int_equal(k.core, CONFIG_CORE_BOOT);
	assert_int_equal(parse("core=256 core=-1 core=x smp=some apic=2"), 5);
	assert_int_equal(k.core, CONFIG_CORE_BOOT);
	assert_string_equal(warnings[0].used, "boot");
	assert_string_equal(warnings[3].accepted, "pair|all");
}

static void test_every_key(void **state)
{
	(void)state;
	assert_int_equal(parse("  exp=ch7-aligned,ch4-branch-misses xsu=off sched=hk pmu=model "
			       "mux_ms=4 exit=qemu serial=com2 baud=9600 selftest=stack\n"),
			 0);
	assert_string_equal(p.exp, "ch7-aligned,ch4-branch-misses");
	assert_int_equal(p.xsu, XSU_MODE_BIT(XSU_MODE_OFF));
	assert_int_equal(p.sched, SCHED_HK);
	assert_int_equal(k.pmu, PMU_REQ_MODEL);
	assert_int_equal(p.mux_ms, 4);
	assert_int_equal(k.exit, EXIT_MODE_QEMU);
	assert_int_equal(k.serial_port, 0x2f8);
	assert_int_equal(k.baud, 9600);
	assert_int_equal(k.selftest, SELFTEST_STACK);

	assert_int_equal(parse("serial=0x3e8 exp=none xsu=on"), 0);
	assert_int_equal(k.serial_port, 0x3e8);
	assert_string_equal(p.exp, "none");
	assert_int_equal(p.xsu, XSU_MODE_BIT(XSU_MODE_ON));
	assert_int_equal(parse("serial=none"), 0);
	assert_int_equal(k.serial_port, 0);

	/* A bundle of your own code untraced under the model, as on a real machine. */
	assert_int_equal(parse("bench_trace=off bench_ms=300"), 0);
	assert_int_equal(p.bench_trace, 0);
	assert_int_equal(p.bench_ms, 300);
	assert_int_equal(parse("bench_trace=no"), 1);
	assert_int_equal(p.bench_trace, 1);
	assert_string_equal(warnings[0].accepted, "on|off");
}

static void test_bad_value_keeps_default_and_names_accepted(void **state)
{
	(void)state;
	assert_int_equal(parse("xsu=maybe"), 1);
	assert_int_equal(p.xsu, XSU_MODES_ALL);
	assert_string_equal(warnings[0].key, "xsu");
	assert_string_equal(warnings[0].value, "maybe");
	assert_string_equal(warnings[0].accepted, "off|on|core|both|all (comma-separated)");
	assert_string_equal(warnings[0].message,
			    "xsu=maybe is not valid (accepted: off|on|core|both|all "
			    "(comma-separated)); keeping xsu=off,on,core");

	assert_int_equal(parse("mux_ms=0 mux_ms=1001 mux_ms=12x mux_ms=-1"), 4);
	assert_int_equal(p.mux_ms, 1);
	assert_string_equal(warnings[0].accepted, "an integer from 1 to 1000");

	assert_int_equal(parse("baud=1000 baud=115201"), 2); /* not divisors of 115200 */
	assert_int_equal(k.baud, 115200);

	assert_int_equal(parse("serial=com5 serial=0x serial=0xzz serial=0xffff"), 4);
	assert_int_equal(k.serial_port, 0x3f8);

	/* exp= names are the payload's to check (tests/experiments/suite.c); here only their form. */
	assert_int_equal(parse("exp=ch7-aligned,nonsense"), 0);
	assert_string_equal(p.exp, "ch7-aligned,nonsense");
	assert_int_equal(parse("exp= exp=, exp=a,,b exp=Ch7 exp=a;b"), 5);
	assert_string_equal(p.exp, "");
	assert_string_equal(warnings[0].accepted, "all|none|experiment names (comma-separated)");
}

static void test_unknown_and_malformed_words(void **state)
{
	(void)state;
	assert_int_equal(parse("foo=1 bar xsu"), 3);
	assert_string_equal(warnings[0].key, "foo");
	assert_string_equal(warnings[0].value, "1");
	assert_string_equal(
		warnings[0].accepted,
		"pmu|exit|selftest|apic|serial|baud|core|smp|qr|qr_ms|exp|xsu|sched|bench_ms|"
		"bench_trace|mux_ms|dur_ms|repeat|"
		"ht0|work0|ht1|work1|start1_ms|triad_kib|triad_reps|chase_kib|survey_work");
	assert_non_null(strstr(warnings[0].message, "unknown key 'foo'"));
	assert_non_null(strstr(warnings[1].message, "'bar' is not a key=value word"));
	assert_non_null(strstr(warnings[2].message, "'xsu' needs a value"));
	/* Keys are exact: no prefixes, no case folding. */
	assert_int_equal(parse("XSU=on xs=on"), 2);
	assert_int_equal(p.xsu, XSU_MODES_ALL);
}

static void test_image_path_first_word(void **state)
{
	(void)state;
	/* QEMU's multiboot1 loader puts the image path first, a bare file name too. The boot
	 * protocol says so (boot_cmdline_has_image_path()), not the word: it is skipped whole. */
	assert_int_equal(parse(cmdline_skip_image_path("pmu-testkernel.elf exit=qemu")), 0);
	assert_int_equal(k.exit, EXIT_MODE_QEMU);
	assert_int_equal(parse(cmdline_skip_image_path("  /tmp/a=b/x.elf\txsu=off")), 0);
	assert_int_equal(p.xsu, XSU_MODE_BIT(XSU_MODE_OFF));
	assert_string_equal(cmdline_skip_image_path("/boot/pmu-testkernel.elf"), "");
	assert_string_equal(cmdline_skip_image_path(""), "");
	/* Where the loader put no path (GRUB 2), a first word is a word like any other. */
	assert_int_equal(parse("build/pmu-testkernel.elf exit=qemu"), 1);
	assert_string_equal(warnings[0].key, "build/pmu-testkernel.elf");
	assert_int_equal(parse("exit=qemu /boot/x"), 1);
}

/* Bytes outside printable ASCII are counted and the word holding the first is named. */
static void test_non_ascii_bytes(void **state)
{
	(void)state;
	const char *word = NULL;
	size_t len = 0;

	assert_int_equal(cmdline_non_ascii("exit=qemu xsu=on\tmux_ms=4\r\n", &word, &len), 0);
	assert_null(word);
	const char *line = "exit=qemu note=caf\xc3\xa9 x=\x01\x7f";
	assert_int_equal(cmdline_non_ascii(line, &word, &len), 4);
	assert_ptr_equal(word, line + 10);
	assert_int_equal(len, 10);
	assert_int_equal(cmdline_non_ascii("\xe9", &word, &len), 1);
	assert_int_equal(len, 1);
	/* Such a word is never a good value: it warns like any other bad word. */
	assert_int_equal(parse("mux_ms=4\xe9"), 1);
	assert_int_equal(p.mux_ms, 1);
}

static void test_later_value_wins(void **state)
{
	(void)state;
	assert_int_equal(parse("sched=hk sched=greedy"), 0);
	assert_int_equal(p.sched, SCHED_GREEDY);
	/* A bad later value does not undo a good earlier one. */
	assert_int_equal(parse("sched=hk sched=best"), 1);
	assert_int_equal(p.sched, SCHED_HK);
	assert_string_equal(warnings[0].message,
			    "sched=best is not valid (accepted: greedy|hk); keeping sched=hk");
}

static void test_many_warnings_are_counted(void **state)
{
	(void)state;
	assert_int_equal(parse("a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10"), 10);
	assert_string_equal(warnings[7].key, "h");
}

static void test_long_values_are_bounded(void **state)
{
	(void)state;
	char line[600];
	memset(line, 0, sizeof(line));
	strcpy(line, "xsu=");
	memset(line + 4, 'x', 400);
	assert_int_equal(parse(line), 1);
	assert_int_equal(strlen(warnings[0].value), CMDLINE_VALUE_MAX - 1);
	memset(line, 0, sizeof(line));
	memset(line, 'k', 300);
	strcat(line, "=1");
	assert_int_equal(parse(line), 1);
	assert_int_equal(strlen(warnings[0].key), CMDLINE_KEY_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_topology_keys),
		cmocka_unit_test(test_workload_keys),
		cmocka_unit_test(test_custom_run_keys),
		cmocka_unit_test(test_xsu_modes),
		cmocka_unit_test(test_bad_value_keeps_default_and_names_accepted),
		cmocka_unit_test(test_unknown_and_malformed_words),
		cmocka_unit_test(test_image_path_first_word),
		cmocka_unit_test(test_non_ascii_bytes),
		cmocka_unit_test(test_later_value_wins),
		cmocka_unit_test(test_many_warnings_are_counted),
		cmocka_unit_test(test_long_values_are_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
