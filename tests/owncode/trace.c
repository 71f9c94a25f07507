// SPDX-License-Identifier: GPL-2.0
/*
 * Counts from a trace of the code (tests/owncode/trace.h).
 */
#include <stddef.h>
#include <string.h>

#include "tests/owncode/trace.h"

#define FIELD(f) offsetof(struct bench_counts, f)

const struct bench_trace_event bench_trace_events[] = {
	{ 0xc0, 0x00, "INST_RETIRED.ANY_P", FIELD(instructions) },
	{ 0xc4, 0x00, "BR_INST_RETIRED.ALL_BRANCHES", FIELD(branches) },
	{ 0xc4, 0x01, "BR_INST_RETIRED.CONDITIONAL", FIELD(conditional) },
	{ 0xc4, 0x02, "BR_INST_RETIRED.NEAR_CALL", FIELD(calls) },
	{ 0xc4, 0x08, "BR_INST_RETIRED.NEAR_RETURN", FIELD(returns) },
	{ 0xc4, 0x10, "BR_INST_RETIRED.NOT_TAKEN", FIELD(not_taken) },
	{ 0xc4, 0x20, "BR_INST_RETIRED.NEAR_TAKEN", FIELD(taken) },
	{ 0xc4, 0x40, "BR_INST_RETIRED.FAR_BRANCH", FIELD(far) },
	{ 0xd0, 0x81, "MEM_UOPS_RETIRED.ALL_LOADS", FIELD(loads) },
	{ 0xd0, 0x82, "MEM_UOPS_RETIRED.ALL_STORES", FIELD(stores) },
};
const unsigned bench_trace_event_count = sizeof(bench_trace_events) / sizeof(bench_trace_events[0]);

/* IA32_PERFEVTSELx: event select, unit mask, edge (18), inv (23), counter mask (31:24). */
#define EVTSEL_EDGE (1ull << 18)
#define EVTSEL_INV (1ull << 23)
#define EVTSEL_CMASK (0xffull << 24)

/* What the model counts beside the trace: the TSC as cycles, and LBR_INSERTS as 0 (the LBR is
 * off) plus what leaks into it. Codes as Intel's data has them (pmu/intel_core_events.txt). */
static const struct {
	uint8_t event, umask;
	const char *name;
} beside_the_trace[] = {
	{ 0x3c, 0x00, "CPU_CLK_UNHALTED.THREAD_P" },
	{ 0xcc, 0x20, "ROB_MISC_EVENTS.LBR_INSERTS" },
};

bool bench_trace_modelled(uint64_t evtsel)
{
	uint8_t event = (uint8_t)evtsel, umask = (uint8_t)(evtsel >> 8);

	if (evtsel & (EVTSEL_EDGE | EVTSEL_INV | EVTSEL_CMASK))
		return false;
	for (unsigned i = 0; i < sizeof(beside_the_trace) / sizeof(beside_the_trace[0]); i++)
		if (beside_the_trace[i].event == event && beside_the_trace[i].umask == umask)
			return true;
	for (unsigned i = 0; i < bench_trace_event_count; i++)
		if (bench_trace_events[i].event == event && bench_trace_events[i].umask == umask)
			return true;
	return false;
}

bool bench_trace_needs_none(const struct bundle_event *e)
{
	if (e->kind == BUNDLE_EVENT_FIXED)
		return e->fixed_index != 0;
	if (e->kind != BUNDLE_EVENT_GP || (e->evtsel & (EVTSEL_EDGE | EVTSEL_INV | EVTSEL_CMASK)))
		return false;
	for (unsigned i = 0; i < sizeof(beside_the_trace) / sizeof(beside_the_trace[0]); i++)
		if (beside_the_trace[i].event == (uint8_t)e->evtsel &&
		    beside_the_trace[i].umask == (uint8_t)(e->evtsel >> 8))
			return true;
	return false;
}

void bench_trace_start(struct bench_tracer *t, const struct bundle *b, const struct bench_layout *l,
		       uint64_t first)
{
	memset(t, 0, sizeof(*t));
	t->b = b;
	t->l = l;
	t->prev = first;
}

static void count(struct bench_counts *c, const struct bundle_insn *in, bool known, uint64_t at,
		  uint64_t next)
{
	bool repeating = known && (in->flags & BUNDLE_INSN_REP) && next == at;

	if (!known) {
		c->unknown++;
		c->instructions++;
		return;
	}
	c->loads += in->reads;
	c->stores += in->writes;
	if (repeating)
		return;
	c->instructions++;
	bool taken = next != at + in->length;
	switch (in->kind) {
	case BUNDLE_INSN_JCC:
		c->branches++;
		c->conditional++;
		if (taken)
			c->taken++;
		else
			c->not_taken++;
		break;
	case BUNDLE_INSN_JMP:
	case BUNDLE_INSN_CALL:
	case BUNDLE_INSN_RET:
		c->branches++;
		c->taken++;
		c->calls += in->kind == BUNDLE_INSN_CALL;
		c->returns += in->kind == BUNDLE_INSN_RET;
		break;
	case BUNDLE_INSN_FAR:
		c->branches++;
		c->far++;
		break;
	default:
		break;
	}
}

bool bench_trace_step(struct bench_tracer *t, uint64_t next)
{
	unsigned part;
	uint32_t offset;

	t->steps++;
	if (bench_layout_where(t->l, t->b, t->prev, &part, &offset)) {
		struct bundle_insn in;
		bool known = bundle_insn_at(t->b, part, offset, &in);
		count(&t->part[part], &in, known, t->prev, next);
	}
	t->prev = next;
	return next == t->l->trace_end;
}

void bench_trace_profile(const struct bench_counts *c, enum model_ring ring, const char *name,
			 struct model_rate *rates, struct model_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->ring = ring;
	/* INST_RETIRED.ANY_P (0x00c0) counts on GP counters through the instructions' rate. */
	p->instructions = c->instructions * MODEL_RATE_UNITS;
	unsigned n = 0;
	for (unsigned i = 0; i < bench_trace_event_count; i++) {
		uint64_t v;
		if (bench_trace_events[i].event == 0xc0)
			continue;
		memcpy(&v, (const uint8_t *)c + bench_trace_events[i].field, sizeof(v));
		rates[n++] = (struct model_rate){ .event = bench_trace_events[i].event,
						  .umask = bench_trace_events[i].umask,
						  .per_units = v * MODEL_RATE_UNITS };
	}
	p->rates = rates;
	p->nrates = n;
}

void bench_cycles_profile(enum model_ring ring, struct model_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->name = "bench cycles (TSC)";
	p->ring = ring;
	p->core_cycles = MODEL_RATE_UNITS;
	p->ref_cycles = MODEL_RATE_UNITS;
}
