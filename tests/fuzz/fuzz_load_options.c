// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the UEFI loader's command line (boot/efi/load_options.c), from the image's
 * load options (UCS-2) and from cmdline.txt (ASCII, UTF-8 or UTF-16LE).
 *
 * Input: one byte choosing the function (bit 0) and the size of the output buffer (the rest:
 * 0-127 bytes, allocated exactly, so that a write past it is caught), then the bytes as the
 * firmware or the file hands them over (allocated exactly too).
 * Promises checked: the result is one of the enum's; a command line (OK, TOO_LONG) ends inside
 * the buffer and holds only printable ASCII, single spaces between words and none at the ends;
 * words were dropped exactly when the result is TOO_LONG.
 */
#include <stdlib.h>
#include <string.h>

#include "boot/efi/load_options.h"
#include "tests/fuzz/fuzz_input.h"

static void check_command_line(const char *out, size_t out_size)
{
	size_t n = strnlen(out, out_size);

	FUZZ_CHECK(n < out_size);
	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(out[i] >= 0x20 && out[i] < 0x7f);
		FUZZ_CHECK(out[i] != ' ' || (i > 0 && i + 1 < n && out[i + 1] != ' '));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	uint8_t choice = fuzz_byte(&in);
	size_t out_size = choice >> 1;
	size_t n;
	const uint8_t *bytes = fuzz_bytes(&in, in.size, &n);
	uint8_t *copy = fuzz_exact_copy(bytes, n);
	char *out = out_size ? malloc(out_size) : NULL;
	enum load_options_result r;
	struct load_options_cut cut;

	if (out)
		memset(out, 'x', out_size);
	if (choice & 1)
		r = load_options_from_file(copy, n, out, out_size, &cut);
	else
		r = load_options_from_ucs2(copy, n, out, out_size, &cut);
	FUZZ_CHECK(r == LOAD_OPTIONS_EMPTY || r == LOAD_OPTIONS_OK || r == LOAD_OPTIONS_TOO_LONG ||
		   r == LOAD_OPTIONS_NOT_TEXT);
	if ((r == LOAD_OPTIONS_OK || r == LOAD_OPTIONS_TOO_LONG) && out_size)
		check_command_line(out, out_size);
	FUZZ_CHECK(r != LOAD_OPTIONS_OK || out_size);
	/* What was dropped: whole words, each with at least one character, only when too long. */
	FUZZ_CHECK((r == LOAD_OPTIONS_TOO_LONG) == (cut.words > 0));
	FUZZ_CHECK(cut.bytes >= cut.words);
	free(out);
	free(copy);
	return 0;
}
