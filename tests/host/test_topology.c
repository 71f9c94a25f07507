// SPDX-License-Identifier: GPL-2.0
/*
 * CPU topology (kernel/topology.c): CPUID leaf 0x0B and leaves 1/4 as QEMU and real Sandy
 * Bridge to Haswell parts report them, malformed leaves, and APIC id lists that are sparse,
 * unsorted, repeated or too many.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/topology.h"

#define SMT_LEVEL(n) (0x100u | (n))
#define CORE_LEVEL(n) (0x200u | (n))
#define HTT (1u << 28)

static struct topology t;

static void assert_shifts(const struct topology_shifts *s, unsigned smt, unsigned package,
			  unsigned source)
{
	assert_int_equal(s->smt_bits, smt);
	assert_int_equal(s->package_shift, package);
	assert_int_equal(s->source, source);
}

/* A sentinel that a failing call must leave alone. */
static const struct topology_shifts untouched = { 7, 9, 42 };

/* ---- leaf 0x0B ---- */

static void test_leaf_0b_qemu_2c2t(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	/* -smp 4,sockets=1,cores=2,threads=2, as QEMU 7.2 reports it */
	assert_true(topology_shifts_from_leaf_0b(1, 2, SMT_LEVEL(0), 2, 4, CORE_LEVEL(1), &s));
	assert_shifts(&s, 1, 2, TOPOLOGY_LEAF_0B);
}

static void test_leaf_0b_haswell(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	/* 4 cores with HT: the core field leaves room for 8 cores. */
	assert_true(topology_shifts_from_leaf_0b(1, 2, SMT_LEVEL(0), 4, 8, CORE_LEVEL(1), &s));
	assert_shifts(&s, 1, 4, TOPOLOGY_LEAF_0B);
}

static void test_leaf_0b_no_smt(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	/* HT off or absent: the SMT level is still sub-leaf 0, with shift 0 and 1 thread. */
	assert_true(topology_shifts_from_leaf_0b(0, 1, SMT_LEVEL(0), 2, 3, CORE_LEVEL(1), &s));
	assert_shifts(&s, 0, 2, TOPOLOGY_LEAF_0B);
	/* A single CPU: both shifts 0. */
	assert_true(topology_shifts_from_leaf_0b(0, 1, SMT_LEVEL(0), 0, 1, CORE_LEVEL(1), &s));
	assert_shifts(&s, 0, 0, TOPOLOGY_LEAF_0B);
}

/* Only EAX[4:0] is the shift; EBX counts are for display and not compared. */
static void test_leaf_0b_ignores_other_bits(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	assert_true(topology_shifts_from_leaf_0b(0xffffffe1, 0xffff0001, 0xffff0100, 0xffffffe5,
						 0x00000003, 0x12340201, &s));
	assert_shifts(&s, 1, 5, TOPOLOGY_LEAF_0B);
}

static void test_leaf_0b_malformed(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	/* Leaf absent: all zero. */
	assert_false(topology_shifts_from_leaf_0b(0, 0, 0, 0, 0, 0, &s));
	/* EBX[15:0] = 0 at sub-leaf 0, levels otherwise right. */
	assert_false(topology_shifts_from_leaf_0b(1, 0, SMT_LEVEL(0), 2, 4, CORE_LEVEL(1), &s));
	/* EBX[15:0] = 0 at sub-leaf 1 (upper bits set). */
	assert_false(
		topology_shifts_from_leaf_0b(1, 2, SMT_LEVEL(0), 2, 0xffff0000, CORE_LEVEL(1), &s));
	/* Level types swapped. */
	assert_false(topology_shifts_from_leaf_0b(2, 4, CORE_LEVEL(0), 1, 2, SMT_LEVEL(1), &s));
	/* Core level first. */
	assert_false(topology_shifts_from_leaf_0b(2, 4, CORE_LEVEL(0), 2, 4, CORE_LEVEL(1), &s));
	/* Sub-leaf 1 invalid (level type 0) or an unknown level type. */
	assert_false(topology_shifts_from_leaf_0b(1, 2, SMT_LEVEL(0), 0, 0, 1, &s));
	assert_false(topology_shifts_from_leaf_0b(1, 2, SMT_LEVEL(0), 2, 4, 0x301, &s));
	/* The core shift narrower than the SMT shift. */
	assert_false(topology_shifts_from_leaf_0b(2, 4, SMT_LEVEL(0), 1, 4, CORE_LEVEL(1), &s));
	assert_memory_equal(&s, &untouched, sizeof(s));
}

/* ---- leaves 1 and 4 ---- */

static void test_leaves_1_4(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	/* Haswell/Sandy Bridge client: 16 logical ids, 8 core ids per package. */
	topology_shifts_from_leaves_1_4(16 << 16, HTT, true, 7u << 26, &s);
	assert_shifts(&s, 1, 4, TOPOLOGY_LEAVES_1_4);
	/* QEMU cores=2,threads=2: 4 logical, 2 cores. */
	topology_shifts_from_leaves_1_4(4 << 16, HTT, true, 1u << 26 | 0x121, &s);
	assert_shifts(&s, 1, 2, TOPOLOGY_LEAVES_1_4);
	/* QEMU sockets=2,cores=3,threads=1: 3 logical, 3 cores, ids 0,1,2,4,5,6. */
	topology_shifts_from_leaves_1_4(3 << 16, HTT, true, 2u << 26, &s);
	assert_shifts(&s, 0, 2, TOPOLOGY_LEAVES_1_4);
	/* 3 cores with 2 threads: 6 logical ids. */
	topology_shifts_from_leaves_1_4(6 << 16, HTT, true, 2u << 26, &s);
	assert_shifts(&s, 1, 3, TOPOLOGY_LEAVES_1_4);
	/* Pentium 4 with HT: no leaf 4, 2 logical ids, one core. */
	topology_shifts_from_leaves_1_4(2 << 16, HTT, false, 0xdeadbeef, &s);
	assert_shifts(&s, 1, 1, TOPOLOGY_LEAVES_1_4);
	/* Other bits of EBX (brand, CLFLUSH size, initial APIC id) do not matter. */
	topology_shifts_from_leaves_1_4(0x05000800 | 4 << 16, HTT | 0x178bfbff, true, 1u << 26, &s);
	assert_shifts(&s, 1, 2, TOPOLOGY_LEAVES_1_4);
}

static void test_leaves_1_4_htt_clear(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	/* HTT clear: one id per package, whatever EBX[23:16] and leaf 4 say. */
	topology_shifts_from_leaves_1_4(16 << 16, 0, true, 7u << 26, &s);
	assert_shifts(&s, 0, 0, TOPOLOGY_LEAVES_1_4);
	topology_shifts_from_leaves_1_4(0, 0, false, 0, &s);
	assert_shifts(&s, 0, 0, TOPOLOGY_LEAVES_1_4);
}

static void test_leaves_1_4_inconsistent(void **state)
{
	(void)state;
	struct topology_shifts s = untouched;

	/* HTT set with a logical count of 0: one. */
	topology_shifts_from_leaves_1_4(0, HTT, false, 0, &s);
	assert_shifts(&s, 0, 0, TOPOLOGY_LEAVES_1_4);
	/* More cores than logical ids: the package shift covers the cores, no SMT bits. */
	topology_shifts_from_leaves_1_4(1 << 16, HTT, true, 3u << 26, &s);
	assert_shifts(&s, 0, 2, TOPOLOGY_LEAVES_1_4);
	/* The largest counts: 255 logical, 64 cores. */
	topology_shifts_from_leaves_1_4(255 << 16, HTT, true, 63u << 26, &s);
	assert_shifts(&s, 2, 8, TOPOLOGY_LEAVES_1_4);
}

/* ---- topology_build ---- */

static void build(const uint32_t *ids, unsigned n, unsigned smt, unsigned package)
{
	struct topology_shifts s = { (uint8_t)smt, (uint8_t)package, TOPOLOGY_LEAF_0B };

	memset(&t, 0xa5, sizeof(t)); /* garbage: topology_build must clear it */
	topology_build(ids, n, &s, &t);
}

static void assert_core(unsigned index, uint32_t package, uint32_t core, unsigned n,
			const uint32_t *threads)
{
	const struct topology_core *c = &t.cores[index];

	assert_int_equal(c->package, package);
	assert_int_equal(c->core, core);
	assert_int_equal(c->thread_count, n);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(c->threads[i], threads[i]);
}

/* The index of the core holding id, or -1 (for the assertions) when none does. */
static int core_of(const struct topology *topology, uint32_t id)
{
	unsigned core = 12345;

	if (topology_core_of(topology, id, &core))
		return (int)core;
	assert_int_equal(core, 12345); /* untouched when no core holds it */
	return -1;
}

static void assert_cpu(unsigned i, uint32_t id, uint32_t package, uint32_t core, uint32_t smt)
{
	assert_int_equal(t.cpus[i].apic_id, id);
	assert_int_equal(t.cpus[i].package, package);
	assert_int_equal(t.cpus[i].core, core);
	assert_int_equal(t.cpus[i].smt, smt);
	assert_int_equal(core_of(&t, id), t.cpus[i].core_index);
	const struct topology_core *c = &t.cores[t.cpus[i].core_index];
	assert_int_equal(c->package, package);
	assert_int_equal(c->core, core);
}

static void test_build_single_cpu(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0 };

	topology_build(ids, 1, NULL, &t);
	assert_int_equal(t.shifts.source, TOPOLOGY_NONE);
	assert_int_equal(t.cpu_count, 1);
	assert_int_equal(t.core_count, 1);
	assert_int_equal(t.package_count, 1);
	assert_int_equal(t.threads_per_core, 1);
	assert_core(0, 0, 0, 1, ids);
	assert_int_equal(core_of(&t, 0), 0);
	assert_int_equal(core_of(&t, 1), -1);
	assert_false(t.duplicates);
}

static void test_build_qemu_2c2t(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 1, 2, 3 };

	build(ids, 4, 1, 2);
	assert_int_equal(t.cpu_count, 4);
	assert_int_equal(t.core_count, 2);
	assert_int_equal(t.package_count, 1);
	assert_int_equal(t.threads_per_core, 2);
	assert_core(0, 0, 0, 2, (const uint32_t[]){ 0, 1 });
	assert_core(1, 0, 1, 2, (const uint32_t[]){ 2, 3 });
	assert_cpu(0, 0, 0, 0, 0);
	assert_cpu(1, 1, 0, 0, 1);
	assert_cpu(2, 2, 0, 1, 0);
	assert_cpu(3, 3, 0, 1, 1);
	assert_int_equal(core_of(&t, 4), -1);
}

/* -smp 6,sockets=2,cores=3,threads=1: APIC ids 0,1,2,4,5,6, no SMT. */
static void test_build_qemu_2s3c1t(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 1, 2, 4, 5, 6 };

	build(ids, 6, 0, 2);
	assert_int_equal(t.cpu_count, 6);
	assert_int_equal(t.core_count, 6);
	assert_int_equal(t.package_count, 2);
	assert_int_equal(t.threads_per_core, 1);
	assert_cpu(2, 2, 0, 2, 0);
	assert_cpu(3, 4, 1, 0, 0);
	assert_cpu(5, 6, 1, 2, 0);
	assert_core(3, 1, 0, 1, (const uint32_t[]){ 4 });
	assert_int_equal(core_of(&t, 3), -1);
}

/* -smp 8,sockets=2,cores=2,threads=2. */
static void test_build_two_sockets_smt(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 1, 2, 3, 4, 5, 6, 7 };

	build(ids, 8, 1, 2);
	assert_int_equal(t.core_count, 4);
	assert_int_equal(t.package_count, 2);
	assert_int_equal(t.threads_per_core, 2);
	assert_core(2, 1, 0, 2, (const uint32_t[]){ 4, 5 });
	assert_core(3, 1, 1, 2, (const uint32_t[]){ 6, 7 });
	assert_cpu(6, 6, 1, 1, 0);
}

/* Haswell client, 4 cores with HT, as the MADT lists them (Linux's CPU numbering aside). */
static void test_build_haswell(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 2, 4, 6, 1, 3, 5, 7 };

	build(ids, 8, 1, 4);
	assert_int_equal(t.core_count, 4);
	assert_int_equal(t.package_count, 1);
	assert_int_equal(t.threads_per_core, 2);
	for (uint32_t c = 0; c < 4; c++)
		assert_core(c, 0, c, 2, (const uint32_t[]){ 2 * c, 2 * c + 1 });
	/* cpus[] keeps the given order. */
	assert_cpu(1, 2, 0, 1, 0);
	assert_cpu(4, 1, 0, 0, 1);
	assert_int_equal(core_of(&t, 7), 3);
}

/* HT disabled in the BIOS: the SMT field still exists, only even ids are listed. */
static void test_build_smt_field_unused(void **state)
{
	(void)state;
	const uint32_t ids[] = { 6, 0, 4, 2 };

	build(ids, 4, 1, 4);
	assert_int_equal(t.core_count, 4);
	assert_int_equal(t.threads_per_core, 1);
	assert_core(0, 0, 0, 1, (const uint32_t[]){ 0 });
	assert_core(3, 0, 3, 1, (const uint32_t[]){ 6 });
	assert_int_equal(t.cpus[0].core_index, 3);
	assert_int_equal(t.cpus[1].core_index, 0);
}

/* Unsorted, sparse ids over two packages: cores sorted, threads in SMT order. */
static void test_build_unsorted_sparse(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0x13, 0x02, 0x12, 0x03, 0x10, 0x11 };

	build(ids, 6, 1, 4);
	assert_int_equal(t.core_count, 3);
	assert_int_equal(t.package_count, 2);
	assert_core(0, 0, 1, 2, (const uint32_t[]){ 2, 3 });
	assert_core(1, 1, 0, 2, (const uint32_t[]){ 0x10, 0x11 });
	assert_core(2, 1, 1, 2, (const uint32_t[]){ 0x12, 0x13 });
	for (unsigned i = 0; i < 6; i++)
		assert_cpu(i, ids[i], ids[i] >> 4, (ids[i] >> 1) & 7, ids[i] & 1);
}

static void test_build_duplicates(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 1, 1, 0, 2 };

	build(ids, 5, 1, 2);
	assert_true(t.duplicates);
	assert_int_equal(t.cpu_count, 3);
	assert_core(0, 0, 0, 2, (const uint32_t[]){ 0, 1 });
	assert_core(1, 0, 1, 1, (const uint32_t[]){ 2 });
	assert_int_equal(t.threads_per_core, 2);
}

/* Eight threads in one core: the first four given are kept in the core, all in cpus[]. */
static void test_build_too_many_threads(void **state)
{
	(void)state;
	const uint32_t ids[] = { 7, 6, 5, 4, 3, 2, 1, 0, 8 };

	build(ids, 9, 3, 4);
	assert_int_equal(t.cpu_count, 9);
	assert_int_equal(t.core_count, 2);
	assert_true(t.threads_truncated);
	assert_int_equal(t.threads_per_core, TOPOLOGY_MAX_THREADS);
	assert_core(0, 0, 0, 4, (const uint32_t[]){ 4, 5, 6, 7 });
	assert_core(1, 0, 1, 1, (const uint32_t[]){ 8 });
	assert_int_equal(core_of(&t, 0), 0);
	assert_cpu(7, 0, 0, 0, 0);
}

static void test_build_too_many_cpus(void **state)
{
	(void)state;
	uint32_t ids[TOPOLOGY_MAX_CPUS + 44];

	for (unsigned i = 0; i < TOPOLOGY_MAX_CPUS + 44; i++)
		ids[i] = i;
	build(ids, TOPOLOGY_MAX_CPUS + 44, 1, 5);
	assert_true(t.cpus_truncated);
	assert_int_equal(t.cpu_count, TOPOLOGY_MAX_CPUS);
	assert_int_equal(t.core_count, TOPOLOGY_MAX_CPUS / 2);
	assert_int_equal(t.package_count, TOPOLOGY_MAX_CPUS / 32);
	assert_int_equal(core_of(&t, TOPOLOGY_MAX_CPUS - 1), TOPOLOGY_MAX_CPUS / 2 - 1);
	assert_int_equal(core_of(&t, TOPOLOGY_MAX_CPUS), -1);
}

/* x2APIC ids above 255 and at the top of the 32-bit range. */
static void test_build_x2apic_ids(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0x100, 0x101, 0xfffffffe, 0x80000001 };

	build(ids, 4, 1, 31);
	assert_cpu(0, 0x100, 0, 0x80, 0);
	assert_cpu(1, 0x101, 0, 0x80, 1);
	assert_cpu(2, 0xfffffffe, 1, 0x3fffffff, 0);
	assert_cpu(3, 0x80000001, 1, 0, 1);
	assert_int_equal(t.package_count, 2);
}

/* Shifts the caller should never pass: clamped, never an undefined shift. */
static void test_build_odd_shifts(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0x12345678, 5 };

	build(ids, 2, 3, 40);
	assert_int_equal(t.shifts.package_shift, 32);
	assert_cpu(0, 0x12345678, 0, 0x12345678 >> 3, 0);
	build(ids, 2, 6, 2);
	assert_int_equal(t.shifts.smt_bits, 2);
	assert_cpu(1, 5, 1, 0, 1);
	build(ids, 2, 32, 32);
	assert_cpu(0, 0x12345678, 0, 0, 0x12345678);
}

/* TOPOLOGY_NONE: widths ignored, each CPU its own package and core. */
static void test_build_no_information(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 1, 2, 3 };
	struct topology_shifts s = { 1, 2, TOPOLOGY_NONE };

	topology_build(ids, 4, &s, &t);
	assert_int_equal(t.shifts.smt_bits, 0);
	assert_int_equal(t.shifts.package_shift, 0);
	assert_int_equal(t.core_count, 4);
	assert_int_equal(t.package_count, 4);
	assert_int_equal(t.threads_per_core, 1);
	assert_cpu(3, 3, 3, 0, 0);
}

static void test_build_empty(void **state)
{
	(void)state;
	build(NULL, 0, 1, 2);
	assert_int_equal(t.cpu_count, 0);
	assert_int_equal(t.core_count, 0);
	assert_int_equal(t.package_count, 0);
	assert_int_equal(t.threads_per_core, 0);
	assert_int_equal(core_of(&t, 0), -1);
}

/* The decoder and the builder together, from the CPUID values QEMU gives. */
static void test_leaf_0b_then_build(void **state)
{
	(void)state;
	struct topology_shifts s;
	const uint32_t ids[] = { 0, 1, 2, 3 };

	assert_true(topology_shifts_from_leaf_0b(1, 2, SMT_LEVEL(0), 2, 4, CORE_LEVEL(1), &s));
	topology_build(ids, 4, &s, &t);
	assert_int_equal(t.shifts.source, TOPOLOGY_LEAF_0B);
	assert_int_equal(core_of(&t, 1), core_of(&t, 0));
	assert_int_not_equal(core_of(&t, 2), core_of(&t, 1));
	assert_int_equal(t.threads_per_core, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaf_0b_qemu_2c2t),
		cmocka_unit_test(test_leaf_0b_haswell),
		cmocka_unit_test(test_leaf_0b_no_smt),
		cmocka_unit_test(test_leaf_0b_ignores_other_bits),
		cmocka_unit_test(test_leaf_0b_malformed),
		cmocka_unit_test(test_leaves_1_4),
		cmocka_unit_test(test_leaves_1_4_htt_clear),
		cmocka_unit_test(test_leaves_1_4_inconsistent),
		cmocka_unit_test(test_build_single_cpu),
		cmocka_unit_test(test_build_qemu_2c2t),
		cmocka_unit_test(test_build_qemu_2s3c1t),
		cmocka_unit_test(test_build_two_sockets_smt),
		cmocka_unit_test(test_build_haswell),
		cmocka_unit_test(test_build_smt_field_unused),
		cmocka_unit_test(test_build_unsorted_sparse),
		cmocka_unit_test(test_build_duplicates),
		cmocka_unit_test(test_build_too_many_threads),
		cmocka_unit_test(test_build_too_many_cpus),
		cmocka_unit_test(test_build_x2apic_ids),
		cmocka_unit_test(test_build_odd_shifts),
		cmocka_unit_test(test_build_no_information),
		cmocka_unit_test(test_build_empty),
		cmocka_unit_test(test_leaf_0b_then_build),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
