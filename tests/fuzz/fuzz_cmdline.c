// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the kernel command line (kernel/cmdline.c): cmdline_parse, and the two
 * helpers the boot code calls on the same line, cmdline_skip_image_path and cmdline_non_ascii.
 *
 * Input: one byte for the room of the warnings array (0-8, allocated exactly, so that a write
 * past it is caught), then the command line (at most the kernel's 1023 characters).
 * Promises checked: every warning's text fields end inside their arrays, the configuration holds
 * only values the parser's own tables name and its strings stay terminated, parsing the same
 * line twice gives the same result, and the helpers point inside the line.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/boot_info.h"
#include "kernel/cmdline.h"
#include "kernel/config.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/lib/payload_config.h"

/* The kernel's settings and the payload's, parsed together as the kernel does. */
struct settings {
	struct config kernel;
	struct payload_config payload;
};

static unsigned parse(const char *line, struct settings *s, struct cmdline_warning *warnings,
		      unsigned room)
{
	struct cmdline_table kernel_keys, payload_keys;
	const struct cmdline_table *tables[2] = { &kernel_keys, &payload_keys };

	memset(s, 0, sizeof(*s)); /* padding too: the two parses are compared byte for byte */
	config_table(&s->kernel, &kernel_keys);
	payload_config_table(&s->payload, &payload_keys);
	cmdline_defaults(tables, 2);
	return cmdline_parse(line, tables, 2, warnings, room);
}

static void check_warning(const struct cmdline_warning *w)
{
	FUZZ_CHECK(FUZZ_TERMINATED(w->key));
	FUZZ_CHECK(FUZZ_TERMINATED(w->value));
	FUZZ_CHECK(FUZZ_TERMINATED(w->accepted));
	FUZZ_CHECK(FUZZ_TERMINATED(w->used));
	FUZZ_CHECK(FUZZ_TERMINATED(w->message));
	FUZZ_CHECK(w->message[0] != 0);
}

static void check_config(const struct settings *s)
{
	const struct config *cfg = &s->kernel;
	const struct payload_config *p = &s->payload;

	FUZZ_CHECK(FUZZ_TERMINATED(p->exp));
	FUZZ_CHECK(FUZZ_TERMINATED(p->events[0]) && FUZZ_TERMINATED(p->events[1]));
	FUZZ_CHECK(FUZZ_TERMINATED(p->work[0]) && FUZZ_TERMINATED(p->work[1]));
	FUZZ_CHECK(FUZZ_TERMINATED(p->survey_work));
	FUZZ_CHECK(p->xsu != 0 && (p->xsu & ~XSU_MODES_ALL) == 0);
	FUZZ_CHECK(strcmp(sched_algorithm_name(p->sched), "?") != 0);
	FUZZ_CHECK(strcmp(config_pmu_name(cfg->pmu), "?") != 0);
	FUZZ_CHECK(strcmp(config_exit_name(cfg->exit), "?") != 0);
	FUZZ_CHECK(strcmp(config_selftest_name(cfg->selftest), "?") != 0);
	FUZZ_CHECK(strcmp(config_smp_name(cfg->smp), "?") != 0);
	FUZZ_CHECK(strcmp(config_apic_name(cfg->apic), "?") != 0);
	FUZZ_CHECK(cfg->core == CONFIG_CORE_BOOT || (cfg->core >= 0 && cfg->core <= 255));
	FUZZ_CHECK(p->mux_ms >= 1);
	FUZZ_CHECK(cfg->baud && 115200 % cfg->baud == 0);
}

static void check_helpers(const char *line)
{
	size_t length = strlen(line);
	const char *rest = cmdline_skip_image_path(line);
	const char *word = NULL;
	size_t word_len = 0;

	FUZZ_CHECK(rest >= line && rest <= line + length);
	if (cmdline_non_ascii(line, &word, &word_len)) {
		FUZZ_CHECK(word >= line && word_len >= 1);
		FUZZ_CHECK(word_len <= length - (size_t)(word - line));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };

	/* The kernel's command line holds at most BOOT_CMDLINE_MAX - 1 characters (boot_info.h). */
	if (size > 1 + BOOT_CMDLINE_MAX - 1)
		return 0;
	unsigned room = fuzz_byte(&in) % 9;
	char *line = fuzz_string(&in);
	struct cmdline_warning *warnings = room ? malloc(room * sizeof(*warnings)) : NULL;
	static struct settings cfg, again;

	unsigned count = parse(line, &cfg, warnings, room);
	for (unsigned i = 0; i < count && i < room; i++)
		check_warning(&warnings[i]);
	check_config(&cfg);

	FUZZ_CHECK(parse(line, &again, warnings, room) == count);
	FUZZ_CHECK(memcmp(&cfg, &again, sizeof(cfg)) == 0);
	check_helpers(line);
	free(warnings);
	free(line);
	return 0;
}
