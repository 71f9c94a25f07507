// SPDX-License-Identifier: GPL-2.0
/*
 * Under the model PMU, HT0's counts from traces of the runs nanoBench's method compares
 * (tests/owncode/trace.h): the run with N copies and the one with 2N (none and N in basic mode),
 * each traced whole, the counts of its window the profile of one unit of that run, so that code
 * whose work depends on state is counted as it ran.
 *
 * A trace costs one #DB an instruction, and under QEMU's TCG an instruction at an address not yet
 * run costs some ten times one run before (measured: about 45 and 4 us). When both runs would
 * cost more than BENCH_TRACE_COST (a second or so), they are traced with fewer copies: the loop's
 * iterations first (in basic mode its overhead per copy then stays), then the copies; the real
 * runs' counts are the traced short run's and, per copy beyond it, the traced runs' difference
 * per copy, and the note says so. A trace that does not end within its steps (a loop in the
 * code that the guess did not see) is cut and tried once more with fewer copies; if that is cut
 * too, the traced events have no value, with the reason.
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "tests/owncode/bench_state.h"

/* What both traces of a bundle may cost, in steps at an address already run (one at a new address
 * costs FRESH of them). */
#define BENCH_TRACE_COST 500000ull
#define FRESH 10

/* The copies and loop iterations of a run; the repetitions it holds: copies x loops. */
struct run_shape {
	uint32_t copies, loops;
};

static uint64_t reps_of(struct run_shape r)
{
	return (uint64_t)r.copies * (r.loops ? r.loops : 1);
}

void bench_run_shapes(const struct bundle_params *p, uint32_t n, uint32_t loops,
		      struct run_shape_pair *out)
{
	bool basic = p->flags & BUNDLE_BASIC_MODE;

	out->copies[0] = basic ? 0 : n;
	out->loops[0] = basic ? 0 : loops;
	out->copies[1] = basic ? n : 2 * n;
	out->loops[1] = loops;
}

static struct run_shape shape_of(const struct run_shape_pair *p, unsigned k)
{
	return (struct run_shape){ p->copies[k], p->loops[k] };
}

/* Thread 0's program of a run traced into *c, at most cap steps: false when the bundle faulted. */
static bool trace_one(struct bench_state *s, struct run_shape r, uint64_t cap,
		      struct bench_counts *c, uint64_t *copies)
{
	struct bench_codegen g;

	bench_base_codegen(s, &g, BENCH_PROGRAM_TRACE, 0);
	g.copies = r.copies;
	g.loop_count = r.loops;
	g.model = false; /* the trace adds nothing to the ledger */
	if (!bench_generate(s, &g, BENCH_SLOT_TRACE))
		return false;
	s->x.trace_cap = cap;
	if (!bench_exec_trace(&s->x, s->entry[BENCH_SLOT_TRACE], &s->layout[BENCH_SLOT_TRACE],
			      s->b.params.ring))
		return false;
	s->trace_steps += s->x.tracer.steps;
	*c = s->x.tracer.run;
	*copies = s->x.tracer.copies;
	return true;
}

/* The instructions of a part in its decode table. */
static uint64_t insns(const struct bench_state *s, unsigned part)
{
	return s->b.part[part].insns;
}

/* A run's cost besides its copies: init, late_init, the reads, -df's drains, all new code. */
static uint64_t run_fixed(const struct bench_state *s)
{
	return FRESH * (insns(s, BUNDLE_PART_INIT) + insns(s, BUNDLE_PART_LATE_INIT) + 100 +
			(s->b.params.flags & BUNDLE_DF ? 3 * 254 : 0));
}

/* The cost of one run: its fixed part, its copies (new code) and their loop's repetitions (code
 * run before), with fresh and again the cost of a copy run the first time and once more. */
static uint64_t run_cost(uint64_t fixed, struct run_shape r, uint64_t fresh, uint64_t again)
{
	return fixed + r.copies * fresh + (reps_of(r) - r.copies) * again + 2ull * r.loops;
}

static uint64_t pair_cost(uint64_t fixed, const struct run_shape_pair *p, uint64_t fresh,
			  uint64_t again)
{
	return run_cost(fixed, shape_of(p, 0), fresh, again) +
	       run_cost(fixed, shape_of(p, 1), fresh, again);
}

/*
 * The most of the bundle's runs its traces can afford, into *p: its copies and as many of its
 * loop's iterations as fit, else fewer copies (one iteration). False when not even one copy fits.
 */
static bool fewer(const struct bench_state *s, uint64_t fixed, uint64_t fresh, uint64_t again,
		  struct run_shape_pair *p)
{
	uint32_t n = s->b.params.unroll_count, loops = s->b.params.loop_count;
	struct run_shape_pair one;
	uint32_t lo = 1, hi = loops;

	bench_run_shapes(&s->b.params, n, loops ? 1 : 0, &one);
	if (pair_cost(fixed, &one, fresh, again) <= BENCH_TRACE_COST) {
		while (lo < hi) { /* the most iterations that fit */
			uint32_t mid = lo + (hi - lo + 1) / 2;
			bench_run_shapes(&s->b.params, n, mid, p);
			if (pair_cost(fixed, p, fresh, again) <= BENCH_TRACE_COST)
				lo = mid;
			else
				hi = mid - 1;
		}
		bench_run_shapes(&s->b.params, n, loops ? lo : 0, p);
		return true;
	}
	lo = 0;
	hi = n;
	while (lo < hi) { /* the most copies that fit, in one iteration */
		uint32_t mid = lo + (hi - lo + 1) / 2;
		bench_run_shapes(&s->b.params, mid, loops ? 1 : 0, p);
		if (pair_cost(fixed, p, fresh, again) <= BENCH_TRACE_COST)
			lo = mid;
		else
			hi = mid - 1;
	}
	bench_run_shapes(&s->b.params, lo, loops ? 1 : 0, p);
	return lo > 0;
}

/* The traced runs' difference (the long run's less the short run's), a count that came out lower
 * in the longer run none. */
static void difference(const struct bench_counts *c, struct bench_counts *out)
{
	const uint64_t *a = (const uint64_t *)&c[0], *b = (const uint64_t *)&c[1];
	uint64_t *o = (uint64_t *)out;

	for (unsigned i = 0; i < sizeof(*out) / sizeof(uint64_t); i++)
		o[i] = b[i] > a[i] ? b[i] - a[i] : 0;
}

/* The profiles of HT0's runs: exact (each run its own trace), or the traced short run and per copy
 * beyond it; the copies each real run adds of the latter. */
static void profiles_of(struct bench_state *s, const struct run_shape_pair *traced,
			const struct run_shape_pair *real, const struct bench_counts *c)
{
	enum model_ring ring = s->b.params.ring ? MODEL_RING_USER : MODEL_RING_KERNEL;
	struct bench_profiles *pr = s->profiles;
	bool exact = !memcmp(traced, real, sizeof(*traced));
	uint64_t reps = reps_of(shape_of(traced, 1)) - reps_of(shape_of(traced, 0));
	struct bench_counts rep;

	bench_trace_profile(&c[0], 1, ring, "bench run (N)", pr->rates[0], &pr->run[0]);
	bench_trace_profile(&c[exact ? 1 : 0], 1, ring, "bench run (2N)", pr->rates[1],
			    &pr->run[1]);
	memset(&rep, 0, sizeof(rep));
	s->rep_units[0] = s->rep_units[1] = 0;
	if (!exact && reps) {
		difference(c, &rep);
		for (unsigned k = 0; k < 2; k++)
			s->rep_units[k] = reps_of(shape_of(real, k)) - reps_of(shape_of(traced, 0));
	}
	bench_trace_profile(&rep, reps ? reps : 1, ring, "bench copy", pr->rates[2], &pr->rep[0]);
}

static void note_fewer(struct bench_state *s, const struct run_shape_pair *t,
		       const struct run_shape_pair *r)
{
	format_snprintf(
		s->trace_note_buf, sizeof(s->trace_note_buf),
		"traced with %u and %u copies (loop %u), not %u and %u (loop %u): a trace "
		"of the whole runs (one #DB an instruction) would take longer than a bundle "
		"may (about a second); per copy from the traced runs' difference",
		t->copies[0], t->copies[1], t->loops[1], r->copies[0], r->copies[1], r->loops[1]);
	s->trace_note = s->trace_note_buf;
}

static bool note_failed(struct bench_state *s, const char *what)
{
	format_snprintf(s->trace_note_buf, sizeof(s->trace_note_buf),
			"not modelled: %s did not end within the %llu steps a trace may take (one "
			"#DB an instruction): a loop in the code?",
			what, (unsigned long long)BENCH_TRACE_COST);
	s->trace_failed = s->trace_note_buf;
	return true;
}

enum trace_outcome { TRACED, OVER, FAULTED };

/* Both runs of a shape traced within BENCH_TRACE_COST steps into c; OVER when one was cut short
 * (its steps per copy begun into *per, 0 when it began none). */
static enum trace_outcome trace_pair(struct bench_state *s, const struct run_shape_pair *p,
				     struct bench_counts *c, uint64_t *per)
{
	uint64_t copies, before = s->trace_steps;

	for (unsigned k = 0; k < 2; k++) {
		s->x.trace_over = false;
		if (!trace_one(s, shape_of(p, k), BENCH_TRACE_COST + before - s->trace_steps, &c[k],
			       &copies))
			return FAULTED;
		if (s->x.trace_over) {
			*per = copies ? (s->trace_steps - before) / copies : 0;
			return OVER;
		}
	}
	return TRACED;
}

bool bench_trace_runs(struct bench_state *s)
{
	struct run_shape_pair real, traced;
	struct bench_counts c[2];
	uint64_t per = 0, code = insns(s, BUNDLE_PART_CODE) ? insns(s, BUNDLE_PART_CODE) : 1;
	enum trace_outcome o;

	bench_run_shapes(&s->b.params, s->b.params.unroll_count, s->b.params.loop_count, &real);
	traced = real;
	if (pair_cost(run_fixed(s), &real, FRESH * code, code) > BENCH_TRACE_COST &&
	    !fewer(s, run_fixed(s), FRESH * code, code, &traced))
		return note_failed(s, "a run's init and late_init");
	o = trace_pair(s, &traced, c, &per);
	if (o == OVER) {
		/* the code loops: a copy costs what the cut trace took a copy, run before */
		if (!per || !fewer(s, run_fixed(s), FRESH * code + per, per, &traced))
			return note_failed(s,
					   per ? "a run of one copy" : "a run's init or late_init");
		o = trace_pair(s, &traced, c, &per);
		if (o == OVER)
			return note_failed(s, "a run of fewer copies");
	}
	if (o == FAULTED)
		return false;
	if (memcmp(&traced, &real, sizeof(real)))
		note_fewer(s, &traced, &real);
	profiles_of(s, &traced, &real, c);
	return true;
}
