/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a screen shows the codes: for each framebuffer size that real machines give GRUB and the
 * UEFI loader, the page's shape (kernel/qr/page.h) that photos of it survive. The table is data,
 * chosen from measurements (docs/qr-codes.md, "The plans"; tools/qr-measure makes them again):
 * every code of every page decodes with zbar and with zxing-cpp from a photo of the screen that
 * is 150% larger, narrowed by 8% at the top (keystone), turned 3 degrees, blurred (Gaussian, sigma
 * 1.0) and saved as JPEG of quality 70; among the shapes that do, the one that takes the fewest
 * pages, then the largest modules.
 *
 * Pure code (host-tested).
 */
#ifndef KERNEL_QR_PLAN_H
#define KERNEL_QR_PLAN_H

#include <stdint.h>

#include "kernel/qr/job.h"
#include "kernel/qr/page.h"

#define QR_PAGES_MAX 30 /* more records than 30 pages hold: the priority cut (kernel/qr/chunk.h) */

struct qr_plan {
	uint16_t width, height; /* the screen it was measured on: the smallest it is for */
	struct qr_page_shape shape;
};

extern const struct qr_plan qr_plans[];
extern const unsigned qr_plan_count;

/* The plan of the largest measured screen that fits in width x height and whose page lays out
 * with these text cells; NULL when the screen is smaller than every one. A screen larger than its
 * plan's shows the codes smaller beside the rest: a photo of them keystones no worse. */
const struct qr_plan *qr_plan_for(uint32_t width, uint32_t height, uint32_t cell_width,
				  uint32_t cell_height);

/* A job's codes in a shape: their version, the codes a page and at most QR_PAGES_MAX pages. */
void qr_plan_job(const struct qr_page_shape *shape, struct qr_job *job);

#endif
