// SPDX-License-Identifier: GPL-2.0
/*
 * qr-pages: the pages of QR codes that the kernel would show for a log on a screen of a size, drawn
 * by the kernel's own code (kernel/qr/: the copy of the records, the plan, making the codes, the
 * layout and the drawing, on a framebuffer in memory), one PPM file a page.
 *
 *	qr-pages [--plan VERSION,MODULE_PX,COLUMNS,ROWS] [--run-id HEX] WIDTH HEIGHT LOG DIR
 *	qr-pages --plan VERSION,MODULE_PX,COLUMNS,ROWS WIDTH HEIGHT --fits
 *	qr-pages --plans
 *
 * LOG is a serial log (its "@<seq> <crc32> <json>" lines); the pages go to DIR/page-01-of-08.ppm,
 * ... The screen's plan is the kernel's (kernel/qr/plan.h) unless --plan gives another shape.
 * The last line says what was made, as the kernel's serial line does ("qr: 16 codes on 8 pages
 * ..."); the exit status is 0, or 1 when no codes could be made, 2 for bad arguments. With --fits
 * it says only whether the page of that shape fits the screen (status 0) or not (1); --plans prints
 * the kernel's table, a row a line: "WIDTH HEIGHT VERSION MODULE_PX COLUMNS ROWS".
 *
 * tools/qr-measure photographs these pages (with degradations) to choose and check the plans.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kernel/lib/crc32.h"
#include "kernel/framebuffer.h"
#include "kernel/qr_page_draw.h"
#include "kernel/qr/plan.h"
#include "kernel/qr/record_copy.h"
#include "kernel/qr/user_libc.h"

#define COPY_BYTES (2u << 20) /* as the kernel's copy (kernel/end_screen.c) */
#define LINE_MAX_BYTES (1u << 20)

struct options {
	struct qr_page_shape shape;
	bool shape_given, fits_only;
	uint32_t run_id, width, height;
	const char *log, *dir;
};

void user_give_up(unsigned status, const char *what)
{
	fprintf(stderr, "qr-pages: the codes failed (status %u): %s\n", status, what);
	exit(1);
}

static int usage(void)
{
	fprintf(stderr,
		"usage: qr-pages [--plan VERSION,MODULE_PX,COLUMNS,ROWS] [--run-id HEX] "
		"WIDTH HEIGHT LOG DIR\n"
		"       qr-pages --plan VERSION,MODULE_PX,COLUMNS,ROWS WIDTH HEIGHT --fits\n");
	return 2;
}

static bool parse_options(int argc, char **argv, struct options *o)
{
	int i = 1;
	unsigned v, m, c, r;

	memset(o, 0, sizeof(*o));
	o->run_id = 0x5eed0001;
	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--plan") &&
		    sscanf(argv[i + 1], "%u,%u,%u,%u", &v, &m, &c, &r) == 4 && v <= 40 && m < 64 &&
		    c < 16 && r < 16) {
			o->shape = (struct qr_page_shape){ (uint8_t)v, (uint8_t)m, (uint8_t)c,
							   (uint8_t)r };
			o->shape_given = true;
		} else if (!strcmp(argv[i], "--run-id")) {
			o->run_id = (uint32_t)strtoul(argv[i + 1], NULL, 16);
		} else {
			return false;
		}
	}
	if (argc - i == 3 && !strcmp(argv[i + 2], "--fits") && o->shape_given)
		o->fits_only = true;
	else if (argc - i != 4)
		return false;
	o->width = (uint32_t)strtoul(argv[i], NULL, 10);
	o->height = (uint32_t)strtoul(argv[i + 1], NULL, 10);
	o->log = o->fits_only ? NULL : argv[i + 2];
	o->dir = o->fits_only ? NULL : argv[i + 3];
	return o->width && o->height;
}

/* The value of "type" in a record's JSON ("" when there is none). */
static void record_type(const char *json, char *type, size_t size)
{
	const char *p = strstr(json, "\"type\":\"");
	size_t n = 0;

	if (p)
		for (p += 8; *p && *p != '"' && n + 1 < size; p++)
			type[n++] = *p;
	type[n] = 0;
}

/* The log's records into the copy, as the kernel keeps them; the end record's verdict. */
static bool read_log(const char *path, struct record_copy *copy, bool *pass)
{
	FILE *f = fopen(path, "r");
	char *line = malloc(LINE_MAX_BYTES), type[32];

	if (!f || !line) {
		fprintf(stderr, "qr-pages: %s: %s\n", path, strerror(errno));
		return false;
	}
	while (fgets(line, LINE_MAX_BYTES, f)) {
		unsigned long long seq;
		unsigned crc;
		int json = 0;
		char *at = strchr(line, '@');
		if (!at || sscanf(at, "@%llu %8x %n", &seq, &crc, &json) != 2 || at[json] != '{')
			continue;
		char *body = at + json;
		body[strcspn(body, "\r\n")] = 0;
		if (crc32_ieee(0, body, strlen(body)) != crc)
			continue;
		record_type(body, type, sizeof(type));
		if (!strcmp(type, "end"))
			*pass = strstr(body, "\"verdict\":\"pass\"") != NULL;
		record_copy_add(copy, seq, type, body, strlen(body));
	}
	fclose(f);
	free(line);
	return true;
}

static bool write_ppm(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return false;
	fprintf(f, "P6\n%u %u\n255\n", width, height);
	for (size_t i = 0; i < (size_t)width * height; i++) {
		const uint8_t *p = pixels + 4 * i; /* x8r8g8b8, little-endian */
		uint8_t rgb[3] = { p[2], p[1], p[0] };
		fwrite(rgb, 1, 3, f);
	}
	return fclose(f) == 0;
}

/* A framebuffer in memory below 4 GiB (the console refuses one above, as the kernel must). */
static uint8_t *screen(uint32_t width, uint32_t height)
{
	static struct boot_framebuffer fb;
	const struct screen_ops *ops;
	uint32_t columns, rows;
	uint8_t *pixels = mmap(NULL, (size_t)width * height * 4, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	if (pixels == MAP_FAILED)
		return NULL;
	fb = (struct boot_framebuffer){ .address = (uint64_t)(uintptr_t)pixels,
					.pitch = width * 4,
					.width = width,
					.height = height,
					.bpp = 32,
					.type = BOOT_FRAMEBUFFER_RGB };
	const char *problem = framebuffer_init(&fb, &ops, &columns, &rows);
	if (problem) {
		fprintf(stderr, "qr-pages: %ux%u: %s\n", width, height, problem);
		return NULL;
	}
	return pixels;
}

/* The job as the kernel sets it up for a shape (kernel/end_screen.c). */
static struct qr_job *job_for(const struct record_copy *copy, const struct qr_page_shape *shape,
			      uint32_t run_id)
{
	static struct qr_job job;
	uint32_t side = qr_version_size(shape->version);

	job.copy = copy->buf;
	job.copy_len = copy->used;
	job.copy_left = copy->dropped_counts + copy->dropped_others;
	job.run_id = run_id;
	qr_plan_job(shape, &job);
	job.modules_size = (size_t)job.codes_max * side * side;
	job.modules = malloc(job.modules_size);
	return job.modules ? &job : NULL;
}

static int draw_pages(const struct qr_job *job, const struct qr_page_layout *layout, bool pass,
		      const char *dir, const uint8_t *pixels, uint32_t width, uint32_t height)
{
	const struct qr_page_run run = { pass, NULL, 5000 };
	char path[4096];

	for (unsigned p = 0; p < qr_pages(job); p++) {
		qr_page_draw(job, layout, p, &run);
		snprintf(path, sizeof(path), "%s/page-%02u-of-%02u.ppm", dir, p + 1, qr_pages(job));
		if (!write_ppm(path, pixels, width, height)) {
			fprintf(stderr, "qr-pages: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int print_plans(void)
{
	for (unsigned i = 0; i < qr_plan_count; i++) {
		const struct qr_plan *p = &qr_plans[i];
		printf("%u %u %u %u %u %u\n", p->width, p->height, p->shape.version,
		       p->shape.module_px, p->shape.columns, p->shape.rows);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct record_copy copy;
	struct qr_page_layout layout;
	uint32_t w, h, cw, ch;
	bool pass = false;

	if (argc == 2 && !strcmp(argv[1], "--plans"))
		return print_plans();
	if (!parse_options(argc, argv, &o))
		return usage();
	uint8_t *pixels = screen(o.width, o.height);
	char *buf = malloc(COPY_BYTES);
	if (!pixels || !buf)
		return 1;
	framebuffer_size(&w, &h, &cw, &ch);
	const struct qr_plan *plan = qr_plan_for(w, h, cw, ch);
	const struct qr_page_shape *shape = o.shape_given ? &o.shape : plan ? &plan->shape : NULL;
	if (!shape || !qr_page_layout(shape, w, h, cw, ch, &layout)) {
		if (!o.fits_only)
			fprintf(stderr, "qr-pages: no plan fits a %ux%u screen\n", w, h);
		return 1;
	}
	if (o.fits_only)
		return 0;
	record_copy_init(&copy, buf, COPY_BYTES);
	if (!read_log(o.log, &copy, &pass))
		return 1;
	struct qr_job *job = job_for(&copy, shape, o.run_id);
	unsigned status = job ? qr_make(job) : QR_NO_MEMORY;
	if (status != QR_OK) {
		fprintf(stderr, "qr-pages: no codes (status %u)\n", status);
		return 1;
	}
	int failed = draw_pages(job, &layout, pass, o.dir, pixels, w, h);
	char made[96];
	qr_job_words(job, made, sizeof(made));
	printf("qr: %s: %u a page, version %d or less at %u pixels a module, %u deflated bytes a "
	       "code, %u compressions\n",
	       made, job->per_page, job->version, shape->module_px, (unsigned)job->capacity,
	       job->probes);
	return failed;
}
