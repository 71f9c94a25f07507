/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page of the end-of-run screen (kernel/end_screen.h): one QR code at the left, white around
 * it for at least the quiet zone of four modules that ISO/IEC 18004 asks for, and a column of
 * text at its right saying which code it is and how to read the codes back.
 *
 * A module is at least QR_MODULE_PX_MIN pixels wide: with 3, a photo of a version 40 code that
 * is a little blurred no longer decodes (issue 19's measurement with zbar); with 4, a version 40
 * code with its quiet zone is 740 pixels high and fits a 1024x768 screen.
 *
 * Pure code (host-tested).
 */
#ifndef KERNEL_QR_PAGE_H
#define KERNEL_QR_PAGE_H

#include <stdbool.h>
#include <stdint.h>

#define QR_MODULE_PX_MIN 4
#define QR_QUIET_MODULES 4
#define QR_TEXT_COLUMNS_MIN 30 /* the text column beside the code, in characters */
#define QR_PAGE_LINES_MAX 40
#define QR_PAGE_COLUMNS_MAX 160

/* The largest QR version whose code fits the screen with QR_MODULE_PX_MIN-pixel modules and
 * leaves QR_TEXT_COLUMNS_MIN columns of text beside it; 0 when not even version 1 does. */
int qr_page_version(uint32_t width, uint32_t height, uint32_t cell_width);

struct qr_page_layout {
	uint32_t module_px;	 /* a module's side in pixels */
	uint32_t code_x, code_y; /* the code's top-left module */
	uint32_t text_x, text_y; /* the text column's top-left pixel */
	uint32_t columns, rows;	 /* the text column's size in cells */
};

/* The page of a code of size modules a side, its modules as large as the screen allows; false
 * when QR_MODULE_PX_MIN-pixel modules do not fit. */
bool qr_page_layout(uint32_t width, uint32_t height, uint32_t cell_width, uint32_t cell_height,
		    uint32_t size, struct qr_page_layout *layout);

/* What a page says about its code. */
struct qr_page_facts {
	unsigned number, total; /* "records 3 of 8" */
	uint32_t run_id;
	bool pass;
	const char *caveat; /* NULL, or what the verdict is about: "model PMU: nothing measured" */
	uint64_t first_seq, last_seq;
	unsigned records;
	const char *note; /* what the codes leave out (the first page only), or "" */
	uint32_t ms;	  /* how long the page shows */
};

/* The page's text, wrapped to columns; line 0 (the headline) is drawn at twice the size. */
struct qr_page_text {
	char lines[QR_PAGE_LINES_MAX][QR_PAGE_COLUMNS_MAX + 1];
	unsigned count;
};

void qr_page_text(const struct qr_page_facts *facts, unsigned columns, struct qr_page_text *text);

#endif
