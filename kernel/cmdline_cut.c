// SPDX-License-Identifier: GPL-2.0
/*
 * The words a cut command line keeps (kernel/cmdline_cut.h).
 */
#include "kernel/cmdline_cut.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* No C library here: the native UEFI loader links this file too. */
bool cmdline_cut_keeps(const char *word, size_t len)
{
	static const char key[] = "exit=";

	if (len <= sizeof(key) - 1 || len > CMDLINE_RESCUE_MAX)
		return false;
	for (size_t i = 0; i < sizeof(key) - 1; i++)
		if (word[i] != key[i])
			return false;
	return true;
}

void cmdline_cut_rescue(char *line, size_t size, const char *word, size_t len, uint32_t *words,
			uint32_t *bytes)
{
	size_t end = 0;

	while (line[end])
		end++;
	if (len + 1 >= size)
		return;
	/* Whole words off the end (with the space before each) until " word" fits. */
	while (end > 0 && end + 1 + len + 1 > size) {
		size_t start = end;
		while (start > 0 && !blank(line[start - 1]))
			start--;
		*words += 1;
		*bytes += (uint32_t)(end - start) + (start > 0);
		end = start > 0 ? start - 1 : 0;
		while (end > 0 && blank(line[end - 1]))
			end--;
	}
	if (end > 0)
		line[end++] = ' ';
	for (size_t i = 0; i < len; i++)
		line[end + i] = word[i];
	line[end + len] = 0;
	/* The rescued word is dropped no more: it and its separator. */
	*words -= 1;
	*bytes -= (uint32_t)len + 1;
}
