// SPDX-License-Identifier: GPL-2.0
/*
 * What the docs state about the code, as the code has it, for tests/style/test_doc_facts.py:
 *
 *	doc_facts		one JSON object: every command-line key of both tables (kernel/config.c,
 *				tests/lib/payload_config.c) with its kind, range, choices, accepted
 *				values, default and whether boot.config shows it; the runs of the
 *				default suite (exp=all with the default xsu=); the leak survey's events
 *				and measurements on each part
 *	doc_facts WORD...	each word parsed as the kernel parses a command line: the key's value
 *				then, and how many warnings it gave (one JSON object a line)
 *
 * The counts come from the same functions the kernel runs (exp_selection, exp_selected,
 * exp_run_selected; survey_events, survey_measurements), not from a copy of them.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/config.h"
#include "pmu/uarch.h"
#include "tests/experiments/experiment.h"
#include "tests/experiments/survey.h"
#include "tests/lib/payload_config.h"

static struct config kernel_settings;
static struct payload_config payload_settings;
static struct cmdline_table kernel_keys, payload_keys;
static const struct cmdline_table *const tables[] = { &kernel_keys, &payload_keys };
static const char *const table_names[] = { "kernel", "payload" };
#define TABLES (sizeof(tables) / sizeof(tables[0]))

static const char *const kind_names[] = {
	[KEY_CHOICE] = "choice",
	[KEY_CHOICE_SET] = "choice-set",
	[KEY_UINT] = "uint",
	[KEY_NAME_LIST] = "name-list",
	[KEY_NAME] = "name",
	[KEY_TEXT] = "text",
	[KEY_SERIAL_PORT] = "serial-port",
	[KEY_BAUD] = "baud",
	[KEY_CORE] = "core",
};

/* s as a JSON string (the tables' texts are printable ASCII). */
static void json_string(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void print_key(const struct cmdline_table *t, const struct cmdline_key *k, const char *table)
{
	char value[CMDLINE_ACCEPTED_MAX];

	printf("{\"name\": ");
	json_string(k->name);
	printf(", \"table\": \"%s\", \"kind\": \"%s\", \"min\": %u, \"max\": %u, \"choices\": [",
	       table, kind_names[k->kind], k->min, k->max);
	for (const struct cmdline_choice *c = k->choices; c && c->name; c++) {
		printf("%s", c == k->choices ? "" : ", ");
		json_string(c->name);
	}
	printf("], \"accepted\": ");
	if (k->accepted)
		json_string(k->accepted);
	else
		printf("null");
	printf(", \"default\": ");
	json_string(cmdline_value_text(k, t->settings, value, sizeof(value)));
	printf(", \"recorded\": %s}", k->recorded ? "true" : "false");
}

static void print_keys(void)
{
	const char *separator = "";

	printf("\"keys\": [");
	for (unsigned t = 0; t < TABLES; t++)
		for (unsigned i = 0; i < tables[t]->count; i++) {
			printf("%s\n  ", separator);
			print_key(tables[t], &tables[t]->keys[i], table_names[t]);
			separator = ",";
		}
	printf("]");
}

/* The default suite: what exp= and xsu= select when neither is given. */
static void print_suite(void)
{
	const char *selection = exp_selection(&payload_settings);
	unsigned total = 0, chosen = 0;

	printf("\"suite\": {\"selection\": \"%s\", \"experiments\": [", selection);
	for (unsigned i = 0; i < experiment_count; i++) {
		const struct experiment *e = &experiments[i];
		unsigned runs = 0;
		if (!exp_selected(selection, e))
			continue;
		for (unsigned r = 0; r < e->nr_runs; r++)
			runs += exp_run_selected(&e->runs[r], payload_settings.xsu);
		printf("%s\n  {\"name\": \"%s\", \"runs\": %u}", chosen++ ? "," : "", e->name,
		       runs);
		total += runs;
	}
	printf("], \"runs\": %u, \"dur_ms\": %u}", total, payload_settings.dur_ms);
}

/* The leak survey on each part that has a table of events. */
static void print_survey(void)
{
	struct survey_event list[SURVEY_MAX_EVENTS];
	const char *separator = "";

	printf("\"survey\": [");
	for (unsigned i = 0; uarch_all[i]; i++) {
		const struct uarch *u = uarch_all[i];
		unsigned n = survey_events(u, list);
		printf("%s\n  {\"part\": \"%s\", \"display_name\": \"%s\", \"erratum\": %s, "
		       "\"events\": %u, \"measurements\": %u}",
		       separator, u->part, u->display_name, u->erratum ? "true" : "false", n,
		       survey_measurements(list, n));
		separator = ",";
	}
	printf("]");
}

/* word parsed alone over the defaults: its key's value then, and the warnings it gave. */
static void print_parsed(const char *word)
{
	struct cmdline_warning warnings[4];
	char value[CMDLINE_ACCEPTED_MAX];
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);

	cmdline_defaults(tables, TABLES);
	unsigned n = cmdline_parse(word, tables, TABLES, warnings, 4);
	printf("{\"word\": ");
	json_string(word);
	printf(", \"warnings\": %u, \"value\": ", n);
	for (unsigned t = 0; t < TABLES; t++)
		for (unsigned i = 0; i < tables[t]->count; i++) {
			const struct cmdline_key *k = &tables[t]->keys[i];
			if (strlen(k->name) == len && !strncmp(k->name, word, len)) {
				json_string(cmdline_value_text(k, tables[t]->settings, value,
							       sizeof(value)));
				printf("}\n");
				return;
			}
		}
	printf("null}\n");
}

int main(int argc, char **argv)
{
	config_table(&kernel_settings, &kernel_keys);
	payload_config_table(&payload_settings, &payload_keys);
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			print_parsed(argv[i]);
		return 0;
	}
	cmdline_defaults(tables, TABLES);
	printf("{");
	print_keys();
	printf(",\n");
	print_suite();
	printf(",\n");
	print_survey();
	printf("}\n");
	return 0;
}
