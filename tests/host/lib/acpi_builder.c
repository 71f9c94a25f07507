// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "acpi_builder.h"

void ab_init(struct acpi_builder *b, struct fake_phys *m, uint64_t base, size_t size)
{
	b->mem = m;
	b->base = base;
	b->size = size;
	b->used = 0;
	b->data = fake_phys_add(m, base, size);
}

/* Any byte inside any region of the fake memory. */
static uint8_t *phys(struct fake_phys *m, uint64_t addr, size_t len)
{
	uint8_t *p = (uint8_t *)fake_phys_translate(addr, len, m);

	if (!p)
		abort();
	return p;
}

uint8_t *ab_ptr(struct acpi_builder *b, uint64_t addr)
{
	if (addr < b->base || addr - b->base >= b->size)
		abort();
	return b->data + (addr - b->base);
}

void ab_align(struct acpi_builder *b, unsigned remainder)
{
	while ((b->base + b->used) % 16 != remainder % 16)
		b->used++;
}

static uint32_t length_of(struct fake_phys *m, uint64_t addr)
{
	uint32_t len;

	memcpy(&len, phys(m, addr, 8) + 4, 4);
	return len;
}

void ab_fix(struct fake_phys *m, uint64_t addr)
{
	uint32_t len = length_of(m, addr);
	uint8_t *t = phys(m, addr, len);
	uint8_t sum = 0;

	t[9] = 0;
	for (uint32_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + t[i]);
	t[9] = (uint8_t)-sum;
}

static void header(uint8_t *t, const char *sig, uint32_t length, uint8_t revision)
{
	memcpy(t, sig, 4);
	memcpy(t + 4, &length, 4);
	t[8] = revision;
	memcpy(t + 10, "PMUTST", 6);
	memcpy(t + 16, "TESTTBL ", 8);
	memcpy(t + 28, "HOST", 4);
}

uint64_t ab_table(struct acpi_builder *b, const char *sig, uint32_t length, uint8_t revision)
{
	/* Tables are 16-byte aligned unless a test asks otherwise (ab_align before). */
	if (b->used + length > b->size)
		abort();
	uint64_t addr = b->base + b->used;
	header(b->data + b->used, sig, length, revision);
	b->used += length;
	b->used = (b->used + 15) & ~(size_t)15;
	ab_fix(b->mem, addr);
	return addr;
}

uint64_t ab_table_alone(struct acpi_builder *b, uint64_t addr, const char *sig, uint32_t length,
			uint8_t revision)
{
	uint8_t *t = fake_phys_add(b->mem, addr, length);

	header(t, sig, length, revision);
	ab_fix(b->mem, addr);
	return addr;
}

void ab_put8(struct fake_phys *m, uint64_t addr, uint32_t off, uint8_t v)
{
	phys(m, addr + off, 1)[0] = v;
	ab_fix(m, addr);
}

void ab_put16(struct fake_phys *m, uint64_t addr, uint32_t off, uint16_t v)
{
	memcpy(phys(m, addr + off, 2), &v, 2);
	ab_fix(m, addr);
}

void ab_put32(struct fake_phys *m, uint64_t addr, uint32_t off, uint32_t v)
{
	memcpy(phys(m, addr + off, 4), &v, 4);
	ab_fix(m, addr);
}

void ab_put64(struct fake_phys *m, uint64_t addr, uint32_t off, uint64_t v)
{
	memcpy(phys(m, addr + off, 8), &v, 8);
	ab_fix(m, addr);
}

void ab_put_gas(struct fake_phys *m, uint64_t addr, uint32_t off, uint8_t space, uint8_t bit_width,
		uint64_t address)
{
	uint8_t *g = phys(m, addr + off, 12);

	g[0] = space;
	g[1] = bit_width;
	g[2] = 0;
	g[3] = 0;
	memcpy(g + 4, &address, 8);
	ab_fix(m, addr);
}

void ab_break_checksum(struct fake_phys *m, uint64_t addr)
{
	phys(m, addr, 10)[9] ^= 0x01;
}

void ab_rsdp_bytes(uint8_t *p, uint8_t revision, uint32_t rsdt, uint64_t xsdt)
{
	uint32_t length = revision >= 2 ? 36 : 20;
	uint8_t sum = 0;

	memset(p, 0, length);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "PMUTST", 6);
	p[15] = revision;
	memcpy(p + 16, &rsdt, 4);
	for (int i = 0; i < 20; i++)
		sum = (uint8_t)(sum + p[i]);
	p[8] = (uint8_t)-sum;
	if (revision >= 2) {
		memcpy(p + 20, &length, 4);
		memcpy(p + 24, &xsdt, 8);
		sum = 0;
		for (int i = 0; i < 36; i++)
			sum = (uint8_t)(sum + p[i]);
		p[32] = (uint8_t)-sum;
	}
}

uint64_t ab_rsdp(struct acpi_builder *b, uint64_t addr, uint8_t revision, uint32_t rsdt,
		 uint64_t xsdt)
{
	ab_rsdp_bytes(fake_phys_add(b->mem, addr, revision >= 2 ? 36 : 20), revision, rsdt, xsdt);
	return addr;
}

static uint64_t root(struct acpi_builder *b, const char *sig, unsigned size,
		     const uint64_t *entries, unsigned n)
{
	uint64_t addr = ab_table(b, sig, 36 + size * n, 1);
	uint8_t *t = ab_ptr(b, addr);

	for (unsigned i = 0; i < n; i++) {
		if (size == 4) {
			uint32_t e = (uint32_t)entries[i];
			memcpy(t + 36 + 4 * i, &e, 4);
		} else {
			memcpy(t + 36 + 8 * i, &entries[i], 8);
		}
	}
	ab_fix(b->mem, addr);
	return addr;
}

uint64_t ab_rsdt(struct acpi_builder *b, const uint64_t *entries, unsigned n)
{
	return root(b, "RSDT", 4, entries, n);
}

uint64_t ab_xsdt(struct acpi_builder *b, const uint64_t *entries, unsigned n)
{
	return root(b, "XSDT", 8, entries, n);
}

uint64_t ab_madt(struct acpi_builder *b, uint32_t local_apic_address, uint32_t flags,
		 uint32_t entries_room)
{
	uint64_t addr = ab_table(b, "APIC", 44 + entries_room, 5);
	uint8_t *t = ab_ptr(b, addr);
	uint32_t len = 44;

	memcpy(t + 4, &len, 4);
	memcpy(t + 36, &local_apic_address, 4);
	memcpy(t + 40, &flags, 4);
	ab_fix(b->mem, addr);
	return addr;
}

void ab_madt_raw(struct acpi_builder *b, uint64_t madt, const uint8_t *bytes, uint32_t n)
{
	uint32_t len = length_of(b->mem, madt);
	uint8_t *t = ab_ptr(b, madt);

	/* The room reserved by ab_madt ends where the next table begins. */
	if (madt - b->base + len + n > b->used)
		abort();
	memcpy(t + len, bytes, n);
	len += n;
	memcpy(t + 4, &len, 4);
	ab_fix(b->mem, madt);
}

void ab_madt_lapic(struct acpi_builder *b, uint64_t madt, uint8_t uid, uint8_t apic_id,
		   uint32_t flags)
{
	uint8_t e[8] = { 0, 8, uid, apic_id };

	memcpy(e + 4, &flags, 4);
	ab_madt_raw(b, madt, e, sizeof(e));
}

void ab_madt_x2apic(struct acpi_builder *b, uint64_t madt, uint32_t x2apic_id, uint32_t uid,
		    uint32_t flags)
{
	uint8_t e[16] = { 9, 16 };

	memcpy(e + 4, &x2apic_id, 4);
	memcpy(e + 8, &flags, 4);
	memcpy(e + 12, &uid, 4);
	ab_madt_raw(b, madt, e, sizeof(e));
}

void ab_madt_override(struct acpi_builder *b, uint64_t madt, uint64_t address)
{
	uint8_t e[12] = { 5, 12 };

	memcpy(e + 4, &address, 8);
	ab_madt_raw(b, madt, e, sizeof(e));
}
