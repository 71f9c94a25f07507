/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel hands the ring-3 code that makes the QR codes (kernel/qr/user_make.c), and what
 * it hands back. The job lies in memory that CPL 3 may use; so does everything it points to.
 *
 * Why ring 3: Debian's libz.a and libqrcodegen.a were built for a hosted program. Their code
 * uses the red zone below the stack pointer (the kernel's interrupts would overwrite it: there the
 * CPU switches to TSS.RSP0 instead), SSE registers (enabled for CPL 3, not used by the kernel),
 * and a stack-protector canary at %fs:0x28 (the TCB layout of the x86-64 psABI as glibc uses it:
 * the kernel points IA32_FS_BASE at tls[] below for the call). Their few C library calls are
 * answered by kernel/qr/user_libc.c, also at ring 3.
 */
#ifndef KERNEL_QR_JOB_H
#define KERNEL_QR_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/qr/chunk.h"
#include "kernel/qr/page.h"

#define QR_SIZE_MAX 177 /* modules per side of a version 40 code */
/* The memory a job has at ring 3: the job itself, the heap, the modules of the codes (a byte
 * each: 30 pages of one version 40 code take 0.9 MB, 99 codes of version 25 1.4 MB;
 * tests/host/test_qr_page.c holds every plan of kernel/qr/plan.c to it). */
#define QR_WORK_BYTES (6u << 20)
#define QR_JOB_BYTES 16384
#define QR_HEAP_BYTES (4u << 20) /* zlib's compressor (0.4 MB), the chunks' buffers */
#define QR_MODULES_BYTES (QR_WORK_BYTES - QR_JOB_BYTES - QR_HEAP_BYTES)
#define QR_JOB_TLS_WORDS 8 /* %fs:0x28 is word 5 */
#define QR_JOB_CANARY_WORD 5

enum qr_status {
	QR_OK,
	QR_NO_MEMORY,	/* the heap was too small */
	QR_NOTHING,	/* no record to show */
	QR_TOO_SMALL,	/* not even one record fits the screen's largest code */
	QR_DEFLATE,	/* zlib refused */
	QR_ENCODE,	/* qrcodegen refused a text that should have fitted */
	QR_ASSERT,	/* an assertion of a library failed */
	QR_STACK_SMASH, /* the stack protector fired */
	QR_FAULT,	/* an exception at CPL 3 (set by the kernel) */
	QR_STATUS_COUNT,
};

struct qr_code_info {
	uint64_t first_seq, last_seq; /* the records the code carries */
	uint32_t records;
	uint32_t size;	/* modules per side */
	uint32_t chars; /* the text's length */
	uint32_t bytes; /* the chunk's bytes: header and deflated text */
	uint32_t plain; /* the chunk's plain text */
};

struct qr_job {
	uint64_t tls[QR_JOB_TLS_WORDS]; /* IA32_FS_BASE points here during the call */
	/* In. */
	const char *copy; /* the record copy (kernel/qr/record_copy.h) */
	size_t copy_len;
	uint64_t copy_left; /* records the copy had no room for */
	uint32_t run_id;
	int version;	    /* each code's largest version: the screen's plan (kernel/qr/plan.h) */
	unsigned per_page;  /* the codes a page shows, which each code's header says */
	unsigned codes_max; /* at most this many codes (more records: the priority cut) */
	uint8_t *heap;
	size_t heap_size;
	uint8_t *modules; /* out: code k at qr_job_modules(job, k), row by row, a byte a module */
	size_t modules_size;
	/* Out. */
	unsigned status;     /* enum qr_status */
	const char *failure; /* a library's assertion, when status is QR_ASSERT */
	unsigned codes;
	unsigned flags;	 /* CHUNK_FLAG_LEFT_OUT */
	size_t capacity; /* deflated bytes a code carries */
	uint64_t records, kept;
	unsigned probes; /* compressions tried to cut the chunks */
	char note[CHUNK_NOTE_MAX];
	struct qr_code_info code[CHUNK_CODES_MAX];
};

/* Where code k's modules are: each code has room for a code of the job's version, 1 dark. */
static inline uint8_t *qr_job_modules(const struct qr_job *job, unsigned k)
{
	uint32_t side = qr_version_size(job->version);

	return job->modules + (size_t)k * side * side;
}

/* Make the codes of job (kernel/qr/make.c): its status, enum qr_status. Pure code, with
 * libqrcodegen and zlib; a library that gives up ends in user_give_up() (kernel/qr/user_libc.h). */
unsigned qr_make(struct qr_job *job);

/* The ring-3 entry (user_call()): makes the codes of job, then the exit system call. */
void qr_user_entry(struct qr_job *job);

#endif
