// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "fake_phys.h"

uint8_t *fake_phys_add(struct fake_phys *m, uint64_t base, size_t size)
{
	if (m->count >= FAKE_PHYS_REGIONS)
		abort();
	uint8_t *data = calloc(1, size);
	if (!data)
		abort();
	m->region[m->count].base = base;
	m->region[m->count].size = size;
	m->region[m->count].data = data;
	m->count++;
	return data;
}

void fake_phys_free(struct fake_phys *m)
{
	for (unsigned i = 0; i < m->count; i++)
		free(m->region[i].data);
	memset(m, 0, sizeof(*m));
}

const void *fake_phys_translate(uint64_t addr, size_t len, void *ctx)
{
	struct fake_phys *m = ctx;

	for (unsigned i = 0; i < m->count; i++) {
		uint64_t base = m->region[i].base;
		if (addr >= base && len <= m->region[i].size &&
		    addr - base <= m->region[i].size - len)
			return m->region[i].data + (addr - base);
	}
	return NULL;
}
