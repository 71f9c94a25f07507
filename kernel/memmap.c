// SPDX-License-Identifier: GPL-2.0
/*
 * Free memory from the firmware's map. The map is taken as given: unsorted, overlapping,
 * zero-length and wrapping regions all occur (or must be survived) on real firmware. No sorting
 * and no scratch arrays: a sweep from low to high that finds each maximal free run in turn, so
 * the kernel's stack use stays small whatever the map's size.
 */
#include <stdbool.h>
#include <string.h>

#include "kernel/memmap.h"

#define PAGE_SIZE 0x1000ull
#define PAGE_MASK (PAGE_SIZE - 1)

/* The AP trampoline page: the SIPI vector is the page number, 8 bits (SDM vol. 3A, 9.4.4.1),
 * and the EBDA starts at 0x9FC00 at the lowest (ACPI 6.5, 5.2.5.1). */
#define TRAMPOLINE_LOW 0x1000ull
#define TRAMPOLINE_HIGH 0x9f000ull

struct sweep {
	const struct boot_memory_region *map;
	unsigned map_count;
	const struct mem_range *reserved;
	unsigned reserved_count;
	uint64_t low, high;
};

/* base + length, saturated where it would wrap past 2^64: such a region runs to the top. */
static uint64_t region_end(const struct boot_memory_region *r)
{
	return r->length > UINT64_MAX - r->base ? UINT64_MAX : r->base + r->length;
}

/* A usable region clipped to [low, high); false when nothing of it is left. */
static bool usable(const struct sweep *s, unsigned i, uint64_t *start, uint64_t *end)
{
	const struct boot_memory_region *r = &s->map[i];

	if (r->type != BOOT_MEMORY_USABLE || r->length == 0)
		return false;
	*start = r->base > s->low ? r->base : s->low;
	*end = region_end(r) < s->high ? region_end(r) : s->high;
	return *start < *end;
}

/* The i-th range nothing may use: map regions of every other type, then the caller's list. */
static bool forbidden(const struct sweep *s, unsigned i, uint64_t *start, uint64_t *end)
{
	if (i < s->map_count) {
		const struct boot_memory_region *r = &s->map[i];
		if (r->type == BOOT_MEMORY_USABLE || r->length == 0)
			return false;
		*start = r->base;
		*end = region_end(r);
		return true;
	}
	const struct mem_range *r = &s->reserved[i - s->map_count];
	*start = r->start;
	*end = r->end;
	return r->start < r->end;
}

/* The first address at or after p inside a usable region, or high. */
static uint64_t next_usable(const struct sweep *s, uint64_t p)
{
	uint64_t best = s->high, start, end;

	for (unsigned i = 0; i < s->map_count; i++) {
		if (!usable(s, i, &start, &end))
			continue;
		if (start <= p && p < end)
			return p;
		if (start > p && start < best)
			best = start;
	}
	return best;
}

/* Past every forbidden range that covers p (they may chain); p itself when none does. */
static uint64_t skip_forbidden(const struct sweep *s, uint64_t p)
{
	unsigned n = s->map_count + s->reserved_count;
	uint64_t start, end;
	bool moved;

	/* p only grows and each range can move it once: at most n + 1 passes. */
	do {
		moved = false;
		for (unsigned i = 0; i < n; i++) {
			if (forbidden(s, i, &start, &end) && start <= p && p < end) {
				p = end;
				moved = true;
			}
		}
	} while (moved && p < s->high);
	return p;
}

/* From a free address p: the end of the free run, at the end of the usable regions that chain
 * on from p or at the next forbidden range, whichever comes first. */
static uint64_t free_run_end(const struct sweep *s, uint64_t p)
{
	unsigned n = s->map_count + s->reserved_count;
	uint64_t e = p, start, end;
	bool moved;

	do {
		moved = false;
		for (unsigned i = 0; i < s->map_count; i++) {
			if (usable(s, i, &start, &end) && start <= e && e < end) {
				e = end;
				moved = true;
			}
		}
	} while (moved);
	/* p is free, so every forbidden range that overlaps [p, e) starts after p. */
	for (unsigned i = 0; i < n; i++)
		if (forbidden(s, i, &start, &end) && start > p && start < e)
			e = start;
	return e;
}

static void emit(struct memmap_free *out, uint64_t start, uint64_t end)
{
	/* Shrink inward to whole pages: a page with any byte not free is not free. */
	if (start > UINT64_MAX - PAGE_MASK)
		return;
	start = (start + PAGE_MASK) & ~PAGE_MASK;
	end &= ~PAGE_MASK;
	if (start >= end)
		return;
	if (out->count >= MEMMAP_FREE_MAX) {
		out->dropped++;
		return;
	}
	out->ranges[out->count].start = start;
	out->ranges[out->count].end = end;
	out->count++;
	out->bytes += end - start;
}

void memmap_free_ranges(const struct boot_info *info, const struct mem_range *reserved,
			unsigned reserved_count, uint64_t low, uint64_t high,
			struct memmap_free *out)
{
	struct sweep s = {
		.map = info->memory_map,
		.map_count = info->memory_region_count,
		.reserved = reserved,
		.reserved_count = reserved ? reserved_count : 0,
		.low = low,
		.high = high,
	};

	memset(out, 0, sizeof(*out));
	if (s.map_count > BOOT_MEMMAP_MAX)
		s.map_count = BOOT_MEMMAP_MAX;

	/*
	 * Free runs are maximal (each ends at a byte that is not free), so after shrinking they
	 * are sorted, disjoint and never adjacent: nothing is left to merge.
	 */
	uint64_t p = low;
	while (p < high) {
		p = next_usable(&s, p);
		if (p >= high)
			break;
		uint64_t q = skip_forbidden(&s, p);
		if (q != p) {
			p = q;
			continue;
		}
		uint64_t e = free_run_end(&s, p);
		emit(out, p, e);
		p = e;
	}
}

uint64_t memmap_trampoline_page(const struct memmap_free *free_low)
{
	unsigned n = free_low->count < MEMMAP_FREE_MAX ? free_low->count : MEMMAP_FREE_MAX;
	uint64_t best = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t start = free_low->ranges[i].start, end = free_low->ranges[i].end;

		/* Ranges from memmap_free_ranges are aligned; a hand-made one may not be. */
		if (start < TRAMPOLINE_LOW)
			start = TRAMPOLINE_LOW;
		if (end > TRAMPOLINE_HIGH)
			end = TRAMPOLINE_HIGH;
		if (start >= end)
			continue;
		start = (start + PAGE_MASK) & ~PAGE_MASK;
		end &= ~PAGE_MASK;
		if (end > start && end - PAGE_SIZE > best)
			best = end - PAGE_SIZE;
	}
	return best;
}
