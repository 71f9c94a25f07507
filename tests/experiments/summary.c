// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's progress on the screen's status line, and the summary table at its end
 * (summary.h).
 */
#include <string.h>

#include "kernel/console.h"
#include "kernel/format.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/summary.h"

static const char *const result_words[] = {
	[RESULT_PASS] = "PASS",
	[RESULT_FAIL] = "FAIL",
	[RESULT_SKIP] = "SKIP",
};

void summary_run_started(struct summary *s, const char *exp, const char *phase, bool xsu_on)
{
	char line[SCREEN_MAX_COLUMNS];

	s->runs++;
	/* Fits 80 columns with the longest names: "run 12: ch8-corrupting-loss, baseline, XSU off |
	 * so far 10 pass, 0 fail, 0 skip". */
	format_snprintf(line, sizeof(line),
			"run %u: %s, %s, XSU %s | so far %u pass, %u fail, %u skip", s->runs, exp,
			phase, xsu_on ? "on" : "off", s->tally[RESULT_PASS], s->tally[RESULT_FAIL],
			s->tally[RESULT_SKIP]);
	console_status(line);
}

void summary_verdict(struct summary *s, const char *exp, bool xsu_on, const char *sched,
		     uint8_t result)
{
	if (result > RESULT_SKIP)
		return;
	s->verdicts++;
	s->tally[result]++;
	if (s->count < SUMMARY_MAX_VERDICTS)
		s->rows[s->count++] = (struct summary_row){ exp, sched, xsu_on, result };
}

/* The cell of one XSU mode in the row of the experiment whose verdicts are rows[first, end). */
static void mode_cell(const struct summary *s, unsigned first, unsigned end, bool xsu_on,
		      char *cell, size_t size, bool *failed)
{
	format_snprintf(cell, size, "-");
	for (unsigned i = first; i < end; i++)
		if (s->rows[i].xsu_on == xsu_on) {
			format_snprintf(cell, size, "%s %s", result_words[s->rows[i].result],
					s->rows[i].sched);
			*failed = *failed || s->rows[i].result == RESULT_FAIL;
		}
}

void summary_print(const struct summary *s)
{
	int width = (int)strlen("experiment");

	if (!s->verdicts)
		return;
	for (unsigned i = 0; i < s->count; i++)
		if ((int)strlen(s->rows[i].exp) > width)
			width = (int)strlen(s->rows[i].exp);
	/* One row per experiment, its XSU modes side by side: 80x25 VGA text shows the whole
	 * table of the suite above the banner. */
	kprintf("\nsummary: the verdict of each experiment, with XSU off and on\n");
	kprintf("  %-*s  %-12s  %s\n", width, "experiment", "XSU off", "XSU on");
	for (unsigned first = 0, end; first < s->count; first = end) {
		char off[24], on[24];
		bool failed = false;
		for (end = first + 1;
		     end < s->count && !strcmp(s->rows[end].exp, s->rows[first].exp); end++)
			;
		mode_cell(s, first, end, false, off, sizeof(off), &failed);
		mode_cell(s, first, end, true, on, sizeof(on), &failed);
		if (failed)
			console_set_alert(true);
		kprintf("  %-*s  %-12s  %s\n", width, s->rows[first].exp, off, on);
		if (failed)
			console_set_alert(false);
	}
	if (s->verdicts > s->count)
		kprintf("  (%u more verdicts: see the serial log)\n", s->verdicts - s->count);
}
