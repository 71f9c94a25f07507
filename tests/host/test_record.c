// SPDX-License-Identifier: GPL-2.0
/*
 * Records (kernel/record.c) and their CRC-32 (kernel/lib/crc32.c): the values zlib computes, valid
 * JSON in every case, and the exact line format readers parse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/lib/crc32.h"
#include "kernel/record.h"

static void test_crc32_known_values(void **state)
{
	(void)state;
	/* Values from zlib's crc32() (the "check" value of CRC-32/ISO-HDLC is 0xCBF43926). */
	assert_int_equal(crc32_ieee(0, "", 0), 0);
	assert_int_equal(crc32_ieee(0, "123456789", 9), 0xcbf43926);
	assert_int_equal(crc32_ieee(0, "a", 1), 0xe8b7be43);
	const char *fox = "The quick brown fox jumps over the lazy dog";
	assert_int_equal(crc32_ieee(0, fox, strlen(fox)), 0x414fa339);
	/* Chaining gives the same result as one pass. */
	assert_int_equal(crc32_ieee(crc32_ieee(0, "1234", 4), "56789", 5), 0xcbf43926);
}

static void test_simple_record(void **state)
{
	(void)state;
	static struct record r;
	record_begin(&r, "boot");
	record_string(&r, "boot", "multiboot2");
	record_uint(&r, "mem_mib", 511);
	record_int(&r, "delta", -5);
	record_bool(&r, "uefi", false);
	record_null(&r, "acpi_rsdp");
	record_hex(&r, "rip", 0x1026d2);
	assert_string_equal(
		record_json(&r),
		"{\"type\":\"boot\",\"boot\":\"multiboot2\",\"mem_mib\":511,\"delta\":-5,"
		"\"uefi\":false,\"acpi_rsdp\":null,\"rip\":\"0x1026d2\"}");
}

static void test_nesting_and_arrays(void **state)
{
	(void)state;
	static struct record r;
	record_begin(&r, "x");
	record_begin_object(&r, "cpu");
	record_uint(&r, "family", 6);
	record_string(&r, "vendor", "GenuineIntel");
	record_end_object(&r);
	record_begin_array(&r, "threads");
	record_uint(&r, NULL, 0);
	record_uint(&r, NULL, 1);
	record_end_array(&r);
	record_begin_array(&r, "empty");
	record_end_array(&r);
	assert_string_equal(record_json(&r),
			    "{\"type\":\"x\",\"cpu\":{\"family\":6,\"vendor\":\"GenuineIntel\"},"
			    "\"threads\":[0,1],\"empty\":[]}");
}

static void test_escaping(void **state)
{
	(void)state;
	static struct record r;
	record_begin(&r, "warn");
	record_string(&r, "message", "say \"hi\"\\ \n\t\x01");
	assert_string_equal(record_json(&r),
			    "{\"type\":\"warn\",\"message\":\"say \\\"hi\\\"\\\\ \\n\\t\\u0001\"}");
}

/* Every byte outside printable ASCII is escaped, in values and keys, so that a line is ASCII
 * whatever the input (a command line in UTF-8 or Latin-1, a firmware string). */
static void test_non_ascii_is_escaped(void **state)
{
	(void)state;
	static struct record r;
	char line[RECORD_LINE_MAX];
	record_begin(&r, "boot");
	record_string(&r, "cmdline", "note=caf\xc3\xa9 x=\xe9\x80\xff\x7f~ ");
	record_string(&r, "k\xe9y", "v");
	const char *want = "{\"type\":\"boot\",\"cmdline\":\"note=caf\\u00c3\\u00a9 "
			   "x=\\u00e9\\u0080\\u00ff\\u007f~ \",\"k\\u00e9y\":\"v\"}";
	assert_string_equal(record_json(&r), want);
	size_t n = record_line(&r, 0, line, sizeof(line));
	for (size_t i = 0; i < n; i++)
		assert_true(line[i] >= 0x20 && line[i] <= 0x7e);
	/* The CRC is over those ASCII bytes: what any reader sees, however it decodes. */
	char expected[RECORD_LINE_MAX];
	snprintf(expected, sizeof(expected), "@0 %08x %s", crc32_ieee(0, want, strlen(want)), want);
	assert_string_equal(line, expected);
}

static void test_fixed_point(void **state)
{
	(void)state;
	static struct record r;
	record_begin(&r, "count");
	record_fixed(&r, "pct", 66700, 3);
	record_fixed(&r, "small", 5, 3);
	record_fixed(&r, "negative", -1250, 2);
	record_fixed(&r, "whole", 42, 0);
	assert_string_equal(record_json(&r), "{\"type\":\"count\",\"pct\":66.700,\"small\":0.005,"
					     "\"negative\":-12.50,\"whole\":42}");
}

static void test_line_format(void **state)
{
	(void)state;
	static struct record r;
	char line[RECORD_LINE_MAX];
	record_begin(&r, "end");
	record_uint(&r, "records", 3);
	record_string(&r, "verdict", "pass");
	size_t n = record_line(&r, 3, line, sizeof(line));
	const char *json = "{\"type\":\"end\",\"records\":3,\"verdict\":\"pass\"}";
	char expected[256];
	snprintf(expected, sizeof(expected), "@3 %08x %s", crc32_ieee(0, json, strlen(json)), json);
	assert_string_equal(line, expected);
	assert_int_equal(n, strlen(expected));
	/* Formatting the line twice gives the same line (the object is closed once). */
	record_line(&r, 3, line, sizeof(line));
	assert_string_equal(line, expected);
}

static void test_truncated_record_stays_valid(void **state)
{
	(void)state;
	static struct record r;
	char big[512];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	record_begin(&r, "count");
	record_begin_array(&r, "values");
	for (int i = 0; i < 40; i++)
		record_string(&r, NULL, big);
	record_end_array(&r);
	assert_true(r.truncated);
	assert_string_equal(record_json(&r), "{\"type\":\"count\",\"truncated\":true}");
}

static void test_unbalanced_record_is_reported(void **state)
{
	(void)state;
	static struct record r;
	record_begin(&r, "x");
	record_begin_array(&r, "open");
	record_uint(&r, NULL, 1);
	/* Caller forgot record_end_array(). */
	assert_string_equal(record_json(&r), "{\"type\":\"x\",\"malformed\":true}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32_known_values),
		cmocka_unit_test(test_simple_record),
		cmocka_unit_test(test_nesting_and_arrays),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_non_ascii_is_escaped),
		cmocka_unit_test(test_fixed_point),
		cmocka_unit_test(test_line_format),
		cmocka_unit_test(test_truncated_record_stays_valid),
		cmocka_unit_test(test_unbalanced_record_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
