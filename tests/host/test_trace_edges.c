// SPDX-License-Identifier: GPL-2.0
/*
 * The histogram of a trace's edges (tests/profiles/edges.h): each distinct (from, to) once with
 * how often it was taken, whatever the order of the steps; sorted by from, then to, for the
 * `trace` record; the steps that find no free slot counted as lost, never dropped silently.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/profiles/edges.h"

static struct trace_edges t;

/* A loop of three instructions at 0x1000, 0x1003, 0x1005 (the last jumps back), run n times,
 * then the fall-through to 0x1007. */
static void loop(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		trace_edges_add(&t, 0x1000, 0x1003);
		trace_edges_add(&t, 0x1003, 0x1005);
		trace_edges_add(&t, 0x1005, i + 1 < n ? 0x1000 : 0x1007);
	}
}

static void test_a_loop_is_four_edges(void **state)
{
	(void)state;
	trace_edges_reset(&t);
	loop(64);
	assert_int_equal(t.steps, 3 * 64);
	assert_int_equal(t.lost, 0);
	assert_int_equal(trace_edges_sort(&t), 4);
	const struct trace_edge want[] = {
		{ 0x1000, 0x1003, 64 },
		{ 0x1003, 0x1005, 64 },
		{ 0x1005, 0x1000, 63 },
		{ 0x1005, 0x1007, 1 },
	};
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(t.slot[i].from, want[i].from);
		assert_int_equal(t.slot[i].to, want[i].to);
		assert_int_equal(t.slot[i].count, want[i].count);
	}
	/* Everything behind the sorted edges is free. */
	for (unsigned i = 4; i < TRACE_EDGES_MAX; i++)
		assert_int_equal(t.slot[i].count, 0);
}

/* Edges that collide in the hash, added in reverse order, come out whole and in order. */
static void test_sorted_whatever_the_order(void **state)
{
	(void)state;
	trace_edges_reset(&t);
	for (uint64_t i = 700; i-- > 0;)
		for (uint64_t k = 0; k <= i % 3; k++)
			trace_edges_add(&t, 0x200000 + 4 * (i / 2),
					0x200000 + 4 * (i / 2) + 1 + i % 2);
	assert_int_equal(t.lost, 0);
	unsigned n = trace_edges_sort(&t);
	assert_int_equal(n, 700);
	uint64_t steps = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t from = t.slot[i].from, to = t.slot[i].to;
		uint64_t k = (from - 0x200000) / 4 * 2 + (to - from - 1);
		assert_int_equal(t.slot[i].count, k % 3 + 1);
		if (i)
			assert_true(t.slot[i - 1].from < from ||
				    (t.slot[i - 1].from == from && t.slot[i - 1].to < to));
		steps += t.slot[i].count;
	}
	assert_int_equal(steps, t.steps);
}

/* A full table: the steps of edges that find no slot are counted as lost, the others kept. */
static void test_a_full_table_counts_what_it_loses(void **state)
{
	(void)state;
	trace_edges_reset(&t);
	for (uint64_t i = 0; i < TRACE_EDGES_MAX + 10; i++)
		trace_edges_add(&t, 0x5000 + i, 0x5001 + i);
	trace_edges_add(&t, 0x5000, 0x5001); /* kept: it has its slot */
	assert_int_equal(t.used, TRACE_EDGES_MAX);
	assert_int_equal(t.lost, 10);
	assert_int_equal(t.steps, TRACE_EDGES_MAX + 11);
	assert_int_equal(trace_edges_sort(&t), TRACE_EDGES_MAX);
	assert_int_equal(t.slot[0].count, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_loop_is_four_edges),
		cmocka_unit_test(test_sorted_whatever_the_order),
		cmocka_unit_test(test_a_full_table_counts_what_it_loses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
