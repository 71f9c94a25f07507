// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-3 side of making the QR codes (kernel/qr/job.h says why ring 3): the heap, zlib's and
 * libqrcodegen's run (kernel/qr/make.c), and the way back to the kernel, the exit system call,
 * also when a library gives up.
 */
#include <stdint.h>

#include "kernel/qr/job.h"
#include "kernel/qr/user_libc.h"
#include "kernel/lib/syscall_abi.h"

static struct qr_job *job;

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

void qr_user_entry(struct qr_job *the_job)
{
	job = the_job;
	user_heap_init(job->heap, job->heap_size);
	job->status = qr_make(job);
	user_exit(job->status);
}
