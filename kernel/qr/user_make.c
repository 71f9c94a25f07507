// SPDX-License-Identifier: GPL-2.0
/*
 * Making the QR codes, at ring 3 (kernel/qr/job.h says why): the copy of the records cut into
 * chunks (kernel/qr/chunk.h), each deflated by libdeflate, given its header, written in Base45
 * and encoded by libqrcodegen at error correction level M (raised where the code has room: the
 * library's boostEcl), no larger than the screen's version. The modules go back to the kernel as
 * a byte each, which draws them (kernel/end_screen.c).
 */
#include <stdbool.h>
#include <string.h>

#include <libdeflate.h>
#include <qrcodegen/qrcodegen.h>

#include "kernel/qr/capacity.h"
#include "kernel/qr/job.h"
#include "kernel/qr/user_libc.h"
#include "kernel/lib/syscall_abi.h"

/* libdeflate's level 9: within 3% of level 12's size on these logs, 27 times as fast, and a
 * compressor of 0.7 MB instead of 9 MB (measured on the default suite's log). */
#define DEFLATE_LEVEL 9

static struct qr_job *job;

/* What the chunks and codes are made in, from the heap. */
struct scratch {
	struct chunk_work work;
	struct chunk_plan plan;
	char *plain, *text;
	uint8_t *bytes, *segment, *temp, *qrcode;
};

__attribute__((noreturn)) static void user_exit(unsigned status)
{
	__asm__ volatile("syscall"
			 :
			 : "a"((uint64_t)SYS_EXIT), "D"((uint64_t)status)
			 : "memory", "rcx", "r11");
	for (;;)
		__asm__ volatile("pause");
}

void user_give_up(unsigned status, const char *what)
{
	job->status = status;
	job->failure = what;
	user_exit(status);
}

static void *take(size_t n)
{
	void *p = malloc(n);

	if (!p)
		user_give_up(QR_NO_MEMORY, "the heap for the QR codes is too small");
	return p;
}

static size_t deflate(void *ctx, const void *in, size_t len, void *out, size_t avail)
{
	return libdeflate_deflate_compress(ctx, in, len, out, avail);
}

/* The record lines, the compressor and the buffers; the capacity of the screen's largest code. */
static void prepare(struct scratch *s)
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
	w->codes_max = CHUNK_CODES_MAX;
	w->deflate = deflate;
	w->deflate_ctx = libdeflate_alloc_compressor(DEFLATE_LEVEL);
	if (!w->deflate_ctx)
		user_give_up(QR_NO_MEMORY, "libdeflate could not allocate its compressor");
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
static void make_code(struct scratch *s, unsigned k)
{
	struct chunk_work *w = &s->work;
	struct qr_code_info *info = &job->code[k];
	size_t plain = chunk_plain(w, &s->plan, k, s->plain, CHUNK_PLAIN_MAX);
	/* Room as when the plan measured it: libdeflate may refuse an output buffer with no slack
	 * even where the result would fit. */
	size_t deflated = libdeflate_deflate_compress(w->deflate_ctx, s->plain, plain,
						      s->bytes + CHUNK_HEADER_LEN, 4 * w->capacity);

	if (!plain || !deflated || deflated > w->capacity)
		user_give_up(QR_DEFLATE, "a chunk no longer deflated to what its code holds");
	size_t bytes = chunk_bytes(job->run_id, k + 1, s->plan.codes, job->flags,
				   s->bytes + CHUNK_HEADER_LEN, deflated, s->bytes);
	size_t chars = chunk_text(s->bytes, bytes, s->text);
	s->text[chars] = 0;
	if (!qrcodegen_encodeText(s->text, s->temp, s->qrcode, qrcodegen_Ecc_MEDIUM, 1,
				  job->version, qrcodegen_Mask_AUTO, true))
		user_give_up(QR_ENCODE, "qrcodegen refused a chunk cut to its capacity");
	int size = qrcodegen_getSize(s->qrcode);
	uint8_t *out = job->modules + (size_t)k * QR_MODULES_MAX;
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++)
			out[y * size + x] = qrcodegen_getModule(s->qrcode, x, y);
	describe(s, k, info);
	info->size = (uint32_t)size;
	info->chars = (uint32_t)chars;
	info->bytes = (uint32_t)bytes;
	info->plain = (uint32_t)plain;
}

static unsigned make_codes(void)
{
	struct scratch *s = take(sizeof(*s));

	prepare(s);
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
		make_code(s, k);
	return QR_OK;
}

void qr_user_entry(struct qr_job *the_job)
{
	job = the_job;
	user_heap_init(job->heap, job->heap_size);
	libdeflate_set_memory_allocator(malloc, free);
	job->status = make_codes();
	user_exit(job->status);
}
