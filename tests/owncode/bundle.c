// SPDX-License-Identifier: GPL-2.0
/*
 * The bundle reader (bundle.h). Every offset and length of the input is checked against the
 * bytes before it is used, with 64-bit sums so that no 32-bit field can wrap around; the format
 * is docs/own-code.md, "The bundle".
 */
#include <string.h>

#include "kernel/lib/crc32.h"
#include "tests/owncode/bundle.h"

#define MAGIC "PMUBENCH"
#define CRC_OFFSET 16

/* Section kinds, as in docs/own-code.md. */
#define KIND_PARAMS 1
#define KIND_STRINGS 2
#define KIND_EVENTS0 3
#define KIND_PART0 16
#define KIND_DECODE0 32
#define KINDS (KIND_DECODE0 + BUNDLE_PARTS)

/* IA32_PERFEVTSELx bits a bundle may set (SDM vol. 3B, 18.2.1.1, figure 18-1): all of 31:0 but
 * PC (19) and INT (20), which the kernel owns; EN (22) must be set. */
#define EVTSEL_ALLOWED 0xffe7ffffull
#define EVTSEL_EN (1ull << 22)

struct section {
	const uint8_t *bytes;
	uint32_t size;
	uint32_t count;
	bool present;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static bool zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static enum bundle_status fail(const char **reason, enum bundle_status status, const char *why)
{
	if (reason)
		*reason = why;
	return status;
}

static bool known_kind(uint32_t kind)
{
	return kind == KIND_PARAMS || kind == KIND_STRINGS || kind == KIND_EVENTS0 ||
	       kind == KIND_EVENTS0 + 1 ||
	       (kind >= KIND_PART0 && kind < KIND_PART0 + BUNDLE_PARTS) ||
	       (kind >= KIND_DECODE0 && kind < KIND_DECODE0 + BUNDLE_PARTS);
}

/* The header: magic, version, sizes, the CRC over the total size with its own field as 0. */
static enum bundle_status check_header(const uint8_t *d, size_t size, uint32_t *total,
				       const char **reason)
{
	static const uint8_t no_crc[4];

	if (size < BUNDLE_HEADER_SIZE)
		return fail(reason, BUNDLE_TRUNCATED, "shorter than a bundle's header");
	if (memcmp(d, MAGIC, 8) != 0)
		return fail(reason, BUNDLE_BAD_MAGIC, "no PMUBENCH magic: not a bundle");
	if (d[8] != BUNDLE_VERSION || d[9] != 0)
		return fail(reason, BUNDLE_BAD_VERSION,
			    "a bundle version this reader does not read (it reads version 2: write "
			    "it again with this tree's tools/pmu-bench)");
	if (d[10] != BUNDLE_HEADER_SIZE || d[11] != 0 || le32(d + 28) != 0)
		return fail(reason, BUNDLE_BAD_LAYOUT,
			    "a header of another size, or reserved bits set");
	*total = le32(d + 12);
	if (*total < BUNDLE_HEADER_SIZE || *total > size)
		return fail(reason, BUNDLE_TRUNCATED, "its total size runs past the data");
	uint32_t crc = crc32_ieee(0, d, CRC_OFFSET);
	crc = crc32_ieee(crc, no_crc, sizeof(no_crc));
	crc = crc32_ieee(crc, d + CRC_OFFSET + 4, *total - CRC_OFFSET - 4);
	if (crc != le32(d + CRC_OFFSET))
		return fail(reason, BUNDLE_BAD_CRC, "CRC-32 mismatch: the bundle is damaged");
	return BUNDLE_OK;
}

/* The section table into sec[kind]: every section inside the bundle, of a known kind, once. */
static enum bundle_status read_sections(const uint8_t *d, uint32_t total, struct section *sec,
					const char **reason)
{
	uint32_t count = le32(d + 20), table = le32(d + 24);

	if (count == 0 || count > BUNDLE_MAX_SECTIONS ||
	    (uint64_t)table + (uint64_t)count * BUNDLE_SECTION_SIZE > total)
		return fail(reason, BUNDLE_BAD_LAYOUT,
			    "a section table outside the bundle or of more than 32 sections");
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = d + table + i * BUNDLE_SECTION_SIZE;
		uint32_t kind = le32(e), offset = le32(e + 4), size = le32(e + 8);

		if ((uint64_t)offset + size > total)
			return fail(reason, BUNDLE_BAD_LAYOUT, "a section outside the bundle");
		if (!known_kind(kind))
			return fail(reason, BUNDLE_BAD_LAYOUT,
				    "a section of a kind this reader does not know");
		if (sec[kind].present)
			return fail(reason, BUNDLE_BAD_LAYOUT, "a section kind given twice");
		sec[kind] = (struct section){ d + offset, size, le32(e + 12), true };
	}
	if (!sec[KIND_PARAMS].present)
		return fail(reason, BUNDLE_BAD_LAYOUT, "no parameters section");
	if (!sec[KIND_STRINGS].present)
		return fail(reason, BUNDLE_BAD_LAYOUT, "no strings section");
	return BUNDLE_OK;
}

/* The string at offset: inside the section (which ends with a NUL), printable, not too long. */
static const char *string_at(const struct bundle *b, uint32_t offset)
{
	if (offset >= b->strings_size)
		return NULL;
	for (uint32_t i = offset; i < b->strings_size; i++) {
		uint8_t c = b->strings[i];

		if (c == 0)
			return (const char *)b->strings + offset;
		if (c < 0x20 || c > 0x7e || i - offset >= BUNDLE_MAX_STRING)
			return NULL;
	}
	return NULL;
}

/* The xsu byte of the format (docs/own-code.md, "The bundle") is the mode as the kernel knows it. */
_Static_assert(XSU_MODE_OFF == 0 && XSU_MODE_ON == 1 && XSU_MODE_CORE == 2,
	       "the bundle's xsu byte: 0 off, 1 on, 2 core");

static enum bundle_status check_params_ranges(const struct bundle_params *p, const char **reason)
{
	if (p->unroll_count == 0 || p->unroll_count > BUNDLE_MAX_UNROLL_COUNT)
		return fail(reason, BUNDLE_BAD_PARAMS, "unroll_count out of range");
	if (p->loop_count > BUNDLE_MAX_LOOP_COUNT)
		return fail(reason, BUNDLE_BAD_PARAMS, "loop_count out of range");
	if (p->n_measurements == 0 || p->n_measurements > BUNDLE_MAX_MEASUREMENTS)
		return fail(reason, BUNDLE_BAD_PARAMS, "n_measurements out of range");
	if (p->warm_up_count > BUNDLE_MAX_WARM_UP || p->initial_warm_up_count > BUNDLE_MAX_WARM_UP)
		return fail(reason, BUNDLE_BAD_PARAMS, "a warm-up count out of range");
	if (p->alignment_offset > BUNDLE_MAX_ALIGNMENT_OFFSET)
		return fail(reason, BUNDLE_BAD_PARAMS, "alignment_offset out of range");
	if (p->aggregate > BUNDLE_MAX || p->xsu >= XSU_MODE_COUNT ||
	    p->sibling > BUNDLE_SIBLING_WORK || (p->ring != 0 && p->ring != 3))
		return fail(reason, BUNDLE_BAD_PARAMS,
			    "an unknown aggregate function, XSU mode, ring or kind of sibling");
	if (p->flags & ~BUNDLE_FLAGS)
		return fail(reason, BUNDLE_BAD_PARAMS, "unknown parameter flags");
	return BUNDLE_OK;
}

static enum bundle_status read_params(struct bundle *b, const struct section *s,
				      const char **reason)
{
	struct bundle_params *p = &b->params;
	const uint8_t *d = s->bytes;

	if (s->size != BUNDLE_PARAMS_SIZE)
		return fail(reason, BUNDLE_BAD_PARAMS, "a parameters section of the wrong size");
	if (!zero(d + 36, BUNDLE_PARAMS_SIZE - 36))
		return fail(reason, BUNDLE_BAD_PARAMS, "reserved parameter bytes set");
	p->unroll_count = le32(d);
	p->loop_count = le32(d + 4);
	p->n_measurements = le32(d + 8);
	p->warm_up_count = le32(d + 12);
	p->initial_warm_up_count = le32(d + 16);
	p->alignment_offset = le32(d + 20);
	p->aggregate = d[24];
	p->xsu = d[25]; /* the format's numbers are enum xsu_mode's (below) */
	p->ring = d[26];
	p->sibling = d[27];
	p->flags = le32(d + 28);
	enum bundle_status st = check_params_ranges(p, reason);
	if (st != BUNDLE_OK)
		return st;
	uint32_t work = le32(d + 32);
	if ((work != BUNDLE_NONE) != (p->sibling == BUNDLE_SIBLING_WORK))
		return fail(reason, BUNDLE_BAD_PARAMS,
			    "a sibling workload without sibling work, or the other way round");
	p->sibling_work = NULL;
	if (work != BUNDLE_NONE) {
		p->sibling_work = string_at(b, work);
		if (!p->sibling_work || !p->sibling_work[0])
			return fail(reason, BUNDLE_BAD_STRING, "a bad sibling workload name");
	}
	return BUNDLE_OK;
}

static void decode_event(const uint8_t *e, struct bundle_event *out, uint32_t offsets[3])
{
	out->evtsel = le64(e);
	offsets[0] = le32(e + 8);  /* name */
	offsets[1] = le32(e + 12); /* spec */
	offsets[2] = le32(e + 16); /* reason */
	out->kind = e[20];
	out->fixed_index = e[21];
	out->fixed_ctrl = e[22];
	out->counter_mask = e[23];
	out->flags = e[24];
}

/* One event entry: its fields agree with its kind, its strings are good. */
static enum bundle_status check_event(const struct bundle *b, const uint8_t *e, const char **reason)
{
	struct bundle_event ev;
	uint32_t off[3];

	decode_event(e, &ev, off);
	if (!zero(e + 25, BUNDLE_EVENT_SIZE - 25) || ev.kind > BUNDLE_EVENT_TSC ||
	    (ev.flags & ~BUNDLE_EVENT_ALONE) || ev.counter_mask == 0)
		return fail(reason, BUNDLE_BAD_EVENT,
			    "an event of an unknown kind, with unknown flags or no counter");
	if (ev.kind == BUNDLE_EVENT_GP &&
	    ((ev.evtsel & ~EVTSEL_ALLOWED) || !(ev.evtsel & EVTSEL_EN)))
		return fail(reason, BUNDLE_BAD_EVENT,
			    "a GP event whose EVTSEL sets PC, INT, bits above 31 or not EN");
	if (ev.kind == BUNDLE_EVENT_FIXED &&
	    (ev.evtsel || ev.fixed_index > 2 || ev.fixed_ctrl > 7 || ev.fixed_ctrl == 0))
		return fail(
			reason, BUNDLE_BAD_EVENT,
			"a fixed-counter event with an EVTSEL, a counter above 2 or a bad control "
			"field");
	if (ev.kind == BUNDLE_EVENT_TSC && ev.evtsel)
		return fail(reason, BUNDLE_BAD_EVENT, "an RDTSC event with an EVTSEL");
	if (ev.kind != BUNDLE_EVENT_FIXED && (ev.fixed_index || ev.fixed_ctrl))
		return fail(reason, BUNDLE_BAD_EVENT,
			    "a counter index or control field on a programmable event");
	if ((ev.kind == BUNDLE_EVENT_REFUSED) != (off[2] != BUNDLE_NONE))
		return fail(reason, BUNDLE_BAD_EVENT,
			    "a refused event without its reason, or a reason on another");
	if (!string_at(b, off[0]) || !string_at(b, off[1]) ||
	    (off[2] != BUNDLE_NONE && !string_at(b, off[2])))
		return fail(
			reason, BUNDLE_BAD_STRING,
			"an event string outside the strings section, too long or not printable");
	return BUNDLE_OK;
}

static enum bundle_status read_events(struct bundle *b, unsigned thread, const struct section *s,
				      const char **reason)
{
	b->events[thread] = NULL;
	b->event_count[thread] = 0;
	if (!s->present)
		return BUNDLE_OK;
	if (s->count > BUNDLE_MAX_EVENTS || s->size != s->count * BUNDLE_EVENT_SIZE)
		return fail(reason, BUNDLE_BAD_EVENT,
			    "an events section of the wrong size or of more than 2000 events");
	for (uint32_t i = 0; i < s->count; i++) {
		enum bundle_status st = check_event(b, s->bytes + i * BUNDLE_EVENT_SIZE, reason);
		if (st != BUNDLE_OK)
			return st;
	}
	b->events[thread] = s->bytes;
	b->event_count[thread] = s->count;
	return BUNDLE_OK;
}

static void decode_insn(const uint8_t *e, struct bundle_insn *out)
{
	out->offset = le32(e);
	out->length = e[4];
	out->kind = e[5];
	out->flags = e[6];
	out->reads = e[7];
	out->writes = e[8];
}

/* A decode table covers its part instruction by instruction, from offset 0 to its end. */
static enum bundle_status check_decode(const struct section *s, uint32_t part_size,
				       const char **reason)
{
	static const char *const gaps =
		"a decode table that does not cover its part instruction by instruction";
	uint32_t at = 0;

	if ((uint64_t)s->count * BUNDLE_INSN_SIZE != s->size)
		return fail(reason, BUNDLE_BAD_PART, "a decode table of the wrong size");
	for (uint32_t i = 0; i < s->count; i++) {
		const uint8_t *e = s->bytes + (size_t)i * BUNDLE_INSN_SIZE;
		struct bundle_insn insn;

		decode_insn(e, &insn);
		if (!zero(e + 9, BUNDLE_INSN_SIZE - 9))
			return fail(reason, BUNDLE_BAD_PART, "reserved decode bytes set");
		if (insn.offset != at || insn.length == 0 || insn.length > 15 ||
		    (uint64_t)at + insn.length > part_size)
			return fail(reason, BUNDLE_BAD_PART, gaps);
		if (insn.kind > BUNDLE_INSN_FAR || insn.flags > 7 ||
		    insn.reads > BUNDLE_MAX_ACCESSES || insn.writes > BUNDLE_MAX_ACCESSES)
			return fail(
				reason, BUNDLE_BAD_PART,
				"a decode entry of an unknown kind or flags, or too many accesses");
		at += insn.length;
	}
	return at == part_size ? BUNDLE_OK : fail(reason, BUNDLE_BAD_PART, gaps);
}

static enum bundle_status read_part(struct bundle *b, unsigned part, const struct section *code,
				    const struct section *decode, const char **reason)
{
	struct bundle_part_view *v = &b->part[part];

	*v = (struct bundle_part_view){ NULL, 0, NULL, 0 };
	if (code->present && code->size > BUNDLE_MAX_PART)
		return fail(reason, BUNDLE_BAD_PART, "a part longer than 1 MiB");
	if (!code->present || code->size == 0) {
		if (decode->present && decode->count)
			return fail(reason, BUNDLE_BAD_PART, "a decode table for an empty part");
		return BUNDLE_OK;
	}
	if (!decode->present)
		return fail(reason, BUNDLE_BAD_PART, "a part without its decode table");
	enum bundle_status st = check_decode(decode, code->size, reason);
	if (st != BUNDLE_OK)
		return st;
	*v = (struct bundle_part_view){ code->bytes, code->size, decode->bytes, decode->count };
	return BUNDLE_OK;
}

/* What the parts must be given the parameters. */
static enum bundle_status check_run(const struct bundle *b, const char **reason)
{
	if ((uint64_t)b->params.unroll_count * b->part[BUNDLE_PART_CODE].size >
	    BUNDLE_MAX_UNROLLED_BYTES)
		return fail(reason, BUNDLE_BAD_PART,
			    "unroll_count times the code's size is more than 8 MiB");
	if (b->part[BUNDLE_PART_SIBLING].size && b->params.sibling != BUNDLE_SIBLING_CODE)
		return fail(reason, BUNDLE_BAD_PART, "sibling code without a sibling of kind code");
	return BUNDLE_OK;
}

static enum bundle_status read_body(struct bundle *b, const struct section *sec,
				    const char **reason)
{
	const struct section *strings = &sec[KIND_STRINGS];
	enum bundle_status st;

	if (strings->size == 0 || strings->bytes[strings->size - 1] != 0)
		return fail(reason, BUNDLE_BAD_STRING,
			    "the strings section does not end with a NUL");
	b->strings = strings->bytes;
	b->strings_size = strings->size;
	st = read_params(b, &sec[KIND_PARAMS], reason);
	for (unsigned t = 0; t < 2 && st == BUNDLE_OK; t++)
		st = read_events(b, t, &sec[KIND_EVENTS0 + t], reason);
	for (unsigned p = 0; p < BUNDLE_PARTS && st == BUNDLE_OK; p++)
		st = read_part(b, p, &sec[KIND_PART0 + p], &sec[KIND_DECODE0 + p], reason);
	return st == BUNDLE_OK ? check_run(b, reason) : st;
}

enum bundle_status bundle_parse(const void *data, size_t size, struct bundle *b,
				const char **reason)
{
	struct section sec[KINDS];
	const uint8_t *d = data;
	uint32_t total = 0;
	enum bundle_status st;

	memset(b, 0, sizeof(*b));
	memset(sec, 0, sizeof(sec));
	if (reason)
		*reason = NULL;
	if (!d)
		return fail(reason, BUNDLE_TRUNCATED, "no bytes at all");
	st = check_header(d, size, &total, reason);
	if (st == BUNDLE_OK)
		st = read_sections(d, total, sec, reason);
	if (st == BUNDLE_OK)
		st = read_body(b, sec, reason);
	if (st != BUNDLE_OK) {
		memset(b, 0, sizeof(*b));
		return st;
	}
	b->data = d;
	b->size = total;
	b->crc = le32(d + CRC_OFFSET);
	return BUNDLE_OK;
}

bool bundle_event(const struct bundle *b, unsigned thread, uint32_t i, struct bundle_event *e)
{
	uint32_t off[3];

	if (thread > 1 || i >= b->event_count[thread])
		return false;
	decode_event(b->events[thread] + (size_t)i * BUNDLE_EVENT_SIZE, e, off);
	e->name = string_at(b, off[0]);
	e->spec = string_at(b, off[1]);
	e->reason = off[2] == BUNDLE_NONE ? NULL : string_at(b, off[2]);
	return true;
}

bool bundle_insn(const struct bundle *b, enum bundle_part part, uint32_t i,
		 struct bundle_insn *insn)
{
	if ((unsigned)part >= BUNDLE_PARTS || i >= b->part[part].insns)
		return false;
	decode_insn(b->part[part].decode + (size_t)i * BUNDLE_INSN_SIZE, insn);
	return true;
}

bool bundle_insn_at(const struct bundle *b, enum bundle_part part, uint32_t offset,
		    struct bundle_insn *insn)
{
	if ((unsigned)part >= BUNDLE_PARTS)
		return false;
	uint32_t lo = 0, hi = b->part[part].insns;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		bundle_insn(b, part, mid, insn);
		if (insn->offset == offset)
			return true;
		if (insn->offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static const char *name_of(const char *const *names, unsigned n, unsigned i)
{
	return i < n ? names[i] : "?";
}

const char *bundle_part_name(unsigned part)
{
	static const char *const names[] = { "one_time_init", "init", "late_init", "code",
					     "sibling" };
	return name_of(names, BUNDLE_PARTS, part);
}

const char *bundle_aggregate_name(unsigned aggregate)
{
	static const char *const names[] = { "avg", "median", "min", "max" };
	return name_of(names, 4, aggregate);
}

const char *bundle_sibling_name(unsigned sibling)
{
	static const char *const names[] = { "none", "code", "work" };
	return name_of(names, 3, sibling);
}

uint64_t bundle_repetitions(const struct bundle_params *p)
{
	if (p->flags & BUNDLE_NO_NORMALIZATION)
		return 1;
	return (uint64_t)(p->loop_count ? p->loop_count : 1) * p->unroll_count;
}
