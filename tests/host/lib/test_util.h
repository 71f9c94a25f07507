/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers the host tests share. Include after <cmocka.h> (which needs <stdarg.h>,
 * <stddef.h> and <setjmp.h> before it).
 */
#ifndef TESTS_HOST_LIB_TEST_UTIL_H
#define TESTS_HOST_LIB_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/event.h"

/* A raw event as perf writes it, rUUEE: unit mask UU, event select EE. */
static inline struct pmu_event ev(uint16_t code, bool usr, bool os)
{
	struct pmu_event e = { .event = code & 0xff, .umask = code >> 8, .usr = usr, .os = os };
	return e;
}

/* a * b / c without overflow in the product, as the code under test scales counts. */
static inline uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	return (uint64_t)((unsigned __int128)a * b / c);
}

/* v as `bytes` little-endian bytes at p, as the firmware's structures hold it. */
static inline void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A string equal to want, or NULL where want is NULL. */
static inline void assert_str_or_null(const char *got, const char *want)
{
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
}

#endif
