/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's one address space: physical memory 0-4 GiB identity mapped (built by the boot
 * code with 2 MiB pages), refined here where 4 KiB granularity is needed: guard pages under
 * stacks, user pages for the ring-3 workloads, uncached local APIC and I/O APIC pages.
 */
#ifndef KERNEL_PAGING_H
#define KERNEL_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#define PAGE_SIZE 4096ull
#define LARGE_PAGE_SIZE 0x200000ull
#define IDENTITY_MAP_END 0x100000000ull

/* Page-table entry bits, SDM vol. 3A, 4.5 (tables 4-14 to 4-20). */
#define PTE_PRESENT (1ull << 0)
#define PTE_WRITE (1ull << 1)
#define PTE_USER (1ull << 2)
#define PTE_WRITE_THROUGH (1ull << 3)
#define PTE_CACHE_DISABLE (1ull << 4)
#define PTE_LARGE (1ull << 7)

void paging_init(void);

/* Change the flags of the 4 KiB page holding addr (splitting its 2 MiB page if needed). */
bool paging_update_4k(uint64_t addr, uint64_t set, uint64_t clear);

/* Unmap one 4 KiB page: a guard page, so that running into it faults. */
bool paging_guard_page(uint64_t addr);

/* Allow CPL 3 to use [start, end) (rounded out to 4 KiB pages). */
bool paging_allow_user(uint64_t start, uint64_t end);

/* The page tables' physical address, for CR3 on the other CPUs. */
uint64_t paging_root(void);

#endif
