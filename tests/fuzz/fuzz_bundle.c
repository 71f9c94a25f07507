// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: bundles of your own code (tests/owncode/bundle.c, through its header only:
 * bundle_parse and its accessors), as the kernel reads them from a boot module or a file.
 *
 * Input: one byte of flags (bit 0: make the header's CRC-32 fit the bytes, so that the fuzzer
 * gets past the CRC and into the sections), then the bundle, in a buffer of exactly its size.
 * Promises checked: a refusal has a non-empty reason; an accepted bundle's size is within the
 * input, every part, decode entry and string it hands out lies inside the input, every string
 * ends within it, and every decode table covers its part instruction by instruction.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/lib/crc32.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/owncode/bundle.h"

static const uint8_t *lo, *hi;

static void check_inside(const void *p, size_t n)
{
	const uint8_t *q = p;

	FUZZ_CHECK(q >= lo && q <= hi && n <= (size_t)(hi - q));
}

static void check_string(const char *s)
{
	FUZZ_CHECK(s != NULL);
	check_inside(s, 1);
	size_t n = strnlen(s, (size_t)(hi - (const uint8_t *)s));
	FUZZ_CHECK(n < (size_t)(hi - (const uint8_t *)s));
	FUZZ_CHECK(n <= BUNDLE_MAX_STRING);
}

static void check_accepted(const struct bundle *b, size_t size)
{
	struct bundle_event e;
	struct bundle_insn insn;

	FUZZ_CHECK(b->size <= size && b->data == lo);
	for (unsigned t = 0; t < 2; t++)
		for (uint32_t i = 0; bundle_event(b, t, i, &e); i++) {
			check_string(e.name);
			check_string(e.spec);
			FUZZ_CHECK((e.kind == BUNDLE_EVENT_REFUSED) == (e.reason != NULL));
			if (e.reason)
				check_string(e.reason);
		}
	for (unsigned p = 0; p < BUNDLE_PARTS; p++) {
		uint32_t at = 0;

		if (b->part[p].size)
			check_inside(b->part[p].bytes, b->part[p].size);
		for (uint32_t i = 0; bundle_insn(b, p, i, &insn); i++) {
			FUZZ_CHECK(insn.offset == at && insn.length >= 1 && insn.length <= 15);
			at += insn.length;
			struct bundle_insn found;
			FUZZ_CHECK(bundle_insn_at(b, p, insn.offset, &found));
			FUZZ_CHECK(found.offset == insn.offset && found.length == insn.length);
		}
		FUZZ_CHECK(at == b->part[p].size);
	}
	if (b->params.sibling_work)
		check_string(b->params.sibling_work);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	uint8_t flags = fuzz_byte(&in);
	size_t n = 0;
	const uint8_t *bytes = fuzz_bytes(&in, in.size, &n);
	uint8_t *copy = fuzz_exact_copy(bytes, n);
	struct bundle b;
	const char *reason = NULL;

	if ((flags & 1) && n >= BUNDLE_HEADER_SIZE) {
		uint32_t total = (uint32_t)copy[12] | (uint32_t)copy[13] << 8 |
				 (uint32_t)copy[14] << 16 | (uint32_t)copy[15] << 24;
		if (total >= BUNDLE_HEADER_SIZE && total <= n) {
			memset(copy + 16, 0, 4);
			uint32_t crc = crc32_ieee(0, copy, total);
			for (unsigned i = 0; i < 4; i++)
				copy[16 + i] = (uint8_t)(crc >> (8 * i));
		}
	}
	lo = copy;
	hi = n ? copy + n : copy; /* no arithmetic on the NULL of an empty input */
	if (bundle_parse(copy, n, &b, &reason) == BUNDLE_OK) {
		FUZZ_CHECK(reason == NULL);
		check_accepted(&b, n);
	} else {
		FUZZ_CHECK(reason != NULL && reason[0] != 0);
	}
	free(copy);
	return 0;
}
