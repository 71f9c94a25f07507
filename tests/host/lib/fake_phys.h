/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake physical memory for host tests of code that reads firmware structures through a
 * translate function (multiboot, ACPI): a few regions at chosen physical addresses.
 */
#ifndef TESTS_FAKE_PHYS_H
#define TESTS_FAKE_PHYS_H

#include <stddef.h>
#include <stdint.h>

#define FAKE_PHYS_REGIONS 16

struct fake_phys {
	struct {
		uint64_t base;
		size_t size;
		uint8_t *data;
	} region[FAKE_PHYS_REGIONS];
	unsigned count;
};

/* Adds a zeroed region and returns its bytes (freed by fake_phys_free). */
uint8_t *fake_phys_add(struct fake_phys *m, uint64_t base, size_t size);
void fake_phys_free(struct fake_phys *m);

/* The translate function: ctx is the struct fake_phys. NULL when the range is not all inside
 * one region. */
const void *fake_phys_translate(uint64_t addr, size_t len, void *ctx);

#endif
