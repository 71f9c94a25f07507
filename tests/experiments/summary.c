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

void summary_print(const struct summary *s)
{
	int width = (int)strlen("experiment");

	if (!s->verdicts)
		return;
	for (unsigned i = 0; i < s->count; i++)
		if ((int)strlen(s->rows[i].exp) > width)
			width = (int)strlen(s->rows[i].exp);
	kprintf("\nsummary: the verdict of each experiment and XSU mode\n");
	kprintf("  %-*s  XSU  sched   verdict\n", width, "experiment");
	for (unsigned i = 0; i < s->count; i++) {
		const struct summary_row *row = &s->rows[i];
		if (row->result == RESULT_FAIL)
			console_set_alert(true);
		kprintf("  %-*s  %-3s  %-6s  %s\n", width, row->exp, row->xsu_on ? "on" : "off",
			row->sched, result_words[row->result]);
		if (row->result == RESULT_FAIL)
			console_set_alert(false);
	}
	if (s->verdicts > s->count)
		kprintf("  (%u more verdicts: see the serial log)\n", s->verdicts - s->count);
}
