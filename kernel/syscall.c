// SPDX-License-Identifier: GPL-2.0
/*
 * The `int 0x80` gate: a DPL-3 interrupt gate, so interrupts stay off while a system call runs.
 */
#include "kernel/syscall.h"

static syscall_handler handlers[SYS_COUNT];

static void syscall_dispatch(struct trap_frame *frame)
{
	uint64_t number = frame->rax;

	if (number < SYS_COUNT && handlers[number])
		frame->rax = (uint64_t)handlers[number](frame, frame->rdi, frame->rsi, frame->rdx);
	else
		frame->rax = (uint64_t)-1;
}

void syscall_init(void)
{
	trap_register(SYSCALL_VECTOR, syscall_dispatch, 1);
}

void syscall_register(unsigned number, syscall_handler handler)
{
	if (number < SYS_COUNT)
		handlers[number] = handler;
}
