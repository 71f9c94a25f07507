// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's progress on the screen's status line, and the summary table at its end
 * (summary.h).
 */
#include <string.h>

#include "pmu/xsu_mode.h"
#include "kernel/console.h"
#include "kernel/lib/format.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/summary.h"

#define CELL_WIDTH 12 /* "PASS greedy" */

static const char *const result_words[] = {
	[RESULT_PASS] = "PASS",
	[RESULT_FAIL] = "FAIL",
	[RESULT_SKIP] = "SKIP",
};

void summary_run_started(struct summary *s, const char *exp, const char *phase, const char *xsu)
{
	char line[SCREEN_MAX_COLUMNS];

	s->runs++;
	/* Fits 80 columns with the longest names: "run 12: ch8-corrupting-loss, baseline, XSU off |
	 * so far 10 pass, 0 fail, 0 skip". */
	format_snprintf(line, sizeof(line),
			"run %u: %s, %s, XSU %s | so far %u pass, %u fail, %u skip", s->runs, exp,
			phase, xsu, s->tally[RESULT_PASS], s->tally[RESULT_FAIL],
			s->tally[RESULT_SKIP]);
	console_status(line);
}

void summary_verdict(struct summary *s, const char *exp, unsigned mode, const char *sched,
		     uint8_t result)
{
	if (result > RESULT_SKIP || mode >= XSU_MODE_COUNT)
		return;
	s->verdicts++;
	s->tally[result]++;
	if (s->count < SUMMARY_MAX_VERDICTS)
		s->rows[s->count++] = (struct summary_row){ exp, sched, (uint8_t)mode, result };
}

/* One row: the experiment of rows[first, end), a cell per XSU mode in modes. */
static void print_row(const struct summary *s, unsigned first, unsigned end, unsigned modes,
		      int width)
{
	char line[SCREEN_MAX_COLUMNS];
	bool failed = false;
	size_t len =
		(size_t)format_snprintf(line, sizeof(line), "  %-*s", width, s->rows[first].exp);

	for (unsigned mode = 0; mode < XSU_MODE_COUNT; mode++) {
		if (!(modes & XSU_MODE_BIT(mode)))
			continue;
		char cell[CELL_WIDTH + 16] = "-";
		for (unsigned i = first; i < end; i++)
			if (s->rows[i].mode == mode) {
				format_snprintf(cell, sizeof(cell), "%s %s",
						result_words[s->rows[i].result], s->rows[i].sched);
				failed = failed || s->rows[i].result == RESULT_FAIL;
			}
		len += (size_t)format_snprintf(line + len, sizeof(line) - len, "  %-*s", CELL_WIDTH,
					       cell);
	}
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = 0;
	if (failed)
		console_set_alert(true);
	kprintf("%s\n", line);
	if (failed)
		console_set_alert(false);
}

void summary_print(const struct summary *s)
{
	char header[SCREEN_MAX_COLUMNS];
	int width = (int)strlen("experiment");
	unsigned modes = 0;

	if (!s->verdicts)
		return;
	for (unsigned i = 0; i < s->count; i++) {
		if ((int)strlen(s->rows[i].exp) > width)
			width = (int)strlen(s->rows[i].exp);
		modes |= XSU_MODE_BIT(s->rows[i].mode);
	}
	/* One row per experiment, its XSU modes side by side: 80x25 VGA text shows the whole
	 * table of the suite above the banner. */
	size_t len = (size_t)format_snprintf(header, sizeof(header), "  %-*s", width, "experiment");
	for (unsigned mode = 0; mode < XSU_MODE_COUNT; mode++)
		if (modes & XSU_MODE_BIT(mode))
			len += (size_t)format_snprintf(header + len, sizeof(header) - len,
						       "  XSU %-*s", CELL_WIDTH - 4,
						       xsu_mode_name(mode));
	while (len > 0 && header[len - 1] == ' ')
		header[--len] = 0;
	kprintf("\nsummary: the verdict of each experiment in each XSU mode\n%s\n", header);
	for (unsigned first = 0, end; first < s->count; first = end) {
		for (end = first + 1;
		     end < s->count && !strcmp(s->rows[end].exp, s->rows[first].exp); end++)
			;
		print_row(s, first, end, modes, width);
	}
	if (s->verdicts > s->count)
		kprintf("  (%u more verdicts: see the serial log)\n", s->verdicts - s->count);
}
