// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: event lists as perf stat -e takes them (pmu/event_parse.c, through its
 * public header only: event_parse_list).
 *
 * Input: one byte choosing the microarchitecture (each of uarch_all[], or none: names common to
 * all), one byte for the room of the events array (0-15, allocated exactly), then the text.
 * Promises checked: the result is -1 or a count within the room; a refusal names a part of the
 * text (offset and length inside it) with a terminated, non-empty message.
 */
#include <stdlib.h>
#include <string.h>

#include "pmu/event_parse.h"
#include "pmu/uarch.h"
#include "tests/fuzz/fuzz_input.h"

static const struct uarch *choose_uarch(uint8_t byte)
{
	unsigned count = 0;

	while (uarch_all[count])
		count++;
	/* One more choice than there are descriptions: NULL, the names common to all. */
	return uarch_all[byte % (count + 1)];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	const struct uarch *u = choose_uarch(fuzz_byte(&in));
	unsigned room = fuzz_byte(&in) % 16;
	char *text = fuzz_string(&in);
	size_t length = strlen(text);
	struct pmu_event *events = room ? malloc(room * sizeof(*events)) : NULL;
	struct event_parse_error error;

	memset(&error, 0xa5, sizeof(error)); /* whatever was there must not leak into a message */
	unsigned n = 0xa5a5;
	bool parsed = event_parse_list(text, u, events, room, &n, &error);
	FUZZ_CHECK(parsed ? n <= room : n == 0);
	if (!parsed) {
		FUZZ_CHECK(FUZZ_TERMINATED(error.message));
		FUZZ_CHECK(error.message[0] != 0);
		FUZZ_CHECK(error.offset <= length);
		FUZZ_CHECK(error.length <= length - error.offset);
	}
	free(events);
	free(text);
	return 0;
}
