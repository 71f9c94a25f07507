/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drawing a page of QR codes on the framebuffer in use (kernel/framebuffer.h): white, each code's
 * modules, its number at its left, the page's text below. The kernel's end screen draws with it,
 * and so does tools/src/qr-pages, on a framebuffer in memory, to show what a screen would.
 *
 * Pure code.
 */
#ifndef KERNEL_QR_PAGE_DRAW_H
#define KERNEL_QR_PAGE_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/qr/job.h"
#include "kernel/qr/page.h"

/* What the pages say of the run besides the codes. */
struct qr_page_run {
	bool pass;
	const char *caveat; /* NULL, or what the verdict is about */
	uint32_t ms;	    /* how long a page shows */
};

/* The job's pages at per_page codes each. */
static inline unsigned qr_pages(const struct qr_job *job)
{
	return (job->codes + job->per_page - 1) / job->per_page;
}

/* What the job made, as the kernel's serial line and tools/src/qr-pages say it: "16 codes on 8
 * pages of 409 records", "1 code on 1 page of 8 records". */
void qr_job_words(const struct qr_job *job, char *buf, size_t size);

/* Page p (from 0) of the job's codes, laid out as l says. */
void qr_page_draw(const struct qr_job *job, const struct qr_page_layout *l, unsigned page,
		  const struct qr_page_run *run);

#endif
