/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel command line the UEFI loader passes on, from the image's load options (UCS-2, as
 * GRUB's `chainloader FILE ARGS` and the UEFI shell give them) or from the text of cmdline.txt
 * beside the loader on the stick.
 *
 * Pure code (host-tested, tests/host/test_efi_cmdline.c).
 */
#ifndef BOOT_EFI_LOAD_OPTIONS_H
#define BOOT_EFI_LOAD_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

enum load_options_result {
	LOAD_OPTIONS_EMPTY = 0, /* no words (only a program name, or comments): look elsewhere */
	LOAD_OPTIONS_OK,	/* out holds the command line */
	LOAD_OPTIONS_TOO_LONG,	/* out holds the words that fit; the rest was dropped */
	LOAD_OPTIONS_NOT_TEXT,	/* binary data, not a command line: ignored */
};

/* What did not fit into out: whole words from the end, and their characters with one separator
 * before each (the kernel's warn record, through boot_info.cmdline_dropped_words and _bytes). */
struct load_options_cut {
	uint32_t words;
	uint32_t bytes;
};

/*
 * Load options: bytes of UCS-2 (UEFI 2.10, 9.1 "EFI_LOADED_IMAGE_PROTOCOL", LoadOptions), up to a
 * NUL. Anything other than printable ASCII, tab, CR or LF makes them NOT_TEXT: some firmware
 * passes binary data of its own boot entries there. A first word that is a program's path (the
 * UEFI shell passes argv[0]: no '=' and a '\' or a ".efi" ending) is dropped.
 */
enum load_options_result load_options_from_ucs2(const uint8_t *options, size_t bytes, char *out,
						size_t out_size, struct load_options_cut *cut);

/*
 * cmdline.txt: ASCII or UTF-8 (a byte-order mark is skipped) or UTF-16LE (as Windows Notepad
 * saves "Unicode"). A word that starts with '#' begins a comment that runs to the end of its
 * line. The other words of all lines are joined by single spaces; a character outside printable
 * ASCII becomes '?', so the kernel warns about that word instead of the loader guessing.
 */
enum load_options_result load_options_from_file(const uint8_t *text, size_t bytes, char *out,
						size_t out_size, struct load_options_cut *cut);

#endif
