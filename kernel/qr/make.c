// SPDX-License-Identifier: GPL-2.0
/*
 * Making the QR codes of a job (kernel/qr/job.h): the copy of the records cut into chunks
 * (kernel/qr/chunk.h), each deflated by zlib primed with the dictionary (kernel/qr/compress.h),
 * given its header, written in Base45 and encoded by libqrcodegen at error correction level M
 * (raised where the code has room: the library's boostEcl), no larger than the plan's version.
 * The modules go back as a byte each; the kernel draws them (kernel/qr_page_draw.c).
 *
 * Pure code: at ring 3 in the kernel (kernel/qr/user_make.c), and on the host in the tests and in
 * tools/src/qr-pages, which shows what a screen would.
 */
#include <stdbool.h>
#include <string.h>

#include <qrcodegen/qrcodegen.h>

#include "kernel/qr/capacity.h"
#include "kernel/qr/compress.h"
#include "kernel/qr/job.h"
#include "kernel/qr/user_libc.h"

/* What the chunks and codes are made in, from the heap. */
struct scratch {
	struct chunk_work work;
	struct chunk_plan plan;
	char *plain, *text;
	uint8_t *bytes, *segment, *temp, *qrcode;
};

static void *take(size_t n)
{
	void *p = malloc(n);

	if (!p)
		user_give_up(QR_NO_MEMORY, "the heap for the QR codes is too small");
	return p;
}

/* The record lines, the compressor and the buffers; the capacity of the plan's codes. */
static void prepare(struct qr_job *job, struct scratch *s)
{
	struct chunk_work *w = &s->work;
	unsigned lines = chunk_count_lines(job->copy, job->copy_len);

	s->text = take(QR_CAPACITY_TEXT_MAX);
	s->segment = take(qrcodegen_BUFFER_LEN_MAX);
	s->temp = take(qrcodegen_BUFFER_LEN_MAX);
	s->qrcode = take(qrcodegen_BUFFER_LEN_MAX);
	size_t chars =
		qr_alphanumeric_capacity(job->version, s->text, s->segment, s->temp, s->qrcode);
	memset(w, 0, sizeof(*w));
	w->copy = job->copy;
	w->lines = take((lines ? lines : 1) * sizeof(*w->lines));
	w->count = chunk_index(job->copy, job->copy_len, w->lines, lines);
	w->ids = take((lines ? lines : 1) * sizeof(*w->ids));
	w->capacity = chunk_capacity(chars);
	w->codes_max = job->codes_max < CHUNK_CODES_MAX ? job->codes_max : CHUNK_CODES_MAX;
	w->deflate = qr_compress;
	w->deflate_ctx = qr_compressor_new();
	if (!w->deflate_ctx)
		user_give_up(QR_NO_MEMORY, "zlib could not allocate its compressor");
	w->plain = take(CHUNK_PLAIN_MAX);
	w->deflated = take(4 * w->capacity + 64);
	w->copy_left = job->copy_left;
	s->plain = take(CHUNK_PLAIN_MAX);
	s->bytes = take(CHUNK_HEADER_LEN + 4 * w->capacity + 64);
	job->capacity = w->capacity;
}

/* What code k carries, for the page that shows it. */
static void describe(const struct scratch *s, unsigned k, struct qr_code_info *info)
{
	const struct chunk_work *w = &s->work;

	info->records = 0;
	for (unsigned i = s->plan.first[k]; i < s->plan.end[k]; i++) {
		if (!w->lines[i].kept)
			continue;
		if (!info->records++)
			info->first_seq = w->lines[i].seq;
		info->last_seq = w->lines[i].seq;
	}
}

/* Code k: plain text, deflated, header, Base45, QR; its modules into the job. */
static void make_code(struct qr_job *job, struct scratch *s, unsigned k)
{
	struct chunk_work *w = &s->work;
	struct qr_code_info *info = &job->code[k];
	size_t plain = chunk_plain(w, &s->plan, k, s->plain, CHUNK_PLAIN_MAX);
	/* Room as when the plan measured it: a compressor may refuse an output buffer with no
	 * slack even where the result would fit. */
	size_t deflated = qr_compress(w->deflate_ctx, s->plain, plain, s->bytes + CHUNK_HEADER_LEN,
				      4 * w->capacity);

	if (!plain || !deflated || deflated > w->capacity)
		user_give_up(QR_DEFLATE, "a chunk no longer deflated to what its code holds");
	struct chunk_header header = { job->run_id, k + 1, s->plan.codes, job->flags,
				       job->per_page };
	size_t bytes = chunk_bytes(&header, s->bytes + CHUNK_HEADER_LEN, deflated, s->bytes);
	size_t chars = chunk_text(s->bytes, bytes, s->text);
	s->text[chars] = 0;
	if (!qrcodegen_encodeText(s->text, s->temp, s->qrcode, qrcodegen_Ecc_MEDIUM, 1,
				  job->version, qrcodegen_Mask_AUTO, true))
		user_give_up(QR_ENCODE, "qrcodegen refused a chunk cut to its capacity");
	int size = qrcodegen_getSize(s->qrcode);
	uint8_t *out = qr_job_modules(job, k);
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++)
			out[y * size + x] = qrcodegen_getModule(s->qrcode, x, y);
	describe(s, k, info);
	info->size = (uint32_t)size;
	info->chars = (uint32_t)chars;
	info->bytes = (uint32_t)bytes;
	info->plain = (uint32_t)plain;
}

unsigned qr_make(struct qr_job *job)
{
	uint32_t side = qr_version_size(job->version);

	if (job->version < 1 || job->version > 40 || !job->per_page ||
	    (size_t)job->codes_max * side * side > job->modules_size)
		return QR_NO_MEMORY;
	struct scratch *s = take(sizeof(*s));
	prepare(job, s);
	if (!s->work.count)
		return QR_NOTHING;
	if (!s->work.capacity || !chunk_plan_codes(&s->work, &s->plan))
		return QR_TOO_SMALL;
	job->codes = s->plan.codes;
	job->flags = s->plan.left_out ? CHUNK_FLAG_LEFT_OUT : 0;
	job->records = s->plan.records;
	job->kept = s->plan.kept;
	job->probes = s->work.probes;
	memcpy(job->note, s->plan.note, sizeof(job->note));
	for (unsigned k = 0; k < s->plan.codes; k++)
		make_code(job, s, k);
	return QR_OK;
}
