// SPDX-License-Identifier: GPL-2.0
/*
 * The bundle reader (tests/owncode/bundle.c) on bundles that tools/pmu-bench wrote (the Python
 * writer against the C reader: tests/owncode/owncode.mk makes them with the options below), and
 * on those bundles damaged byte by byte and field by field: every damage is refused with a
 * reason, or (where the CRC is made to fit again) read without touching a byte outside the data.
 *
 * BUNDLE_FIXTURE: -asm_init "mov RAX, R14; sub RAX, 8; mov [RAX], RAX"
 *   -asm "mov RAX, [RAX]; push RAX; pop RBX; |5" -asm_late_init "lea RBX, [RSP]"
 *   -config tests/owncode/fixture.cfg -fixed_counters -unroll_count 500 -loop_count 7
 *   -n_measurements 12 -median -xsu core
 * BUNDLE_SIBLING_FIXTURE: -asm "" -sibling_work idle -sibling_config tests/owncode/fixture.cfg
 *   -ring 0 -basic_mode -no_normalization -xsu off
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/lib/crc32.h"
#include "tests/host/lib/test_util.h"
#include "tests/owncode/bundle.h"

#define MAX_BYTES 8192

static uint8_t fixture[MAX_BYTES], data[MAX_BYTES + 64];
static size_t fixture_size;

static size_t load(const char *path, uint8_t *buf)
{
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	size_t n = fread(buf, 1, MAX_BYTES, f);
	fclose(f);
	assert_true(n > BUNDLE_HEADER_SIZE && n < MAX_BYTES);
	return n;
}

static int setup(void **state)
{
	(void)state;
	fixture_size = load(BUNDLE_FIXTURE, fixture);
	memcpy(data, fixture, fixture_size);
	return 0;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The CRC as the writer makes it, after a test changed bytes on purpose. */
static void fix_crc(uint8_t *d, size_t size)
{
	put_le(d + 16, 0, 4);
	put_le(d + 16, crc32_ieee(0, d, size), 4);
}

/* The section table entry of a kind in data. */
static uint8_t *section(uint32_t kind)
{
	uint32_t count = get32(data + 20), table = get32(data + 24);

	for (uint32_t i = 0; i < count; i++)
		if (get32(data + table + 16 * i) == kind)
			return data + table + 16 * i;
	fail_msg("no section of kind %u", kind);
	return NULL;
}

static uint8_t *payload(uint32_t kind)
{
	return data + get32(section(kind) + 4);
}

static void assert_refused(size_t size, enum bundle_status want)
{
	struct bundle b;
	const char *reason = NULL;

	assert_int_equal(bundle_parse(data, size, &b, &reason), want);
	assert_non_null(reason);
	assert_true(strlen(reason) > 10);
	assert_null(b.data);
}

static void test_parameters(void **state)
{
	struct bundle b;
	const char *reason = "untouched";

	(void)state;
	assert_int_equal(bundle_parse(data, fixture_size, &b, &reason), BUNDLE_OK);
	assert_null(reason);
	assert_int_equal(b.size, fixture_size);
	assert_int_equal(b.params.unroll_count, 500);
	assert_int_equal(b.params.loop_count, 7);
	assert_int_equal(b.params.n_measurements, 12);
	assert_int_equal(b.params.warm_up_count, 5);
	assert_int_equal(b.params.initial_warm_up_count, 0);
	assert_int_equal(b.params.alignment_offset, 0);
	assert_int_equal(b.params.aggregate, BUNDLE_MEDIAN);
	assert_int_equal(b.params.xsu, XSU_MODE_CORE);
	assert_int_equal(b.params.ring, 3);
	assert_int_equal(b.params.sibling, BUNDLE_SIBLING_NONE);
	assert_null(b.params.sibling_work);
	assert_int_equal(b.params.flags, BUNDLE_USR | BUNDLE_FIXED_COUNTERS);
	assert_int_equal(bundle_repetitions(&b.params), 3500);
}

static void expect_event(const struct bundle *b, unsigned i, uint8_t kind, uint64_t evtsel,
			 const char *spec, const char *name, uint8_t mask, uint8_t flags)
{
	struct bundle_event e;

	assert_true(bundle_event(b, 0, i, &e));
	assert_int_equal(e.kind, kind);
	assert_int_equal(e.evtsel, evtsel);
	assert_string_equal(e.spec, spec);
	assert_string_equal(e.name, name);
	assert_int_equal(e.counter_mask, mask);
	assert_int_equal(e.flags, flags);
	assert_true(kind == BUNDLE_EVENT_REFUSED ? e.reason != NULL : e.reason == NULL);
}

/* The config's lines as nanoBench means them: EVTSEL = event | umask << 8 | USR (bit 16) | EN
 * (22), plus CMSK << 24, EDG (18), AnyT (21), INV (23); .CTR=2 the mask of IA32_PMC2. */
static void test_events(void **state)
{
	struct bundle b;
	struct bundle_event e;

	(void)state;
	assert_int_equal(bundle_parse(data, fixture_size, &b, NULL), BUNDLE_OK);
	assert_int_equal(b.event_count[0], 10);
	assert_int_equal(b.event_count[1], 0);
	/* -fixed_counters: RDTSC first, as nanoBench prints it, then the three fixed counters */
	expect_event(&b, 0, BUNDLE_EVENT_TSC, 0, "rdtsc", "RDTSC", 0xff, 0);
	static const char *const fixed[] = { "Instructions retired", "Core cycles",
					     "Reference cycles" };
	for (unsigned i = 0; i < 3; i++) {
		assert_true(bundle_event(&b, 0, 1 + i, &e));
		assert_int_equal(e.kind, BUNDLE_EVENT_FIXED);
		assert_int_equal(e.fixed_index, i);
		assert_int_equal(e.fixed_ctrl, 0x2); /* USR only */
		assert_string_equal(e.name, fixed[i]);
	}
	expect_event(&b, 4, BUNDLE_EVENT_GP, 0x4181d0, "D0.81", "MEM_UOPS_RETIRED.ALL_LOADS", 0xff,
		     0);
	expect_event(&b, 5, BUNDLE_EVENT_GP, 0x01410148, "48.01.CMSK=1.CTR=2",
		     "L1D_PEND_MISS.PENDING_CYCLES", 0x04, 0);
	expect_event(&b, 6, BUNDLE_EVENT_GP, 0x01c5015e, "5E.01.CMSK=1.EDG.INV",
		     "RS_EVENTS.EMPTY_END", 0xff, 0);
	expect_event(&b, 7, BUNDLE_EVENT_GP, 0x0061010e, "0E.01.AnyT", "UOPS_ISSUED.ANY", 0xff, 0);
	expect_event(&b, 8, BUNDLE_EVENT_REFUSED, 0x4101cd, "CD.01.MSR_3F6H=0x4.TakenAlone",
		     "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", 0xff, BUNDLE_EVENT_ALONE);
	expect_event(&b, 9, BUNDLE_EVENT_GP, 0x4120cc, "CC.20", "CC.20", 0xff, 0);
	assert_true(bundle_event(&b, 0, 8, &e));
	assert_non_null(strstr(e.reason, "MSR_PEBS_LD_LAT_THRESHOLD"));
	assert_false(bundle_event(&b, 0, 10, &e));
	assert_false(bundle_event(&b, 1, 0, &e));
	assert_false(bundle_event(&b, 2, 0, &e));
}

static void expect_insn(const struct bundle *b, enum bundle_part p, uint32_t i, uint32_t offset,
			uint8_t length, uint8_t reads, uint8_t writes)
{
	struct bundle_insn insn;

	assert_true(bundle_insn(b, p, i, &insn));
	assert_int_equal(insn.offset, offset);
	assert_int_equal(insn.length, length);
	assert_int_equal(insn.kind, BUNDLE_INSN_NONE);
	assert_int_equal(insn.flags, 0);
	assert_int_equal(insn.reads, reads);
	assert_int_equal(insn.writes, writes);
}

/* The assembled parts (GNU as's encodings) and their decode tables. */
static void test_parts(void **state)
{
	static const uint8_t init[] = {
		0x4c, 0x89, 0xf0, 0x48, 0x83, 0xe8, 0x08, 0x48, 0x89, 0x00
	};
	static const uint8_t code[] = {
		0x48, 0x8b, 0x00, 0x50, 0x5b, 0x0f, 0x1f, 0x44, 0x00, 0x00
	};
	static const uint8_t late[] = { 0x48, 0x8d, 0x1c, 0x24 };
	struct bundle b;
	struct bundle_insn insn;

	(void)state;
	assert_int_equal(bundle_parse(data, fixture_size, &b, NULL), BUNDLE_OK);
	assert_int_equal(b.part[BUNDLE_PART_INIT].size, sizeof(init));
	assert_memory_equal(b.part[BUNDLE_PART_INIT].bytes, init, sizeof(init));
	assert_int_equal(b.part[BUNDLE_PART_CODE].size, sizeof(code));
	assert_memory_equal(b.part[BUNDLE_PART_CODE].bytes, code, sizeof(code));
	assert_memory_equal(b.part[BUNDLE_PART_LATE_INIT].bytes, late, sizeof(late));
	assert_null(b.part[BUNDLE_PART_ONE_TIME_INIT].bytes);
	assert_int_equal(b.part[BUNDLE_PART_SIBLING].size, 0);
	expect_insn(&b, BUNDLE_PART_INIT, 2, 7, 3, 0, 1);      /* mov [rax], rax */
	expect_insn(&b, BUNDLE_PART_CODE, 0, 0, 3, 1, 0);      /* mov rax, [rax] */
	expect_insn(&b, BUNDLE_PART_CODE, 1, 3, 1, 0, 1);      /* push rax */
	expect_insn(&b, BUNDLE_PART_CODE, 2, 4, 1, 1, 0);      /* pop rbx */
	expect_insn(&b, BUNDLE_PART_CODE, 3, 5, 5, 0, 0);      /* |5 */
	expect_insn(&b, BUNDLE_PART_LATE_INIT, 0, 0, 4, 0, 0); /* lea: no access */
	assert_false(bundle_insn(&b, BUNDLE_PART_CODE, 4, &insn));
	assert_false(bundle_insn(&b, BUNDLE_PART_SIBLING, 0, &insn));
	assert_false(bundle_insn(&b, BUNDLE_PARTS, 0, &insn));
	assert_true(bundle_insn_at(&b, BUNDLE_PART_CODE, 4, &insn));
	assert_int_equal(insn.reads, 1);
	assert_true(bundle_insn_at(&b, BUNDLE_PART_CODE, 5, &insn));
	assert_int_equal(insn.length, 5);
	assert_false(bundle_insn_at(&b, BUNDLE_PART_CODE, 2, &insn)); /* inside mov */
	assert_false(bundle_insn_at(&b, BUNDLE_PART_CODE, 10, &insn));
}

static void test_sibling_bundle(void **state)
{
	static uint8_t sib[MAX_BYTES];
	size_t size = load(BUNDLE_SIBLING_FIXTURE, sib);
	struct bundle b;
	struct bundle_event e;

	(void)state;
	assert_int_equal(bundle_parse(sib, size, &b, NULL), BUNDLE_OK);
	assert_int_equal(b.params.sibling, BUNDLE_SIBLING_WORK);
	assert_string_equal(b.params.sibling_work, "idle");
	assert_int_equal(b.params.ring, 0);
	assert_int_equal(b.params.xsu, XSU_MODE_OFF);
	assert_int_equal(b.params.aggregate, BUNDLE_AVG);
	assert_int_equal(b.params.flags,
			 BUNDLE_BASIC_MODE | BUNDLE_NO_NORMALIZATION | BUNDLE_USR | BUNDLE_OS);
	assert_int_equal(bundle_repetitions(&b.params), 1);
	assert_int_equal(b.event_count[0], 0);
	assert_int_equal(b.event_count[1], 6);
	assert_true(bundle_event(&b, 1, 0, &e));
	assert_int_equal(e.evtsel, 0x4381d0); /* -ring 0 counts at CPL 0 too: OS (bit 17) */
	assert_int_equal(b.part[BUNDLE_PART_CODE].size, 0);
	assert_null(b.part[BUNDLE_PART_CODE].bytes);
}

/* Every shortened bundle is refused; bytes after the total size are not the bundle's. */
static void test_truncated_and_padded(void **state)
{
	struct bundle b;

	(void)state;
	for (size_t n = 0; n < fixture_size; n++) {
		const char *reason = NULL;
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, fixture, n);
		/* An exact-size copy: AddressSanitizer catches a read past its end. */
		assert_int_not_equal(bundle_parse(copy, n, &b, &reason), BUNDLE_OK);
		assert_non_null(reason);
		free(copy);
	}
	memset(data + fixture_size, 0xa5, 64);
	assert_int_equal(bundle_parse(data, fixture_size + 64, &b, NULL), BUNDLE_OK);
	assert_int_equal(b.size, fixture_size);
	assert_int_equal(bundle_parse(NULL, 0, &b, NULL), BUNDLE_TRUNCATED);
}

/* Any changed byte breaks the CRC; with the CRC made to fit, the reader either accepts the bytes
 * or refuses them with a reason, and what it accepts it reads within the data. */
static void test_every_byte(void **state)
{
	(void)state;
	for (size_t i = 0; i < fixture_size; i++) {
		struct bundle b;
		struct bundle_event e;
		struct bundle_insn insn;
		const char *reason = NULL;
		uint8_t *copy = malloc(fixture_size);

		memcpy(copy, fixture, fixture_size);
		copy[i] ^= 0x5a;
		if (i < 16 || i >= 20)
			assert_int_not_equal(bundle_parse(copy, fixture_size, &b, &reason),
					     BUNDLE_OK);
		fix_crc(copy, fixture_size);
		if (bundle_parse(copy, fixture_size, &b, &reason) != BUNDLE_OK) {
			assert_non_null(reason);
		} else {
			for (unsigned t = 0; t < 2; t++)
				for (uint32_t k = 0; bundle_event(&b, t, k, &e); k++)
					assert_true(strlen(e.name) + strlen(e.spec) < 600);
			for (unsigned p = 0; p < BUNDLE_PARTS; p++)
				for (uint32_t k = 0; bundle_insn(&b, p, k, &insn); k++)
					assert_true(insn.offset + insn.length <= b.part[p].size);
		}
		free(copy);
	}
}

static void test_header(void **state)
{
	(void)state;
	data[0] = 'X';
	assert_refused(fixture_size, BUNDLE_BAD_MAGIC);
	memcpy(data, fixture, fixture_size);
	data[8] = 1; /* version 1: no RDTSC, 64 events; written again, it reads */
	assert_refused(fixture_size, BUNDLE_BAD_VERSION);
	memcpy(data, fixture, fixture_size);
	data[8] = 3;
	assert_refused(fixture_size, BUNDLE_BAD_VERSION);
	memcpy(data, fixture, fixture_size);
	data[100] ^= 1;
	assert_refused(fixture_size, BUNDLE_BAD_CRC);
	memcpy(data, fixture, fixture_size);
	put_le(data + 12, fixture_size + 1, 4); /* total size beyond the data */
	assert_refused(fixture_size, BUNDLE_TRUNCATED);
	memcpy(data, fixture, fixture_size);
	put_le(data + 20, 33, 4); /* 33 sections */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_LAYOUT);
}

static void test_sections(void **state)
{
	(void)state;
	put_le(section(19) + 4, fixture_size - 4, 4); /* the code runs past the end */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_LAYOUT);
	memcpy(data, fixture, fixture_size);
	put_le(section(19), 21, 4); /* a kind no version-1 bundle has */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_LAYOUT);
	memcpy(data, fixture, fixture_size);
	put_le(section(19), 17, 4); /* a second init part */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_LAYOUT);
	memcpy(data, fixture, fixture_size);
	put_le(section(1), 4, 4); /* the parameters become HT1's events: none left */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_LAYOUT);
}

static void refuse_param(size_t at, uint32_t value, unsigned bytes)
{
	memcpy(data, fixture, fixture_size);
	put_le(payload(1) + at, value, bytes);
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_PARAMS);
}

static void test_parameter_ranges(void **state)
{
	(void)state;
	refuse_param(0, 0, 4); /* unroll_count */
	refuse_param(0, BUNDLE_MAX_UNROLL_COUNT + 1, 4);
	refuse_param(4, 0x80000000u, 4); /* loop_count */
	refuse_param(8, 0, 4);		 /* n_measurements */
	refuse_param(8, BUNDLE_MAX_MEASUREMENTS + 1, 4);
	refuse_param(12, BUNDLE_MAX_WARM_UP + 1, 4);
	refuse_param(20, BUNDLE_MAX_ALIGNMENT_OFFSET + 1, 4);
	refuse_param(24, 4, 1);			  /* aggregate */
	refuse_param(25, 3, 1);			  /* xsu */
	refuse_param(26, 1, 1);			  /* ring */
	refuse_param(27, 3, 1);			  /* sibling */
	refuse_param(27, BUNDLE_SIBLING_WORK, 1); /* work without a name */
	refuse_param(28, BUNDLE_FLAGS + 1, 4);	  /* flags */
	refuse_param(40, 1, 1);			  /* reserved */
	/* 1000000 copies of 10 bytes of code: more than 8 MiB. */
	memcpy(data, fixture, fixture_size);
	put_le(payload(1), BUNDLE_MAX_UNROLL_COUNT, 4);
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_PART);
}

static void refuse_event(size_t at, uint64_t value, unsigned bytes, enum bundle_status want)
{
	memcpy(data, fixture, fixture_size);
	put_le(payload(3) + at, value, bytes);
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, want);
}

static void test_event_fields(void **state)
{
	const size_t d081 = 4 * BUNDLE_EVENT_SIZE, fixed0 = BUNDLE_EVENT_SIZE, tsc = 0;

	(void)state;
	refuse_event(d081, 0x4181d0 | (1u << 20), 8, BUNDLE_BAD_EVENT); /* INT */
	refuse_event(d081, 0x0181d0, 8, BUNDLE_BAD_EVENT);		/* not EN */
	refuse_event(d081 + 4, 0x4181d0, 4, BUNDLE_BAD_EVENT);		/* bits above 31 */
	refuse_event(d081 + 20, 4, 1, BUNDLE_BAD_EVENT);		/* kind */
	refuse_event(tsc, 0x4100c0, 8, BUNDLE_BAD_EVENT);		/* RDTSC with an EVTSEL */
	refuse_event(d081 + 23, 0, 1, BUNDLE_BAD_EVENT);		/* no counter */
	refuse_event(d081 + 24, 2, 1, BUNDLE_BAD_EVENT);		/* flags */
	refuse_event(d081 + 16, 0, 4, BUNDLE_BAD_EVENT);		/* a reason */
	refuse_event(d081 + 8, 0x7fffffff, 4, BUNDLE_BAD_STRING);	/* name offset */
	refuse_event(fixed0 + 21, 3, 1, BUNDLE_BAD_EVENT);		/* fixed counter 3 */
	refuse_event(fixed0 + 22, 0xa, 1, BUNDLE_BAD_EVENT);		/* PMI */
	refuse_event(fixed0 + 22, 0, 1, BUNDLE_BAD_EVENT);		/* counts nothing */
	refuse_event(8 * BUNDLE_EVENT_SIZE + 16, BUNDLE_NONE, 4, BUNDLE_BAD_EVENT); /* no reason */
}

static void test_strings(void **state)
{
	uint8_t *strings = payload(2);
	uint32_t size = get32(section(2) + 8);

	(void)state;
	strings[size - 1] = 'x';
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_STRING);
	memcpy(data, fixture, fixture_size);
	payload(2)[0] = '\n'; /* the first string holds a control character */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_STRING);
}

static void test_decode_tables(void **state)
{
	uint8_t *table = payload(35); /* the code's */

	(void)state;
	table[4] = 2; /* mov rax, [rax] as 2 bytes: a gap before push */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_PART);
	memcpy(data, fixture, fixture_size);
	payload(35)[5] = 6; /* kind */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_PART);
	memcpy(data, fixture, fixture_size);
	payload(35)[7] = 16; /* reads */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_PART);
	memcpy(data, fixture, fixture_size);
	put_le(section(35) + 12, 3, 4); /* three entries in the space of four */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_PART);
	memcpy(data, fixture, fixture_size);
	put_le(section(35), 36, 4); /* the code's table given to the (absent) sibling part */
	fix_crc(data, fixture_size);
	assert_refused(fixture_size, BUNDLE_BAD_PART);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(bundle_part_name(BUNDLE_PART_ONE_TIME_INIT), "one_time_init");
	assert_string_equal(bundle_part_name(BUNDLE_PART_CODE), "code");
	assert_string_equal(bundle_part_name(BUNDLE_PART_SIBLING), "sibling");
	assert_string_equal(bundle_part_name(BUNDLE_PARTS), "?");
	assert_string_equal(bundle_aggregate_name(BUNDLE_MEDIAN), "median");
	assert_string_equal(bundle_aggregate_name(4), "?");
	assert_string_equal(xsu_mode_name(XSU_MODE_CORE), "core");
	assert_string_equal(bundle_sibling_name(BUNDLE_SIBLING_WORK), "work");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_parameters, setup),
		cmocka_unit_test_setup(test_events, setup),
		cmocka_unit_test_setup(test_parts, setup),
		cmocka_unit_test_setup(test_sibling_bundle, setup),
		cmocka_unit_test_setup(test_truncated_and_padded, setup),
		cmocka_unit_test_setup(test_every_byte, setup),
		cmocka_unit_test_setup(test_header, setup),
		cmocka_unit_test_setup(test_sections, setup),
		cmocka_unit_test_setup(test_parameter_ranges, setup),
		cmocka_unit_test_setup(test_event_fields, setup),
		cmocka_unit_test_setup(test_strings, setup),
		cmocka_unit_test_setup(test_decode_tables, setup),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
