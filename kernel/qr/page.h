/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page of the end-of-run screen (kernel/end_screen.h): a grid of QR codes, each with its
 * number in large type at its left, white around every code for at least the quiet zone of four
 * modules that ISO/IEC 18004 asks for, and below the grid the page's text, wrapped to the
 * screen's width and cut to the rows left.
 *
 * The shape of a page (the codes' version, their modules' size, the grid) is the screen's plan
 * (kernel/qr/plan.h), chosen from measurements of photos. Pure code (host-tested).
 */
#ifndef KERNEL_QR_PAGE_H
#define KERNEL_QR_PAGE_H

#include <stdbool.h>
#include <stdint.h>

#define QR_QUIET_MODULES 4
#define QR_PAGE_CODES_MAX 4 /* zxing-cpp 1.4 tries 256 triples of finder patterns: 12 is safe */
#define QR_LABEL_DIGITS 2   /* a code's number: at most CHUNK_CODES_MAX (kernel/qr/chunk.h) */
#define QR_LABEL_SCALE 3    /* its digits at three times the text's size (48 pixels high) */
#define QR_TEXT_ROWS_MIN 6  /* below the grid: the headline (2 rows), the run, how to read them */
#define QR_PAGE_LINES_MAX 24
#define QR_PAGE_COLUMNS_MAX 240

/* Modules per side of a code of version (ISO/IEC 18004, 5.3.1: 21 at version 1, 4 more a
 * version). */
static inline uint32_t qr_version_size(int version)
{
	return 17 + 4 * (uint32_t)version;
}

/* The codes of a page: each at most version, modules module_px pixels wide, columns x rows. */
struct qr_page_shape {
	uint8_t version, module_px, columns, rows;
};

struct qr_page_layout {
	uint32_t module_px, quiet_px;
	unsigned codes;						       /* the grid's places */
	uint32_t code_x[QR_PAGE_CODES_MAX], code_y[QR_PAGE_CODES_MAX]; /* top-left modules */
	uint32_t text_x, text_y, columns, rows; /* the text below the grid, in cells */
};

/* The page of a shape on a screen whose text cells are cell_width x cell_height; false when it
 * does not fit (with QR_TEXT_ROWS_MIN rows of text). Codes are placed row by row; code k's number
 * ends at code_x[k] - quiet_px, QR_LABEL_DIGITS cells of QR_LABEL_SCALE times the text's size
 * wide, level with the code's top. */
bool qr_page_layout(const struct qr_page_shape *shape, uint32_t width, uint32_t height,
		    uint32_t cell_width, uint32_t cell_height, struct qr_page_layout *layout);

/* What a page says about its codes. */
struct qr_page_facts {
	unsigned page, pages;	     /* "page 3 of 8" */
	unsigned first, last, total; /* its codes: "codes 5 and 6 of 16" */
	uint32_t run_id;
	bool pass;
	const char *caveat; /* NULL, or what the verdict is about: "model PMU: nothing measured" */
	uint64_t first_seq, last_seq; /* the records its codes carry */
	unsigned records;
	const char *note; /* what the codes leave out (the first page only), or "" */
	uint32_t ms;	  /* how long the page shows */
};

/* The page's text, wrapped to columns, the most useful first (what does not fit is left out at
 * the end); line 0 (the headline) is drawn at twice the size and wrapped to half the columns. */
struct qr_page_text {
	char lines[QR_PAGE_LINES_MAX][QR_PAGE_COLUMNS_MAX + 1];
	unsigned count;
};

void qr_page_text(const struct qr_page_facts *facts, unsigned columns, struct qr_page_text *text);

#endif
