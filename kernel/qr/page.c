// SPDX-License-Identifier: GPL-2.0
/*
 * The page's layout and its words.
 */
#include <string.h>

#include "kernel/lib/format.h"
#include "kernel/qr/page.h"

/* Pixels between the code's quiet zone and the text. */
#define TEXT_MARGIN_CELLS 1

static uint32_t code_side(int version)
{
	return 17 + 4 * (uint32_t)version; /* ISO/IEC 18004, 5.3.1: 21 modules at version 1 */
}

int qr_page_version(uint32_t width, uint32_t height, uint32_t cell_width)
{
	uint32_t text = (QR_TEXT_COLUMNS_MIN + TEXT_MARGIN_CELLS) * cell_width;

	for (int version = 40; version >= 1; version--) {
		uint32_t side = (code_side(version) + 2 * QR_QUIET_MODULES) * QR_MODULE_PX_MIN;
		if (side <= height && side + text <= width)
			return version;
	}
	return 0;
}

bool qr_page_layout(uint32_t width, uint32_t height, uint32_t cell_width, uint32_t cell_height,
		    uint32_t size, struct qr_page_layout *l)
{
	uint32_t text = (QR_TEXT_COLUMNS_MIN + TEXT_MARGIN_CELLS) * cell_width;
	uint32_t whole = size + 2 * QR_QUIET_MODULES;

	if (!size || !cell_width || !cell_height || width <= text)
		return false;
	uint32_t by_height = height / whole, by_width = (width - text) / whole;
	l->module_px = by_height < by_width ? by_height : by_width;
	if (l->module_px < QR_MODULE_PX_MIN)
		return false;
	l->code_x = QR_QUIET_MODULES * l->module_px;
	l->code_y = (height - size * l->module_px) / 2;
	l->text_x = whole * l->module_px + TEXT_MARGIN_CELLS * cell_width;
	l->text_y = l->code_y < cell_height ? cell_height : l->code_y;
	l->columns = (width - l->text_x) / cell_width;
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

void qr_page_text(const struct qr_page_facts *f, unsigned columns, struct qr_page_text *t)
{
	char buf[512];

	if (columns > QR_PAGE_COLUMNS_MAX)
		columns = QR_PAGE_COLUMNS_MAX;
	t->count = 0;
	format_snprintf(buf, sizeof(buf), "records %u of %u", f->number, f->total);
	paragraph(t, columns / 2, buf);
	paragraph(t, columns, "");
	format_snprintf(buf, sizeof(buf), "pmu-testkernel, run %08x: %s%s%s%s", f->run_id,
			f->pass ? "PASS" : "FAIL", f->caveat ? " (" : "",
			f->caveat ? f->caveat : "", f->caveat ? ")" : "");
	paragraph(t, columns, buf);
	format_snprintf(buf, sizeof(buf), "@%llu to @%llu: %u records",
			(unsigned long long)f->first_seq, (unsigned long long)f->last_seq,
			f->records);
	paragraph(t, columns, buf);
	paragraph(t, columns, "");
	paragraph(t, columns,
		  "Photograph every code of this run: in any order, several on one photo or one "
		  "twice is fine. Then, in a clone of pmu-testkernel:");
	paragraph(t, columns, "tools/pmu-report --from-photos PHOTO...");
	if (f->note && f->note[0]) {
		paragraph(t, columns, "");
		format_snprintf(buf, sizeof(buf), "Not in the codes: %s.", f->note);
		paragraph(t, columns, buf);
	}
	paragraph(t, columns, "");
	if (f->number < f->total)
		format_snprintf(buf, sizeof(buf), "Next, in %u.%u s: records %u of %u.",
				f->ms / 1000, f->ms % 1000 / 100, f->number + 1, f->total);
	else
		format_snprintf(buf, sizeof(buf), "Next, in %u.%u s: the summary, then records 1.",
				f->ms / 1000, f->ms % 1000 / 100);
	paragraph(t, columns, buf);
}
