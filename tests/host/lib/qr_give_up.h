/* SPDX-License-Identifier: GPL-2.0 */
/* kernel/qr/make.c's way out on the host (qr_give_up.c). */
#ifndef TESTS_HOST_LIB_QR_GIVE_UP_H
#define TESTS_HOST_LIB_QR_GIVE_UP_H

#include <setjmp.h>

extern jmp_buf *qr_give_up_jump;
extern unsigned qr_give_up_status;

__attribute__((noreturn)) void user_give_up(unsigned status, const char *what);

#endif
