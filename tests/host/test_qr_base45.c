// SPDX-License-Identifier: GPL-2.0
/*
 * Base45 (kernel/qr/base45.c) against the examples of RFC 9285, section 4.3, and the lengths the
 * chunks are cut by: n bytes take base45_encoded_len(n) characters, and those characters carry
 * n bytes again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/qr/base45.h"

static void encodes_to(const char *bytes, const char *text)
{
	char out[64];
	size_t n = base45_encode((const uint8_t *)bytes, strlen(bytes), out);

	assert_int_equal(n, strlen(text));
	assert_int_equal(base45_encoded_len(strlen(bytes)), strlen(text));
	out[n] = 0;
	assert_string_equal(out, text);
}

static void test_rfc9285_examples(void **state)
{
	(void)state;
	encodes_to("AB", "BB8");
	encodes_to("Hello!!", "%69 VD92EX0");
	encodes_to("base-45", "UJCLQE7W581");
	encodes_to("ietf!", "QED8WEX0");
	encodes_to("", "");
}

/* The largest and smallest values of a group: two bytes 0xffff are "FGW", one 0xff is "U5". */
static void test_group_edges(void **state)
{
	(void)state;
	const uint8_t ff[2] = { 0xff, 0xff }, zero[2] = { 0, 0 };
	char out[8];

	assert_int_equal(base45_encode(ff, 2, out), 3);
	assert_memory_equal(out, "FGW", 3);
	assert_int_equal(base45_encode(ff, 1, out), 2);
	assert_memory_equal(out, "U5", 2);
	assert_int_equal(base45_encode(zero, 2, out), 3);
	assert_memory_equal(out, "000", 3);
}

static void test_lengths(void **state)
{
	(void)state;
	for (size_t n = 0; n < 5000; n++)
		assert_int_equal(base45_bytes_for_chars(base45_encoded_len(n)), n);
	/* A code's characters: never more bytes than they can carry. */
	for (size_t chars = 0; chars < 5000; chars++)
		assert_true(base45_encoded_len(base45_bytes_for_chars(chars)) <= chars);
	/* A version 40 code at level M holds 3391 alphanumeric characters: 2260 bytes. */
	assert_int_equal(base45_bytes_for_chars(3391), 2260);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc9285_examples),
		cmocka_unit_test(test_group_edges),
		cmocka_unit_test(test_lengths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
