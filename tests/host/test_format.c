// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/lib/format.c against the C library's snprintf: every conversion, flag, width, precision and
 * length the kernel accepts must print exactly what glibc prints. The thousands flag (') is
 * checked against hand-written expectations (glibc's depends on the locale).
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/lib/format.h"

/* Some cases feed deliberately odd formats (ignored flags, a trailing %) to both printfs. */
#pragma GCC diagnostic ignored "-Wformat"

/* Format with both implementations and compare text and return value. */
#define SAME(...)                                                                                  \
	do {                                                                                       \
		char ours[256], theirs[256];                                                       \
		int n1 = format_snprintf(ours, sizeof(ours), __VA_ARGS__);                         \
		int n2 = snprintf(theirs, sizeof(theirs), __VA_ARGS__);                            \
		assert_string_equal(ours, theirs);                                                 \
		assert_int_equal(n1, n2);                                                          \
	} while (0)

static void test_integers(void **state)
{
	(void)state;
	SAME("%d", 0);
	SAME("%d %i", -1, 42);
	SAME("%d", INT_MIN);
	SAME("%u", UINT_MAX);
	SAME("%lld", LLONG_MIN);
	SAME("%llu", ULLONG_MAX);
	SAME("%ld %lu", -123456789L, 123456789UL);
	SAME("%zu %zd", (size_t)77, (ssize_t)-77);
	SAME("%hhd %hhu %hd %hu", -3, 250, -300, 65000);
	SAME("%x %X %o", 0xdeadbeefu, 0xdeadbeefu, 0755u);
	SAME("%llx", 0x0123456789abcdefull);
	SAME("%jd %td", (intmax_t)-5, (ptrdiff_t)-6);
}

static void test_flags_width_precision(void **state)
{
	(void)state;
	SAME("[%5d] [%-5d] [%05d] [%+d] [% d]", 42, 42, 42, 42, 42);
	SAME("[%08x] [%#x] [%#X] [%#o] [%#o]", 0xbeefu, 0xbeefu, 0xbeefu, 8u, 0u);
	SAME("[%#x]", 0u);
	SAME("[%.3d] [%.0d] [%5.3d] [%-8.4x]", 7, 0, -7, 0xau);
	SAME("[%08.3d]", 5); /* 0 flag ignored with a precision */
	SAME("[%-08d]", 5);  /* 0 flag ignored with - */
	SAME("[%*d] [%-*d] [%.*d]", 6, 1, 6, 1, 3, 1);
	SAME("[%*d]", -6, 1); /* negative width: left-justified */
	SAME("[%+.0d] [% .0d]", 0, 0);
}

static void test_strings_and_chars(void **state)
{
	(void)state;
	SAME("[%s] [%10s] [%-10s] [%.2s] [%5.1s]", "abc", "abc", "abc", "abc", "abc");
	SAME("[%c] [%3c] [%-3c]", 'x', 'y', 'z');
	SAME("100%% sure");
	SAME("%s", "");
}

static void test_pointer(void **state)
{
	(void)state;
	char buf[64];
	format_snprintf(buf, sizeof(buf), "%p", (void *)0x1234);
	assert_string_equal(buf, "0x0000000000001234");
	format_snprintf(buf, sizeof(buf), "%p", (void *)0xffff800000000000ull);
	assert_string_equal(buf, "0xffff800000000000");
}

static void test_grouping(void **state)
{
	(void)state;
	char buf[64];
	format_snprintf(buf, sizeof(buf), "%'llu", 40960843ull);
	assert_string_equal(buf, "40,960,843");
	format_snprintf(buf, sizeof(buf), "%'d", -1234567);
	assert_string_equal(buf, "-1,234,567");
	format_snprintf(buf, sizeof(buf), "%'u", 644u);
	assert_string_equal(buf, "644");
	format_snprintf(buf, sizeof(buf), "%'u", 1000u);
	assert_string_equal(buf, "1,000");
	format_snprintf(buf, sizeof(buf), "[%'15llu]", 5747793793ull);
	assert_string_equal(buf, "[  5,747,793,793]");
	format_snprintf(buf, sizeof(buf), "[%-'12u]", 123456u);
	assert_string_equal(buf, "[123,456     ]");
	/* Grouping applies to decimal only. */
	format_snprintf(buf, sizeof(buf), "%'x", 0x123456u);
	assert_string_equal(buf, "123456");
}

static void test_truncation(void **state)
{
	(void)state;
	char buf[8];
	memset(buf, 'X', sizeof(buf));
	int n = format_snprintf(buf, sizeof(buf), "%s", "0123456789");
	assert_int_equal(n, 10);
	assert_string_equal(buf, "0123456");
	n = format_snprintf(buf, 1, "abc");
	assert_int_equal(n, 3);
	assert_string_equal(buf, "");
	n = format_snprintf(NULL, 0, "%d", 12345);
	assert_int_equal(n, 5);
}

static void test_odd_formats(void **state)
{
	(void)state;
	char buf[32];
	/* A trailing lone % and an unknown conversion print as written instead of reading on. */
	format_snprintf(buf, sizeof(buf), "50%");
	assert_string_equal(buf, "50%");
	format_snprintf(buf, sizeof(buf), "%y!");
	assert_string_equal(buf, "%y!");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_flags_width_precision),
		cmocka_unit_test(test_strings_and_chars),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_odd_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
