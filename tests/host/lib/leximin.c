// SPDX-License-Identifier: GPL-2.0
/*
 * Leximin shares by progressive filling over a dense simplex (see leximin.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tests/host/lib/leximin.h"

#define EPS 1e-9
/* A group whose best share stays within this of the level is saturated there. */
#define SATURATED 1e-7

enum row_type { LE, GE, EQ };

/* maximise c.x subject to a_i.x (type_i) b_i, x >= 0: the problem as given. */
struct lp {
	unsigned rows, cols;
	double *a; /* rows x cols */
	double *b;
	enum row_type *type;
	double *c;
};

/* The tableau: the constraint rows over [x | slack | artificial | rhs], and the basis. */
struct tableau {
	unsigned rows, width, cols, first_artificial;
	double *t;
	unsigned *basis;
};

static double *cell(struct tableau *tb, unsigned i, unsigned j)
{
	return &tb->t[(size_t)i * tb->width + j];
}

static void pivot(struct tableau *tb, unsigned r, unsigned j)
{
	double p = *cell(tb, r, j);

	for (unsigned k = 0; k < tb->width; k++)
		*cell(tb, r, k) /= p;
	for (unsigned i = 0; i < tb->rows; i++) {
		double f = *cell(tb, i, j);

		if (i == r || f == 0)
			continue;
		for (unsigned k = 0; k < tb->width; k++)
			*cell(tb, i, k) -= f * *cell(tb, r, k);
	}
	tb->basis[r] = j;
}

/*
 * Maximise cost over the tableau's columns below `limit`: the most improving column enters
 * (Dantzig), and after a run of pivots that gain nothing the first improving one (Bland's rule,
 * which cannot cycle).
 */
static double optimise(struct tableau *tb, const double *cost, unsigned limit)
{
	unsigned rhs = tb->width - 1, stalled = 0;
	double value = 0;

	for (;;) {
		unsigned enter = limit, leave = tb->rows;
		double best = 0, gain = EPS;

		for (unsigned j = 0; j < limit; j++) {
			double r = cost[j];

			for (unsigned i = 0; i < tb->rows; i++)
				r -= cost[tb->basis[i]] * *cell(tb, i, j);
			if (r > gain) {
				enter = j;
				if (stalled > 50)
					break;
				gain = r;
			}
		}
		if (enter == limit)
			break;
		for (unsigned i = 0; i < tb->rows; i++) {
			double a = *cell(tb, i, enter), ratio;

			if (a <= EPS)
				continue;
			ratio = *cell(tb, i, rhs) / a;
			if (leave == tb->rows || ratio < best - EPS ||
			    (ratio < best + EPS && tb->basis[i] < tb->basis[leave])) {
				leave = i;
				best = ratio;
			}
		}
		if (leave == tb->rows)
			return 1e300; /* unbounded: not for these problems */
		stalled = best > EPS ? 0 : stalled + 1;
		pivot(tb, leave, enter);
	}
	for (unsigned i = 0; i < tb->rows; i++)
		value += cost[tb->basis[i]] * *cell(tb, i, rhs);
	return value;
}

/*
 * Two-phase simplex. Returns false when infeasible; else *value, x[0..cols-1] and, for each
 * `<=` row with b >= 0, its dual value in dual[row] (0 for the other rows).
 */
static bool lp_solve(const struct lp *p, double *value, double *x, double *dual)
{
	unsigned slacks = 0, artificials = 0;
	struct tableau tb;
	double *cost;
	bool ok = true;

	for (unsigned i = 0; i < p->rows; i++) {
		slacks += p->type[i] != EQ;
		artificials += p->type[i] != LE || p->b[i] < 0;
	}
	tb.rows = p->rows;
	tb.cols = p->cols;
	tb.first_artificial = p->cols + slacks;
	tb.width = p->cols + slacks + artificials + 1;
	tb.t = calloc((size_t)tb.rows * tb.width, sizeof(double));
	tb.basis = calloc(tb.rows, sizeof(unsigned));
	cost = calloc(tb.width, sizeof(double));
	if (!tb.t || !tb.basis || !cost)
		abort();

	for (unsigned i = 0, s = p->cols, a = tb.first_artificial; i < p->rows; i++) {
		/* Rows with b >= 0: flip a row whose right-hand side is negative. */
		double sign = p->b[i] < 0 ? -1 : 1;
		enum row_type type = p->type[i];

		if (sign < 0 && type != EQ)
			type = type == LE ? GE : LE;
		for (unsigned j = 0; j < p->cols; j++)
			*cell(&tb, i, j) = sign * p->a[(size_t)i * p->cols + j];
		*cell(&tb, i, tb.width - 1) = sign * p->b[i];
		if (type != EQ)
			*cell(&tb, i, s) = type == LE ? 1 : -1;
		if (type == LE) {
			tb.basis[i] = s;
		} else {
			*cell(&tb, i, a) = 1;
			tb.basis[i] = a++;
		}
		s += p->type[i] != EQ;
	}

	/* Phase 1: drive the artificials to zero. */
	for (unsigned j = tb.first_artificial; j < tb.width - 1; j++)
		cost[j] = -1;
	if (optimise(&tb, cost, tb.width - 1) < -1e-7) {
		ok = false;
		goto out;
	}
	/* Artificials left in the basis (at zero) leave it where a real column can replace them. */
	for (unsigned i = 0; i < tb.rows; i++) {
		if (tb.basis[i] < tb.first_artificial)
			continue;
		for (unsigned j = 0; j < tb.first_artificial; j++) {
			if (*cell(&tb, i, j) > EPS || *cell(&tb, i, j) < -EPS) {
				pivot(&tb, i, j);
				break;
			}
		}
	}
	/* Phase 2: the objective, artificials barred from entering. */
	memset(cost, 0, tb.width * sizeof(double));
	memcpy(cost, p->c, p->cols * sizeof(double));
	*value = optimise(&tb, cost, tb.first_artificial);
	memset(x, 0, p->cols * sizeof(double));
	for (unsigned i = 0; i < tb.rows; i++)
		if (tb.basis[i] < p->cols)
			x[tb.basis[i]] = *cell(&tb, i, tb.width - 1);
	for (unsigned r = 0, s = p->cols; r < p->rows; r++) {
		dual[r] = 0;
		if (p->type[r] == LE && p->b[r] >= 0)
			for (unsigned i = 0; i < tb.rows; i++)
				dual[r] += cost[tb.basis[i]] * *cell(&tb, i, s);
		s += p->type[r] != EQ;
	}
out:
	free(tb.t);
	free(tb.basis);
	free(cost);
	return ok;
}

/*
 * A programme of rows x cols, all zero but its first row: sum of the first m columns (the
 * lambda of each set) = 1, which every programme here has.
 */
static void lp_new(struct lp *p, unsigned rows, unsigned cols, unsigned m)
{
	p->rows = rows;
	p->cols = cols;
	p->a = calloc((size_t)rows * cols, sizeof(double));
	p->b = calloc(rows, sizeof(double));
	p->type = calloc(rows, sizeof(enum row_type));
	p->c = calloc(cols, sizeof(double));
	if (!p->a || !p->b || !p->type || !p->c)
		abort();
	for (unsigned j = 0; j < m; j++)
		p->a[j] = 1;
	p->b[0] = 1;
	p->type[0] = EQ;
}

static void lp_free(struct lp *p)
{
	free(p->a);
	free(p->b);
	free(p->type);
	free(p->c);
}

/*
 * The level programme over lambda (one column per set) and t (the last column): maximise t
 * subject to sum lambda = 1, t - x_g <= 0 for every open group, x_g >= its share for every fixed
 * one. *level gets t; dual[1 + g] the dual value of open group g's row.
 */
static bool level_programme(const uint64_t *sets, unsigned m, unsigned n, const bool *fixed,
			    const double *share, double *level, double *lambda, double *dual)
{
	struct lp p;
	unsigned cols = m + 1;
	bool ok;

	lp_new(&p, 1 + n, cols, m);
	for (unsigned g = 0; g < n; g++) {
		double *row = &p.a[(size_t)(1 + g) * cols];
		double sign = fixed[g] ? 1 : -1;

		for (unsigned j = 0; j < m; j++)
			row[j] = sign * (double)((sets[j] >> g) & 1);
		if (fixed[g]) {
			p.type[1 + g] = GE;
			p.b[1 + g] = share[g] - SATURATED;
		} else {
			p.type[1 + g] = LE;
			row[m] = 1;
		}
	}
	p.c[m] = 1;
	ok = lp_solve(&p, level, lambda, dual);
	lp_free(&p);
	return ok;
}

bool leximin(const uint64_t *sets, unsigned nr_sets, unsigned nr_groups, uint64_t required,
	     double *x)
{
	uint64_t *kept = calloc(nr_sets ? nr_sets : 1, sizeof(uint64_t));
	double *lambda = calloc(nr_sets + 1, sizeof(double));
	double dual[1 + 64];
	bool fixed[64] = { false };
	unsigned m = 0, open = nr_groups;

	if (!kept || !lambda)
		abort();
	for (unsigned j = 0; j < nr_sets; j++)
		if ((sets[j] & required) == required)
			kept[m++] = sets[j];
	for (unsigned g = 0; g < nr_groups; g++) {
		uint64_t in_any = 0, in_all = ~0ull;

		for (unsigned j = 0; j < m; j++) {
			in_any |= kept[j];
			in_all &= kept[j];
		}
		/* Never runnable, or in every set: no programme needed. */
		if (!((in_any >> g) & 1) || ((in_all >> g) & 1)) {
			fixed[g] = true;
			x[g] = (double)((in_all >> g) & 1 && m);
			open--;
		}
	}
	/*
	 * Progressive filling. A group whose row has a positive dual value is at the level in
	 * every optimal solution (complementary slackness): it cannot rise while the others keep
	 * the level, so it is fixed there. The duals of the open rows sum to 1 (the column of t),
	 * so every programme fixes at least one group.
	 */
	while (m && open) {
		double level, most = 0;
		int chosen = -1;

		if (!level_programme(kept, m, nr_groups, fixed, x, &level, lambda, dual))
			break;
		for (unsigned g = 0; g < nr_groups; g++) {
			if (fixed[g])
				continue;
			if (dual[1 + g] > most) {
				most = dual[1 + g];
				chosen = (int)g;
			}
			if (dual[1 + g] > SATURATED) {
				fixed[g] = true;
				x[g] = level;
				open--;
			}
		}
		if (chosen >= 0 && !fixed[chosen]) { /* rounding: the largest dual, at least */
			fixed[chosen] = true;
			x[chosen] = level;
			open--;
		} else if (chosen < 0) {
			break;
		}
	}
	free(kept);
	free(lambda);
	return m > 0;
}

/* The groups in some set. */
static uint64_t runnable(const uint64_t *sets, unsigned m)
{
	uint64_t any = 0;

	for (unsigned j = 0; j < m; j++)
		any |= sets[j];
	return any;
}

double maxmin_distance(const uint64_t *sets, unsigned nr_sets, unsigned nr_groups,
		       uint64_t required, const double *x_opt, const double *x)
{
	uint64_t *kept = calloc(nr_sets ? nr_sets : 1, sizeof(uint64_t));
	unsigned m = 0, cols;
	double level, value, *lambda, dual[1 + 3 * 64];
	struct lp p;
	uint64_t run;

	if (!kept)
		abort();
	for (unsigned j = 0; j < nr_sets; j++)
		if ((sets[j] & required) == required)
			kept[m++] = sets[j];
	run = runnable(kept, m);
	level = leximin_min(x_opt, nr_groups, run);
	/*
	 * Shares are closed downwards (a group may also run less than its sets allow), so y_g may
	 * be anything up to sum over S holding g of lambda_S. Such a y within d of x, with every
	 * runnable y_g >= level, exists when, for every group, the sets give it x_g - d at least,
	 * and for a runnable one also level at least, with level <= x_g + d. Columns: lambda, then
	 * d; minimise d.
	 */
	cols = m + 1;
	lp_new(&p, 1 + 3 * nr_groups, cols, m);
	lambda = calloc(cols, sizeof(double));
	if (!lambda)
		abort();
	for (unsigned g = 0; g < nr_groups; g++) {
		double *near = &p.a[(size_t)(1 + 3 * g) * cols], *floor = near + cols;
		double *reach = floor + cols;
		bool is_runnable = (run >> g) & 1;

		for (unsigned j = 0; j < m; j++) {
			near[j] = (double)((kept[j] >> g) & 1);
			floor[j] = is_runnable ? near[j] : 0;
		}
		near[m] = 1; /* sum + d >= x_g */
		p.type[1 + 3 * g] = GE;
		p.b[1 + 3 * g] = x[g];
		p.type[2 + 3 * g] = GE; /* sum >= level */
		p.b[2 + 3 * g] = is_runnable ? level - SATURATED : 0;
		reach[m] = 1; /* d >= level - x_g */
		p.type[3 + 3 * g] = GE;
		p.b[3 + 3 * g] = is_runnable ? level - SATURATED - x[g] : 0;
	}
	p.c[m] = -1;
	/* The optimum is -d <= 0; a rounding error's +0 is d = 0. */
	value = !lp_solve(&p, &value, lambda, dual) ? -1 : value > 0 ? 0 : -value;
	lp_free(&p);
	free(lambda);
	free(kept);
	return value;
}

double leximin_min(const double *x, unsigned n, uint64_t which)
{
	double low = 1.0;

	for (unsigned g = 0; g < n; g++)
		if (((which >> g) & 1) && x[g] < low)
			low = x[g];
	return low;
}
