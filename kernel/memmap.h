/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Free physical memory from the firmware's map: what the kernel may use for per-CPU stacks, user
 * stacks and the workloads' arrays, and the page below 1 MiB for the AP start-up trampoline.
 *
 * Pure code (host-tested).
 */
#ifndef KERNEL_MEMMAP_H
#define KERNEL_MEMMAP_H

#include <stdint.h>

#include "kernel/boot_info.h"

/* [start, end) */
struct mem_range {
	uint64_t start;
	uint64_t end;
};

#define MEMMAP_FREE_MAX 64

struct memmap_free {
	unsigned count;
	struct mem_range ranges[MEMMAP_FREE_MAX]; /* sorted, disjoint, 4 KiB aligned */
	uint64_t bytes;				  /* their total */
	unsigned dropped;			  /* ranges that did not fit in ranges[] */
};

/*
 * The usable memory of the map inside [low, high): every BOOT_MEMORY_USABLE region, minus every
 * region of another type that overlaps it (firmware maps do overlap; the stricter type wins),
 * minus the caller's reserved ranges (the kernel image, the loader's structures, page 0), shrunk
 * inward to 4 KiB boundaries, sorted and merged.
 */
void memmap_free_ranges(const struct boot_info *info, const struct mem_range *reserved,
			unsigned reserved_count, uint64_t low, uint64_t high,
			struct memmap_free *out);

/*
 * A page for the real-mode trampoline: 4 KiB aligned, at or above 0x1000 and below 0x9F000 (under
 * the EBDA, so the SIPI vector page >> 12 fits in 8 bits) and inside a free range. The highest
 * such page; 0 when there is none.
 */
uint64_t memmap_trampoline_page(const struct memmap_free *free_low);

#endif
