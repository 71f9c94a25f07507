// SPDX-License-Identifier: GPL-2.0
/*
 * Load options and cmdline.txt into the kernel's command line: words separated by single spaces,
 * as the kernel's parser (kernel/cmdline.c) reads them. Only whole words are passed on: a word
 * cut at the size limit would reach the kernel as a different, wrong value.
 */
#include <stdbool.h>

#include "boot/efi/load_options.h"
#include "kernel/cmdline_cut.h"

struct words {
	char *out;
	size_t size;
	size_t len;
	size_t word_start; /* where the current word (with its separating space) began */
	bool in_word;
	bool full;	 /* a word did not fit: everything after it is dropped */
	bool in_comment; /* cmdline.txt: from a word starting with '#' to the end of the line */
	struct load_options_cut cut; /* what was dropped, for the kernel's warning */
	/* The dropped word under way, and the last the cut keeps (kernel/cmdline_cut.h). */
	char dropped[CMDLINE_RESCUE_MAX + 1], rescue[CMDLINE_RESCUE_MAX];
	size_t dropped_len, rescue_len;
};

static void words_init(struct words *w, char *out, size_t size)
{
	*w = (struct words){ .out = out, .size = size };
	if (size)
		out[0] = 0;
}

/* A character after the cut: counted, with one separator before each dropped word. */
static void drop(struct words *w, char c)
{
	if (!w->in_word) {
		w->in_word = true;
		w->cut.bytes += w->len > 0 || w->cut.words > 0;
		w->cut.words++;
		w->dropped_len = 0;
	}
	w->cut.bytes++;
	if (w->dropped_len < sizeof(w->dropped))
		w->dropped[w->dropped_len++] = c;
}

static void put(struct words *w, char c)
{
	if (w->full || w->size == 0) {
		w->full = true;
		drop(w, c);
		return;
	}
	if (!w->in_word) {
		w->word_start = w->len;
		w->in_word = true;
		if (w->len > 0 && w->len + 1 < w->size)
			w->out[w->len++] = ' ';
	}
	if (w->len + 1 >= w->size) {
		/* The word that straddles the limit goes whole, with its separator. */
		w->full = true;
		w->cut.words = 1;
		w->cut.bytes = (uint32_t)(w->len - w->word_start) + 1;
		w->len = w->word_start;
		w->out[w->len] = 0;
		return;
	}
	w->out[w->len++] = c;
	w->out[w->len] = 0;
}

static void end_word(struct words *w)
{
	if (w->full && w->in_word && cmdline_cut_keeps(w->dropped, w->dropped_len)) {
		for (size_t i = 0; i < w->dropped_len; i++)
			w->rescue[i] = w->dropped[i];
		w->rescue_len = w->dropped_len;
	}
	w->in_word = false;
}

/* The end of the text: an exit= among the dropped words is kept (kernel/cmdline_cut.h). */
static enum load_options_result words_result(struct words *w)
{
	end_word(w);
	if (w->rescue_len) {
		cmdline_cut_rescue(w->out, w->size, w->rescue, w->rescue_len, &w->cut.words,
				   &w->cut.bytes);
		for (w->len = 0; w->out[w->len];)
			w->len++;
	}
	if (w->full)
		return LOAD_OPTIONS_TOO_LONG;
	return w->len ? LOAD_OPTIONS_OK : LOAD_OPTIONS_EMPTY;
}

static bool is_blank(uint32_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static bool is_printable(uint32_t c)
{
	return c > ' ' && c < 0x7f;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The UEFI shell starts the load options with the program's own path (argv[0]). */
static void drop_program_name(struct words *w)
{
	size_t n = 0;
	bool has_equals = false, has_backslash = false;

	for (; n < w->len && w->out[n] != ' '; n++) {
		has_equals |= w->out[n] == '=';
		has_backslash |= w->out[n] == '\\';
	}
	bool efi_suffix = n >= 4 && w->out[n - 4] == '.' && lower(w->out[n - 3]) == 'e' &&
			  lower(w->out[n - 2]) == 'f' && lower(w->out[n - 1]) == 'i';
	if (n == 0 || has_equals || !(has_backslash || efi_suffix))
		return;
	size_t skip = n < w->len ? n + 1 : n;
	for (size_t i = skip; i <= w->len; i++)
		w->out[i - skip] = w->out[i];
	w->len -= skip;
}

/* Both readers' start: no words, nothing cut; false when there is no input at all. */
static bool words_begin(struct words *w, char *out, size_t out_size, struct load_options_cut *cut,
			const uint8_t *input)
{
	words_init(w, out, out_size);
	if (cut)
		*cut = (struct load_options_cut){ 0 };
	return input != NULL;
}

enum load_options_result load_options_from_ucs2(const uint8_t *options, size_t bytes, char *out,
						size_t out_size, struct load_options_cut *cut)
{
	struct words w;

	if (!words_begin(&w, out, out_size, cut, options))
		return LOAD_OPTIONS_EMPTY;
	for (size_t i = 0; i + 1 < bytes; i += 2) {
		uint32_t c = options[i] | (uint32_t)options[i + 1] << 8;
		if (c == 0)
			break;
		if (is_blank(c)) {
			end_word(&w);
		} else if (is_printable(c)) {
			put(&w, (char)c);
		} else {
			words_init(&w, out, out_size);
			return LOAD_OPTIONS_NOT_TEXT;
		}
	}
	/* Also when the options were too long: the shell's argv[0] is no kernel option either. */
	drop_program_name(&w);
	enum load_options_result result = words_result(&w);
	if (cut)
		*cut = w.cut;
	return result;
}

static void file_char(struct words *w, uint32_t c)
{
	if (c == '\n') {
		end_word(w);
		w->in_comment = false;
	} else if (w->in_comment) {
		return;
	} else if (is_blank(c)) {
		end_word(w);
	} else if (c == '#' && !w->in_word) {
		w->in_comment = true;
	} else {
		put(w, is_printable(c) ? (char)c : '?');
	}
}

enum load_options_result load_options_from_file(const uint8_t *text, size_t bytes, char *out,
						size_t out_size, struct load_options_cut *cut)
{
	struct words w;

	if (!words_begin(&w, out, out_size, cut, text))
		return LOAD_OPTIONS_EMPTY;
	/* UTF-16LE: with its byte-order mark, or recognisable by an ASCII first character. */
	bool utf16 = bytes >= 2 && ((text[0] == 0xff && text[1] == 0xfe) ||
				    (text[0] != 0 && text[0] < 0x80 && text[1] == 0));
	size_t i = 0;
	if (utf16) {
		i = text[0] == 0xff ? 2 : 0;
		for (; i + 1 < bytes; i += 2) {
			uint32_t c = text[i] | (uint32_t)text[i + 1] << 8;
			if (c == 0)
				break;
			file_char(&w, c);
		}
	} else {
		if (bytes >= 3 && text[0] == 0xef && text[1] == 0xbb && text[2] == 0xbf)
			i = 3;
		for (; i < bytes && text[i]; i++)
			file_char(&w, text[i]);
	}
	enum load_options_result result = words_result(&w);
	if (cut)
		*cut = w.cut;
	return result;
}
