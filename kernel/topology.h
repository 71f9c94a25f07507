/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology: which logical CPUs (APIC ids) share a physical core and a package.
 *
 * An APIC id is made of bit fields, SMT id in the low bits, then the core id, then the package
 * id (SDM vol. 3A, 9.9 "Programming Considerations for Hardware Multi-Threading Capable
 * Processors"). The field widths are the same for every CPU of the machine, so one CPU's CPUID
 * tells how to split every id the MADT lists. CPUID leaf 0x0B gives the widths directly; without
 * it, leaves 1 and 4 give maximum counts to round up to powers of two. Never infer SMT from
 * cache sharing (CPUID 0x04's "threads sharing this cache"): QEMU reports L1 per thread even with
 * threads=2 (QEMU 7.2, target/i386/cpu.c, encode_cache_cpuid4).
 *
 * Pure code (host-tested).
 */
#ifndef KERNEL_TOPOLOGY_H
#define KERNEL_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#define TOPOLOGY_MAX_CPUS 256
#define TOPOLOGY_MAX_THREADS 4 /* per core */

enum topology_source {
	TOPOLOGY_NONE,	    /* no information: every CPU its own core and package */
	TOPOLOGY_LEAF_0B,   /* CPUID 0x0B */
	TOPOLOGY_LEAVES_1_4 /* CPUID 1 (EBX[23:16]) and 4 (EAX[31:26]) */
};

struct topology_shifts {
	uint8_t smt_bits;      /* width of the SMT id field */
	uint8_t package_shift; /* SMT and core id fields together: apic_id >> package_shift is the
				* package id */
	uint8_t source;	       /* enum topology_source */
};

/*
 * From CPUID 0x0B: sub-leaf 0 should be the SMT level (ECX[15:8] = 1) and sub-leaf 1 the core
 * level (ECX[15:8] = 2); EAX[4:0] is the shift to the next level's id. False when the leaf is
 * absent or malformed (EBX[15:0] = 0 at sub-leaf 0, levels out of order); out is then left as it
 * was.
 */
bool topology_shifts_from_leaf_0b(uint32_t sub0_eax, uint32_t sub0_ebx, uint32_t sub0_ecx,
				  uint32_t sub1_eax, uint32_t sub1_ebx, uint32_t sub1_ecx,
				  struct topology_shifts *out);

/*
 * From CPUID 1 and 4: EBX[23:16] of leaf 1 is the maximum number of addressable logical CPU ids
 * in a package (valid when leaf 1 EDX[28], HTT, is set); EAX[31:26] + 1 of leaf 4 sub-leaf 0 the
 * maximum number of core ids (leaf4_valid false when leaf 4 is absent: one core per package).
 * Threads per core = logical / cores, each width rounded up to a power of two.
 */
void topology_shifts_from_leaves_1_4(uint32_t leaf1_ebx, uint32_t leaf1_edx, bool leaf4_valid,
				     uint32_t leaf4_eax, struct topology_shifts *out);

struct topology_cpu {
	uint32_t apic_id;
	uint32_t package;    /* package id (from the APIC id) */
	uint32_t core;	     /* core id within the package (from the APIC id) */
	uint32_t smt;	     /* SMT id within the core */
	uint16_t core_index; /* index into topology.cores */
};

struct topology_core {
	uint32_t package;
	uint32_t core;
	uint8_t thread_count;
	uint32_t threads[TOPOLOGY_MAX_THREADS]; /* APIC ids in SMT id order */
};

struct topology {
	struct topology_shifts shifts;
	unsigned cpu_count;
	struct topology_cpu cpus[TOPOLOGY_MAX_CPUS]; /* in the order given */
	unsigned core_count;
	struct topology_core cores[TOPOLOGY_MAX_CPUS]; /* sorted by (package, core) */
	unsigned package_count;
	unsigned threads_per_core; /* the most threads found in one core */
	bool duplicates;	   /* an APIC id was listed twice (kept once) */
	bool cpus_truncated;	   /* more than TOPOLOGY_MAX_CPUS distinct ids: the rest dropped */
	bool threads_truncated;	   /* a core had more than TOPOLOGY_MAX_THREADS threads: the later
				    * ones are in cpus[] but not in their core's threads[] */
};

/*
 * Split every APIC id and group the CPUs into cores and packages. Ids need not be contiguous
 * (QEMU with 3 cores per socket numbers them 0,1,2,4,5,6). A core with more than
 * TOPOLOGY_MAX_THREADS threads keeps the first ones.
 */
void topology_build(const uint32_t *apic_ids, unsigned count, const struct topology_shifts *shifts,
		    struct topology *out);

/* Whether a core holds apic_id, and its index into cores[] into *core. */
bool topology_core_of(const struct topology *t, uint32_t apic_id, unsigned *core);

#endif
