// SPDX-License-Identifier: GPL-2.0
/*
 * The record copy (kernel/qr/record_copy.c): a line per record, numbered where the sequence
 * jumps; when the buffer runs short, count records stop first, the others next, and the end record
 * always has its room.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/qr/record_copy.h"

static char buf[8192];
static struct record_copy copy;

static bool add(uint64_t seq, const char *type, const char *json)
{
	return record_copy_add(&copy, seq, type, json, strlen(json));
}

static void test_lines_and_markers(void **state)
{
	(void)state;
	record_copy_init(&copy, buf, sizeof(buf));
	assert_true(add(0, "boot", "{\"type\":\"boot\"}"));
	assert_true(add(1, "pmu", "{\"type\":\"pmu\"}"));
	assert_true(add(5, "exp", "{\"type\":\"exp\"}"));
	assert_true(add(6, "end", "{\"type\":\"end\"}"));
	const char *want = "@0 {\"type\":\"boot\"}\n{\"type\":\"pmu\"}\n@5 {\"type\":\"exp\"}\n"
			   "{\"type\":\"end\"}\n";
	assert_int_equal(copy.used, strlen(want));
	assert_memory_equal(buf, want, copy.used);
	assert_int_equal(copy.records, 4);
	assert_int_equal(copy.first_seq, 0);
}

/* Records kept before the copy existed do not count: the first line kept is numbered. */
static void test_first_line_is_numbered(void **state)
{
	(void)state;
	record_copy_init(&copy, buf, sizeof(buf));
	assert_true(add(17, "warn", "{\"type\":\"warn\"}"));
	assert_memory_equal(buf, "@17 {", 5);
	assert_int_equal(copy.first_seq, 17);
}

static void test_count_records_stop_first(void **state)
{
	(void)state;
	char json[100];
	uint64_t seq = 0;

	memset(json, 'x', sizeof(json));
	memcpy(json, "{\"type\":\"count\"", 15);
	json[98] = '}';
	json[99] = 0;
	record_copy_init(&copy, buf, sizeof(buf));
	while (add(seq, "count", json))
		seq++;
	/* Stopped at three quarters, not later, not much earlier. */
	assert_true(copy.used <= sizeof(buf) / 4 * 3);
	assert_true(copy.used + 100 > sizeof(buf) / 4 * 3);
	assert_int_equal(copy.dropped_counts, 1);
	/* Other records still go in, after a numbered line, until the end record's room. */
	uint64_t others = 0;
	while (add(++seq, "verdict", "{\"type\":\"verdict\",\"x\":\"yyyyyyyyyyyyyyyyyyyyyy\"}"))
		others++;
	assert_true(others > 0);
	assert_true(copy.used <= sizeof(buf) - RECORD_COPY_END_ROOM);
	assert_int_equal(copy.dropped_others, 1);
	assert_true(add(++seq, "end", "{\"type\":\"end\",\"records\":100,\"verdict\":\"pass\"}"));
	const char *end = buf + copy.used - 1;
	while (end > buf && end[-1] != '\n')
		end--;
	assert_memory_equal(end, "@", 1); /* after records left out, the end record is numbered */
}

static void test_no_buffer_keeps_nothing(void **state)
{
	(void)state;
	record_copy_init(&copy, NULL, 0);
	assert_false(add(0, "boot", "{\"type\":\"boot\"}"));
	assert_false(add(1, "end", "{\"type\":\"end\"}"));
	assert_int_equal(copy.dropped_others, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_and_markers),
		cmocka_unit_test(test_first_line_is_numbered),
		cmocka_unit_test(test_count_records_stop_first),
		cmocka_unit_test(test_no_buffer_keeps_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
