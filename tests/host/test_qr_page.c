// SPDX-License-Identifier: GPL-2.0
/*
 * The pages of QR codes (kernel/qr/page.c): which version a screen shows with 4-pixel modules,
 * where the code and the text go, what the text says; and the capacity of a code as the library
 * counts it (kernel/qr/capacity.c) against the figures of ISO/IEC 18004's capacity table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <qrcodegen/qrcodegen.h>

#include "kernel/qr/capacity.h"
#include "kernel/qr/page.h"

static void test_versions_of_screens(void **state)
{
	(void)state;
	/* Version 40 with its quiet zone at 4 pixels: 740 high, 740 + 31 columns of 8 wide. */
	assert_int_equal(qr_page_version(1024, 768, 8), 40);
	assert_int_equal(qr_page_version(1280, 800, 8), 40);
	assert_int_equal(qr_page_version(988, 740, 8), 40);
	assert_int_equal(qr_page_version(988, 739, 8), 39);
	assert_int_equal(qr_page_version(987, 740, 8), 39);
	/* 800x600: the width limits it (548 + 248 <= 800). */
	assert_int_equal(qr_page_version(800, 600, 8), 28);
	assert_int_equal(qr_page_version(640, 480, 8), 18);
	assert_int_equal(qr_page_version(320, 192, 8), 0);
}

static void test_layout_1024x768(void **state)
{
	(void)state;
	struct qr_page_layout l;

	assert_true(qr_page_layout(1024, 768, 8, 16, 177, &l));
	assert_int_equal(l.module_px, 4);
	assert_int_equal(l.code_x, 16); /* the quiet zone: 4 modules */
	assert_int_equal(l.code_y, (768 - 708) / 2);
	assert_int_equal(l.text_x, 185 * 4 + 8);
	assert_int_equal(l.columns, (1024 - 748) / 8);
	assert_true(l.columns >= QR_TEXT_COLUMNS_MIN);
	assert_true(l.text_y + l.rows * 16 <= 768);
}

/* A small code gets large modules: easier for a phone. */
static void test_small_codes_grow(void **state)
{
	(void)state;
	struct qr_page_layout l;

	assert_true(qr_page_layout(1024, 768, 8, 16, 21, &l));
	assert_int_equal(l.module_px, 768 / 29);
	assert_true(l.code_y + 21 * l.module_px <= 768);
	assert_true(l.text_x + QR_TEXT_COLUMNS_MIN * 8 <= 1024);
	/* Large screens, whose text is drawn at twice the font's size. */
	assert_true(qr_page_layout(2560, 1600, 16, 32, 177, &l));
	assert_int_equal(l.module_px, 1600 / 185);
	assert_false(qr_page_layout(1024, 700, 8, 16, 177, &l));
}

static bool has_line(const struct qr_page_text *t, const char *want)
{
	for (unsigned i = 0; i < t->count; i++)
		if (!strcmp(t->lines[i], want))
			return true;
	return false;
}

static void test_text(void **state)
{
	(void)state;
	static struct qr_page_text t;
	struct qr_page_facts f = { .number = 3,
				   .total = 8,
				   .run_id = 0x1a2b3c4d,
				   .pass = true,
				   .first_seq = 120,
				   .last_seq = 185,
				   .records = 66,
				   .note = "",
				   .ms = 5000 };

	qr_page_text(&f, 34, &t);
	assert_string_equal(t.lines[0], "records 3 of 8");
	assert_true(has_line(&t, "pmu-testkernel, run 1a2b3c4d: PASS"));
	assert_true(has_line(&t, "@120 to @185: 66 records"));
	assert_true(has_line(&t, "Next, in 5.0 s: records 4 of 8."));
	for (unsigned i = 0; i < t.count; i++)
		assert_true(strlen(t.lines[i]) <= 34);
	/* The command, whole words on each line. */
	bool command = false;
	for (unsigned i = 0; i + 1 < t.count; i++)
		command = command || (!strcmp(t.lines[i], "tools/pmu-report --from-photos") &&
				      !strcmp(t.lines[i + 1], "PHOTO..."));
	assert_true(command);

	f.number = 1;
	f.note = "left out to fit 30 codes: 10 of 20 count records";
	qr_page_text(&f, 34, &t);
	assert_true(has_line(&t, "Not in the codes: left out to fit"));
	f.number = 8;
	f.pass = false;
	f.ms = 2500;
	qr_page_text(&f, 60, &t);
	assert_true(has_line(&t, "pmu-testkernel, run 1a2b3c4d: FAIL"));
	assert_true(has_line(&t, "Next, in 2.5 s: the summary, then records 1."));
}

static void test_capacity_against_iso_table(void **state)
{
	(void)state;
	static char text[QR_CAPACITY_TEXT_MAX];
	static uint8_t segment[qrcodegen_BUFFER_LEN_MAX], temp[qrcodegen_BUFFER_LEN_MAX],
		qrcode[qrcodegen_BUFFER_LEN_MAX];

	/* ISO/IEC 18004:2015, table 7: alphanumeric characters at level M. */
	assert_int_equal(qr_alphanumeric_capacity(1, text, segment, temp, qrcode), 20);
	assert_int_equal(qr_alphanumeric_capacity(10, text, segment, temp, qrcode), 311);
	assert_int_equal(qr_alphanumeric_capacity(40, text, segment, temp, qrcode), 3391);
	assert_int_equal(qr_alphanumeric_capacity(0, text, segment, temp, qrcode), 0);
	size_t before = 0;
	for (int v = 1; v <= 40; v++) {
		size_t c = qr_alphanumeric_capacity(v, text, segment, temp, qrcode);
		assert_true(c > before);
		before = c;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions_of_screens),
		cmocka_unit_test(test_layout_1024x768),
		cmocka_unit_test(test_small_codes_grow),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_capacity_against_iso_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
