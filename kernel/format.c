// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's printf: integers, strings, characters, pointers; C99 semantics for every flag,
 * width, precision and length it accepts, so that the host test can compare it with glibc.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernel/format.h"

struct spec {
	bool left;	/* '-' */
	bool zero;	/* '0' */
	bool plus;	/* '+' */
	bool space;	/* ' ' */
	bool alternate; /* '#' */
	bool grouping;	/* '\'' */
	int width;
	int precision; /* -1 when absent */
};

struct out {
	format_sink sink;
	void *ctx;
	int count;
};

static void put(struct out *o, char c)
{
	o->sink(c, o->ctx);
	o->count++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/*
 * Writes an integer whose digits are already in digits[0..ndigits) (most significant first),
 * with its sign/prefix, precision zeros, width padding and grouping.
 */
static void put_number(struct out *o, const struct spec *s, const char *prefix, const char *digits,
		       int ndigits, bool group)
{
	int prefix_len = (int)strlen(prefix);
	int zeros = s->precision > ndigits ? s->precision - ndigits : 0;
	int separators = group ? (ndigits + zeros - 1) / 3 : 0;
	int body = prefix_len + zeros + ndigits + separators;
	int fill = s->width > body ? s->width - body : 0;
	/* C99 7.19.6.1: the 0 flag is ignored with '-' or when a precision is given. */
	bool zero_fill = s->zero && !s->left && s->precision < 0;

	if (!s->left && !zero_fill)
		pad(o, ' ', fill);
	for (int i = 0; i < prefix_len; i++)
		put(o, prefix[i]);
	if (zero_fill)
		zeros += fill;

	int total = zeros + ndigits;
	for (int i = 0; i < total; i++) {
		put(o, i < zeros ? '0' : digits[i - zeros]);
		int remaining = total - 1 - i;
		if (group && remaining > 0 && remaining % 3 == 0)
			put(o, ',');
	}
	if (s->left)
		pad(o, ' ', fill);
}

static void put_unsigned(struct out *o, const struct spec *s, uint64_t v, unsigned base, bool upper,
			 bool negative, bool is_signed)
{
	char digits[24];
	int n = 0;
	const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char prefix[3] = { 0 };

	/* A zero with precision 0 prints no digits (C99). */
	if (!(v == 0 && s->precision == 0)) {
		char rev[24];
		int r = 0;
		do {
			rev[r++] = set[v % base];
			v /= base;
		} while (v);
		while (r)
			digits[n++] = rev[--r];
	}
	if (is_signed) {
		if (negative)
			prefix[0] = '-';
		else if (s->plus)
			prefix[0] = '+';
		else if (s->space)
			prefix[0] = ' ';
	} else if (s->alternate && base == 16 && n > 0 && !(n == 1 && digits[0] == '0')) {
		prefix[0] = '0';
		prefix[1] = upper ? 'X' : 'x';
	} else if (s->alternate && base == 8 && (n == 0 || digits[0] != '0')) {
		/* '#' with octal forces a leading zero, raising the precision if needed. */
		struct spec t = *s;
		if (t.precision <= n)
			t.precision = n + 1;
		put_number(o, &t, prefix, digits, n, false);
		return;
	}
	put_number(o, s, prefix, digits, n, s->grouping && base == 10);
}

static void put_string(struct out *o, const struct spec *s, const char *str)
{
	if (!str)
		str = "(null)";
	int len = 0;
	while (str[len] && (s->precision < 0 || len < s->precision))
		len++;
	int fill = s->width > len ? s->width - len : 0;
	if (!s->left)
		pad(o, ' ', fill);
	for (int i = 0; i < len; i++)
		put(o, str[i]);
	if (s->left)
		pad(o, ' ', fill);
}

enum length { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LLONG, LEN_SIZE, LEN_PTRDIFF, LEN_MAX };

int format_emit(format_sink sink, void *ctx, const char *fmt, va_list ap)
{
	struct out o = { .sink = sink, .ctx = ctx, .count = 0 };
	va_list args;

	va_copy(args, ap);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put(&o, *p);
			continue;
		}
		struct spec s = { .precision = -1 };
		for (;; p++) {
			char f = p[1];
			if (f == '-')
				s.left = true;
			else if (f == '0')
				s.zero = true;
			else if (f == '+')
				s.plus = true;
			else if (f == ' ')
				s.space = true;
			else if (f == '#')
				s.alternate = true;
			else if (f == '\'')
				s.grouping = true;
			else
				break;
		}
		p++;
		if (*p == '*') {
			s.width = va_arg(args, int);
			if (s.width < 0) {
				s.left = true;
				s.width = -s.width;
			}
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				s.width = s.width * 10 + (*p++ - '0');
		}
		if (*p == '.') {
			p++;
			s.precision = 0;
			if (*p == '*') {
				s.precision = va_arg(args, int);
				if (s.precision < 0)
					s.precision = -1;
				p++;
			} else {
				while (*p >= '0' && *p <= '9')
					s.precision = s.precision * 10 + (*p++ - '0');
			}
		}
		enum length len = LEN_INT;
		if (*p == 'h') {
			len = LEN_SHORT;
			if (*++p == 'h') {
				len = LEN_CHAR;
				p++;
			}
		} else if (*p == 'l') {
			len = LEN_LONG;
			if (*++p == 'l') {
				len = LEN_LLONG;
				p++;
			}
		} else if (*p == 'z') {
			len = LEN_SIZE;
			p++;
		} else if (*p == 't') {
			len = LEN_PTRDIFF;
			p++;
		} else if (*p == 'j') {
			len = LEN_MAX;
			p++;
		}

		switch (*p) {
		case 'd':
		case 'i': {
			int64_t v;
			switch (len) {
			case LEN_CHAR:
				v = (signed char)va_arg(args, int);
				break;
			case LEN_SHORT:
				v = (short)va_arg(args, int);
				break;
			case LEN_LONG:
				v = va_arg(args, long);
				break;
			case LEN_LLONG:
				v = va_arg(args, long long);
				break;
			case LEN_SIZE:
			case LEN_PTRDIFF:
			case LEN_MAX:
				v = va_arg(args, int64_t);
				break;
			default:
				v = va_arg(args, int);
				break;
			}
			uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			put_unsigned(&o, &s, mag, 10, false, v < 0, true);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			uint64_t v;
			switch (len) {
			case LEN_CHAR:
				v = (unsigned char)va_arg(args, unsigned);
				break;
			case LEN_SHORT:
				v = (unsigned short)va_arg(args, unsigned);
				break;
			case LEN_LONG:
				v = va_arg(args, unsigned long);
				break;
			case LEN_LLONG:
				v = va_arg(args, unsigned long long);
				break;
			case LEN_SIZE:
			case LEN_PTRDIFF:
			case LEN_MAX:
				v = va_arg(args, uint64_t);
				break;
			default:
				v = va_arg(args, unsigned);
				break;
			}
			unsigned base = *p == 'o' ? 8 : *p == 'u' ? 10 : 16;
			put_unsigned(&o, &s, v, base, *p == 'X', false, false);
			break;
		}
		case 'p': {
			/* Always 0x and 16 digits: addresses line up in exception reports. */
			struct spec ps = s;
			ps.precision = 16;
			ps.alternate = false;
			put(&o, '0');
			put(&o, 'x');
			if (ps.width > 2)
				ps.width -= 2;
			put_unsigned(&o, &ps, (uint64_t)(uintptr_t)va_arg(args, void *), 16, false,
				     false, false);
			break;
		}
		case 'c': {
			char c = (char)va_arg(args, int);
			int fill = s.width > 1 ? s.width - 1 : 0;
			if (!s.left)
				pad(&o, ' ', fill);
			put(&o, c);
			if (s.left)
				pad(&o, ' ', fill);
			break;
		}
		case 's':
			put_string(&o, &s, va_arg(args, const char *));
			break;
		case '%':
			put(&o, '%');
			break;
		case 0:
			/* A lone '%' at the end: print it rather than read past the string. */
			put(&o, '%');
			p--;
			break;
		default:
			/* Unknown conversion: show it as written. */
			put(&o, '%');
			put(&o, *p);
			break;
		}
	}
	va_end(args);
	return o.count;
}

struct buffer {
	char *buf;
	size_t size;
	size_t used;
};

static void buffer_sink(char c, void *ctx)
{
	struct buffer *b = ctx;

	if (b->used + 1 < b->size)
		b->buf[b->used] = c;
	b->used++;
}

int format_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buffer b = { .buf = buf, .size = size, .used = 0 };
	int n = format_emit(buffer_sink, &b, fmt, ap);

	if (size)
		buf[b.used < size ? b.used : size - 1] = 0;
	return n;
}

int format_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = format_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
