// SPDX-License-Identifier: GPL-2.0
/*
 * A bump allocator over the free ranges of the memory map (kernel/memmap.c), lowest first.
 */
#include <string.h>

#include "kernel/page_alloc.h"
#include "kernel/paging.h"

static struct memmap_free pool;
static unsigned current;

void page_alloc_init(const struct memmap_free *free)
{
	pool = *free;
	current = 0;
}

uint64_t page_alloc(uint64_t bytes, uint64_t align)
{
	if (align < PAGE_SIZE)
		align = PAGE_SIZE;
	bytes = (bytes + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	for (unsigned i = current; i < pool.count; i++) {
		struct mem_range *r = &pool.ranges[i];
		uint64_t start = (r->start + align - 1) & ~(align - 1);
		if (start < r->start || start > r->end || r->end - start < bytes)
			continue;
		r->start = start + bytes;
		current = i;
		memset((void *)(uintptr_t)start, 0, bytes);
		return start;
	}
	return 0;
}

uint64_t stack_alloc(uint64_t size)
{
	uint64_t base = page_alloc(size + PAGE_SIZE, PAGE_SIZE);

	if (!base || !paging_guard_page(base))
		return 0;
	return base + PAGE_SIZE + size;
}
