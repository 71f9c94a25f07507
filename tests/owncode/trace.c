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
	if (e->kind == BUNDLE_EVENT_TSC)
		return true;
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
	t->prev_rcx = ~0ull; /* not known: taken as not 0 */
}

bool bench_condition(unsigned cc, uint64_t rflags)
{
	bool cf = rflags & BENCH_RFLAGS_CF, zf = rflags & BENCH_RFLAGS_ZF;
	bool sf = rflags & BENCH_RFLAGS_SF, of = rflags & BENCH_RFLAGS_OF;
	bool holds;

	switch ((cc & 0xf) >> 1) { /* the odd codes are the even ones negated */
	case 0:
		holds = of;
		break;
	case 1:
		holds = cf;
		break;
	case 2:
		holds = zf;
		break;
	case 3:
		holds = cf || zf;
		break;
	case 4:
		holds = sf;
		break;
	case 5:
		holds = rflags & BENCH_RFLAGS_PF;
		break;
	case 6:
		holds = sf != of;
		break;
	default:
		holds = zf || sf != of;
		break;
	}
	return (cc & 1) ? !holds : holds;
}

/* Legacy prefixes (SDM vol. 2A, 2.1.1) and REX (40-4F): skipped, 67 (address size) noted. */
static unsigned skip_prefixes(const uint8_t *insn, unsigned length, bool *addr32)
{
	unsigned i = 0;

	*addr32 = false;
	for (; i < length; i++) {
		uint8_t p = insn[i];
		if (p == 0x67)
			*addr32 = true;
		else if (!(p == 0xf0 || p == 0xf2 || p == 0xf3 || p == 0x2e || p == 0x36 ||
			   p == 0x3e || p == 0x26 || p == 0x64 || p == 0x65 || p == 0x66 ||
			   (p & 0xf0) == 0x40))
			break;
	}
	return i;
}

bool bench_branch_taken(const uint8_t *insn, unsigned length, uint64_t rflags, uint64_t rcx)
{
	bool addr32;
	unsigned i = skip_prefixes(insn, length, &addr32);
	uint64_t count = addr32 ? (uint32_t)rcx : rcx; /* JrCXZ's and LOOP's: RCX, or ECX with 67 */
	bool zf = rflags & BENCH_RFLAGS_ZF;

	if (i >= length)
		return false;
	uint8_t op = insn[i];
	if (op >= 0x70 && op <= 0x7f)
		return bench_condition(op & 0xf, rflags);
	if (op == 0x0f && i + 1 < length && insn[i + 1] >= 0x80 && insn[i + 1] <= 0x8f)
		return bench_condition(insn[i + 1] & 0xf, rflags);
	switch (op) {
	case 0xe3: /* JrCXZ: RCX unchanged */
		return count == 0;
	case 0xe2: /* LOOP: RCX was decremented */
		return count != 0;
	case 0xe1: /* LOOPE */
		return count != 0 && zf;
	case 0xe0: /* LOOPNE */
		return count != 0 && !zf;
	default:
		return false;
	}
}

/* A REP string instruction's count before it ran: RCX, or ECX with an address-size prefix. */
static uint64_t rep_count(const uint8_t *insn, unsigned length, uint64_t rcx)
{
	bool addr32;

	skip_prefixes(insn, length, &addr32);
	return addr32 ? (uint32_t)rcx : rcx;
}

/* The instruction in, executed at `at` (the next RIP is next), into c; taken: a conditional
 * branch's condition held; accessed: it made its reads and writes (a REP string instruction
 * whose count was 0 makes none, though it traps once). */
static void count(struct bench_counts *c, const struct bundle_insn *in, bool known, uint64_t at,
		  uint64_t next, bool taken, bool accessed)
{
	bool repeating = known && (in->flags & BUNDLE_INSN_REP) && next == at;

	if (!known) {
		c->unknown++;
		c->instructions++;
		return;
	}
	if (accessed) {
		c->loads += in->reads;
		c->stores += in->writes;
	}
	if (repeating)
		return;
	c->instructions++;
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

static bool in_window(const struct bench_layout *l, uint64_t rip)
{
	return rip >= l->window_start && rip < l->window_end;
}

/* MOV SS, r/m16 (8E /2; POP SS is #UD in 64-bit mode): it holds the #DB of the instruction
 * after it back until that one has executed too (SDM vol. 3A, 6.8.3). */
static bool loads_ss(const uint8_t *insn, unsigned length)
{
	bool addr32;
	unsigned i = skip_prefixes(insn, length, &addr32);

	return i + 1 < length && insn[i] == 0x8e && (insn[i + 1] >> 3 & 7) == 2;
}

/*
 * The instruction at prev was a part's: its counts into its part and, in the window, the run.
 * Returns its length when it was a MOV SS, whose #DB came only after the next instruction (next
 * is then that one's end, and the MOV SS ended where it begins); else 0.
 */
static unsigned count_part(struct bench_tracer *t, unsigned part, uint32_t offset, uint64_t next,
			   uint64_t rflags, uint64_t rcx)
{
	struct bundle_insn in;
	bool known = bundle_insn_at(t->b, part, offset, &in);
	const uint8_t *bytes = t->b->part[part].bytes + offset;
	unsigned shadow = known && loads_ss(bytes, in.length) ? in.length : 0;
	bool taken = known && in.kind == BUNDLE_INSN_JCC &&
		     bench_branch_taken(bytes, in.length, rflags, rcx);
	bool accessed = !known || !(in.flags & BUNDLE_INSN_REP) ||
			rep_count(bytes, in.length, t->prev_rcx) != 0;

	if (shadow)
		next = t->prev + shadow;
	count(&t->part[part], &in, known, t->prev, next, taken, accessed);
	if (in_window(t->l, t->prev))
		count(&t->run, &in, known, t->prev, next, taken, accessed);
	if (part == BUNDLE_PART_CODE && offset == 0 &&
	    !(known && next == t->prev && (in.flags & BUNDLE_INSN_REP)))
		t->copies++;
	return shadow;
}

/* The instruction at prev, which next follows; the length of a MOV SS, else 0 (count_part). */
static unsigned count_one(struct bench_tracer *t, uint64_t next, uint64_t rflags, uint64_t rcx)
{
	unsigned part;
	uint32_t offset;
	const struct bench_glue *g;

	if (bench_layout_where(t->l, t->b, t->prev, &part, &offset))
		return count_part(t, part, offset, next, rflags, rcx);
	if (in_window(t->l, t->prev) && bench_layout_glue(t->l, t->prev, &g)) {
		struct bundle_insn in = { 0, g->length, g->kind, 0, 0, 0 };
		count(&t->run, &in, true, t->prev, next,
		      g->kind == BUNDLE_INSN_JCC && bench_condition(g->cc, rflags), true);
	}
	return 0;
}

bool bench_trace_step(struct bench_tracer *t, uint64_t next, uint64_t rflags, uint64_t rcx)
{
	unsigned shadow;

	t->steps++;
	shadow = count_one(t, next, rflags, rcx);
	if (shadow && next != t->prev + shadow) {
		/* The instruction MOV SS shadowed ran with no #DB of its own: next follows it. It
		 * begins with RCX as MOV SS left it, and a MOV SS right after a MOV SS may hold no
		 * #DB back (SDM vol. 3A, 6.8.3), so it is counted alone. */
		t->prev += shadow;
		count_one(t, next, rflags, rcx);
	}
	t->prev = next;
	t->prev_rcx = rcx;
	return next == t->l->trace_end;
}

/* v events over units, per MODEL_RATE_UNITS units (rounded down), below MODEL_RATE_MAX. */
static uint64_t rate(uint64_t v, uint64_t units)
{
	unsigned __int128 r = (unsigned __int128)v * MODEL_RATE_UNITS / (units ? units : 1);

	return r < MODEL_RATE_MAX ? (uint64_t)r : MODEL_RATE_MAX - 1;
}

void bench_trace_profile(const struct bench_counts *c, uint64_t units, enum model_ring ring,
			 const char *name, struct model_rate *rates, struct model_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->ring = ring;
	/* INST_RETIRED.ANY_P (0x00c0) counts on GP counters through the instructions' rate. */
	p->instructions = rate(c->instructions, units);
	unsigned n = 0;
	for (unsigned i = 0; i < bench_trace_event_count; i++) {
		uint64_t v;
		if (bench_trace_events[i].event == 0xc0)
			continue;
		memcpy(&v, (const uint8_t *)c + bench_trace_events[i].field, sizeof(v));
		rates[n++] = (struct model_rate){ .event = bench_trace_events[i].event,
						  .umask = bench_trace_events[i].umask,
						  .per_units = rate(v, units) };
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
