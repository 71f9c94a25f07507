// SPDX-License-Identifier: GPL-2.0
/*
 * The end-of-run screen's two kernel keys (issue 19): qr= (on, off) and qr_ms=, their defaults,
 * and a warning naming what is accepted for a bad value, which leaves the value in force.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "kernel/config.h"

static struct config cfg;
static struct cmdline_warning warnings[4];

/* The kernel's table alone: qr= and qr_ms= are the kernel's keys (kernel/config.c). */
static unsigned parse(const char *line)
{
	static struct cmdline_table table;
	const struct cmdline_table *tables[1] = { &table };

	config_table(&cfg, &table);
	cmdline_defaults(tables, 1);
	memset(warnings, 0, sizeof(warnings));
	return cmdline_parse(line, tables, 1, warnings, 4);
}

static void test_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse(""), 0);
	assert_int_equal(cfg.qr, 1);
	assert_int_equal(cfg.qr_ms, CONFIG_QR_MS_DEFAULT);
	assert_int_equal(CONFIG_QR_MS_DEFAULT, 5000);
}

static void test_values(void **state)
{
	(void)state;
	assert_int_equal(parse("qr=off qr_ms=2000"), 0);
	assert_int_equal(cfg.qr, 0);
	assert_int_equal(cfg.qr_ms, 2000);
	assert_int_equal(parse("qr=on qr_ms=500"), 0);
	assert_int_equal(cfg.qr, 1);
	assert_int_equal(cfg.qr_ms, 500);
	assert_int_equal(parse("qr_ms=600000"), 0);
	assert_int_equal(cfg.qr_ms, 600000);
}

static void test_bad_values_warn(void **state)
{
	(void)state;
	assert_int_equal(parse("qr=maybe qr_ms=100 qr_ms=fast"), 3);
	assert_string_equal(warnings[0].key, "qr");
	assert_string_equal(warnings[0].value, "maybe");
	assert_non_null(strstr(warnings[0].accepted, "on"));
	assert_non_null(strstr(warnings[0].accepted, "off"));
	assert_string_equal(warnings[0].used, "on");
	assert_string_equal(warnings[1].key, "qr_ms");
	assert_non_null(strstr(warnings[1].accepted, "500 to 600000"));
	assert_string_equal(warnings[1].used, "5000");
	assert_string_equal(warnings[2].value, "fast");
	assert_int_equal(cfg.qr, 1);
	assert_int_equal(cfg.qr_ms, CONFIG_QR_MS_DEFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad_values_warn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
