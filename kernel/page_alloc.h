/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Physical pages for stacks and workload buffers, taken once and never given back: a run is
 * short and its allocations are few and known.
 */
#ifndef KERNEL_PAGE_ALLOC_H
#define KERNEL_PAGE_ALLOC_H

#include <stdint.h>

#include "kernel/memmap.h"

void page_alloc_init(const struct memmap_free *free);

/* bytes (rounded up to 4 KiB) aligned to align (a power of two >= 4 KiB), zeroed; 0 when there
 * is no such free memory. */
uint64_t page_alloc(uint64_t bytes, uint64_t align);

/* A stack of size bytes with an unmapped guard page below it; returns its top, or 0. */
uint64_t stack_alloc(uint64_t size);

#endif
