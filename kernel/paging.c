// SPDX-License-Identifier: GPL-2.0
/*
 * Refining the boot identity map (4-level paging, SDM vol. 3A, 4.5). Page tables for split 2 MiB
 * pages come from a fixed pool: the kernel needs only a handful (stack guards, user pages).
 */
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/paging.h"

extern uint64_t boot_pml4[512], boot_pdpt[512], boot_page_directories[4 * 512];

#define PAGE_TABLE_POOL 64
#define ADDRESS_MASK 0x000ffffffffff000ull
#define LAPIC_PAGE 0xfee00000ull
#define IOAPIC_PAGE 0xfec00000ull

static uint64_t page_table_pool[PAGE_TABLE_POOL][512] __attribute__((aligned(4096)));
static unsigned page_tables_used;

uint64_t paging_root(void)
{
	return (uint64_t)(uintptr_t)boot_pml4;
}

static uint64_t *directory_entry(uint64_t addr)
{
	return &boot_page_directories[addr / LARGE_PAGE_SIZE];
}

static void flush_all(void)
{
	write_cr3(read_cr3());
}

void paging_init(void)
{
	/*
	 * User access needs the U/S bit at every level (SDM vol. 3A, 4.6.1); the upper levels allow
	 * it everywhere and the leaf entries decide.
	 */
	boot_pml4[0] |= PTE_USER;
	for (unsigned i = 0; i < 4; i++)
		boot_pdpt[i] |= PTE_USER;
	/* The local APIC and I/O APIC registers are MMIO: never cache them (SDM vol. 3A, 10.4.1). */
	*directory_entry(LAPIC_PAGE) |= PTE_CACHE_DISABLE | PTE_WRITE_THROUGH;
	*directory_entry(IOAPIC_PAGE) |= PTE_CACHE_DISABLE | PTE_WRITE_THROUGH;
	flush_all();
}

/* The 4 KiB entry for addr, splitting its 2 MiB page first. NULL when out of tables. */
static uint64_t *table_entry(uint64_t addr)
{
	if (addr >= IDENTITY_MAP_END)
		return NULL;
	uint64_t *pde = directory_entry(addr);
	if (*pde & PTE_LARGE) {
		if (page_tables_used >= PAGE_TABLE_POOL)
			return NULL;
		uint64_t *table = page_table_pool[page_tables_used++];
		uint64_t base = *pde & ADDRESS_MASK & ~(LARGE_PAGE_SIZE - 1);
		uint64_t flags = *pde & (PTE_PRESENT | PTE_WRITE | PTE_USER | PTE_WRITE_THROUGH |
					 PTE_CACHE_DISABLE);
		for (unsigned i = 0; i < 512; i++)
			table[i] = (base + i * PAGE_SIZE) | flags;
		*pde = (uint64_t)(uintptr_t)table | PTE_PRESENT | PTE_WRITE | PTE_USER;
		flush_all();
	}
	uint64_t *table = (uint64_t *)(uintptr_t)(*pde & ADDRESS_MASK);
	return &table[(addr / PAGE_SIZE) % 512];
}

bool paging_update_4k(uint64_t addr, uint64_t set, uint64_t clear)
{
	uint64_t *pte = table_entry(addr);

	if (!pte)
		return false;
	*pte = (*pte & ~clear) | set;
	invlpg(addr);
	return true;
}

bool paging_guard_page(uint64_t addr)
{
	return paging_update_4k(addr, 0, PTE_PRESENT);
}

bool paging_allow_user(uint64_t start, uint64_t end)
{
	for (uint64_t a = start & ~(PAGE_SIZE - 1); a < end;) {
		uint64_t *pde = a < IDENTITY_MAP_END ? directory_entry(a) : NULL;
		/* A whole 2 MiB page still mapped large: one entry, no page table used up. */
		if (pde && (*pde & PTE_LARGE) && a % LARGE_PAGE_SIZE == 0 &&
		    end - a >= LARGE_PAGE_SIZE) {
			*pde |= PTE_USER;
			invlpg(a);
			a += LARGE_PAGE_SIZE;
			continue;
		}
		if (!paging_update_4k(a, PTE_USER, 0))
			return false;
		a += PAGE_SIZE;
	}
	return true;
}
