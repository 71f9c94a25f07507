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
#include "tests/fuzz/fuzz_input.h"

static void check_warning(const struct cmdline_warning *w)
{
	FUZZ_CHECK(FUZZ_TERMINATED(w->key));
	FUZZ_CHECK(FUZZ_TERMINATED(w->value));
	FUZZ_CHECK(FUZZ_TERMINATED(w->accepted));
	FUZZ_CHECK(FUZZ_TERMINATED(w->used));
	FUZZ_CHECK(FUZZ_TERMINATED(w->message));
	FUZZ_CHECK(w->message[0] != 0);
}

static void check_config(const struct config *cfg)
{
	FUZZ_CHECK(FUZZ_TERMINATED(cfg->exp));
	FUZZ_CHECK(FUZZ_TERMINATED(cfg->events[0]) && FUZZ_TERMINATED(cfg->events[1]));
	FUZZ_CHECK(FUZZ_TERMINATED(cfg->work[0]) && FUZZ_TERMINATED(cfg->work[1]));
	FUZZ_CHECK(FUZZ_TERMINATED(cfg->survey_work));
	FUZZ_CHECK(cfg->xsu != 0 && (cfg->xsu & ~XSU_MODES_ALL) == 0);
	FUZZ_CHECK(strcmp(config_sched_name(cfg->sched), "?") != 0);
	FUZZ_CHECK(strcmp(config_pmu_name(cfg->pmu), "?") != 0);
	FUZZ_CHECK(strcmp(config_exit_name(cfg->exit), "?") != 0);
	FUZZ_CHECK(strcmp(config_selftest_name(cfg->selftest), "?") != 0);
	FUZZ_CHECK(strcmp(config_smp_name(cfg->smp), "?") != 0);
	FUZZ_CHECK(strcmp(config_apic_name(cfg->apic), "?") != 0);
	FUZZ_CHECK(cfg->core == CONFIG_CORE_BOOT || (cfg->core >= 0 && cfg->core <= 255));
	FUZZ_CHECK(cfg->mux_ms >= 1);
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
	struct config cfg, again;

	config_defaults(&cfg);
	unsigned count = cmdline_parse(line, &cfg, warnings, room);
	for (unsigned i = 0; i < count && i < room; i++)
		check_warning(&warnings[i]);
	check_config(&cfg);

	config_defaults(&again);
	FUZZ_CHECK(cmdline_parse(line, &again, warnings, room) == count);
	FUZZ_CHECK(memcmp(&cfg, &again, sizeof(cfg)) == 0);
	check_helpers(line);
	free(warnings);
	free(line);
	return 0;
}
