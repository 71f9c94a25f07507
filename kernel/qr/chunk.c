// SPDX-License-Identifier: GPL-2.0
/*
 * Chunks of the record copy: which lines go into which code, the priority cut, the header.
 *
 * Whether a run of lines fits one code is only known by deflating it, so the search for the
 * longest run that fits guesses from the ratio of the last measurement and then bisects; a code
 * takes a few compressions, not one per line.
 */
#include <string.h>

#include "kernel/lib/crc32.h"
#include "kernel/qr/base45.h"
#include "kernel/qr/chunk.h"

/* A code's first try: the plain text 8 times its deflated size (the suite's records deflate so,
 * primed with the dictionary), times 16. */
#define CHUNK_RATIO16_FIRST (8 * 16)

/* The first level: what a reader needs to know what ran and how it ended (chunk.h). */
static const char *const first_level_types[] = {
	"boot", "pmu", "verdict", "exp", "exception", "end"
};
static const char *const level_names[CHUNK_LEVELS] = {
	" boot, pmu, verdict, exp, exception and end",
	" other",
	" count",
};

/* A bounded string under construction. */
struct text {
	char *buf;
	size_t size, len;
	bool overflow;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (n > t->size - t->len) {
		t->overflow = true;
		n = t->size - t->len;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
}

static void put_str(struct text *t, const char *s)
{
	put(t, s, strlen(s));
}

static void put_uint(struct text *t, uint64_t v)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[sizeof(digits) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(t, digits + sizeof(digits) - n, n);
}

/* "1 record", "2 records". */
static void put_records(struct text *t, uint64_t n, const char *what)
{
	put_uint(t, n);
	put_str(t, what);
	put_str(t, n == 1 ? " record" : " records");
}

unsigned chunk_count_lines(const char *copy, size_t len)
{
	unsigned n = 0;

	for (size_t i = 0; i < len; i++)
		n += copy[i] == '\n';
	return n + (len && copy[len - 1] != '\n');
}

static uint8_t level_of(const char *json, size_t len)
{
	static const char key[] = "{\"type\":\"";
	size_t k = sizeof(key) - 1;

	if (len < k || memcmp(json, key, k))
		return CHUNK_LEVEL_OTHER;
	size_t n = 0;
	while (k + n < len && json[k + n] != '"')
		n++;
	if (n == 5 && !memcmp(json + k, "count", 5))
		return CHUNK_LEVEL_COUNT;
	for (size_t i = 0; i < sizeof(first_level_types) / sizeof(first_level_types[0]); i++)
		if (strlen(first_level_types[i]) == n && !memcmp(json + k, first_level_types[i], n))
			return CHUNK_LEVEL_FIRST;
	return CHUNK_LEVEL_OTHER;
}

/* A line "@<seq> <json>" gives its number; *json_start is where the JSON starts. */
static bool parse_marker(const char *p, size_t len, uint64_t *seq, size_t *json_start)
{
	size_t i = 1;
	uint64_t v = 0;

	if (len < 3 || p[0] != '@')
		return false;
	while (i < len && p[i] >= '0' && p[i] <= '9' && i < 21)
		v = v * 10 + (uint64_t)(p[i++] - '0');
	if (i == 1 || i >= len || p[i] != ' ')
		return false;
	*seq = v;
	*json_start = i + 1;
	return true;
}

unsigned chunk_index(const char *copy, size_t len, struct chunk_line *lines, unsigned max)
{
	unsigned n = 0;
	uint64_t next = 0;
	size_t start = 0;

	while (start < len && n < max) {
		size_t end = start;
		while (end < len && copy[end] != '\n')
			end++;
		uint64_t seq = next;
		size_t json = 0;
		if (!parse_marker(copy + start, end - start, &seq, &json))
			json = 0;
		if (end > start + json) {
			struct chunk_line *l = &lines[n++];
			l->offset = (uint32_t)(start + json);
			l->len = (uint32_t)(end - start - json);
			l->seq = seq;
			l->level = level_of(copy + l->offset, l->len);
			l->keepable = l->kept = true;
			next = seq + 1;
		}
		start = end + 1;
	}
	return n;
}

/* The plain text of the lines ids[a..b), after the note line when note is not empty. */
static size_t plain_text(const struct chunk_work *w, unsigned a, unsigned b, const char *note,
			 char *out, size_t size)
{
	struct text t = { out, size, 0, false };

	if (note && note[0]) {
		put(&t, "#", 1);
		put_str(&t, note);
		put(&t, "\n", 1);
	}
	for (unsigned j = a; j < b && !t.overflow; j++) {
		const struct chunk_line *l = &w->lines[w->ids[j]];
		if (j == a || l->seq != w->lines[w->ids[j - 1]].seq + 1) {
			put(&t, "@", 1);
			put_uint(&t, l->seq);
			put(&t, " ", 1);
		}
		put(&t, w->copy + l->offset, l->len);
		put(&t, "\n", 1);
	}
	return t.overflow ? 0 : t.len;
}

/* Deflated size of lines ids[a..b) with the note; 0 when it is far too large to tell. */
static size_t deflated_size(struct chunk_work *w, unsigned a, unsigned b, const char *note)
{
	size_t n = plain_text(w, a, b, note, w->plain, CHUNK_PLAIN_MAX);

	if (!n)
		return 0;
	w->probes++;
	return w->deflate(w->deflate_ctx, w->plain, n, w->deflated, 4 * w->capacity);
}

/* The first index b > a at which lines ids[a..b) hold at least target bytes (or n). */
static unsigned index_for(const struct chunk_work *w, unsigned a, unsigned n, uint64_t target)
{
	uint64_t sum = 0;
	unsigned b = a;

	while (b < n && sum < target)
		sum += w->lines[w->ids[b++]].len + 1;
	return b;
}

static uint64_t raw_of(const struct chunk_work *w, unsigned a, unsigned b)
{
	uint64_t sum = 0;

	while (a < b)
		sum += w->lines[w->ids[a++]].len + 1;
	return sum;
}

/* A run of lines ids[a..b) tried: its bytes, and deflated (0: unknown, far too large). */
struct probe {
	unsigned b;
	uint64_t raw;
	size_t size;
};

/* Where to try next between lo (fits) and hi (does not): where the line between their sizes
 * crosses the capacity (a secant step), or halfway once that has had its chances. */
static unsigned next_try(const struct chunk_work *w, unsigned a, unsigned n, const struct probe *lo,
			 const struct probe *hi, unsigned tries)
{
	uint64_t target;

	if (tries >= 4)
		return lo->b + (hi->b - lo->b) / 2;
	if (hi->size > lo->size)
		target = lo->raw +
			 (w->capacity - lo->size) * (hi->raw - lo->raw) / (hi->size - lo->size);
	else if (lo->size)
		target = lo->raw * w->capacity / lo->size;
	else
		return lo->b + (hi->b - lo->b) / 2;
	return index_for(w, a, n, target + 1);
}

/* The largest b such that lines ids[a..b) fit one code; a when not even ids[a] does. The first
 * try goes by the last code's ratio of bytes to deflated bytes. */
static unsigned largest_fit(struct chunk_work *w, unsigned a, unsigned n, const char *note,
			    size_t *size_used)
{
	struct probe lo = { a, 0, 0 }, hi = { n + 1, 0, 0 };
	unsigned b = index_for(w, a, n, (uint64_t)w->capacity * w->ratio16 / 16);

	for (unsigned tries = 0;; tries++) {
		b = b <= lo.b ? lo.b + 1 : b >= hi.b ? hi.b - 1 : b;
		if (b <= lo.b)
			break;
		size_t size = deflated_size(w, a, b, note);
		struct probe p = { b, raw_of(w, a, b), size };
		if (size && size <= w->capacity)
			lo = p;
		else
			hi = p;
		if (hi.b == lo.b + 1 || lo.b == n)
			break;
		b = next_try(w, a, n, &lo, &hi, tries);
	}
	if (lo.size)
		w->ratio16 = (unsigned)(lo.raw * 16 / lo.size);
	*size_used = lo.size;
	return lo.b;
}

/*
 * Lay the kept lines out in codes, from the first; codes_max + 1 when they need more. w->need
 * says how many codes they need, in thousandths: the last code's share of its capacity counts,
 * and lines beyond codes_max codes count as the ones that fitted did.
 *
 * The same lines always give the same codes: the first try starts from the same ratio every time.
 * (A deflated size does not always grow with the text, so a search that started elsewhere could
 * end elsewhere, and the priority cut's last packing would differ from the one it measured.)
 */
static unsigned pack(struct chunk_work *w, struct chunk_plan *plan, const char *note)
{
	unsigned n = 0, codes = 0;
	size_t size = 0;

	w->ratio16 = CHUNK_RATIO16_FIRST;
	for (unsigned i = 0; i < w->count; i++)
		if (w->lines[i].kept)
			w->ids[n++] = i;
	for (unsigned a = 0; a < n;) {
		unsigned b =
			codes < w->codes_max ? largest_fit(w, a, n, codes ? NULL : note, &size) : a;
		if (b == a) {
			/* Full (or not even one line fits a code: a screen far too small). */
			uint64_t done = raw_of(w, 0, a), all = done + raw_of(w, a, n);
			w->need = done ? (uint64_t)w->codes_max * 1000 * all / done : UINT64_MAX;
			return w->codes_max + 1;
		}
		plan->first[codes] = w->ids[a];
		plan->end[codes] = w->ids[b - 1] + 1;
		codes++;
		a = b;
	}
	plan->codes = codes;
	w->need = codes ? (codes - 1) * 1000ull + size * 1000 / w->capacity : 0;
	return codes;
}

/* Keep every keepable line below level, the first k of level, none above. */
static void keep(struct chunk_work *w, unsigned level, uint64_t k)
{
	uint64_t rank = 0;

	for (unsigned i = 0; i < w->count; i++) {
		struct chunk_line *l = &w->lines[i];
		l->kept = l->keepable && (l->level < level || (l->level == level && rank++ < k));
	}
}

/* What the codes leave out, in words, for the first code and the first page. */
static void make_note(struct chunk_work *w, struct chunk_plan *plan)
{
	struct text t = { plan->note, sizeof(plan->note) - 1, 0, false };
	const char *sep = "";

	plan->kept = 0;
	for (unsigned level = 0; level < CHUNK_LEVELS; level++)
		plan->dropped[level] = plan->of[level];
	for (unsigned i = 0; i < w->count; i++)
		if (w->lines[i].kept) {
			plan->kept++;
			plan->dropped[w->lines[i].level]--;
		} else if (!w->lines[i].keepable) {
			plan->dropped[w->lines[i].level]--;
		}
	bool cut = false;
	for (unsigned level = 0; level < CHUNK_LEVELS; level++)
		cut = cut || plan->dropped[level];
	if (cut) {
		put_str(&t, "left out to fit ");
		put_uint(&t, w->codes_max);
		put_str(&t, " codes:");
		for (unsigned level = 0; level < CHUNK_LEVELS; level++) {
			if (!plan->dropped[level])
				continue;
			put_str(&t, sep[0] ? ", " : " ");
			put_uint(&t, plan->dropped[level]);
			put_str(&t, " of ");
			put_records(&t, plan->of[level], level_names[level]);
			sep = "; ";
		}
	}
	if (plan->too_long) {
		put_str(&t, sep);
		put_records(&t, plan->too_long, "");
		put_str(&t, " too long for one code");
		sep = "; ";
	}
	if (w->copy_left) {
		put_str(&t, sep);
		put_records(&t, w->copy_left, "");
		put_str(&t, " the kernel's copy had no room for");
		sep = "; ";
	}
	if (sep[0])
		put_str(&t, " (the serial log has every record)");
	plan->note[t.len] = 0;
	plan->left_out = sep[0] != 0;
}

/* Lines that cannot fit one code even alone are left out before anything else. */
static void mark_too_long(struct chunk_work *w, struct chunk_plan *plan)
{
	for (unsigned i = 0; i < w->count; i++) {
		struct chunk_line *l = &w->lines[i];
		plan->of[l->level]++;
		/* Deflate adds at most a few bytes to what it cannot shrink: only a line longer than
		 * a code may not fit, and only such a line is tried. */
		if (l->len + 32 < w->capacity)
			continue;
		w->ids[0] = i;
		size_t size = deflated_size(w, 0, 1, NULL);
		if (!size || size > w->capacity) {
			l->keepable = l->kept = false;
			plan->too_long++;
		}
	}
}

bool chunk_fits_with(struct chunk_work *w, struct chunk_plan *plan, unsigned level, uint64_t k)
{
	keep(w, level, k);
	make_note(w, plan);
	return pack(w, plan, plan->note) <= w->codes_max;
}

/* A try of the cut: k kept of the level, and the codes that needs. */
struct cut_try {
	uint64_t k, need;
};

/* The next k: where the line through the last two tries reaches the codes available (a secant
 * step: the codes needed grow about linearly with the records kept), or halfway. */
static uint64_t next_k(const struct chunk_work *w, struct cut_try a, struct cut_try b,
		       struct cut_try lo, struct cut_try hi, unsigned tries)
{
	int64_t target = (int64_t)w->codes_max * 1000;

	if (tries >= 5 || a.k == b.k || a.need == b.need || a.need == UINT64_MAX ||
	    b.need == UINT64_MAX)
		return lo.k + (hi.k - lo.k) / 2;
	int64_t k = (int64_t)b.k + (target - (int64_t)b.need) * ((int64_t)b.k - (int64_t)a.k) /
					   ((int64_t)b.need - (int64_t)a.need);
	return k <= (int64_t)lo.k ? lo.k + 1 : k >= (int64_t)hi.k ? hi.k - 1 : (uint64_t)k;
}

/* The most of level's records that fit, knowing that lo.k fit and hi.k did not. */
static uint64_t most_that_fit(struct chunk_work *w, struct chunk_plan *plan, unsigned level,
			      struct cut_try lo, struct cut_try hi)
{
	struct cut_try a = lo, b = hi;

	for (unsigned tries = 0; hi.k - lo.k > 1; tries++) {
		uint64_t k = next_k(w, a, b, lo, hi, tries);
		bool fits = chunk_fits_with(w, plan, level, k);
		struct cut_try t = { k, w->need };
		if (fits)
			lo = t;
		else
			hi = t;
		a = b;
		b = t;
	}
	return lo.k;
}

/* The priority cut: whole levels while they fit, then the most of the next level that fits. */
static bool cut(struct chunk_work *w, struct chunk_plan *plan)
{
	uint64_t need_below = 0; /* the codes needed by the levels below, kept whole */

	for (unsigned level = 0; level < CHUNK_LEVELS; level++) {
		uint64_t all = plan->of[level];
		struct cut_try hi = { all, w->need_all }; /* all of the last level: the whole log */
		if (level + 1 < CHUNK_LEVELS) {
			if (chunk_fits_with(w, plan, level, all)) {
				need_below = w->need;
				continue;
			}
			hi.need = w->need;
		}
		struct cut_try lo = { 0, need_below };
		return chunk_fits_with(w, plan, level, most_that_fit(w, plan, level, lo, hi));
	}
	return true;
}

bool chunk_plan_codes(struct chunk_work *w, struct chunk_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	plan->records = w->count;
	mark_too_long(w, plan);
	if (chunk_fits_with(w, plan, CHUNK_LEVELS, 0))
		return plan->codes > 0 || plan->kept == 0;
	w->need_all = w->need;
	return cut(w, plan) && plan->codes > 0;
}

size_t chunk_plain(const struct chunk_work *w, const struct chunk_plan *plan, unsigned k, char *out,
		   size_t size)
{
	unsigned a = 0, n = 0;

	/* The ids of the plan's kept lines, as pack() left them. */
	for (unsigned i = 0; i < w->count && w->ids; i++)
		if (w->lines[i].kept) {
			if (i == plan->first[k])
				a = n;
			n++;
		}
	unsigned b = a;
	while (b < n && w->ids[b] < plan->end[k])
		b++;
	return plain_text(w, a, b, k == 0 ? plan->note : NULL, out, size);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

size_t chunk_bytes(const struct chunk_header *h, const uint8_t *deflated, size_t len, uint8_t *out)
{
	put_le32(out, h->run_id);
	out[4] = (uint8_t)h->number;
	out[5] = (uint8_t)h->total;
	out[6] = (uint8_t)h->flags;
	out[7] = (uint8_t)h->per_page;
	if (deflated != out + CHUNK_HEADER_LEN)
		memmove(out + CHUNK_HEADER_LEN, deflated, len);
	uint32_t crc = crc32_ieee(0, out, 8);
	put_le32(out + 8, crc32_ieee(crc, out + CHUNK_HEADER_LEN, len));
	return CHUNK_HEADER_LEN + len;
}

size_t chunk_text(const uint8_t *bytes, size_t len, char *out)
{
	size_t prefix = sizeof(CHUNK_TEXT_PREFIX) - 1;

	memcpy(out, CHUNK_TEXT_PREFIX, prefix);
	return prefix + base45_encode(bytes, len, out + prefix);
}

size_t chunk_capacity(size_t chars)
{
	size_t prefix = sizeof(CHUNK_TEXT_PREFIX) - 1;

	if (chars <= prefix)
		return 0;
	size_t bytes = base45_bytes_for_chars(chars - prefix);
	return bytes > CHUNK_HEADER_LEN ? bytes - CHUNK_HEADER_LEN : 0;
}
