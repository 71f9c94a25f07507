// SPDX-License-Identifier: GPL-2.0
/*
 * The way out of kernel/qr/make.c when a library gives up (kernel/qr/user_libc.h), on the host: at
 * ring 3 it ends the call with a status; here the test that got there fails, or, when it set
 * qr_give_up_jump, continues there with the status in qr_give_up_status.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "qr_give_up.h"

jmp_buf *qr_give_up_jump;
unsigned qr_give_up_status;

void user_give_up(unsigned status, const char *what)
{
	qr_give_up_status = status;
	if (qr_give_up_jump)
		longjmp(*qr_give_up_jump, 1);
	fprintf(stderr, "the QR codes gave up (status %u): %s\n", status, what);
	abort();
}
