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

static void put(struct emitter *e, const void *bytes, uint32_t n)
{
	if (e->overflow || n > e->cap - e->len) {
		e->overflow = true;
		return;
	}
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
	if (e->overflow)
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

/* Every counter into count[which], then the TSC into tsc[which]; RAX, RCX, RDX clobbered. */
static void read_block(struct emitter *e, const struct bench_codegen *g, unsigned which)
{
	for (unsigned k = 0; k < g->reads && k < BENCH_MAX_READS; k++) {
		uint64_t at = DATA(g, count[which][k]);
		put(e, OP(0xb9)); /* mov ecx, imm32 */
		put_le(e, g->read_ecx[k], 4);
		put(e, OP(LFENCE, 0x0f, 0x33, LFENCE));	  /* lfence; rdpmc; lfence */
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

/* The model's ledger: the copies and the TSC ticks since the first read (codegen.h). */
static void ledger_add(struct emitter *e, const struct bench_codegen *g)
{
	uint64_t units = (uint64_t)g->copies * (g->loop_count ? g->loop_count : 1);

	put_movabs(e, 0x48, 0, units);
	put_rip(e, OP(0x48, 0x01, 0x05), DATA(g, ledger.units[BENCH_SLOT_CODE]), 0, 0);
	tsc_to_rax(e);
	put_rip(e, OP(0x48, 0x2b, 0x05), DATA(g, tsc[0]), 0, 0); /* sub rax, [rip+] */
	put_rip(e, OP(0x48, 0x01, 0x05), DATA(g, ledger.units[BENCH_SLOT_CYCLES]), 0, 0);
}

static void read_counters(struct emitter *e, const struct bench_codegen *g, unsigned which)
{
	save_regs(e, g);
	if (which == 1 && g->model)
		ledger_add(e, g);
	read_block(e, g, which);
	restore_regs(e, g);
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

/* The copies of code, the first at a 64-byte boundary plus alignment_offset (a jump over the
 * padding), in a loop around them when loop_count is set. */
static void put_copies(struct emitter *e, const struct bench_codegen *g, uint32_t copies,
		       uint32_t loop_count, struct bench_layout *out)
{
	const struct bundle_part_view *code = &g->b->part[BUNDLE_PART_CODE];

	if (loop_count)
		put_movabs(e, 0x49, 7, loop_count); /* mov r15, loop_count */
	uint32_t jump = put_forward(e, OP(0xe9));
	uint64_t start = ((here(e) + 63) & ~63ull) + g->b->params.alignment_offset;
	while (!e->overflow && here(e) < start)
		put(e, OP(0xcc));
	patch(e, jump);
	out->copies_start = here(e);
	out->copies = copies;
	if (copies && code->size)
		out->part_start[BUNDLE_PART_CODE] = here(e);
	for (uint32_t i = 0; i < copies && !e->overflow; i++)
		put(e, code->bytes, code->size);
	if (loop_count) { /* dec r15; jnz start */
		put(e, OP(0x49, 0xff, 0xcf, 0x0f, 0x85));
		put_le(e, out->copies_start - (here(e) + 4), 4);
	}
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
			put_rip(e, OP(0x48, 0x83, 0x05), DATA(g, ledger.units[BENCH_SLOT_CODE]),
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
		put_part(&e, g->b, BUNDLE_PART_INIT, out);
		read_counters(&e, g, 0);
		put_part(&e, g->b, BUNDLE_PART_LATE_INIT, out);
		put_copies(&e, g, g->copies, g->loop_count, out);
		read_counters(&e, g, 1);
		break;
	case BENCH_PROGRAM_ONCE:
		put_part(&e, g->b, BUNDLE_PART_ONE_TIME_INIT, out);
		break;
	case BENCH_PROGRAM_TRACE:
		put_part(&e, g->b, BUNDLE_PART_INIT, out);
		put_part(&e, g->b, BUNDLE_PART_LATE_INIT, out);
		put_copies(&e, g, 1, 0, out);
		out->trace_end = here(&e);
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
	 * ledger, the loop: well under 2 KiB; the padding before the copies at most 64 + 4095. */
	parts += (BENCH_SIBLING_COPIES - 1) * (uint64_t)g->b->part[BUNDLE_PART_SIBLING].size;
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
