/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end-of-run screen on a framebuffer (issue 19, docs/qr-codes.md): when the machine halts at
 * the end of the run, the screen shows in turn the summary with the verdict, as the run left it,
 * and the run's records as a sequence of QR codes, each for qr_ms, round and round until the
 * machine is switched off; so the whole log leaves the machine on a phone, without a serial
 * cable. `qr=off` keeps the summary alone. A VGA text screen cannot show the codes: the kernel
 * says so there.
 */
#ifndef KERNEL_END_SCREEN_H
#define KERNEL_END_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The command line's qr= and qr_ms=; once the memory map is known (page_alloc()), with a
 * framebuffer and qr=on, memory for the copy of the records and for making the codes is set
 * aside, and every record from then on is kept (record_set_keeper). Records emitted before this
 * are not in the codes.
 */
void qr_end_screen_setup(bool on, uint32_t ms);

/* At the end of a run whose machine halts, after the end record: returns at once with qr=off,
 * without a framebuffer or on VGA text (saying there that the codes need a framebuffer);
 * otherwise shows the pages, the summary and the codes, for ever. */
void qr_end_screen(bool pass, const char *caveat);

#endif
