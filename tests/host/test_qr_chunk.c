// SPDX-License-Identifier: GPL-2.0
/*
 * The chunks of the QR codes (kernel/qr/chunk.c), deflated as the kernel deflates them (zlib at
 * level 9 primed with the dictionary, kernel/qr/compress.c): every code holds whole records,
 * inflates on its own (with the dictionary, and only with it) and fits its capacity; the codes together give back every record in order; the header
 * and the text are what pmu-report expects; and a log too large for 30 codes keeps the records of
 * the first level, then as many of the next as fit, in the log's order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zlib.h>

#include "kernel/lib/crc32.h"
#include "kernel/qr/base45.h"
#include "kernel/qr/chunk.h"
#include "kernel/qr/compress.h"
#include "kernel/qr/dictionary.h"
#include "kernel/qr/record_copy.h"

#define COPY_MAX (4 << 20)
#define LINES_MAX 60000
#define SMALL_CAPACITY 600 /* a code of about version 19 at level M: many codes from a small log */
#define CODES_MAX 30	   /* as a job of one code a page (kernel/qr/plan.h, QR_PAGES_MAX) */

static char copy_buf[COPY_MAX];
static struct record_copy copy;
static struct chunk_line lines[LINES_MAX];
static uint32_t ids[LINES_MAX];
static char plain[CHUNK_PLAIN_MAX], plain2[CHUNK_PLAIN_MAX];
static uint8_t deflated[64 * 1024];
static struct chunk_work work;
static struct chunk_plan plan;
static void *compressor;
static uint64_t seed;

/* Raw inflate of in[0..len) into out, primed with dictionary (NULL: none); the length, or -1. */
static long inflate_chunk(const uint8_t *in, size_t len, const uint8_t *dictionary, char *out,
			  size_t size)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, -MAX_WBITS), Z_OK);
	if (dictionary)
		assert_int_equal(inflateSetDictionary(&z, dictionary, qr_dictionary_size()), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)size;
	int r = inflate(&z, Z_FINISH);
	long n = r == Z_STREAM_END ? (long)(size - z.avail_out) : -1;
	inflateEnd(&z);
	return n;
}

static unsigned next_random(unsigned limit)
{
	seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(seed >> 33) % limit;
}

static uint64_t seq;

static void add(const char *type, const char *json)
{
	assert_true(record_copy_add(&copy, seq++, type, json, strlen(json)));
}

/* A log shaped as the kernel's: boot, pmu, then per experiment exp, its counts, exp_end and
 * verdict, then end; the counts' figures drawn at random (fixed seed). */
static void make_log(unsigned experiments, unsigned counts_each, unsigned exp_ends_each)
{
	char json[512];

	record_copy_init(&copy, copy_buf, sizeof(copy_buf));
	seq = 0;
	seed = 19;
	add("boot", "{\"type\":\"boot\",\"version\":\"a84be63\",\"boot\":\"multiboot2\","
		    "\"cmdline\":\"exp=all\",\"mem_mib\":505}");
	add("pmu", "{\"type\":\"pmu\",\"backend\":\"model\",\"uarch\":\"haswell\"}");
	for (unsigned e = 0; e < experiments; e++) {
		snprintf(json, sizeof(json),
			 "{\"type\":\"exp\",\"exp\":\"exp-%u\",\"phase\":\"measure\",\"xsu\":"
			 "\"off\","
			 "\"description\":\"an experiment of the suite\"}",
			 e);
		add("exp", json);
		for (unsigned c = 0; c < counts_each; c++) {
			snprintf(json, sizeof(json),
				 "{\"type\":\"count\",\"exp\":\"exp-%u\",\"thread\":%u,\"event\":"
				 "\"r81d0:u\",\"raw\":%u,\"enabled\":%u,\"running\":%u,\"scaled\":%"
				 "u,"
				 "\"counter\":%u}",
				 e, c % 2, next_random(1000000000), 500000000 + next_random(1000),
				 400000000 + next_random(100000000), next_random(1000000000),
				 next_random(4));
			add("count", json);
		}
		for (unsigned x = 0; x < exp_ends_each; x++) {
			snprintf(json, sizeof(json),
				 "{\"type\":\"exp_end\",\"exp\":\"exp-%u\",\"ticks\":[%u,%u],"
				 "\"units\":[%u,%u]}",
				 e, next_random(600), next_random(600), next_random(1 << 30),
				 next_random(1 << 30));
			add("exp_end", json);
		}
		snprintf(json, sizeof(json),
			 "{\"type\":\"verdict\",\"exp\":\"exp-%u\",\"result\":\"pass\"}", e);
		add("verdict", json);
	}
	add("end", "{\"type\":\"end\",\"records\":1,\"verdict\":\"pass\"}");
}

static void setup_work(size_t capacity)
{
	memset(&work, 0, sizeof(work));
	work.copy = copy.buf;
	work.lines = lines;
	work.count = chunk_index(copy.buf, copy.used, lines, LINES_MAX);
	assert_int_equal(work.count, chunk_count_lines(copy.buf, copy.used));
	work.capacity = capacity;
	work.codes_max = CODES_MAX;
	work.deflate = qr_compress;
	work.deflate_ctx = compressor;
	work.plain = plain2;
	work.deflated = deflated;
	work.ids = ids;
}

/* Code k's plain text: deflated within the capacity, inflated back the same with the
 * dictionary, not without it. */
static size_t code_plain(unsigned k)
{
	static char inflated[CHUNK_PLAIN_MAX];
	size_t n = chunk_plain(&work, &plan, k, plain, sizeof(plain));

	assert_true(n > 0);
	size_t size = qr_compress(compressor, plain, n, deflated, 4 * work.capacity);
	assert_true(size > 0 && size <= work.capacity);
	assert_int_equal(inflate_chunk(deflated, size, qr_dictionary, inflated, sizeof(inflated)),
			 n);
	assert_memory_equal(inflated, plain, n);
	long alone = inflate_chunk(deflated, size, NULL, inflated, sizeof(inflated));
	assert_true(alone != (long)n || memcmp(inflated, plain, n));
	return n;
}

/* Every line of a plain text: "#note", "@seq json" or "json", each ending with a new line;
 * calls found(seq, json, len) for each record, numbering as pmu-report does. */
static void read_plain(const char *p, size_t n, void (*found)(uint64_t, const char *, size_t))
{
	uint64_t s = 0;
	bool numbered = false;

	assert_true(n > 0 && p[n - 1] == '\n');
	for (size_t i = 0; i < n;) {
		const char *end = memchr(p + i, '\n', n - i);
		size_t len = (size_t)(end - (p + i));
		const char *line = p + i;
		i += len + 1;
		if (line[0] == '#')
			continue;
		if (line[0] == '@') {
			char *after;
			s = strtoull(line + 1, &after, 10);
			assert_true(*after == ' ');
			len -= (size_t)(after + 1 - line);
			line = after + 1;
			numbered = true;
		} else {
			assert_true(numbered); /* the first record of a code is numbered */
			s++;
		}
		assert_true(line[0] == '{' && line[len - 1] == '}'); /* whole records only */
		found(s, line, len);
	}
}

static unsigned next_line; /* the copy's line that the codes must give next */

static void expect_in_order(uint64_t s, const char *json, size_t len)
{
	while (next_line < work.count && !lines[next_line].kept)
		next_line++;
	assert_true(next_line < work.count);
	const struct chunk_line *l = &lines[next_line++];
	assert_int_equal(s, l->seq);
	assert_int_equal(len, l->len);
	assert_memory_equal(json, copy.buf + l->offset, len);
}

static void read_all_codes(void)
{
	next_line = 0;
	for (unsigned k = 0; k < plan.codes; k++) {
		size_t n = code_plain(k);
		read_plain(plain, n, expect_in_order);
	}
	while (next_line < work.count && !lines[next_line].kept)
		next_line++;
	assert_int_equal(next_line, work.count);
}

static int setup(void **state)
{
	(void)state;
	compressor = qr_compressor_new();
	return compressor ? 0 : -1;
}

/* The dictionary is the format's: a change to the file must come with a new prefix
 * (kernel/qr/dictionary.h); tools/pmu_photos.py checks the same CRC. */
static void test_dictionary_is_the_formats(void **state)
{
	(void)state;
	assert_int_equal(qr_dictionary_size(), 22511);
	assert_int_equal(crc32_ieee(0, qr_dictionary, qr_dictionary_size()), QR_DICTIONARY_CRC);
	assert_memory_equal(CHUNK_TEXT_PREFIX, "PMU2:", 5);
	/* Record lines, the last one whole. */
	assert_memory_equal(qr_dictionary, "{\"type\":", 8);
	assert_int_equal(qr_dictionary[qr_dictionary_size() - 1], '\n');
}

/* What the dictionary is for: a short chunk of records deflates to much less with it. */
static void test_dictionary_shortens_chunks(void **state)
{
	(void)state;
	static const char chunk[] =
		"@40 {\"type\":\"count\",\"exp\":\"ch7-aligned\",\"phase\":\"measure\",\"xsu\":"
		"\"off\",\"sched\":\"greedy\",\"rep\":0,\"thread\":0,\"apic\":0,\"event\":"
		"\"r20cc:u\",\"code\":\"0x20cc\",\"name\":\"ROB_MISC_EVENTS.LBR_INSERTS\","
		"\"corrupting\":false,\"any_thread\":false,\"interfered\":false,\"counter\":"
		"\"gp0\",\"raw\":12345,\"enabled\":1191576059,\"running\":1191576059,"
		"\"scaled\":12345,\"true\":12345}\n";
	z_stream z;
	uint8_t alone[1024];

	size_t primed = qr_compress(compressor, chunk, sizeof(chunk) - 1, deflated, 1024);
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)chunk;
	z.avail_in = sizeof(chunk) - 1;
	z.next_out = alone;
	z.avail_out = sizeof(alone);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t plain = sizeof(alone) - z.avail_out;
	deflateEnd(&z);
	assert_true(primed > 0 && 3 * primed < plain);
}

static void test_index(void **state)
{
	(void)state;
	record_copy_init(&copy, copy_buf, sizeof(copy_buf));
	seq = 3;
	add("boot", "{\"type\":\"boot\"}");
	add("count", "{\"type\":\"count\",\"raw\":1}");
	seq = 9;
	add("exp_end", "{\"type\":\"exp_end\"}");
	add("verdict", "{\"type\":\"verdict\"}");
	setup_work(SMALL_CAPACITY);
	assert_int_equal(work.count, 4);
	const uint64_t seqs[] = { 3, 4, 9, 10 };
	const uint8_t levels[] = { CHUNK_LEVEL_FIRST, CHUNK_LEVEL_COUNT, CHUNK_LEVEL_OTHER,
				   CHUNK_LEVEL_FIRST };
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(lines[i].seq, seqs[i]);
		assert_int_equal(lines[i].level, levels[i]);
		assert_int_equal(copy.buf[lines[i].offset], '{');
	}
}

static void test_records_in_order_at_boundaries(void **state)
{
	(void)state;
	make_log(12, 40, 1);
	setup_work(SMALL_CAPACITY);
	assert_true(chunk_plan_codes(&work, &plan));
	assert_true(plan.codes > 5 && plan.codes <= CODES_MAX);
	assert_false(plan.left_out);
	assert_string_equal(plan.note, "");
	assert_int_equal(plan.kept, work.count);
	read_all_codes();
	/* A few compressions a code, not one per record. */
	assert_true(work.probes <= 8 * plan.codes);
}

/* Each code is filled: the records of the next code would not have fitted too. */
static void test_codes_are_full(void **state)
{
	(void)state;
	make_log(12, 40, 1);
	setup_work(SMALL_CAPACITY);
	assert_true(chunk_plan_codes(&work, &plan));
	for (unsigned k = 0; k + 1 < plan.codes; k++) {
		struct chunk_plan more = plan;
		more.end[k] = plan.first[k + 1] + 1; /* one more record in code k */
		size_t n = chunk_plain(&work, &more, k, plain, sizeof(plain));
		assert_int_equal(qr_compress(compressor, plain, n, deflated, work.capacity), 0);
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_header_and_text(void **state)
{
	(void)state;
	static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";
	const uint8_t payload[] = { 0x4b, 0x4c, 0x4a, 0x06, 0x00 };
	uint8_t bytes[64], back[64];
	char text[128];

	const struct chunk_header header = { 0xa1b2c3d4, 3, 8, CHUNK_FLAG_LEFT_OUT, 2 };
	size_t n = chunk_bytes(&header, payload, sizeof(payload), bytes);
	assert_int_equal(n, CHUNK_HEADER_LEN + sizeof(payload));
	assert_int_equal(le32(bytes), 0xa1b2c3d4);
	assert_int_equal(bytes[4], 3);
	assert_int_equal(bytes[5], 8);
	assert_int_equal(bytes[6], CHUNK_FLAG_LEFT_OUT);
	assert_int_equal(bytes[7], 2);
	/* zlib's CRC-32 of the eight bytes before it and of the deflated text after it. */
	uint32_t crc = (uint32_t)crc32(crc32(0, bytes, 8), payload, sizeof(payload));
	assert_int_equal(le32(bytes + 8), crc);
	assert_memory_equal(bytes + CHUNK_HEADER_LEN, payload, sizeof(payload));

	size_t chars = chunk_text(bytes, n, text);
	assert_int_equal(chars, 5 + base45_encoded_len(n));
	assert_memory_equal(text, "PMU2:", 5);
	/* Base45 back, by the RFC's arithmetic. */
	size_t m = 0;
	for (size_t i = 5; i < chars; i += 3) {
		unsigned v = 0, scale = 1, digits = chars - i >= 3 ? 3 : 2;
		for (unsigned d = 0; d < digits; d++, scale *= 45)
			v += (unsigned)(strchr(alphabet, text[i + d]) - alphabet) * scale;
		if (digits == 3)
			back[m++] = (uint8_t)(v >> 8);
		back[m++] = (uint8_t)v;
	}
	assert_int_equal(m, n);
	assert_memory_equal(back, bytes, n);
}

static void test_capacity(void **state)
{
	(void)state;
	/* Version 40 at level M: 3391 characters, less "PMU2:", in Base45, less the header. */
	assert_int_equal(chunk_capacity(3391), 2245);
	/* Version 25: 1451 characters. */
	assert_int_equal(chunk_capacity(1451), 952);
	assert_int_equal(chunk_capacity(5), 0);
	assert_int_equal(chunk_capacity(5 + 20), 1);
}

static uint64_t kept_of(unsigned level)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < work.count; i++)
		n += lines[i].kept && lines[i].level == level;
	return n;
}

/* The kept lines of level are the first ones of that level, in the log's order. */
static void assert_prefix_kept(unsigned level)
{
	bool dropped = false;

	for (unsigned i = 0; i < work.count; i++) {
		if (lines[i].level != level)
			continue;
		if (!lines[i].kept)
			dropped = true;
		else
			assert_false(dropped);
	}
}

static void test_priority_cut(void **state)
{
	(void)state;
	make_log(40, 100, 1);
	setup_work(SMALL_CAPACITY);
	assert_true(chunk_plan_codes(&work, &plan));
	assert_true(plan.left_out);
	assert_true(plan.codes <= CODES_MAX);
	assert_int_equal(kept_of(CHUNK_LEVEL_FIRST), plan.of[CHUNK_LEVEL_FIRST]);
	assert_int_equal(kept_of(CHUNK_LEVEL_OTHER), plan.of[CHUNK_LEVEL_OTHER]);
	uint64_t counts = kept_of(CHUNK_LEVEL_COUNT);
	assert_true(counts > 0 && counts < plan.of[CHUNK_LEVEL_COUNT]);
	assert_prefix_kept(CHUNK_LEVEL_COUNT);
	assert_int_equal(plan.dropped[CHUNK_LEVEL_COUNT], plan.of[CHUNK_LEVEL_COUNT] - counts);
	char want[128];
	snprintf(want, sizeof(want), "left out to fit 30 codes: %llu of %llu count records",
		 (unsigned long long)plan.dropped[CHUNK_LEVEL_COUNT],
		 (unsigned long long)plan.of[CHUNK_LEVEL_COUNT]);
	assert_non_null(strstr(plan.note, want));
	read_all_codes();
	/* The note is the first code's first line. */
	size_t n = chunk_plain(&work, &plan, 0, plain, sizeof(plain));
	assert_true(n > strlen(plan.note) + 1);
	assert_int_equal(plain[0], '#');
	assert_memory_equal(plain + 1, plan.note, strlen(plan.note));

	/* As many as fit: with one count record more, the codes would not hold them. (The plan
	 * copied: its counts of each level, which chunk_plan_codes() made, go into the note.) */
	struct chunk_plan other = plan;
	assert_false(chunk_fits_with(&work, &other, CHUNK_LEVEL_COUNT, counts + 1));
	assert_true(chunk_fits_with(&work, &other, CHUNK_LEVEL_COUNT, counts));
	assert_int_equal(other.codes, plan.codes);
}

/* When the first level and the others alone need more than 30 codes, no count record is kept and
 * the second level is cut; every record of the first level stays. */
static void test_cut_into_second_level(void **state)
{
	(void)state;
	make_log(30, 20, 30);
	setup_work(SMALL_CAPACITY);
	assert_true(chunk_plan_codes(&work, &plan));
	assert_true(plan.left_out);
	assert_int_equal(kept_of(CHUNK_LEVEL_FIRST), plan.of[CHUNK_LEVEL_FIRST]);
	assert_int_equal(kept_of(CHUNK_LEVEL_COUNT), 0);
	uint64_t others = kept_of(CHUNK_LEVEL_OTHER);
	assert_true(others > 0 && others < plan.of[CHUNK_LEVEL_OTHER]);
	assert_prefix_kept(CHUNK_LEVEL_OTHER);
	assert_non_null(strstr(plan.note, "other records"));
	assert_non_null(strstr(plan.note, "count records"));
	read_all_codes();
}

static void test_copy_left_is_noted(void **state)
{
	(void)state;
	make_log(2, 5, 1);
	setup_work(SMALL_CAPACITY);
	work.copy_left = 3;
	assert_true(chunk_plan_codes(&work, &plan));
	assert_true(plan.left_out);
	assert_int_equal(plan.kept, work.count);
	assert_non_null(strstr(plan.note, "3 records the kernel's copy had no room for"));
	read_all_codes();
}

static void test_too_long_record_is_left_out(void **state)
{
	(void)state;
	char json[2100];

	make_log(2, 5, 1);
	seq = 100;
	memcpy(json, "{\"type\":\"warn\",\"message\":\"", 26);
	for (unsigned i = 26; i < 2090; i++)
		json[i] = (char)('a' + next_random(26)); /* does not deflate to 600 bytes */
	memcpy(json + 2090, "\"}", 3);
	add("warn", json);
	add("end", "{\"type\":\"end\"}");
	setup_work(SMALL_CAPACITY);
	assert_true(chunk_plan_codes(&work, &plan));
	assert_int_equal(plan.too_long, 1);
	assert_int_equal(plan.kept, work.count - 1);
	assert_non_null(strstr(plan.note, "1 record too long for one code"));
	read_all_codes();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dictionary_is_the_formats),
		cmocka_unit_test(test_dictionary_shortens_chunks),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_records_in_order_at_boundaries),
		cmocka_unit_test(test_codes_are_full),
		cmocka_unit_test(test_header_and_text),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_priority_cut),
		cmocka_unit_test(test_cut_into_second_level),
		cmocka_unit_test(test_copy_left_is_noted),
		cmocka_unit_test(test_too_long_record_is_left_out),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
