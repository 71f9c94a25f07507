// SPDX-License-Identifier: GPL-2.0
/*
 * The plans of the screens (docs/qr-codes.md gives the measurements behind each row).
 */
#include <stddef.h>

#include "kernel/qr/plan.h"

/* From the largest screen to the smallest: the first that fits is taken. Each row is the survey's
 * choice for its screen (tools/qr-measure --survey, on the default suite's log): of the shapes
 * whose photos survive, the one with the fewest pages, then the most records kept, the largest
 * modules, the fewest codes a page, the smallest version. docs/qr-codes.md has the figures. */
const struct qr_plan qr_plans[] = {
	{ 1920, 1080, { .version = 27, .module_px = 4, .columns = 3, .rows = 1 } },
	{ 1366, 768, { .version = 26, .module_px = 4, .columns = 2, .rows = 1 } },
	{ 1280, 800, { .version = 26, .module_px = 4, .columns = 2, .rows = 1 } },
	{ 1024, 768, { .version = 22, .module_px = 4, .columns = 2, .rows = 1 } },
	{ 800, 600, { .version = 23, .module_px = 4, .columns = 1, .rows = 1 } },
	{ 640, 480, { .version = 17, .module_px = 4, .columns = 1, .rows = 1 } },
};
const unsigned qr_plan_count = sizeof(qr_plans) / sizeof(qr_plans[0]);

const struct qr_plan *qr_plan_for(uint32_t width, uint32_t height, uint32_t cell_width,
				  uint32_t cell_height)
{
	struct qr_page_layout layout;

	for (unsigned i = 0; i < qr_plan_count; i++) {
		const struct qr_plan *p = &qr_plans[i];
		if (p->width <= width && p->height <= height &&
		    qr_page_layout(&p->shape, width, height, cell_width, cell_height, &layout))
			return p;
	}
	return NULL;
}

void qr_plan_job(const struct qr_page_shape *shape, struct qr_job *job)
{
	job->version = shape->version;
	job->per_page = (unsigned)shape->columns * shape->rows;
	job->codes_max = QR_PAGES_MAX * job->per_page;
	if (job->codes_max > CHUNK_CODES_MAX)
		job->codes_max = CHUNK_CODES_MAX;
}
