// SPDX-License-Identifier: GPL-2.0
/*
 * The code generated around a bundle's parts (tests/owncode/codegen.h). Encodings from the SDM,
 * vol. 2 (MOV with a RIP-relative operand: ModRM mod 00, r/m 101, 2.2.1.6).
 */
#include <stddef.h>
#include <string.h>

#include "tests/owncode/codegen.h"

struct emitter {
	uint8_t *buf;
	uint64_t addr;
	uint32_t cap, len;
	bool overflow;
};

/* n bytes; an emitter without a buffer only counts them (dry(): a block's size). */
static void put(struct emitter *e, const void *bytes, uint32_t n)
{
	if (e->overflow || n > e->cap - e->len) {
		e->overflow = true;
		return;
	}
	if (e->buf)
		memcpy(e->buf + e->len, bytes, n);
	e->len += n;
}

static void put_le(struct emitter *e, uint64_t v, unsigned n)
{
	uint8_t b[8];

	for (unsigned i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put(e, b, n);
}

static uint64_t here(const struct emitter *e)
{
	return e->addr + e->len;
}

/* An instruction with a RIP-relative operand at target: op, disp32, then imm_bytes of imm. */
static void put_rip(struct emitter *e, const uint8_t *op, uint32_t n, uint64_t target, uint64_t imm,
		    unsigned imm_bytes)
{
	put(e, op, n);
	put_le(e, target - (here(e) + 4 + imm_bytes), 4);
	put_le(e, imm, imm_bytes);
}

#define OP(...) ((const uint8_t[]){ __VA_ARGS__ }), sizeof((const uint8_t[]){ __VA_ARGS__ })

/* movabs reg, imm64 (REX.W B8+r; rex 0x49 for r8-r15). */
static void put_movabs(struct emitter *e, uint8_t rex, uint8_t reg, uint64_t value)
{
	put(e, OP(rex, (uint8_t)(0xb8 + reg)));
	put_le(e, value, 8);
}

/* A forward jump (op then rel32): returns where its rel32 is, for patch(). */
static uint32_t put_forward(struct emitter *e, const uint8_t *op, uint32_t n)
{
	put(e, op, n);
	uint32_t at = e->len;
	put_le(e, 0, 4);
	return at;
}

static void patch(struct emitter *e, uint32_t at)
{
	if (e->overflow || !e->buf)
		return;
	uint32_t rel = e->len - (at + 4);
	for (unsigned i = 0; i < 4; i++)
		e->buf[at + i] = (uint8_t)(rel >> (8 * i));
}

static uint64_t field(const struct bench_codegen *g, size_t offset)
{
	return g->data + offset;
}
#define DATA(g, member) field(g, offsetof(struct bench_data, member))

static void save_regs(struct emitter *e, const struct bench_codegen *g)
{
	put_rip(e, OP(0x48, 0x89, 0x05), DATA(g, save[0]), 0, 0); /* mov [rip+], rax */
	put_rip(e, OP(0x48, 0x89, 0x0d), DATA(g, save[1]), 0, 0); /* mov [rip+], rcx */
	put_rip(e, OP(0x48, 0x89, 0x15), DATA(g, save[2]), 0, 0); /* mov [rip+], rdx */
}

static void restore_regs(struct emitter *e, const struct bench_codegen *g)
{
	put_rip(e, OP(0x48, 0x8b, 0x05), DATA(g, save[0]), 0, 0);
	put_rip(e, OP(0x48, 0x8b, 0x0d), DATA(g, save[1]), 0, 0);
	put_rip(e, OP(0x48, 0x8b, 0x15), DATA(g, save[2]), 0, 0);
}

#define LFENCE 0x0f, 0xae, 0xe8

/* The quadword at from into to, through RAX: mov rax, [rip+]; mov [rip+], rax. */
static void copy_word(struct emitter *e, uint64_t from, uint64_t to)
{
	put_rip(e, OP(0x48, 0x8b, 0x05), from, 0, 0);
	put_rip(e, OP(0x48, 0x89, 0x05), to, 0, 0);
}

/* HT0's reads keep the counts in R8-R11 and touch no memory (-no_mem). */
static bool no_mem(const struct bench_codegen *g)
{
	return g->program != BENCH_PROGRAM_SIBLING && (g->b->params.flags & BUNDLE_NO_MEM);
}

/* The counter of ecx (or the TSC) into RDX as one 64-bit value: RAX, RCX clobbered. */
static void read_one(struct emitter *e, uint32_t ecx)
{
	if (ecx == BENCH_READ_TSC) {
		put(e, OP(LFENCE, 0x0f, 0x31, LFENCE)); /* lfence; rdtsc; lfence */
	} else {
		put(e, OP(0xb9)); /* mov ecx, imm32 */
		put_le(e, ecx, 4);
		put(e, OP(LFENCE, 0x0f, 0x33, LFENCE)); /* lfence; rdpmc; lfence */
	}
	put(e, OP(0x48, 0xc1, 0xe2, 0x20, 0x48, 0x09, 0xc2)); /* shl rdx, 32; or rdx, rax */
}

/* The read of position i of a block: in the second block the TSC's first, so that RDTSC brackets
 * the code as closely as the first block's last read does (the TSC is always read last there). */
static unsigned read_at(const struct bench_codegen *g, unsigned which, unsigned i, unsigned n)
{
	unsigned tsc = n;

	for (unsigned k = 0; k < n; k++)
		if (g->read_ecx[k] == BENCH_READ_TSC)
			tsc = k;
	if (which == 0 || tsc == n)
		return i;
	return i == 0 ? tsc : i <= tsc ? i - 1 : i;
}

/* -no_mem's read: sub (first) or add (second) each count to R8+k, nanoBench's noMem template. */
static void read_registers(struct emitter *e, const struct bench_codegen *g, unsigned which)
{
	unsigned n = g->reads < BENCH_NO_MEM_READS ? g->reads : BENCH_NO_MEM_READS;

	for (unsigned i = 0; i < n; i++) {
		unsigned k = read_at(g, which, i, n);
		read_one(e, g->read_ecx[k]);
		/* sub r8+k, rdx (4C 29 D0+k) or add r8+k, rdx (4C 01 D0+k) */
		put(e, OP(0x49, which ? 0x01 : 0x29, (uint8_t)(0xd0 + k)));
	}
}

/* After -no_mem's second read: R8-R11 into count[1], 0 into count[0] (the differences are in
 * the registers). */
static void store_registers(struct emitter *e, const struct bench_codegen *g)
{
	unsigned n = g->reads < BENCH_NO_MEM_READS ? g->reads : BENCH_NO_MEM_READS;

	for (unsigned k = 0; k < n; k++) {
		/* mov [rip+], r8+k (4C 89 05+8k) */
		put_rip(e, OP(0x4c, 0x89, (uint8_t)(0x05 + 8 * k)), DATA(g, count[1][k]), 0, 0);
		put_rip(e, OP(0x48, 0xc7, 0x05), DATA(g, count[0][k]), 0, 4); /* mov qword [], 0 */
	}
}

/* Every counter into count[which], then the TSC into tsc[which]; RAX, RCX, RDX clobbered. */
static void read_block(struct emitter *e, const struct bench_codegen *g, unsigned which)
{
	unsigned n = g->reads < BENCH_MAX_READS ? g->reads : BENCH_MAX_READS;

	for (unsigned i = 0; i < n; i++) {
		unsigned k = read_at(g, which, i, n);
		uint64_t at = DATA(g, count[which][k]);
		if (g->read_ecx[k] == BENCH_READ_TSC) {
			put(e, OP(LFENCE, 0x0f, 0x31)); /* lfence; rdtsc */
		} else {
			put(e, OP(0xb9)); /* mov ecx, imm32 */
			put_le(e, g->read_ecx[k], 4);
			put(e, OP(LFENCE, 0x0f, 0x33, LFENCE)); /* lfence; rdpmc; lfence */
		}
		put_rip(e, OP(0x89, 0x05), at, 0, 0);	  /* mov [rip+], eax */
		put_rip(e, OP(0x89, 0x15), at + 4, 0, 0); /* mov [rip+], edx */
	}
	put(e, OP(LFENCE, 0x0f, 0x31)); /* lfence; rdtsc */
	put_rip(e, OP(0x89, 0x05), DATA(g, tsc[which]), 0, 0);
	put_rip(e, OP(0x89, 0x15), DATA(g, tsc[which]) + 4, 0, 0);
	if (g->program == BENCH_PROGRAM_SIBLING)
		copy_word(e, DATA(g, copies), DATA(g, copies_at[which]));
	if (g->program == BENCH_PROGRAM_MEASURE && g->sibling_data)
		copy_word(e, g->sibling_data + offsetof(struct bench_data, copies),
			  DATA(g, sibling_copies[which]));
}

/* RAX = the TSC as one 64-bit value (RDX clobbered). */
static void tsc_to_rax(struct emitter *e)
{
	put(e, OP(LFENCE, 0x0f, 0x31, 0x48, 0xc1, 0xe2, 0x20, 0x48, 0x09, 0xd0));
}

/* add qword [rip+ the slot's units], value (through RAX) */
static void ledger_put(struct emitter *e, const struct bench_codegen *g, enum bench_slot slot,
		       uint64_t value)
{
	put_movabs(e, 0x48, 0, value);
	put_rip(e, OP(0x48, 0x01, 0x05), DATA(g, ledger.units[slot]), 0, 0);
}

/* The model's ledger: the run's unit, the copies beyond the traced ones, the TSC ticks since the
 * first read (codegen.h). */
static void ledger_add(struct emitter *e, const struct bench_codegen *g)
{
	ledger_put(e, g, g->run_slot, 1);
	if (g->rep_units)
		ledger_put(e, g, BENCH_SLOT_REP, g->rep_units);
	tsc_to_rax(e);
	put_rip(e, OP(0x48, 0x2b, 0x05), DATA(g, tsc[0]), 0, 0); /* sub rax, [rip+] */
	put_rip(e, OP(0x48, 0x01, 0x05), DATA(g, ledger.units[BENCH_SLOT_CYCLES]), 0, 0);
}

/*
 * A read: the registers saved around it. With -no_mem nothing is saved (nanoBench's noMem read
 * clobbers RAX, RCX, RDX): the counts go into R8-R11; under the model the TSC is kept in memory
 * for the ledger's cycles all the same (the model has no cache to disturb).
 */
static void read_counters(struct emitter *e, const struct bench_codegen *g, unsigned which)
{
	if (no_mem(g)) {
		if (which == 0)
			for (unsigned k = 0; k < BENCH_NO_MEM_READS; k++) /* mov r8+k, 0 */
				put(e, OP(0x49, 0xc7, (uint8_t)(0xc0 + k), 0, 0, 0, 0));
		if (which == 1 && g->model)
			ledger_add(e, g);
		read_registers(e, g, which);
		if (g->model && which == 0) {
			tsc_to_rax(e);
			put_rip(e, OP(0x48, 0x89, 0x05), DATA(g, tsc[0]), 0, 0);
		}
		return;
	}
	save_regs(e, g);
	if (which == 1 && g->model)
		ledger_add(e, g);
	read_block(e, g, which);
	restore_regs(e, g);
}

/* The size read_counters() writes (its bytes do not depend on the address). */
static uint32_t read_size(const struct bench_codegen *g, unsigned which)
{
	struct emitter dry = { NULL, 0, UINT32_MAX, 0, false };

	read_counters(&dry, g, which);
	return dry.len;
}

/* Push the SysV callee-saved registers, keep RSP, point the five registers into their areas. */
static void prologue(struct emitter *e, const struct bench_codegen *g, struct bench_layout *out)
{
	put(e, OP(0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57));
	put_rip(e, OP(0x48, 0x89, 0x25), DATA(g, saved_rsp), 0, 0); /* mov [rip+], rsp */
	/* The trace: pushfq; or qword [rsp], TF; popfq. The first #DB comes after the instruction
	 * that follows POPF (SDM vol. 3B, 17.3.1.4), the first at trace_start. */
	if (g->program == BENCH_PROGRAM_TRACE || g->program == BENCH_PROGRAM_TRACE_SIBLING)
		put(e, OP(0x9c, 0x48, 0x81, 0x0c, 0x24, 0x00, 0x01, 0x00, 0x00, 0x9d));
	out->trace_start = here(e);
	put_movabs(e, 0x49, 6, g->area[BENCH_AREA_R14]);
	put_movabs(e, 0x48, 7, g->area[BENCH_AREA_RDI]);
	put_movabs(e, 0x48, 6, g->area[BENCH_AREA_RSI]);
	put_movabs(e, 0x48, 5, g->area[BENCH_AREA_RBP]);
	put_movabs(e, 0x48, 4, g->area[BENCH_AREA_RSP]);
}

/* Back to the caller's stack and registers; DF clear as the ABI wants it. */
static void epilogue(struct emitter *e, const struct bench_codegen *g)
{
	put_rip(e, OP(0x48, 0x8b, 0x25), DATA(g, saved_rsp), 0, 0); /* mov rsp, [rip+] */
	put(e, OP(0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c, 0x5d, 0x5b, 0xfc, 0xc3));
}

static void put_part(struct emitter *e, const struct bundle *b, unsigned part,
		     struct bench_layout *out)
{
	const struct bundle_part_view *v = &b->part[part];

	if (!v->size)
		return;
	if (part == BUNDLE_PART_SIBLING && out->sibling_copies++)
		return put(e, v->bytes, v->size); /* a later copy: the first one's start stays */
	out->part_start[part] = here(e);
	put(e, v->bytes, v->size);
}

/* The NOP of n bytes (1-15) as nanoBench writes them: the SDM's recommended forms (vol. 2B,
 * NOP, table 4-12) up to 9 bytes, from 10 on the 8-byte form behind a CS override and n - 9
 * operand-size prefixes, as tools/pmu_bench_asm.py's nop(). */
static void put_nop(struct emitter *e, unsigned n)
{
	static const uint8_t body[10][9] = {
		{ 0 },
		{ 0x90 },
		{ 0x66, 0x90 },
		{ 0x0f, 0x1f, 0x00 },
		{ 0x0f, 0x1f, 0x40, 0x00 },
		{ 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	};

	if (n <= 9) {
		put(e, body[n], n);
		return;
	}
	for (unsigned i = 9; i < n; i++)
		put(e, OP(0x66));
	put(e, OP(0x2e));
	put(e, body[8], 8);
}

/* count instructions of length bytes each were just written from start: glue of the window. */
static void glue(struct bench_layout *out, uint64_t start, unsigned count, uint8_t length,
		 uint8_t kind, uint8_t cc)
{
	if (!out || !count || out->glue_count >= BENCH_GLUE_MAX)
		return;
	out->glue[out->glue_count++] =
		(struct bench_glue){ start, start + (uint64_t)count * length, length, kind, cc };
}

/* n NOPs of `length` bytes, noted as glue when out is given. */
static void put_nops(struct emitter *e, struct bench_layout *out, unsigned n, unsigned length)
{
	uint64_t start = here(e);

	for (unsigned i = 0; i < n; i++)
		put_nop(e, length);
	glue(out, start, n, (uint8_t)length, BUNDLE_INSN_NONE, 0);
}

/* nanoBench's drain of the front end (-df): an LFENCE, 189 one-byte NOPs, then 64 15-byte NOPs
 * (1,152 bytes: the alignment after it stays), or after the last copy 61 of them and three NOPs
 * to the next 32-byte boundary (at least 14 bytes on). Glue when out is given. */
#define DRAIN_BYTES (3 + 189 + 64 * 15)
static void put_drain(struct emitter *e, struct bench_layout *out, bool last)
{
	uint64_t at = here(e);

	put(e, OP(LFENCE));
	glue(out, at, 1, 3, BUNDLE_INSN_NONE, 0);
	put_nops(e, out, 189, 1);
	put_nops(e, out, last ? 61 : 64, 15);
	if (!last)
		return;
	unsigned dist = 32 - (unsigned)(here(e) % 32);
	if (dist <= 3 * 15 - 32)
		dist += 32;
	unsigned n1 = dist - 2 < 15 ? dist - 2 : 15;
	unsigned n2 = dist - n1 - 1 < 15 ? dist - n1 - 1 : 15;
	put_nops(e, out, 1, n1);
	put_nops(e, out, 1, n2);
	put_nops(e, out, 1, dist - n1 - n2);
}

/*
 * The measured program after its prologue (codegen.h): init, the loop's counter, the jump over
 * the padding, the first read, late_init, the copies at a 64-byte boundary plus alignment_offset
 * (in a loop back to the first copy when loop_count is set), the second read.
 */
static void measure_body(struct emitter *e, const struct bench_codegen *g, struct bench_layout *out)
{
	const struct bundle_part_view *code = &g->b->part[BUNDLE_PART_CODE];
	bool df = g->b->params.flags & BUNDLE_DF;
	uint64_t between = (df ? 2 * DRAIN_BYTES : 0) + read_size(g, 0) +
			   g->b->part[BUNDLE_PART_LATE_INIT].size;

	put_part(e, g->b, BUNDLE_PART_INIT, out);
	if (g->loop_count)
		put_movabs(e, 0x49, 7, g->loop_count); /* mov r15, loop_count */
	uint32_t jump = put_forward(e, OP(0xe9));
	uint64_t start = ((here(e) + between + 63) & ~63ull) + g->b->params.alignment_offset;
	while (!e->overflow && here(e) + between < start)
		put(e, OP(0xcc));
	patch(e, jump);
	if (df)
		put_drain(e, NULL, false);
	read_counters(e, g, 0);
	out->window_start = here(e);
	put_part(e, g->b, BUNDLE_PART_LATE_INIT, out);
	if (df)
		put_drain(e, out, false);
	out->copies_start = here(e);
	out->copies = g->copies;
	if (g->copies && code->size)
		out->part_start[BUNDLE_PART_CODE] = here(e);
	for (uint32_t i = 0; i < g->copies && !e->overflow; i++)
		put(e, code->bytes, code->size);
	if (g->loop_count) { /* dec r15; jnz the first copy */
		uint64_t at = here(e);
		put(e, OP(0x49, 0xff, 0xcf, 0x0f, 0x85));
		put_le(e, out->copies_start - (here(e) + 4), 4);
		glue(out, at, 1, 3, BUNDLE_INSN_NONE, 0);
		glue(out, at + 3, 1, 6, BUNDLE_INSN_JCC, 0x5); /* JNZ: condition 5, not zero */
	}
	if (df)
		put_drain(e, out, true);
	out->window_end = here(e);
	read_counters(e, g, 1);
	if (no_mem(g))
		store_registers(e, g);
}

/* After an answer: wait until HT0 has read what it reads at it (acked = seen) or stops the loop,
 * so that HT1 runs no copy between its read and HT0's. */
static void wait_for_ack(struct emitter *e, const struct bench_codegen *g)
{
	uint64_t again = here(e);

	put_rip(e, OP(0x48, 0x8b, 0x05), DATA(g, acked), 0, 0); /* mov rax, [rip+] */
	put_rip(e, OP(0x48, 0x3b, 0x05), DATA(g, seen), 0, 0);	/* cmp rax, [rip+] */
	uint32_t acked = put_forward(e, OP(0x0f, 0x84));	/* je */
	put_rip(e, OP(0x48, 0x83, 0x3d), DATA(g, stop), 0, 1);	/* cmp qword [rip+], 0 */
	uint32_t stopped = put_forward(e, OP(0x0f, 0x85));	/* jne */
	put(e, OP(0xf3, 0x90, 0xe9));				/* pause; jmp again */
	put_le(e, again - (here(e) + 4), 4);
	patch(e, acked);
	patch(e, stopped);
}

/* The sibling's poll: its counters into count[epoch & 1] when HT0 moved the epoch (codegen.h). */
static void sibling_poll(struct emitter *e, const struct bench_codegen *g)
{
	save_regs(e, g);
	if (g->model && !g->work_entry) {
		tsc_to_rax(e);
		put(e, OP(0x48, 0x89, 0xc1));				   /* mov rcx, rax */
		put_rip(e, OP(0x48, 0x2b, 0x05), DATA(g, last_tsc), 0, 0); /* sub rax, [rip+] */
		put_rip(e, OP(0x48, 0x01, 0x05), DATA(g, ledger.units[BENCH_SLOT_CYCLES]), 0, 0);
		put_rip(e, OP(0x48, 0x89, 0x0d), DATA(g, last_tsc), 0, 0); /* mov [rip+], rcx */
	}
	put_rip(e, OP(0x48, 0x8b, 0x05), DATA(g, epoch), 0, 0); /* mov rax, [rip+] */
	put_rip(e, OP(0x48, 0x3b, 0x05), DATA(g, seen), 0, 0);	/* cmp rax, [rip+] */
	uint32_t skip = put_forward(e, OP(0x0f, 0x84));		/* je */
	put(e, OP(0xa8, 0x01));					/* test al, 1 */
	uint32_t odd = put_forward(e, OP(0x0f, 0x85));		/* jnz */
	read_block(e, g, 0);
	uint32_t done = put_forward(e, OP(0xe9));
	patch(e, odd);
	read_block(e, g, 1);
	patch(e, done);
	put_rip(e, OP(0x48, 0x8b, 0x05), DATA(g, epoch), 0, 0);
	put_rip(e, OP(0x48, 0x89, 0x05), DATA(g, seen), 0, 0); /* mov [rip+], rax */
	wait_for_ack(e, g);
	patch(e, skip);
	restore_regs(e, g);
}

static void sibling_body(struct emitter *e, const struct bench_codegen *g, struct bench_layout *out)
{
	uint64_t top = here(e);

	if (g->work_entry) {
		put_movabs(e, 0x48, 7, g->work_arg);
		put_movabs(e, 0x48, 0, g->work_entry);
		put(e, OP(0xff, 0xd0)); /* call rax: RAX is the units it did */
		put_rip(e, OP(0x48, 0x01, 0x05), DATA(g, copies), 0, 0); /* add [rip+], rax */
	} else {
		bool part = g->b->part[BUNDLE_PART_SIBLING].size != 0;
		for (unsigned i = 0; i < BENCH_SIBLING_COPIES; i++)
			put_part(e, g->b, BUNDLE_PART_SIBLING, out);
		if (g->model) /* add qword [rip+], copies */
			put_rip(e, OP(0x48, 0x83, 0x05), DATA(g, ledger.units[BENCH_SLOT_REP]),
				BENCH_SIBLING_COPIES, 1);
		put_rip(e, OP(0x48, 0x83, 0x05), DATA(g, copies), part ? BENCH_SIBLING_COPIES : 1,
			1);
	}
	sibling_poll(e, g);
	put_rip(e, OP(0x48, 0x83, 0x3d), DATA(g, stop), 0, 1); /* cmp qword [rip+], 0 */
	put(e, OP(0x0f, 0x84));				       /* je top */
	put_le(e, top - (here(e) + 4), 4);
}

bool bench_codegen(const struct bench_codegen *g, uint8_t *buf, uint64_t addr, uint32_t capacity,
		   struct bench_layout *out)
{
	struct emitter e = { buf, addr, capacity, 0, false };

	memset(out, 0, sizeof(*out));
	prologue(&e, g, out);
	switch (g->program) {
	case BENCH_PROGRAM_MEASURE:
	case BENCH_PROGRAM_TRACE:
		measure_body(&e, g, out);
		break;
	case BENCH_PROGRAM_ONCE:
		put_part(&e, g->b, BUNDLE_PART_ONE_TIME_INIT, out);
		break;
	case BENCH_PROGRAM_TRACE_SIBLING:
		put_part(&e, g->b, BUNDLE_PART_SIBLING, out);
		out->trace_end = here(&e);
		break;
	case BENCH_PROGRAM_SIBLING:
		sibling_body(&e, g, out);
		break;
	}
	out->epilogue = here(&e);
	if (g->program == BENCH_PROGRAM_TRACE)
		out->trace_end = out->epilogue;
	epilogue(&e, g);
	out->size = e.len;
	return !e.overflow;
}

uint64_t bench_codegen_size(const struct bench_codegen *g)
{
	uint64_t parts = 0;

	for (unsigned p = 0; p < BUNDLE_PARTS; p++)
		parts += g->b->part[p].size;
	/* Glue: the prologue, two reads of every counter (the sibling's poll has two blocks), the
	 * ledger, the loop: well under 2 KiB; the padding before the copies at most 64 + 4095;
	 * with -df three drains and the alignment after the last. */
	parts += (BENCH_SIBLING_COPIES - 1) * (uint64_t)g->b->part[BUNDLE_PART_SIBLING].size;
	if (g->b->params.flags & BUNDLE_DF)
		parts += 3 * DRAIN_BYTES + 64;
	return 2048 + 64 + BUNDLE_MAX_ALIGNMENT_OFFSET + parts +
	       (uint64_t)g->copies * g->b->part[BUNDLE_PART_CODE].size;
}

bool bench_layout_where(const struct bench_layout *l, const struct bundle *b, uint64_t rip,
			unsigned *part, uint32_t *offset)
{
	uint32_t code = b->part[BUNDLE_PART_CODE].size;

	if (code && l->copies && rip >= l->copies_start &&
	    rip - l->copies_start < (uint64_t)l->copies * code) {
		*part = BUNDLE_PART_CODE;
		*offset = (uint32_t)((rip - l->copies_start) % code);
		return true;
	}
	for (unsigned p = 0; p < BUNDLE_PARTS; p++) {
		uint64_t size = b->part[p].size *
				(uint64_t)(p == BUNDLE_PART_SIBLING ? l->sibling_copies : 1);
		if (p == BUNDLE_PART_CODE || !l->part_start[p] || rip < l->part_start[p] ||
		    rip - l->part_start[p] >= size)
			continue;
		*part = p;
		*offset = (uint32_t)((rip - l->part_start[p]) % b->part[p].size);
		return true;
	}
	return false;
}

bool bench_layout_glue(const struct bench_layout *l, uint64_t rip, const struct bench_glue **g)
{
	for (unsigned i = 0; i < l->glue_count && i < BENCH_GLUE_MAX; i++) {
		const struct bench_glue *r = &l->glue[i];
		if (rip >= r->start && rip < r->end && (rip - r->start) % r->length == 0) {
			*g = r;
			return true;
		}
	}
	return false;
}
