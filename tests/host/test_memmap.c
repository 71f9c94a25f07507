// SPDX-License-Identifier: GPL-2.0
/*
 * Free memory from the firmware's map (kernel/memmap.c): real-looking maps, and the ways maps
 * go wrong: overlaps, no order, zero lengths, unaligned edges, wrap-around at 2^64, too many
 * pieces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/memmap.h"

#define KiB 0x400ull
#define MiB 0x100000ull
#define GiB 0x40000000ull
#define TOP UINT64_MAX

enum {
	U = BOOT_MEMORY_USABLE,
	R = BOOT_MEMORY_RESERVED,
	A = BOOT_MEMORY_ACPI_RECLAIMABLE,
	N = BOOT_MEMORY_ACPI_NVS,
	B = BOOT_MEMORY_BAD
};

static struct boot_info info;
static struct memmap_free out;

/* A map from {base, length, type} rows. */
static void map(const uint64_t (*rows)[3], unsigned n)
{
	memset(&info, 0, sizeof(info));
	for (unsigned i = 0; i < n; i++) {
		info.memory_map[i].base = rows[i][0];
		info.memory_map[i].length = rows[i][1];
		info.memory_map[i].type = (uint32_t)rows[i][2];
	}
	info.memory_region_count = n;
}

static void free_ranges(const struct mem_range *reserved, unsigned n, uint64_t low, uint64_t high)
{
	memset(&out, 0xa5, sizeof(out)); /* garbage: memmap_free_ranges must clear it */
	memmap_free_ranges(&info, reserved, n, low, high, &out);
}

/* out holds exactly these ranges, and the invariants hold. */
static void expect(const struct mem_range *ranges, unsigned n)
{
	uint64_t bytes = 0;
	bool same = out.count == n;

	for (unsigned i = 0; same && i < n; i++)
		same = out.ranges[i].start == ranges[i].start && out.ranges[i].end == ranges[i].end;
	if (!same)
		for (unsigned i = 0; i < out.count && i < MEMMAP_FREE_MAX; i++)
			print_message("  got [%#llx, %#llx)\n",
				      (unsigned long long)out.ranges[i].start,
				      (unsigned long long)out.ranges[i].end);
	assert_int_equal(out.count, n);
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(out.ranges[i].start, ranges[i].start);
		assert_int_equal(out.ranges[i].end, ranges[i].end);
		assert_int_equal(out.ranges[i].start % 4096, 0);
		assert_int_equal(out.ranges[i].end % 4096, 0);
		assert_true(out.ranges[i].start < out.ranges[i].end);
		if (i > 0)
			assert_true(out.ranges[i - 1].end < out.ranges[i].start);
		bytes += ranges[i].end - ranges[i].start;
	}
	assert_int_equal(out.bytes, bytes);
	assert_int_equal(out.dropped, 0);
}

#define EXPECT(...)                                                                                \
	do {                                                                                       \
		const struct mem_range e_[] = { __VA_ARGS__ };                                     \
		expect(e_, sizeof(e_) / sizeof(e_[0]));                                            \
	} while (0)

/* SeaBIOS with 128 MiB, as QEMU hands it over. */
static const uint64_t seabios[][3] = {
	{ 0, 0x9fc00, U },	    { 0x9fc00, 0x400, R },     { 0xf0000, 0x10000, R },
	{ 0x100000, 0x7ee0000, U }, { 0x7fe0000, 0x20000, R }, { 0xfffc0000, 0x40000, R },
};

static const struct mem_range kernel_reserved[] = {
	{ 0, 0x1000 },		/* page 0 */
	{ 0x100000, 0x200000 }, /* the kernel image */
};

static void test_seabios(void **state)
{
	(void)state;
	map(seabios, 6);
	free_ranges(kernel_reserved, 2, 0, 4 * GiB);
	EXPECT({ 0x1000, 0x9f000 }, { 0x200000, 0x7fe0000 });
	assert_int_equal(memmap_trampoline_page(&out), 0x9e000);
}

/* The same map in another order gives the same ranges. */
static void test_unsorted(void **state)
{
	(void)state;
	const uint64_t rows[][3] = {
		{ 0xfffc0000, 0x40000, R }, { 0x100000, 0x7ee0000, U }, { 0x9fc00, 0x400, R },
		{ 0x7fe0000, 0x20000, R },  { 0, 0x9fc00, U },		{ 0xf0000, 0x10000, R },
	};
	const struct mem_range res[] = { { 0x100000, 0x200000 }, { 0, 0x1000 } };

	map(rows, 6);
	free_ranges(res, 2, 0, 4 * GiB);
	EXPECT({ 0x1000, 0x9f000 }, { 0x200000, 0x7fe0000 });
}

/* A reserved or ACPI region inside a usable one wins, at unaligned edges too. */
static void test_overlap_stricter_type_wins(void **state)
{
	(void)state;
	const uint64_t rows[][3] = {
		{ 0, 2 * MiB, U },	 { 0x80800, 0x10000 - 0x700, R }, /* [0x80800, 0x90100) */
		{ 0x100000, 0x1000, A }, { 0x120000, 0x800, N },	  { 0x140fff, 2, B },
		{ 0x160000, 0x1000, 7 }, /* a type the spec does not define: not usable */
	};

	map(rows, 6);
	free_ranges(NULL, 0, 0, TOP);
	EXPECT({ 0, 0x80000 }, { 0x91000, 0x100000 }, { 0x101000, 0x120000 },
	       { 0x121000, 0x140000 }, { 0x142000, 0x160000 }, { 0x161000, 0x200000 });
}

/* Usable regions that overlap or touch at an unaligned address form one range. */
static void test_usable_overlap_and_touch(void **state)
{
	(void)state;
	const uint64_t rows[][3] = {
		{ 0x1000, 0x800, U },  /* [0x1000, 0x1800) */
		{ 0x1800, 0x1800, U }, /* [0x1800, 0x3000): together whole pages */
		{ 0x5000, 0x4000, U }, /* [0x5000, 0x9000) */
		{ 0x7000, 0x4000, U }, /* [0x7000, 0xb000) overlaps it */
		{ 0x6000, 0x1000, U }, /* inside both */
	};

	map(rows, 5);
	free_ranges(NULL, 0, 0, TOP);
	EXPECT({ 0x1000, 0x3000 }, { 0x5000, 0xb000 });
}

/* A chain of usable regions listed back to front. */
static void test_usable_chain_reversed(void **state)
{
	(void)state;
	uint64_t rows[40][3];

	for (unsigned i = 0; i < 40; i++) {
		rows[i][0] = 0x100000 + (39 - i) * 0x1800ull;
		rows[i][1] = 0x1800;
		rows[i][2] = U;
	}
	map((const uint64_t(*)[3])rows, 40);
	free_ranges(NULL, 0, 0, TOP);
	EXPECT({ 0x100000, 0x100000 + 40 * 0x1800 });
}

static void test_zero_length(void **state)
{
	(void)state;
	const uint64_t rows[][3] = {
		{ 0x10000, 0, U }, { 0x20000, 0x10000, U }, { 0x24000, 0, R }, /* splits nothing */
	};
	const struct mem_range res[] = { { 0x28000, 0x28000 }, { 0x2c000, 0x2b000 } };

	map(rows, 3);
	free_ranges(res, 2, 0, TOP); /* empty and inverted reserved ranges: ignored */
	EXPECT({ 0x20000, 0x30000 });
}

static void test_unaligned_edges(void **state)
{
	(void)state;
	const uint64_t rows[][3] = {
		{ 0x1234, 0x5678 - 0x1234, U }, /* [0x1234, 0x5678) */
		{ 0x10100, 0xe00, U },		/* inside one page: nothing */
		{ 0x20fff, 0x1002, U },		/* [0x20fff, 0x22001): one page */
	};

	map(rows, 3);
	free_ranges(NULL, 0, 0, TOP);
	EXPECT({ 0x2000, 0x5000 }, { 0x21000, 0x22000 });
}

/* Regions crossing low and high are cut there; unaligned bounds shrink inward. */
static void test_low_high(void **state)
{
	(void)state;
	const uint64_t rows[][3] = { { 0, 8 * GiB, U } };

	map(rows, 1);
	free_ranges(NULL, 0, MiB, GiB);
	EXPECT({ MiB, GiB });
	free_ranges(NULL, 0, MiB + 0x800, GiB - 0x100);
	EXPECT({ MiB + 0x1000, GiB - 0x1000 });
	/* Below 1 MiB only (the trampoline's search). */
	map(seabios, 6);
	free_ranges(kernel_reserved, 2, 0, MiB);
	EXPECT({ 0x1000, 0x9f000 });
	/* Nothing usable in the window. */
	free_ranges(NULL, 0, 0xa0000, MiB);
	assert_int_equal(out.count, 0);
	assert_int_equal(out.bytes, 0);
}

static void test_empty_window(void **state)
{
	(void)state;
	map(seabios, 6);
	free_ranges(NULL, 0, MiB, MiB);
	assert_int_equal(out.count, 0);
	free_ranges(NULL, 0, GiB, MiB);
	assert_int_equal(out.count, 0);
	free_ranges(NULL, 0, 0, 0);
	assert_int_equal(out.count, 0);
	assert_int_equal(out.dropped, 0);
	assert_int_equal(memmap_trampoline_page(&out), 0);
	/* An empty map. */
	map(seabios, 0);
	free_ranges(NULL, 0, 0, TOP);
	assert_int_equal(out.count, 0);
}

/* One reserved range over several regions, others overlapping each other. */
static void test_reserved_spans_regions(void **state)
{
	(void)state;
	const struct mem_range res[] = {
		{ 0x50000, 0x150000 },
		{ 0x180000, 0x190000 },
		{ 0x188000, 0x1a0800 }, /* overlaps the previous one */
		{ 0x1a0800, 0x1b0000 }, /* touches it */
	};

	map(seabios, 6);
	free_ranges(res, 4, 0, 4 * GiB);
	EXPECT({ 0, 0x50000 }, { 0x150000, 0x180000 }, { 0x1b0000, 0x7fe0000 });
}

/* A reserved range that covers everything. */
static void test_reserved_covers_all(void **state)
{
	(void)state;
	const struct mem_range res[] = { { 0, TOP } };

	map(seabios, 6);
	free_ranges(res, 1, 0, TOP);
	assert_int_equal(out.count, 0);
	assert_int_equal(out.bytes, 0);
}

/* 100 free pages with holes between them: 64 kept, the rest counted. */
static void test_too_many_ranges(void **state)
{
	(void)state;
	uint64_t rows[101][3];

	rows[0][0] = 0;
	rows[0][1] = 200 * 0x1000;
	rows[0][2] = U;
	for (unsigned i = 0; i < 100; i++) {
		rows[i + 1][0] = (2 * i + 1) * 0x1000ull;
		rows[i + 1][1] = 0x1000;
		rows[i + 1][2] = R;
	}
	map((const uint64_t(*)[3])rows, 101);
	free_ranges(NULL, 0, 0, TOP);
	assert_int_equal(out.count, MEMMAP_FREE_MAX);
	assert_int_equal(out.dropped, 100 - MEMMAP_FREE_MAX);
	assert_int_equal(out.bytes, MEMMAP_FREE_MAX * 0x1000ull);
	for (unsigned i = 0; i < MEMMAP_FREE_MAX; i++) {
		assert_int_equal(out.ranges[i].start, 2 * i * 0x1000ull);
		assert_int_equal(out.ranges[i].end, (2 * i + 1) * 0x1000ull);
	}
	/* Exactly MEMMAP_FREE_MAX: nothing dropped. */
	map((const uint64_t(*)[3])rows, MEMMAP_FREE_MAX + 1);
	free_ranges(NULL, 0, 0, 2 * MEMMAP_FREE_MAX * 0x1000ull);
	assert_int_equal(out.count, MEMMAP_FREE_MAX);
	assert_int_equal(out.dropped, 0);
}

/* base + length past 2^64: the region runs to the top, it does not wrap to address 0. */
static void test_wrap_at_top(void **state)
{
	(void)state;
	const uint64_t rows[][3] = {
		{ 0, 0x10000, U },
		{ TOP - 0xffff, 0x20000, U },	/* [2^64 - 64 KiB, wraps) */
		{ TOP - 0x3fff, 0x10000, R },	/* reserved, wraps too */
		{ 0xffff000000000000, TOP, R }, /* length alone would wrap */
		{ 0x20000, TOP - 0x10000, U },	/* [0x20000, 2^64 - 0x10000 + 0x20000): wraps */
	};

	map(rows, 3);
	free_ranges(NULL, 0, 0, TOP);
	EXPECT({ 0, 0x10000 }, { TOP - 0xffff, TOP - 0x3fff });
	/* The reserved region that wraps hides everything from its base up, nothing below. */
	map(rows, 4);
	free_ranges(NULL, 0, 0, TOP);
	EXPECT({ 0, 0x10000 });
	/* A usable region from 0x20000 to the top, minus the reserved top. */
	map(rows, 5);
	free_ranges(NULL, 0, 0, TOP);
	EXPECT({ 0, 0x10000 }, { 0x20000, 0xffff000000000000 });
	/* A reserved range ending at the very top of the caller's list. */
	const struct mem_range res[] = { { 0x8000, TOP } };
	free_ranges(res, 1, 0, TOP);
	EXPECT({ 0, 0x8000 });
}

/* More regions than the map holds: only BOOT_MEMMAP_MAX are read. */
static void test_count_beyond_array(void **state)
{
	(void)state;
	memset(&info, 0, sizeof(info));
	for (unsigned i = 0; i < BOOT_MEMMAP_MAX; i++) {
		info.memory_map[i].base = i * 0x2000ull;
		info.memory_map[i].length = 0x1000;
		info.memory_map[i].type = U;
	}
	info.memory_region_count = 100000;
	info.memory_map_truncated = 1;
	free_ranges(NULL, 0, 0, TOP);
	assert_int_equal(out.count, MEMMAP_FREE_MAX);
	assert_int_equal(out.dropped, BOOT_MEMMAP_MAX - MEMMAP_FREE_MAX);
}

/* A large UEFI-like map: 512 regions alternating types, shuffled; the sweep stays exact. */
static void test_large_shuffled_map(void **state)
{
	(void)state;
	uint64_t rows[BOOT_MEMMAP_MAX][3];

	/* Region i goes to row k, a fixed permutation (multiplication by an odd number mod 512). */
	for (unsigned i = 0; i < BOOT_MEMMAP_MAX; i++) {
		unsigned k = (i * 197u) % BOOT_MEMMAP_MAX;
		rows[k][0] = 0x100000 + i * 0x3000ull;
		rows[k][1] = 0x3000;
		rows[k][2] = i % 8 == 7 ? R : U;
	}
	map((const uint64_t(*)[3])rows, BOOT_MEMMAP_MAX);
	free_ranges(NULL, 0, 0, TOP);
	/* Runs of 7 usable regions (21 pages) between reserved ones. */
	assert_int_equal(out.count, BOOT_MEMMAP_MAX / 8);
	for (unsigned i = 0; i < out.count; i++) {
		assert_int_equal(out.ranges[i].start, 0x100000 + i * 8 * 0x3000ull);
		assert_int_equal(out.ranges[i].end, 0x100000 + (i * 8 + 7) * 0x3000ull);
	}
}

/* Under UEFI, GRUB's multiboot2 information sits at 0x4000 and is reserved by the caller. */
static void test_uefi_low_memory(void **state)
{
	(void)state;
	const uint64_t rows[][3] = {
		{ 0, 0xa0000, U },
		{ 0x9f000, 0x1000, N }, /* firmware data in the top page */
		{ 0x100000, 0x700000, U },
	};
	const struct mem_range res[] = { { 0, 0x1000 }, { 0x4000, 0x5230 } };

	map(rows, 3);
	free_ranges(res, 2, 0, MiB);
	EXPECT({ 0x1000, 0x4000 }, { 0x6000, 0x9f000 });
	assert_int_equal(memmap_trampoline_page(&out), 0x9e000);
}

static struct memmap_free hand(const struct mem_range *r, unsigned n)
{
	struct memmap_free f;

	memset(&f, 0, sizeof(f));
	for (unsigned i = 0; i < n; i++)
		f.ranges[i] = r[i];
	f.count = n;
	return f;
}

static void test_trampoline(void **state)
{
	(void)state;
	struct memmap_free f;

	/* Only page 0 free: never page 0. */
	f = hand((const struct mem_range[]){ { 0, 0x1000 } }, 1);
	assert_int_equal(memmap_trampoline_page(&f), 0);
	/* Page 1 only. */
	f = hand((const struct mem_range[]){ { 0, 0x2000 } }, 1);
	assert_int_equal(memmap_trampoline_page(&f), 0x1000);
	/* Only at or above 0x9F000: nothing. */
	f = hand((const struct mem_range[]){ { 0x9f000, 0xa0000 }, { MiB, 2 * MiB } }, 2);
	assert_int_equal(memmap_trampoline_page(&f), 0);
	/* Across 0x9F000: the page below it. */
	f = hand((const struct mem_range[]){ { 0x8000, MiB } }, 1);
	assert_int_equal(memmap_trampoline_page(&f), 0x9e000);
	/* The highest over several ranges, in any order. */
	f = hand((const struct mem_range[]){ { 0x70000, 0x72000 },
					     { 0x2000, 0x3000 },
					     { 0x50000, 0x60000 } },
		 3);
	assert_int_equal(memmap_trampoline_page(&f), 0x71000);
	/* Unaligned hand-made ranges: whole pages inside only. */
	f = hand((const struct mem_range[]){ { 0x30800, 0x32800 }, { 0x40800, 0x41800 } }, 2);
	assert_int_equal(memmap_trampoline_page(&f), 0x31000);
	/* A count beyond the array is not followed. */
	f = hand((const struct mem_range[]){ { 0x10000, 0x20000 } }, 1);
	f.count = 1000;
	assert_int_equal(memmap_trampoline_page(&f), 0x1f000);
	/* Nothing free. */
	f = hand(NULL, 0);
	assert_int_equal(memmap_trampoline_page(&f), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seabios),
		cmocka_unit_test(test_unsorted),
		cmocka_unit_test(test_overlap_stricter_type_wins),
		cmocka_unit_test(test_usable_overlap_and_touch),
		cmocka_unit_test(test_usable_chain_reversed),
		cmocka_unit_test(test_zero_length),
		cmocka_unit_test(test_unaligned_edges),
		cmocka_unit_test(test_low_high),
		cmocka_unit_test(test_empty_window),
		cmocka_unit_test(test_reserved_spans_regions),
		cmocka_unit_test(test_reserved_covers_all),
		cmocka_unit_test(test_too_many_ranges),
		cmocka_unit_test(test_wrap_at_top),
		cmocka_unit_test(test_count_beyond_array),
		cmocka_unit_test(test_large_shuffled_map),
		cmocka_unit_test(test_uefi_low_memory),
		cmocka_unit_test(test_trampoline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
