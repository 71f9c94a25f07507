// SPDX-License-Identifier: GPL-2.0
/*
 * The page's layout and its words.
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "kernel/qr/page.h"

bool qr_page_layout(const struct qr_page_shape *s, uint32_t width, uint32_t height,
		    uint32_t cell_width, uint32_t cell_height, struct qr_page_layout *l)
{
	unsigned codes = (unsigned)s->columns * s->rows;

	if (!codes || codes > QR_PAGE_CODES_MAX || s->version < 1 || s->version > 40 ||
	    !s->module_px || !cell_width || !cell_height)
		return false;
	uint32_t quiet = QR_QUIET_MODULES * s->module_px,
		 side = qr_version_size(s->version) * s->module_px;
	uint32_t label = QR_LABEL_DIGITS * QR_LABEL_SCALE * cell_width;
	uint32_t cell_w = label + side + 2 * quiet, cell_h = side + 2 * quiet;
	uint32_t grid_w = s->columns * cell_w, grid_h = s->rows * cell_h;
	if (grid_w > width || grid_h + QR_TEXT_ROWS_MIN * cell_height > height)
		return false;
	uint32_t x0 = (width - grid_w) / 2,
		 y0 = (height - grid_h - QR_TEXT_ROWS_MIN * cell_height) / 2;
	l->module_px = s->module_px;
	l->quiet_px = quiet;
	l->codes = codes;
	for (unsigned k = 0; k < codes; k++) {
		l->code_x[k] = x0 + (k % s->columns) * cell_w + label + quiet;
		l->code_y[k] = y0 + (k / s->columns) * cell_h + quiet;
	}
	/* The text from the grid's left edge, a cell from the screen's edge at least. */
	l->text_x = x0 > cell_width ? x0 : cell_width;
	l->text_y = y0 + grid_h;
	l->columns = (width - 2 * l->text_x) / cell_width;
	if (l->columns > QR_PAGE_COLUMNS_MAX)
		l->columns = QR_PAGE_COLUMNS_MAX;
	l->rows = (height - l->text_y) / cell_height;
	return true;
}

/* One more line, if there is room. */
static char *new_line(struct qr_page_text *t)
{
	if (t->count >= QR_PAGE_LINES_MAX)
		return NULL;
	char *line = t->lines[t->count++];
	line[0] = 0;
	return line;
}

/* A paragraph, wrapped at spaces to columns (a word longer than a line is cut). */
static void paragraph(struct qr_page_text *t, unsigned columns, const char *s)
{
	do {
		char *line = new_line(t);
		if (!line)
			return;
		size_t n = strlen(s), take = n;
		if (take > columns) {
			take = columns;
			while (take && s[take] != ' ')
				take--;
			if (!take)
				take = columns;
		}
		memcpy(line, s, take);
		line[take] = 0;
		s += take;
		while (*s == ' ')
			s++;
	} while (*s);
}

/* "codes 5 and 6 of 16", "codes 5 to 8 of 16", "code 16 of 16". */
static void codes_words(char *buf, size_t size, const struct qr_page_facts *f)
{
	if (f->first == f->last)
		format_snprintf(buf, size, "code %u of %u", f->first, f->total);
	else
		format_snprintf(buf, size, "codes %u %s %u of %u", f->first,
				f->last == f->first + 1 ? "and" : "to", f->last, f->total);
}

/* "records @120 to @185 (66)", "record @408". */
static void records_words(char *buf, size_t size, const struct qr_page_facts *f)
{
	if (f->records == 1)
		format_snprintf(buf, size, "record @%llu", (unsigned long long)f->first_seq);
	else
		format_snprintf(buf, size, "records @%llu to @%llu (%u)",
				(unsigned long long)f->first_seq, (unsigned long long)f->last_seq,
				f->records);
}

void qr_page_text(const struct qr_page_facts *f, unsigned columns, struct qr_page_text *t)
{
	char buf[512], codes[64], records[80];

	if (columns > QR_PAGE_COLUMNS_MAX)
		columns = QR_PAGE_COLUMNS_MAX;
	t->count = 0;
	codes_words(codes, sizeof(codes), f);
	format_snprintf(buf, sizeof(buf), "page %u of %u: %s", f->page, f->pages, codes);
	paragraph(t, columns / 2, buf);
	records_words(records, sizeof(records), f);
	format_snprintf(buf, sizeof(buf), "pmu-testkernel, run %08x: %s%s%s%s; %s", f->run_id,
			f->pass ? "PASS" : "FAIL", f->caveat ? " (" : "",
			f->caveat ? f->caveat : "", f->caveat ? ")" : "", records);
	paragraph(t, columns, buf);
	paragraph(t, columns,
		  "Film the screen until every page has gone by (or photograph every page), then "
		  "in a clone of pmu-testkernel:");
	paragraph(t, columns, "tools/pmu-report --from-photos VIDEO-OR-PHOTOS");
	if (f->page < f->pages)
		format_snprintf(buf, sizeof(buf), "Next, in %u.%u s: page %u of %u.", f->ms / 1000,
				f->ms % 1000 / 100, f->page + 1, f->pages);
	else
		format_snprintf(buf, sizeof(buf), "Next, in %u.%u s: the summary, then page 1.",
				f->ms / 1000, f->ms % 1000 / 100);
	paragraph(t, columns, buf);
	if (f->note && f->note[0]) {
		format_snprintf(buf, sizeof(buf), "Not in the codes: %s.", f->note);
		paragraph(t, columns, buf);
	}
}
