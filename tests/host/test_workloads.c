// SPDX-License-Identifier: GPL-2.0
/*
 * The workload library (tests/workloads/): the table is complete and its names are what work0=
 * takes, every profile's rates stay in the model's range, the random data of the set-ups is
 * what they claim (chase's chain is one cycle through the whole set, in random order), and the
 * ring-3 loops, run here as plain x86-64 code, do the work their profiles count: chase comes back
 * to its start after a pass, branchy branches on every bit, copy copies, triad computes, alu
 * computes what its assembly says. user_memory_alloc() is this file's own, over a static arena.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/user.h"
#include "tests/lib/payload_config.h"
#include "tests/workloads/random_data.h"
#include "tests/workloads/workloads.h"

/* The profiles whose rates the tests below check against the thesis (tests/ring3/). */
extern const struct model_profile triad_profile, triad_pass_profile, copy_profile, chase_profile,
	branchy_profile, alu_profile, idle_profile;
/* What each chunk's own work counts (selftest=profiles traces it; docs/model.md). */
extern const struct model_profile triad_chunk_profile, copy_chunk_profile, chase_chunk_profile,
	branchy_chunk_profile, alu_chunk_profile, callret_chunk_profile;

/* ---- the kernel's user memory, faked -------------------------------------------------------- */

#define ARENA_BYTES (4u << 20)
static _Alignas(4096) uint8_t arena[ARENA_BYTES];
static size_t arena_used;

uint64_t user_memory_alloc(uint64_t bytes)
{
	uint64_t size = (bytes + 4095) & ~4095ull;

	if (size > ARENA_BYTES - arena_used)
		return 0;
	uint8_t *p = arena + arena_used;
	arena_used += size;
	memset(p, 0, size);
	return (uint64_t)(uintptr_t)p;
}

static int arena_reset(void **state)
{
	(void)state;
	arena_used = 0;
	return 0;
}

static const struct workload_settings small = { .triad_kib = 16, .chase_kib = 64 };

/* Parameters of w prepared as the runner does, for max_units units without a deadline. */
static struct workload_params *prepared(const char *name, const struct workload_settings *s,
					uint64_t max_units)
{
	static struct workload_memory memory;
	const struct workload *w = workload_by_name(name);

	assert_non_null(w);
	memset(&memory, 0, sizeof(memory));
	struct workload_params *p = workload_prepare(&memory, w, 0, s);
	assert_non_null(p);
	p->max_units = max_units;
	return p;
}

static uint64_t run(const char *name, struct workload_params *p)
{
	uint64_t units = workload_by_name(name)->entry((uint64_t)(uintptr_t)p);

	assert_int_equal(units, p->units_done);
	return units;
}

/* ---- the table ------------------------------------------------------------------------------ */

static bool name_ok(const char *name)
{
	if (!name[0] || strlen(name) >= CONFIG_NAME_MAX)
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
		      *c == '-'))
			return false;
	return true;
}

static void test_every_entry_complete(void **state)
{
	(void)state;
	assert_true(workload_count >= 7);
	for (unsigned i = 0; i < workload_count; i++) {
		const struct workload *w = &workloads[i];
		assert_non_null(w->name);
		assert_true(name_ok(w->name));
		assert_non_null(w->stresses);
		assert_true(strlen(w->stresses) > 10);
		assert_non_null(w->entry);
		assert_non_null(w->profile);
		for (unsigned j = 0; j < i; j++)
			assert_string_not_equal(w->name, workloads[j].name);
		assert_ptr_equal(workload_by_name(w->name), w);
	}
	assert_null(workload_by_name("nope"));
	assert_null(workload_by_name(""));
}

/* The workloads, by the names work0= takes, and the PMU check's behind them. */
static void test_the_library(void **state)
{
	static const char *const offered[] = { "triad", "copy", "chase", "branchy", "alu", "idle" };
	char text[128], want[128] = "";

	(void)state;
	for (unsigned i = 0; i < sizeof(offered) / sizeof(offered[0]); i++) {
		const struct workload *w = workload_by_name(offered[i]);
		assert_non_null(w);
		assert_false(w->internal);
	}
	assert_true(workload_by_name("callret")->internal);
	for (unsigned i = 0; i < workload_count; i++)
		if (!workloads[i].internal)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s",
				 want[0] ? "|" : "", workloads[i].name);
	/* What work0= takes (tests/payload_check.c), in the table's order, without callret. */
	text[0] = 0;
	for (const char *const *name = workload_names(); *name; name++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s",
			 text[0] ? "|" : "", *name);
	assert_string_equal(text, want);
	assert_null(strstr(text, "callret"));
}

static void profile_in_range(const struct model_profile *p)
{
	assert_non_null(p->name);
	assert_int_equal(p->ring, MODEL_RING_USER);
	assert_true(p->instructions < MODEL_RATE_MAX);
	assert_true(p->core_cycles < MODEL_RATE_MAX);
	assert_true(p->ref_cycles < MODEL_RATE_MAX);
	assert_true(p->nrates == 0 || p->rates != NULL);
	for (unsigned r = 0; r < p->nrates; r++) {
		assert_true(p->rates[r].per_units > 0);
		assert_true(p->rates[r].per_units < MODEL_RATE_MAX);
		assert_true(p->rates[r].event != 0);
		for (unsigned q = 0; q < r; q++)
			assert_false(p->rates[q].event == p->rates[r].event &&
				     p->rates[q].umask == p->rates[r].umask);
	}
}

static void test_profiles_in_range(void **state)
{
	(void)state;
	for (unsigned i = 0; i < workload_count; i++)
		profile_in_range(workloads[i].profile);
	profile_in_range(&triad_pass_profile);
	const struct model_profile *chunks[] = { &triad_chunk_profile, &copy_chunk_profile,
						 &chase_chunk_profile, &branchy_chunk_profile,
						 &alu_chunk_profile,   &callret_chunk_profile };
	for (unsigned i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++)
		profile_in_range(chunks[i]);
	for (const struct chase_level *l = chase_levels;; l++) {
		profile_in_range(l->profile);
		if (l->max_kib == UINT32_MAX)
			break;
		assert_true(l[1].max_kib > l->max_kib);
	}
}

/* The rate of event/umask in p, per MODEL_RATE_UNITS units; 0 when p has none. */
static uint64_t rate_of(const struct model_profile *p, uint8_t event, uint8_t umask)
{
	for (unsigned r = 0; r < p->nrates; r++)
		if (p->rates[r].event == event && p->rates[r].umask == umask)
			return p->rates[r].per_units;
	return 0;
}

/* The shapes the QEMU cases check, here at their source. */
static void test_profile_shapes(void **state)
{
	(void)state;
	assert_int_equal(rate_of(&triad_profile, 0xd0, 0x81), 2000);
	assert_int_equal(rate_of(&copy_profile, 0xd0, 0x81), 1000);
	assert_int_equal(rate_of(&copy_profile, 0xd0, 0x82), 1000);
	assert_int_equal(rate_of(&chase_profile, 0xd0, 0x81), 1000);
	uint64_t branches = rate_of(&branchy_profile, 0xc4, 0x00);
	uint64_t misses = rate_of(&branchy_profile, 0xc5, 0x00);
	assert_true(misses * 100 >= branches * 45 && misses * 100 <= branches * 55);
	assert_int_equal(rate_of(&alu_profile, 0xd0, 0x81), 0);
	assert_int_equal(rate_of(&alu_profile, 0xd0, 0x82), 0);
	assert_int_equal(rate_of(&idle_profile, 0xd0, 0x81), 0);
	assert_int_equal(rate_of(&idle_profile, 0xc5, 0x00), 0);
	/* Every chase level: one load per unit, where it hits adds up to one. */
	for (const struct chase_level *l = chase_levels;; l++) {
		const struct model_profile *p = l->profile;
		uint64_t hits = rate_of(p, 0xd1, 0x01) + rate_of(p, 0xd1, 0x02) +
				rate_of(p, 0xd1, 0x04) + rate_of(p, 0xd1, 0x20);
		assert_int_equal(hits, 1000);
		if (l->max_kib == UINT32_MAX)
			break;
	}
}

/* Against the caches of SNB-HSW client parts, half of each for a set per thread. */
static void test_chase_level_by_size(void **state)
{
	(void)state;
	assert_ptr_equal(chase_profile_for(4), &chase_l1_profile);
	assert_ptr_equal(chase_profile_for(16), &chase_l1_profile);
	assert_ptr_equal(chase_profile_for(17), &chase_l2_profile);
	assert_ptr_equal(chase_profile_for(128), &chase_l2_profile);
	assert_ptr_equal(chase_profile_for(129), &chase_l3_profile);
	assert_ptr_equal(chase_profile_for(3072), &chase_l3_profile);
	assert_ptr_equal(chase_profile_for(3073), &chase_memory_profile);
	assert_ptr_equal(chase_profile_for(16384), &chase_memory_profile);
	assert_ptr_equal(chase_profile_for(262144), &chase_memory_profile);
}

static void test_prepared_once_per_thread(void **state)
{
	static struct workload_memory memory;
	const struct workload *chase = workload_by_name("chase");

	(void)state;
	memset(&memory, 0, sizeof(memory));
	struct workload_params *p0 = workload_prepare(&memory, chase, 0, &small);
	struct workload_params *p1 = workload_prepare(&memory, chase, 1, &small);
	assert_non_null(p0);
	assert_non_null(p1);
	assert_ptr_not_equal(p0, p1);
	assert_ptr_not_equal(p0->chain, p1->chain);
	assert_ptr_equal(workload_prepare(&memory, chase, 0, &small), p0);
	assert_int_equal(p0->chunk_units, 4096);
	assert_int_equal(p0->elements, 64 * 1024 / CHASE_NODE_BYTES);
	assert_ptr_equal(p0->sized_profile, &chase_l2_profile);
	/* No memory: no parameters, and nothing half-made handed out. */
	struct workload_settings huge = { .triad_kib = 16, .chase_kib = 262144 };
	memset(&memory, 0, sizeof(memory));
	assert_null(workload_prepare(&memory, chase, 0, &huge));
}

/* ---- random data ---------------------------------------------------------------------------- */

/* Follow the chain from nodes[0]: every node once, back at the start after exactly n steps. */
static void assert_one_cycle(uint64_t *nodes, uint64_t n, uint64_t stride)
{
	static uint8_t seen[1 << 18];
	uint64_t *node = nodes;

	assert_true(n <= sizeof(seen));
	memset(seen, 0, n);
	for (uint64_t step = 0; step < n; step++) {
		uint64_t index = (uint64_t)(node - nodes) / stride;
		assert_true(node >= nodes && index < n && (uint64_t)(node - nodes) % stride == 0);
		assert_false(seen[index]);
		seen[index] = 1;
		node = (uint64_t *)(uintptr_t)*node;
	}
	assert_ptr_equal(node, nodes);
}

static void test_cycle_through_every_node(void **state)
{
	static const uint64_t sizes[] = { 1, 2, 3, 64, 1000, 4096, 1 << 18 };

	(void)state;
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t stride = sizes[i] > 4096 ? 1 : 8;
		uint64_t *nodes = (uint64_t *)(uintptr_t)user_memory_alloc(sizes[i] * stride * 8);
		assert_non_null(nodes);
		random_cycle_build(nodes, sizes[i], stride, i + 1);
		assert_one_cycle(nodes, sizes[i], stride);
		arena_reset(NULL);
	}
}

/* Random order: hardly ever the next line (which a prefetcher would guess), and seeded. */
static void test_cycle_is_random(void **state)
{
	enum { N = 4096 };
	static uint64_t a[N], b[N], c[N];
	unsigned adjacent = 0, same = 0;

	(void)state;
	random_cycle_build(a, N, 1, 42);
	random_cycle_build(b, N, 1, 42);
	random_cycle_build(c, N, 1, 43);
	for (unsigned i = 0; i < N; i++) {
		uint64_t next = (uint64_t)((uint64_t *)(uintptr_t)a[i] - a);
		adjacent += next == i + 1 || next + 1 == i;
		assert_int_equal(a[i] - (uint64_t)(uintptr_t)a, b[i] - (uint64_t)(uintptr_t)b);
		same += a[i] - (uint64_t)(uintptr_t)a == c[i] - (uint64_t)(uintptr_t)c;
	}
	/* A random cycle has about 2 neighbours in order among 4096 nodes. */
	assert_true(adjacent < N / 100);
	assert_true(same < N / 100);
}

static void test_random_words(void **state)
{
	enum { N = 4096 };
	static uint64_t w[N], again[N];
	uint64_t ones = 0;

	(void)state;
	random_words_fill(w, N, 7);
	random_words_fill(again, N, 7);
	assert_memory_equal(w, again, sizeof(w));
	for (unsigned i = 0; i < N; i++)
		ones += (uint64_t)__builtin_popcountll(w[i]);
	/* 262,144 fair bits: 131,072 ones, standard deviation 256; 1% is 5 of them. */
	assert_true(ones > N * 32 - N * 64 / 100 && ones < N * 32 + N * 64 / 100);
	uint64_t state_value = 1;
	for (unsigned i = 0; i < 1000; i++)
		assert_true(random_below(&state_value, 10) < 10);
}

/* ---- the loops ------------------------------------------------------------------------------ */

static void test_chase_comes_back(void **state)
{
	(void)state;
	struct workload_params *p = prepared("chase", &small, 0);
	p->max_units = 3 * p->elements;
	assert_int_equal(run("chase", p), 3 * p->elements);
	assert_int_equal(p->checksum, (uint64_t)(uintptr_t)p->chain);
	p->max_units = p->elements - 1;
	run("chase", p);
	assert_int_not_equal(p->checksum, (uint64_t)(uintptr_t)p->chain);
}

static void test_branchy_branches_on_every_bit(void **state)
{
	uint64_t ones = 0;

	(void)state;
	struct workload_params *p = prepared("branchy", &small, 0);
	assert_int_equal(p->elements, BRANCHY_WORDS);
	for (uint64_t i = 0; i < p->elements; i++)
		ones += (uint64_t)__builtin_popcountll(p->words[i]);
	/* Two passes and a half: the table wraps, and the last chunk stops inside it. */
	p->max_units = 2 * BRANCHY_WORDS + BRANCHY_WORDS / 2;
	assert_int_equal(run("branchy", p), p->max_units);
	uint64_t half = 0;
	for (uint64_t i = 0; i < BRANCHY_WORDS / 2; i++)
		half += (uint64_t)__builtin_popcountll(p->words[i]);
	assert_int_equal(p->checksum, 2 * ones + half);
}

static void test_copy_copies(void **state)
{
	(void)state;
	struct workload_params *p = prepared("copy", &small, 0);
	assert_int_equal(p->elements, 16 * 1024 / 8);
	assert_null(p->b);
	p->max_units = p->elements;
	assert_int_equal(run("copy", p), p->elements);
	assert_memory_equal(p->c, p->a, p->elements * sizeof(double));
}

static void test_triad_computes(void **state)
{
	(void)state;
	struct workload_params *p = prepared("triad", &small, 0);
	p->max_units = p->elements;
	run("triad", p);
	for (uint64_t i = 0; i < p->elements; i++)
		assert_true(p->c[i] == p->a[i] + 3.0 * p->b[i]);
}

/* alu's block in C, lane by lane: what the assembly must compute. */
static uint64_t alu_reference(uint64_t thread, uint64_t passes)
{
	uint64_t x = thread + 1, y = 7, v0[2] = { 1, 2 }, v1[2] = { 3, 4 }, v2[2] = { 0, 0 };

	for (uint64_t i = 0; i < passes; i++) {
		x = x * 0x9e3779b97f4a7c15ull + y;
		y ^= x;
		y = y << 13 | y >> 51;
		v0[0] += v1[0];
		v0[1] += v1[1];
		v1[0] ^= v0[0];
		v1[1] ^= v0[1];
		v2[0] = v1[1]; /* PSHUFD 0x4e: the two quadwords swapped */
		v2[1] = v1[0];
		for (unsigned q = 0; q < 2; q++) { /* PADDD: two 32-bit lanes per quadword */
			uint32_t lo = (uint32_t)v0[q] + (uint32_t)v2[q];
			uint32_t hi = (uint32_t)(v0[q] >> 32) + (uint32_t)(v2[q] >> 32);
			v0[q] = (uint64_t)hi << 32 | lo;
		}
	}
	return x ^ y ^ v0[0] ^ v0[1];
}

static void test_alu_computes(void **state)
{
	(void)state;
	struct workload_params *p = prepared("alu", &small, 10000);
	assert_int_equal(p->elements, 0);
	assert_int_equal(run("alu", p), 10000);
	assert_int_equal(p->checksum, alu_reference(0, 10000));
	p->thread = 1;
	p->max_units = 4096 * 3 + 5;
	run("alu", p);
	assert_int_equal(p->checksum, alu_reference(1, 4096 * 3 + 5));
}

/* The units of profile p in l's ledger (0 when it has no slot). */
static uint64_t ledger_units(const struct model_ledger *l, const struct model_profile *p)
{
	for (unsigned s = 0; s < MODEL_LEDGER_SLOTS; s++)
		if (l->profile[s] == p)
			return l->units[s];
	return 0;
}

/*
 * Each loop tells its ledger its units and, once per chunk, its chunk's own work (the profiles
 * selftest=profiles holds against a trace): 2.5 chunks of 256 units are 640 units and 3 chunks.
 */
static void test_the_ledger_counts_units_and_chunks(void **state)
{
	static const struct {
		const char *name;
		const struct model_profile *chunk;
	} loops[] = {
		{ "triad", &triad_chunk_profile }, { "copy", &copy_chunk_profile },
		{ "chase", &chase_chunk_profile }, { "branchy", &branchy_chunk_profile },
		{ "alu", &alu_chunk_profile },	   { "callret", &callret_chunk_profile },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
		struct workload_params *p = prepared(loops[i].name, &small, 640);
		p->chunk_units = 256;
		assert_int_equal(run(loops[i].name, p), 640);
		const struct model_profile *unit = workload_by_name(loops[i].name)->profile;
		assert_int_equal(ledger_units(&p->ledger, unit), 640);
		assert_int_equal(ledger_units(&p->ledger, loops[i].chunk), 3);
		assert_int_equal(p->ledger.unslotted, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_entry_complete),
		cmocka_unit_test(test_the_library),
		cmocka_unit_test(test_profiles_in_range),
		cmocka_unit_test(test_profile_shapes),
		cmocka_unit_test(test_chase_level_by_size),
		cmocka_unit_test_setup(test_prepared_once_per_thread, arena_reset),
		cmocka_unit_test_setup(test_cycle_through_every_node, arena_reset),
		cmocka_unit_test(test_cycle_is_random),
		cmocka_unit_test(test_random_words),
		cmocka_unit_test_setup(test_chase_comes_back, arena_reset),
		cmocka_unit_test_setup(test_branchy_branches_on_every_bit, arena_reset),
		cmocka_unit_test_setup(test_copy_copies, arena_reset),
		cmocka_unit_test_setup(test_triad_computes, arena_reset),
		cmocka_unit_test_setup(test_alu_computes, arena_reset),
		cmocka_unit_test_setup(test_the_ledger_counts_units_and_chunks, arena_reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
