// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/qr/dictionary.txt in the read-only data, byte for byte. The assembler includes the file
 * (GAS's .incbin), relative to the top of the tree where make runs; kernel/qr/qr.mk makes the
 * objects depend on it.
 */
#include "kernel/qr/dictionary.h"

__asm__(".pushsection .rodata.qr_dictionary, \"a\"\n"
	".globl qr_dictionary\n"
	"qr_dictionary:\n"
	".incbin \"kernel/qr/dictionary.txt\"\n"
	".globl qr_dictionary_end\n"
	"qr_dictionary_end:\n"
	".popsection\n");
