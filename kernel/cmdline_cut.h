/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command line longer than the kernel keeps (BOOT_CMDLINE_MAX) is cut after a whole word, by
 * whichever loader hands it over (kernel/multiboot.c, boot/efi/load_options.c). A test harness
 * waits for the word that makes the machine leave (exit=qemu): that one is looked for in the
 * whole line and kept, at the cost of the words before it that no longer fit.
 *
 * Pure code (host-tested), shared by the kernel and the native UEFI loader.
 */
#ifndef KERNEL_CMDLINE_CUT_H
#define KERNEL_CMDLINE_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest word rescued: exit= and its longest value. */
#define CMDLINE_RESCUE_MAX 16

/* Whether the len bytes at word are a word the cut must keep (exit=...). */
bool cmdline_cut_keeps(const char *word, size_t len);

/*
 * Append word (one of those kept) to line, a string in size bytes, after removing as many whole
 * words from its end as it takes to fit; *words and *bytes, what the cut dropped, become what is
 * dropped now.
 */
void cmdline_cut_rescue(char *line, size_t size, const char *word, size_t len, uint32_t *words,
			uint32_t *bytes);

#endif
