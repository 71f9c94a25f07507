// SPDX-License-Identifier: GPL-2.0
/*
 * The pages of QR codes (kernel/qr/plan.c, page.c, kernel/qr_page_draw.c): every plan of the table lays out
 * on its screen and its codes fit the job's memory; which plan a screen gets; where the codes,
 * their numbers and the text go (inside the screen, quiet zones clear); what the text says; a page
 * drawn on a framebuffer in memory; and the capacity of a code as the library counts it
 * (kernel/qr/capacity.c) against the figures of ISO/IEC 18004's capacity table. Whether photos of
 * the plans' pages decode is measured by tools/qr-measure (tests/report/test_qr_measure.py).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include <qrcodegen/qrcodegen.h>

#include "kernel/framebuffer.h"
#include "kernel/qr/capacity.h"
#include "kernel/qr_page_draw.h"
#include "kernel/qr/plan.h"

static void test_every_plan_lays_out_on_its_screen(void **state)
{
	(void)state;
	struct qr_page_layout l;

	assert_true(qr_plan_count >= 5);
	for (unsigned i = 0; i < qr_plan_count; i++) {
		const struct qr_plan *p = &qr_plans[i];
		assert_true(qr_page_layout(&p->shape, p->width, p->height, 8, 16, &l));
		assert_true(l.codes >= 1 && l.codes <= QR_PAGE_CODES_MAX);
		assert_true(p->shape.module_px >= 3);
		/* The job's memory holds the modules of every code the plan makes. */
		struct qr_job job;
		qr_plan_job(&p->shape, &job);
		uint32_t side = qr_version_size(p->shape.version);
		assert_true((size_t)job.codes_max * side * side <= QR_MODULES_BYTES);
		assert_true(job.codes_max <= CHUNK_CODES_MAX && job.per_page == l.codes);
		/* Larger screens first: a screen gets the largest plan it holds. */
		if (i)
			assert_true((uint32_t)qr_plans[i - 1].width * qr_plans[i - 1].height >=
					    (uint32_t)p->width * p->height ||
				    qr_plans[i - 1].width >= p->width);
	}
	/* The screens, each with a plan of its own. */
	const uint32_t screens[][2] = {
		{ 1024, 768 }, { 1280, 800 }, { 1366, 768 }, { 1920, 1080 }, { 800, 600 }
	};
	for (unsigned s = 0; s < 5; s++) {
		const struct qr_plan *p = qr_plan_for(screens[s][0], screens[s][1], 8, 16);
		assert_non_null(p);
		assert_int_equal(p->width, screens[s][0]);
		assert_int_equal(p->height, screens[s][1]);
	}
}

/* Inside the screen, and no code's quiet zone holds anything else of the page. */
static void assert_page_is_sound(const struct qr_page_shape *shape, uint32_t w, uint32_t h,
				 uint32_t cw, uint32_t ch, const struct qr_page_layout *l)
{
	uint32_t side = qr_version_size(shape->version) * l->module_px, q = l->quiet_px;
	uint32_t label_w = QR_LABEL_DIGITS * QR_LABEL_SCALE * cw;

	assert_int_equal(q, QR_QUIET_MODULES * l->module_px);
	assert_true(l->text_y + QR_TEXT_ROWS_MIN * ch <= h && l->rows >= QR_TEXT_ROWS_MIN);
	assert_true(l->text_x + l->columns * cw <= w);
	for (unsigned i = 0; i < l->codes; i++) {
		assert_true(l->code_x[i] >= q + label_w && l->code_y[i] >= q);
		assert_true(l->code_x[i] + side + q <= w && l->code_y[i] + side + q <= l->text_y);
		for (unsigned j = 0; j < l->codes; j++) {
			if (j == i)
				continue;
			/* Code j with its number is outside code i's quiet zone. */
			bool apart = l->code_x[j] - label_w >= l->code_x[i] + side + q ||
				     l->code_x[j] + side + q <= l->code_x[i] ||
				     l->code_y[j] >= l->code_y[i] + side + q ||
				     l->code_y[j] + side + q <= l->code_y[i];
			assert_true(apart);
		}
	}
}

static void test_layouts_are_sound(void **state)
{
	(void)state;
	struct qr_page_layout l;

	for (unsigned i = 0; i < qr_plan_count; i++) {
		const struct qr_plan *p = &qr_plans[i];
		qr_page_layout(&p->shape, p->width, p->height, 8, 16, &l);
		assert_page_is_sound(&p->shape, p->width, p->height, 8, 16, &l);
	}
	/* Every screen from 640x480 to 3840x2160 gets a plan that lays out on it, and one no larger
	 * than itself; from 2560 pixels wide on, text is doubled (kernel/framebuffer.c): such
	 * screens are 1080 pixels high or more. */
	for (uint32_t w = 640; w <= 3840; w += 32)
		for (uint32_t h = w >= 2560 ? 1080 : 480; h <= 2160; h += 24) {
			uint32_t cw = w >= 2560 ? 16 : 8, ch = 2 * cw;
			const struct qr_plan *p = qr_plan_for(w, h, cw, ch);
			assert_non_null(p);
			assert_true(p->width <= w && p->height <= h);
			assert_true(qr_page_layout(&p->shape, w, h, cw, ch, &l));
			assert_page_is_sound(&p->shape, w, h, cw, ch, &l);
		}
	assert_null(qr_plan_for(320, 200, 8, 16));
	/* A grid that does not fit, and shapes the layout refuses. */
	const struct qr_page_shape wide = { 25, 4, 3, 1 }, none = { 25, 4, 0, 1 },
				   five = { 10, 3, 5, 1 }, big = { 41, 4, 1, 1 };
	assert_false(qr_page_layout(&wide, 1280, 800, 8, 16, &l));
	assert_false(qr_page_layout(&none, 1280, 800, 8, 16, &l));
	assert_false(qr_page_layout(&five, 1920, 1080, 8, 16, &l));
	assert_false(qr_page_layout(&big, 1920, 1080, 8, 16, &l));
}

static void test_layout_two_codes(void **state)
{
	(void)state;
	const struct qr_page_shape shape = { 25, 4, 2, 1 };
	struct qr_page_layout l;

	/* A cell: its number (2 digits of 24 pixels), the quiet zones (16 each), the code (468). */
	assert_true(qr_page_layout(&shape, 1280, 800, 8, 16, &l));
	assert_int_equal(l.codes, 2);
	assert_int_equal(l.module_px, 4);
	uint32_t cell = 48 + 16 + 468 + 16, x0 = (1280 - 2 * cell) / 2;
	assert_int_equal(l.code_x[0], x0 + 48 + 16);
	assert_int_equal(l.code_x[1], x0 + cell + 48 + 16);
	assert_int_equal(l.code_y[0], l.code_y[1]);
	assert_int_equal(l.code_y[0], (800 - 500 - 6 * 16) / 2 + 16);
	assert_int_equal(l.text_y, l.code_y[0] + 468 + 16);
	assert_int_equal(l.text_x, x0);
	assert_int_equal(l.columns, (1280 - 2 * x0) / 8);
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
	struct qr_page_facts f = { .page = 3,
				   .pages = 8,
				   .first = 5,
				   .last = 6,
				   .total = 16,
				   .run_id = 0x1a2b3c4d,
				   .pass = true,
				   .first_seq = 120,
				   .last_seq = 185,
				   .records = 66,
				   .note = "",
				   .ms = 5000 };

	qr_page_text(&f, 100, &t);
	assert_string_equal(t.lines[0], "page 3 of 8: codes 5 and 6 of 16");
	assert_true(has_line(&t, "pmu-testkernel, run 1a2b3c4d: PASS; records @120 to @185 (66)"));
	assert_true(has_line(&t, "Next, in 5.0 s: page 4 of 8."));
	for (unsigned i = 0; i < t.count; i++)
		assert_true(strlen(t.lines[i]) <= 100);
	/* How to read them back: the command on a line of its own. */
	assert_true(has_line(&t, "tools/pmu-report --from-photos VIDEO-OR-PHOTOS"));

	f.page = 1;
	f.first = 1;
	f.last = 4;
	f.note = "left out to fit 99 codes: 10 of 20 count records";
	qr_page_text(&f, 100, &t);
	assert_string_equal(t.lines[0], "page 1 of 8: codes 1 to 4 of 16");
	assert_true(has_line(&t, "Not in the codes: left out to fit 99 codes: 10 of 20 count "
				 "records."));
	f.page = 8;
	f.first = f.last = 16;
	f.pass = false;
	f.caveat = "model PMU: nothing measured";
	f.ms = 2500;
	qr_page_text(&f, 160, &t);
	assert_string_equal(t.lines[0], "page 8 of 8: code 16 of 16");
	assert_true(has_line(&t,
			     "pmu-testkernel, run 1a2b3c4d: FAIL (model PMU: nothing measured); "
			     "records @120 to @185 (66)"));
	assert_true(has_line(&t, "Next, in 2.5 s: the summary, then page 1."));
	/* A code of one record: singular words. */
	f.first_seq = f.last_seq = 408;
	f.records = 1;
	qr_page_text(&f, 160, &t);
	assert_true(has_line(&t,
			     "pmu-testkernel, run 1a2b3c4d: FAIL (model PMU: nothing measured); "
			     "record @408"));
}

/* What a job made, in the kernel's serial line: plural only where more than one. */
static void test_job_words(void **state)
{
	(void)state;
	static struct qr_job job;
	char buf[96];

	job.codes = 16;
	job.per_page = 2;
	job.kept = 409;
	qr_job_words(&job, buf, sizeof(buf));
	assert_string_equal(buf, "16 codes on 8 pages of 409 records");
	job.codes = 1;
	job.per_page = 1;
	job.kept = 8;
	qr_job_words(&job, buf, sizeof(buf));
	assert_string_equal(buf, "1 code on 1 page of 8 records");
	job.kept = 1;
	qr_job_words(&job, buf, sizeof(buf));
	assert_string_equal(buf, "1 code on 1 page of 1 record");
}

/* Pixel (x, y) of a framebuffer in memory, x8r8g8b8: black 0, white 0xffffff. */
static uint32_t pixel(const uint32_t *fb, uint32_t w, uint32_t x, uint32_t y)
{
	return fb[(size_t)y * w + x] & 0xffffff;
}

/* A page drawn: the codes' modules where the layout says, the last page's empty place white. */
static void test_page_drawn(void **state)
{
	(void)state;
	const uint32_t w = 1280, h = 800;
	uint32_t *fb = mmap(NULL, w * h * 4, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	struct boot_framebuffer f = { .address = (uint64_t)(uintptr_t)fb,
				      .pitch = w * 4,
				      .width = w,
				      .height = h,
				      .bpp = 32,
				      .type = BOOT_FRAMEBUFFER_RGB };
	const struct screen_ops *ops;
	uint32_t columns, rows;
	assert_null(framebuffer_init(&f, &ops, &columns, &rows));
	const struct qr_page_shape shape = { 2, 4, 2, 1 }; /* 25 modules a side */
	static uint8_t modules[3 * 25 * 25];
	static struct qr_job job;
	job.version = 2;
	job.per_page = 2;
	job.codes = 3;
	job.modules = modules;
	for (unsigned k = 0; k < 3; k++) {
		job.code[k].size = 25;
		job.code[k].records = 1;
		for (unsigned i = 0; i < 25 * 25; i++)
			modules[k * 625 + i] = (uint8_t)((i + k) % 2);
	}
	struct qr_page_layout l;
	assert_true(qr_page_layout(&shape, w, h, 8, 16, &l));
	const struct qr_page_run run = { true, NULL, 5000 };
	assert_int_equal(qr_pages(&job), 2);
	qr_page_draw(&job, &l, 1, &run);
	/* Code 3 (odd modules dark, from its first row's second module) in the first place. */
	assert_int_equal(pixel(fb, w, l.code_x[0] + 1, l.code_y[0] + 1), 0xffffff);
	assert_int_equal(pixel(fb, w, l.code_x[0] + 4 + 1, l.code_y[0] + 1), 0);
	assert_int_equal(pixel(fb, w, l.code_x[0] - 1, l.code_y[0] + 1), 0xffffff);
	/* The second place: no code on the last page. */
	for (uint32_t y = l.code_y[1]; y < l.code_y[1] + 100; y += 3)
		for (uint32_t x = l.code_x[1]; x < l.code_x[1] + 100; x += 3)
			assert_int_equal(pixel(fb, w, x, y), 0xffffff);
	/* Its number, "3", dark pixels left of the quiet zone, level with the code. */
	unsigned dark = 0;
	for (uint32_t y = l.code_y[0]; y < l.code_y[0] + 48; y++)
		for (uint32_t x = l.code_x[0] - l.quiet_px - 48; x < l.code_x[0] - l.quiet_px; x++)
			dark += pixel(fb, w, x, y) == 0;
	assert_true(dark > 50);
	munmap(fb, w * h * 4);
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
	assert_int_equal(qr_alphanumeric_capacity(25, text, segment, temp, qrcode), 1451);
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
		cmocka_unit_test(test_every_plan_lays_out_on_its_screen),
		cmocka_unit_test(test_layouts_are_sound),
		cmocka_unit_test(test_layout_two_codes),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_job_words),
		cmocka_unit_test(test_page_drawn),
		cmocka_unit_test(test_capacity_against_iso_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
