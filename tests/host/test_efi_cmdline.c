// SPDX-License-Identifier: GPL-2.0
/*
 * The UEFI loader's command line (boot/efi/load_options.c): load options as GRUB and the UEFI
 * shell pass them, binary load options, and cmdline.txt as editors on Linux and Windows save it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "boot/efi/load_options.h"
#include "kernel/boot_info.h"

static char out[BOOT_CMDLINE_MAX];
static uint8_t buf[8192];

/* ASCII to UCS-2 little-endian, with a terminating NUL when nul is set; returns the bytes. */
static size_t ucs2(const char *s, int nul)
{
	size_t n = 0;

	for (; s[n]; n++) {
		buf[2 * n] = (uint8_t)s[n];
		buf[2 * n + 1] = 0;
	}
	if (nul) {
		buf[2 * n] = buf[2 * n + 1] = 0;
		n++;
	}
	return 2 * n;
}

/* What the last options() or file() dropped. */
static struct load_options_cut cut;

static enum load_options_result options(const char *s)
{
	memset(out, 'X', sizeof(out));
	return load_options_from_ucs2(buf, ucs2(s, 1), out, sizeof(out), &cut);
}

static enum load_options_result file(const char *s, size_t len)
{
	memset(out, 'X', sizeof(out));
	return load_options_from_file((const uint8_t *)s, len, out, sizeof(out), &cut);
}

static void test_grub_chainloader_options(void **state)
{
	(void)state;

	/* GRUB: the words after the file name, joined by spaces, NUL-terminated. */
	assert_int_equal(options("exp=all xsu=both"), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=all xsu=both");
	/* Blanks of any kind separate words; there are no empty words. */
	assert_int_equal(options("  exp=none\t\tsched=hk \r\n"), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none sched=hk");
	/* Without a NUL the size ends the options; an odd last byte is not half a character. */
	size_t n = ucs2("mux_ms=4", 0);
	buf[n] = 'Z';
	assert_int_equal(load_options_from_ucs2(buf, n + 1, out, sizeof(out), NULL),
			 LOAD_OPTIONS_OK);
	assert_string_equal(out, "mux_ms=4");
	/* What follows a NUL is not read. */
	n = ucs2("a=1", 1);
	buf[n] = 'b';
	buf[n + 1] = 0;
	assert_int_equal(load_options_from_ucs2(buf, n + 2, out, sizeof(out), NULL),
			 LOAD_OPTIONS_OK);
	assert_string_equal(out, "a=1");
}

static void test_no_options(void **state)
{
	(void)state;

	assert_int_equal(load_options_from_ucs2(NULL, 0, out, sizeof(out), NULL),
			 LOAD_OPTIONS_EMPTY);
	assert_string_equal(out, "");
	assert_int_equal(load_options_from_ucs2(buf, 0, out, sizeof(out), NULL),
			 LOAD_OPTIONS_EMPTY);
	assert_int_equal(options(""), LOAD_OPTIONS_EMPTY);
	assert_int_equal(options("   "), LOAD_OPTIONS_EMPTY);
	assert_string_equal(out, "");
}

static void test_shell_program_name(void **state)
{
	(void)state;

	/* The UEFI shell passes the command as typed: the program's path first. */
	assert_int_equal(options("fs0:\\EFI\\BOOT\\BOOTX64.EFI exp=none"), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none");
	assert_int_equal(options("bootx64.efi xsu=off sched=hk"), LOAD_OPTIONS_OK);
	assert_string_equal(out, "xsu=off sched=hk");
	assert_int_equal(options("\\EFI\\BOOT\\BOOTX64.EFI"), LOAD_OPTIONS_EMPTY);
	assert_string_equal(out, "");
	/* A first word with '=' is a kernel option, whatever it ends with. */
	assert_int_equal(options("file=x.efi exp=none"), LOAD_OPTIONS_OK);
	assert_string_equal(out, "file=x.efi exp=none");
	/* A bare word is not a path: the kernel gets it (and warns about it). */
	assert_int_equal(options("loose exp=none"), LOAD_OPTIONS_OK);
	assert_string_equal(out, "loose exp=none");
	/* Only the first word is a program name. */
	assert_int_equal(options("exp=none x.efi"), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none x.efi");
}

static void test_binary_options(void **state)
{
	(void)state;
	/* Firmware boot entries may carry binary data of their own in the load options. */
	static const uint8_t blob[] = { 0x57, 0x00, 0x49, 0x00, 0x01, 0x00, 0x10, 0x00 };
	static const uint8_t wide[] = { 'a', 0, '=', 0, 0xe9, 0x00, 0, 0 }; /* "a=é" */
	static const uint8_t high[] = { 0x34, 0x12, 0, 0 };

	assert_int_equal(load_options_from_ucs2(blob, sizeof(blob), out, sizeof(out), NULL),
			 LOAD_OPTIONS_NOT_TEXT);
	assert_string_equal(out, "");
	assert_int_equal(load_options_from_ucs2(wide, sizeof(wide), out, sizeof(out), NULL),
			 LOAD_OPTIONS_NOT_TEXT);
	assert_int_equal(load_options_from_ucs2(high, sizeof(high), out, sizeof(out), NULL),
			 LOAD_OPTIONS_NOT_TEXT);
	assert_string_equal(out, "");
}

/* Words "k000=vvvv" (9 characters) until the options are too long: only whole words pass. */
static void test_too_long(void **state)
{
	(void)state;
	char text[3000] = "";
	size_t len = 0;

	for (unsigned i = 0; len + 11 < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%sk%03u=vvvv",
					i ? " " : "", i % 1000);
	assert_int_equal(options(text), LOAD_OPTIONS_TOO_LONG);
	size_t got = strlen(out);
	assert_true(got < BOOT_CMDLINE_MAX);
	/* 102 words of 9 characters and 101 spaces = 1019; the 103rd does not fit in 1023. */
	assert_int_equal(got, 102 * 9 + 101);
	assert_memory_equal(out, text, got);
	assert_int_not_equal(out[got - 1], ' ');
	/* The rest is what the kernel's warning names: every word after the 102nd, each with the
	 * space before it. */
	unsigned words = (unsigned)(len + 1) / 10;
	assert_int_equal(cut.words, words - 102);
	assert_int_equal(cut.bytes, len - got);

	/* Issue 20: an exit= after the cut is kept, in the place of the last words that fit. */
	char harness[3100];
	snprintf(harness, sizeof(harness), "%s exit=qemu", text);
	assert_int_equal(options(harness), LOAD_OPTIONS_TOO_LONG);
	assert_int_equal(strlen(out), 101 * 9 + 100 + 10);
	assert_memory_equal(out, text, 101 * 9 + 100);
	assert_string_equal(out + 101 * 9 + 100, " exit=qemu");
	assert_int_equal(cut.words, words + 1 - 101 - 1);
	assert_int_equal(cut.bytes, strlen(harness) - strlen(out));

	/* The shell's program path goes even when the options are too long. */
	char shell[3100] = "fs0:\\EFI\\BOOT\\BOOTX64.EFI ";
	strcat(shell, text);
	assert_int_equal(options(shell), LOAD_OPTIONS_TOO_LONG);
	/* The path's 25 characters and a space took room: 99 words (1015 characters) fitted. */
	assert_int_equal(strlen(out), 99 * 9 + 98);
	assert_memory_equal(out, text, strlen(out));

	/* Exactly full: 1023 characters fit. */
	memset(text, 'a', 1023);
	text[1023] = 0;
	assert_int_equal(options(text), LOAD_OPTIONS_OK);
	assert_int_equal(strlen(out), 1023);
	assert_int_equal(cut.words, 0);
	assert_int_equal(cut.bytes, 0);
	text[1023] = 'a';
	text[1024] = 0;
	assert_int_equal(options(text), LOAD_OPTIONS_TOO_LONG);
	assert_string_equal(out, "");
	assert_int_equal(cut.words, 1);
	assert_int_equal(cut.bytes, 1024);

	/* No room at all. */
	ucs2("a=1", 1);
	assert_int_equal(load_options_from_ucs2(buf, 8, out, 0, NULL), LOAD_OPTIONS_TOO_LONG);
	assert_int_equal(load_options_from_ucs2(buf, 8, out, 1, NULL), LOAD_OPTIONS_TOO_LONG);
	assert_string_equal(out, "");
}

static void test_file_lines_and_comments(void **state)
{
	(void)state;
	static const char text[] = "# pmu-testkernel\n"
				   "\n"
				   "exp=none   # just the boot check\n"
				   "   # indented comment sched=fast\n"
				   "sched=hk\txsu=off\n"
				   "mux_ms=4#not-a-comment\n"
				   "last=1";

	assert_int_equal(file(text, sizeof(text) - 1), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none sched=hk xsu=off mux_ms=4#not-a-comment last=1");

	/* Only comments: nothing, so the kernel's defaults. */
	static const char comments[] = "# a\n#b\n   # c";
	assert_int_equal(file(comments, sizeof(comments) - 1), LOAD_OPTIONS_EMPTY);
	assert_string_equal(out, "");
	assert_int_equal(file("", 0), LOAD_OPTIONS_EMPTY);
	assert_int_equal(load_options_from_file(NULL, 0, out, sizeof(out), NULL),
			 LOAD_OPTIONS_EMPTY);
}

static void test_file_encodings(void **state)
{
	(void)state;

	/* Windows: CRLF, and a UTF-8 byte-order mark. */
	static const char crlf[] = "\xef\xbb\xbf"
				   "exp=none\r\nxsu=off\r\n";
	assert_int_equal(file(crlf, sizeof(crlf) - 1), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none xsu=off");

	/* Notepad's "Unicode": UTF-16LE with a byte-order mark, and without one. */
	size_t n = ucs2("#c\r\nexp=none sched=hk\r\n", 0);
	memmove(buf + 2, buf, n);
	buf[0] = 0xff;
	buf[1] = 0xfe;
	assert_int_equal(load_options_from_file(buf, n + 2, out, sizeof(out), NULL),
			 LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none sched=hk");
	n = ucs2("exp=none", 0);
	assert_int_equal(load_options_from_file(buf, n, out, sizeof(out), NULL), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none");

	/* Non-ASCII and control characters become '?' so the kernel warns about the word. */
	static const char accented[] = "exp=caf\xc3\xa9 xsu=\x01on";
	assert_int_equal(file(accented, sizeof(accented) - 1), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=caf?? xsu=?on");

	/* A NUL ends the text (editors that pad files). */
	static const char padded[] = "exp=none\0\0\0xsu=off";
	assert_int_equal(file(padded, sizeof(padded) - 1), LOAD_OPTIONS_OK);
	assert_string_equal(out, "exp=none");
}

static void test_file_too_long(void **state)
{
	(void)state;
	static char text[4096];
	size_t len = 0;

	/* 200 lines of "k000=vvvv": words that fit, then nothing. */
	for (unsigned i = 0; i < 200; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "k%03u=vvvv\n", i);
	assert_int_equal(file(text, len), LOAD_OPTIONS_TOO_LONG);
	assert_int_equal(strlen(out), 102 * 9 + 101);
	assert_int_equal(cut.words, 200 - 102);
	assert_int_equal(cut.bytes, (200 - 102) * 10);
	assert_memory_equal(out, "k000=vvvv k001=vvvv", 19);
	assert_string_equal(out + strlen(out) - 9, "k101=vvvv");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grub_chainloader_options),
		cmocka_unit_test(test_no_options),
		cmocka_unit_test(test_shell_program_name),
		cmocka_unit_test(test_binary_options),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_file_lines_and_comments),
		cmocka_unit_test(test_file_encodings),
		cmocka_unit_test(test_file_too_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
