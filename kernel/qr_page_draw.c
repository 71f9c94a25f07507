// SPDX-License-Identifier: GPL-2.0
/*
 * A page on the framebuffer: a run of dark modules in a row is one rectangle.
 */
#include <string.h>

#include "kernel/font.h"
#include "kernel/lib/format.h"
#include "kernel/framebuffer.h"
#include "kernel/qr_page_draw.h"

static void draw_code(const uint8_t *modules, uint32_t size, uint32_t x0, uint32_t y0, uint32_t m)
{
	for (uint32_t y = 0; y < size; y++)
		for (uint32_t x = 0; x < size;) {
			if (!modules[y * size + x]) {
				x++;
				continue;
			}
			uint32_t run = x;
			while (run < size && modules[y * size + run])
				run++;
			framebuffer_fill_rect(x0 + x * m, y0 + y * m, (run - x) * m, m,
					      SCREEN_BLACK);
			x = run;
		}
}

/* Code k's number, ending at the left edge of its quiet zone, level with its top. */
static void draw_label(unsigned number, uint32_t right, uint32_t y, uint32_t cell_width)
{
	char digits[12];

	format_snprintf(digits, sizeof(digits), "%u", number);
	uint32_t scale = QR_LABEL_SCALE * cell_width / console_font.width;
	uint32_t width = (uint32_t)strlen(digits) * console_font.width * scale;
	if (width <= right)
		framebuffer_text(right - width, y, digits, scale,
				 SCREEN_ATTRIBUTE(SCREEN_BLACK, SCREEN_WHITE));
}

static void draw_text(const struct qr_job *job, const struct qr_page_layout *l, unsigned page,
		      const struct qr_page_run *run, uint32_t cell_width, uint32_t cell_height)
{
	static struct qr_page_text text;
	unsigned first = page * job->per_page, last = first + job->per_page;

	last = last < job->codes ? last : job->codes;
	struct qr_page_facts facts = {
		.page = page + 1,
		.pages = qr_pages(job),
		.first = first + 1,
		.last = last,
		.total = job->codes,
		.run_id = job->run_id,
		.pass = run->pass,
		.caveat = run->caveat,
		.first_seq = job->code[first].first_seq,
		.last_seq = job->code[last - 1].last_seq,
		.note = page ? "" : job->note,
		.ms = run->ms,
	};
	for (unsigned k = first; k < last; k++)
		facts.records += job->code[k].records;
	qr_page_text(&facts, l->columns, &text);
	uint32_t y = l->text_y, end = l->text_y + l->rows * cell_height;
	for (unsigned i = 0; i < text.count; i++) {
		/* The headline at twice the text's size (itself doubled on large screens). */
		uint32_t scale = i == 0 ? 2 : 1;
		if (y + scale * cell_height > end)
			break;
		framebuffer_text(l->text_x, y, text.lines[i],
				 scale * cell_width / console_font.width,
				 SCREEN_ATTRIBUTE(SCREEN_BLACK, SCREEN_WHITE));
		y += scale * cell_height;
	}
}

static const char *plural_s(uint64_t n)
{
	return n == 1 ? "" : "s";
}

void qr_job_words(const struct qr_job *job, char *buf, size_t size)
{
	unsigned pages = qr_pages(job);

	format_snprintf(buf, size, "%u code%s on %u page%s of %llu record%s", job->codes,
			plural_s(job->codes), pages, plural_s(pages), (unsigned long long)job->kept,
			plural_s(job->kept));
}

void qr_page_draw(const struct qr_job *job, const struct qr_page_layout *l, unsigned page,
		  const struct qr_page_run *run)
{
	uint32_t w, h, cw, ch;

	if (!framebuffer_size(&w, &h, &cw, &ch))
		return;
	framebuffer_fill_rect(0, 0, w, h, SCREEN_WHITE);
	for (unsigned i = 0; i < l->codes; i++) {
		unsigned k = page * job->per_page + i;
		if (k >= job->codes)
			break;
		draw_code(qr_job_modules(job, k), job->code[k].size, l->code_x[i], l->code_y[i],
			  l->module_px);
		draw_label(k + 1, l->code_x[i] - l->quiet_px, l->code_y[i], cw);
	}
	draw_text(job, l, page, run, cw, ch);
}
