// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's printf: integers, strings, characters, pointers; C99 semantics for every flag,
 * width, precision and length it accepts, so that the host test can compare it with glibc.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernel/lib/format.h"

/* The length modifiers (C99 7.19.6.1p7): how wide the argument of an integer conversion is. */
enum length { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LLONG, LEN_SIZE, LEN_PTRDIFF, LEN_MAX };

/* One conversion specification, %[flags][width][.precision][length]conversion (C99 7.19.6.1). */
struct spec {
	bool left;	/* '-' */
	bool zero;	/* '0' */
	bool plus;	/* '+' */
	bool space;	/* ' ' */
	bool alternate; /* '#' */
	bool grouping;	/* '\'' */
	int width;
	int precision; /* -1 when absent */
	enum length length;
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

/* ---- parsing a conversion specification --------------------------------------------------- */

/* The flags, in any order and repeated (C99 7.19.6.1p6; ' is POSIX's); p is just after the '%'. */
static const char *parse_flags(const char *p, struct spec *s)
{
	for (;; p++) {
		switch (*p) {
		case '-':
			s->left = true;
			break;
		case '0':
			s->zero = true;
			break;
		case '+':
			s->plus = true;
			break;
		case ' ':
			s->space = true;
			break;
		case '#':
			s->alternate = true;
			break;
		case '\'':
			s->grouping = true;
			break;
		default:
			return p;
		}
	}
}

/* A width or a precision written out: decimal digits, appended to *value. */
static const char *parse_digits(const char *p, int *value)
{
	while (*p >= '0' && *p <= '9')
		*value = *value * 10 + (*p++ - '0');
	return p;
}

/* Digits, or '*' taking an int argument, where a negative one is '-' and its magnitude. */
static const char *parse_width(const char *p, struct spec *s, va_list *args)
{
	if (*p != '*')
		return parse_digits(p, &s->width);
	s->width = va_arg(*args, int);
	if (s->width < 0) {
		s->left = true;
		s->width = -s->width;
	}
	return p + 1;
}

/* '.' then digits or '*': a '.' alone is 0, a negative '*' argument is no precision at all. */
static const char *parse_precision(const char *p, struct spec *s, va_list *args)
{
	if (*p != '.')
		return p;
	p++;
	s->precision = 0;
	if (*p != '*')
		return parse_digits(p, &s->precision);
	s->precision = va_arg(*args, int);
	if (s->precision < 0)
		s->precision = -1;
	return p + 1;
}

/*
 * Longer spellings first: "hh" is not "h" followed by an 'h' conversion. The types are those of
 * d and i; u, x, X and o take their unsigned twins.
 */
static const struct {
	const char *text;
	enum length length;
} length_modifiers[] = {
	{ "hh", LEN_CHAR },   /* char */
	{ "h", LEN_SHORT },   /* short */
	{ "ll", LEN_LLONG },  /* long long */
	{ "l", LEN_LONG },    /* long */
	{ "z", LEN_SIZE },    /* size_t */
	{ "t", LEN_PTRDIFF }, /* ptrdiff_t */
	{ "j", LEN_MAX },     /* intmax_t */
};

static const char *parse_length(const char *p, struct spec *s)
{
	for (size_t i = 0; i < sizeof(length_modifiers) / sizeof(length_modifiers[0]); i++) {
		size_t n = strlen(length_modifiers[i].text);
		if (strncmp(p, length_modifiers[i].text, n) == 0) {
			s->length = length_modifiers[i].length;
			return p + n;
		}
	}
	return p;
}

/*
 * Everything between the '%' and the conversion character, in the order C99 7.19.6.1p4 writes
 * it; the '*' arguments are taken in that order too. Returns where the conversion is (maybe the
 * string's end).
 */
static const char *parse_spec(const char *p, struct spec *s, va_list *args)
{
	p = parse_flags(p, s);
	p = parse_width(p, s, args);
	p = parse_precision(p, s, args);
	return parse_length(p, s);
}

/* ---- the conversions ---------------------------------------------------------------------- */

/* A d or i argument as its length says; char and short ones arrive promoted to int (C99 6.5.2.2). */
static int64_t signed_argument(enum length length, va_list *args)
{
	switch (length) {
	case LEN_CHAR:
		return (signed char)va_arg(*args, int);
	case LEN_SHORT:
		return (short)va_arg(*args, int);
	case LEN_LONG:
		return va_arg(*args, long);
	case LEN_LLONG:
		return va_arg(*args, long long);
	case LEN_SIZE:
	case LEN_PTRDIFF:
	case LEN_MAX:
		return va_arg(*args, int64_t);
	default:
		return va_arg(*args, int);
	}
}

/* The same for u, x, X and o. */
static uint64_t unsigned_argument(enum length length, va_list *args)
{
	switch (length) {
	case LEN_CHAR:
		return (unsigned char)va_arg(*args, unsigned);
	case LEN_SHORT:
		return (unsigned short)va_arg(*args, unsigned);
	case LEN_LONG:
		return va_arg(*args, unsigned long);
	case LEN_LLONG:
		return va_arg(*args, unsigned long long);
	case LEN_SIZE:
	case LEN_PTRDIFF:
	case LEN_MAX:
		return va_arg(*args, uint64_t);
	default:
		return va_arg(*args, unsigned);
	}
}

static void convert_signed(struct out *o, const struct spec *s, va_list *args)
{
	int64_t v = signed_argument(s->length, args);
	uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	put_unsigned(o, s, magnitude, 10, false, v < 0, true);
}

static void convert_unsigned(struct out *o, const struct spec *s, char conversion, va_list *args)
{
	uint64_t v = unsigned_argument(s->length, args);
	unsigned base = conversion == 'o' ? 8 : conversion == 'u' ? 10 : 16;

	put_unsigned(o, s, v, base, conversion == 'X', false, false);
}

/* Always 0x and 16 digits: addresses line up in exception reports. */
static void convert_pointer(struct out *o, const struct spec *s, va_list *args)
{
	struct spec ps = *s;

	ps.precision = 16;
	ps.alternate = false;
	put(o, '0');
	put(o, 'x');
	if (ps.width > 2)
		ps.width -= 2;
	put_unsigned(o, &ps, (uint64_t)(uintptr_t)va_arg(*args, void *), 16, false, false, false);
}

static void convert_char(struct out *o, const struct spec *s, va_list *args)
{
	char c = (char)va_arg(*args, int);
	int fill = s->width > 1 ? s->width - 1 : 0;

	if (!s->left)
		pad(o, ' ', fill);
	put(o, c);
	if (s->left)
		pad(o, ' ', fill);
}

static void convert(struct out *o, const struct spec *s, char conversion, va_list *args)
{
	switch (conversion) {
	case 'd':
	case 'i':
		convert_signed(o, s, args);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		convert_unsigned(o, s, conversion, args);
		break;
	case 'p':
		convert_pointer(o, s, args);
		break;
	case 'c':
		convert_char(o, s, args);
		break;
	case 's':
		put_string(o, s, va_arg(*args, const char *));
		break;
	case '%':
		put(o, '%');
		break;
	default:
		/* Unknown conversion: show it as written. */
		put(o, '%');
		put(o, conversion);
		break;
	}
}

/*
 * The helpers take the arguments as a va_list * (C99 7.15p3 and its footnote allow it): each
 * one's va_arg then advances the one list that format_emit walks, in the format's order.
 */
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
		struct spec s = { .precision = -1, .length = LEN_INT };
		p = parse_spec(p + 1, &s, &args);
		if (*p == 0) {
			/* A lone '%' at the end: print it rather than read past the string. */
			put(&o, '%');
			break;
		}
		convert(&o, &s, *p, &args);
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
