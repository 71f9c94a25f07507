// SPDX-License-Identifier: GPL-2.0
/*
 * CPU topology from APIC ids (SDM vol. 3A, 9.9; CPUID leaves 0x01, 0x04, 0x0B in vol. 2A).
 */
#include <string.h>

#include "kernel/topology.h"

/* CPUID 0x0B ECX[15:8] level types (SDM vol. 2A, CPUID, table 3-8). */
#define LEVEL_SMT 1
#define LEVEL_CORE 2

/* CPUID 1 EDX[28]: more than one logical processor id per package (HTT). */
#define CPUID1_EDX_HTT (1u << 28)

/* The smallest b with 2^b >= n: the width of a field that holds n ids. */
static uint8_t field_width(uint32_t n)
{
	uint8_t b = 0;

	while (b < 32 && ((uint64_t)1 << b) < n)
		b++;
	return b;
}

bool topology_shifts_from_leaf_0b(uint32_t sub0_eax, uint32_t sub0_ebx, uint32_t sub0_ecx,
				  uint32_t sub1_eax, uint32_t sub1_ebx, uint32_t sub1_ecx,
				  struct topology_shifts *out)
{
	uint8_t smt_shift = sub0_eax & 0x1f, core_shift = sub1_eax & 0x1f;

	/*
	 * EBX[15:0] = 0 at sub-leaf 0 means the leaf is not supported (SDM vol. 2A, CPUID leaf 0BH); only
	 * the SMT level may be sub-leaf 0, and the core level must come next with a shift at
	 * least as wide. EBX is otherwise for display only (its count may differ from what the
	 * platform enables), so it is not compared with the shifts.
	 */
	if ((sub0_ebx & 0xffff) == 0 || ((sub0_ecx >> 8) & 0xff) != LEVEL_SMT)
		return false;
	if ((sub1_ebx & 0xffff) == 0 || ((sub1_ecx >> 8) & 0xff) != LEVEL_CORE)
		return false;
	if (core_shift < smt_shift)
		return false;
	out->smt_bits = smt_shift;
	out->package_shift = core_shift;
	out->source = TOPOLOGY_LEAF_0B;
	return true;
}

void topology_shifts_from_leaves_1_4(uint32_t leaf1_ebx, uint32_t leaf1_edx, bool leaf4_valid,
				     uint32_t leaf4_eax, struct topology_shifts *out)
{
	uint32_t logical = 1, cores = 1;

	/* HTT clear: a single logical processor and APIC id per package (SDM vol. 2A, CPUID). */
	if (leaf1_edx & CPUID1_EDX_HTT) {
		logical = (leaf1_ebx >> 16) & 0xff;
		if (logical == 0)
			logical = 1;
		if (leaf4_valid)
			cores = ((leaf4_eax >> 26) & 0x3f) + 1;
	}
	/*
	 * SDM vol. 3A, 9.9 (the 8-bit initial APIC id without leaf 0x0B): the package field starts
	 * above room for all the logical ids; the core field is as wide as the core ids need; the
	 * SMT field is what is left, the width of logical / cores, each rounded up to a power of
	 * two. A core count above the logical count (inconsistent) widens the package shift
	 * rather than making the SMT width negative.
	 */
	uint8_t core_bits = field_width(cores), package_shift = field_width(logical);
	if (package_shift < core_bits)
		package_shift = core_bits;
	out->smt_bits = package_shift - core_bits;
	out->package_shift = package_shift;
	out->source = TOPOLOGY_LEAVES_1_4;
}

static uint32_t shift_right(uint32_t v, unsigned bits)
{
	return bits >= 32 ? 0 : v >> bits;
}

static uint32_t low_bits(uint32_t v, unsigned bits)
{
	return bits >= 32 ? v : v & ((1u << bits) - 1);
}

/* Index of the core (package, core) in the sorted cores[], inserting it when it is new. */
static unsigned core_slot(struct topology *t, uint32_t package, uint32_t core)
{
	unsigned i = 0;

	while (i < t->core_count && (t->cores[i].package < package ||
				     (t->cores[i].package == package && t->cores[i].core < core)))
		i++;
	if (i < t->core_count && t->cores[i].package == package && t->cores[i].core == core)
		return i;
	memmove(&t->cores[i + 1], &t->cores[i], (t->core_count - i) * sizeof(t->cores[0]));
	memset(&t->cores[i], 0, sizeof(t->cores[i]));
	t->cores[i].package = package;
	t->cores[i].core = core;
	t->core_count++;
	return i;
}

/* Adds a thread to its core, keeping threads[] in SMT id order. */
static void add_thread(struct topology *t, struct topology_core *c, uint32_t apic_id, uint32_t smt)
{
	unsigned i = c->thread_count;

	if (c->thread_count >= TOPOLOGY_MAX_THREADS) {
		t->threads_truncated = true;
		return;
	}
	/* Same package and core, different id: the SMT ids differ too. */
	while (i > 0 && low_bits(c->threads[i - 1], t->shifts.smt_bits) > smt) {
		c->threads[i] = c->threads[i - 1];
		i--;
	}
	c->threads[i] = apic_id;
	c->thread_count++;
}

void topology_build(const uint32_t *apic_ids, unsigned count, const struct topology_shifts *shifts,
		    struct topology *out)
{
	memset(out, 0, sizeof(*out));
	/* TOPOLOGY_NONE: zero widths make every id its own package with one core and thread. */
	if (shifts && shifts->source != TOPOLOGY_NONE)
		out->shifts = *shifts;
	struct topology_shifts *s = &out->shifts;
	if (s->package_shift > 32)
		s->package_shift = 32;
	if (s->smt_bits > s->package_shift)
		s->smt_bits = s->package_shift;

	for (unsigned i = 0; i < count; i++) {
		uint32_t id = apic_ids[i];
		bool seen = false;

		for (unsigned j = 0; j < out->cpu_count && !seen; j++)
			seen = out->cpus[j].apic_id == id;
		if (seen) {
			out->duplicates = true;
			continue;
		}
		if (out->cpu_count >= TOPOLOGY_MAX_CPUS) {
			out->cpus_truncated = true;
			continue;
		}
		struct topology_cpu *cpu = &out->cpus[out->cpu_count++];
		cpu->apic_id = id;
		cpu->package = shift_right(id, s->package_shift);
		cpu->core = low_bits(shift_right(id, s->smt_bits), s->package_shift - s->smt_bits);
		cpu->smt = low_bits(id, s->smt_bits);
		add_thread(out, &out->cores[core_slot(out, cpu->package, cpu->core)], id, cpu->smt);
	}

	/* Insertions moved cores around: index them once the list is final. */
	for (unsigned i = 0; i < out->cpu_count; i++) {
		struct topology_cpu *cpu = &out->cpus[i];
		cpu->core_index = (uint16_t)core_slot(out, cpu->package, cpu->core);
	}
	for (unsigned i = 0; i < out->core_count; i++) {
		if (i == 0 || out->cores[i].package != out->cores[i - 1].package)
			out->package_count++;
		if (out->cores[i].thread_count > out->threads_per_core)
			out->threads_per_core = out->cores[i].thread_count;
	}
}

bool topology_core_of(const struct topology *t, uint32_t apic_id, unsigned *core)
{
	for (unsigned i = 0; i < t->cpu_count; i++)
		if (t->cpus[i].apic_id == apic_id) {
			*core = t->cpus[i].core_index;
			return true;
		}
	return false;
}
