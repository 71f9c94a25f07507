// SPDX-License-Identifier: GPL-2.0
/*
 * Finding and checking ACPI tables.
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/unaligned.h"
#include "kernel/lib/format.h"

static uint8_t checksum(const uint8_t *p, size_t n)
{
	uint8_t sum = 0;

	while (n--)
		sum = (uint8_t)(sum + *p++);
	return sum;
}

bool acpi_rsdp_valid(const uint8_t *rsdp, size_t available)
{
	if (available < ACPI_RSDP_V1_LENGTH || memcmp(rsdp, "RSD PTR ", 8) != 0)
		return false;
	if (checksum(rsdp, ACPI_RSDP_V1_LENGTH) != 0)
		return false;
	if (rsdp[15] >= 2) {
		uint32_t length;
		memcpy(&length, rsdp + 20, 4);
		if (length < ACPI_RSDP_V2_LENGTH || length > available)
			return false;
		if (checksum(rsdp, length) != 0)
			return false;
	}
	return true;
}

static uint64_t scan_range(uint64_t start, uint64_t length, acpi_translate_fn translate, void *ctx)
{
	const uint8_t *area = translate(start, length, ctx);

	if (!area)
		return 0;
	for (uint64_t off = 0; off + ACPI_RSDP_V1_LENGTH <= length; off += 16)
		if (acpi_rsdp_valid(area + off, length - off))
			return start + off;
	return 0;
}

uint64_t acpi_rsdp_scan(acpi_translate_fn translate, void *ctx)
{
	const uint8_t *bda = translate(0x40e, 2, ctx);
	uint64_t found = 0;

	if (bda) {
		uint64_t ebda = (uint64_t)(bda[0] | bda[1] << 8) << 4;
		if (ebda >= 0x80000 && ebda < 0xa0000)
			found = scan_range(ebda, 1024, translate, ctx);
	}
	if (!found)
		found = scan_range(0xe0000, 0x20000, translate, ctx);
	return found;
}

/* ---- the table walk (acpi_parse) ---------------------------------------------------------- */

/* ACPI 6.5, 5.2.6: every system description table starts with this 36-byte header. */
#define SDT_HEADER_LENGTH 36
#define SDT_LENGTH 4 /* offset of the 32-bit length, which covers the header */

/* ACPI 6.5, 5.2.5.3: the RSDP's fields. */
#define RSDP_OEM_ID 9
#define RSDP_REVISION 15
#define RSDP_RSDT_ADDRESS 16
#define RSDP_LENGTH 20
#define RSDP_XSDT_ADDRESS 24
/* The RSDP is 36 bytes up to ACPI 6.5; a longer one may come, a much longer one is garbage. */
#define RSDP_MAX_LENGTH 1024

/* ACPI 6.5, 5.2.12: the MADT's fixed fields, then its interrupt controller structures. */
#define MADT_LOCAL_APIC_ADDRESS 36
#define MADT_FLAGS 40
#define MADT_ENTRIES 44
#define MADT_PCAT_COMPAT (1u << 0)
/* Entry types and their lengths (5.2.12.2, 5.2.12.8, 5.2.12.12). */
#define MADT_LOCAL_APIC 0
#define MADT_LOCAL_APIC_LENGTH 8
#define MADT_LOCAL_APIC_OVERRIDE 5
#define MADT_LOCAL_APIC_OVERRIDE_LENGTH 12
#define MADT_LOCAL_X2APIC 9
#define MADT_LOCAL_X2APIC_LENGTH 16
/* Local APIC flags (table 5.47): Online Capable is defined only while Enabled is clear. */
#define MADT_ENABLED (1u << 0)
#define MADT_ONLINE_CAPABLE (1u << 1)

/* ACPI 6.5, 5.2.9, table 5.9: FADT field offsets. */
#define FADT_PM_TMR_BLK 76
#define FADT_IAPC_BOOT_ARCH 109
#define FADT_FLAGS 112
#define FADT_RESET_REG 116
#define FADT_RESET_VALUE 128
#define FADT_X_PM_TMR_BLK 208
/*
 * An FADT up to MINOR_VERSION (132 bytes) is an ACPI 1.0-era table whose bytes 109-110 were
 * reserved, not IAPC_BOOT_ARCH; ACPICA ignores the field there too and trusts only the length,
 * never the revision.
 */
#define FADT_V2_LENGTH 132
#define FADT_TMR_VAL_EXT (1u << 8)
#define FADT_RESET_REG_SUP (1u << 10)
/* Hardware-reduced ACPI: the PM timer fields are to be ignored (5.2.9, note on table 5.9). */
#define FADT_HW_REDUCED_ACPI (1u << 20)

/* ACPI 6.5, 5.2.3.2: Generic Address Structure. */
#define GAS_LENGTH 12
#define GAS_SPACE 0
#define GAS_BIT_WIDTH 1
#define GAS_BIT_OFFSET 2
#define GAS_ADDRESS 4

/* Signatures and OEM ids go into JSON records: printable ASCII only. */
static void copy_printable(char *dst, const uint8_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n && src[i]; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	dst[i] = 0;
}

struct walk {
	acpi_translate_fn translate;
	void *ctx;
	struct acpi_info *info;
	struct acpi_result *result;
	uint64_t madt_addr, fadt_addr; /* the tables in use, to skip a repeated entry */
	uint32_t first_duplicate;
	bool apic_overridden; /* the MADT's local APIC address override was taken (one allowed) */
};

static void problem(struct walk *w, const char *table, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct walk *w, const char *table, const char *fmt, ...)
{
	unsigned n = w->result->problem_count++;
	va_list ap;

	if (n >= ACPI_MAX_PROBLEMS)
		return;
	struct acpi_problem *p = &w->result->problems[n];
	copy_printable(p->table, (const uint8_t *)table, 4);
	va_start(ap, fmt);
	format_vsnprintf(p->message, sizeof(p->message), fmt, ap);
	va_end(ap);
}

/*
 * The table at addr, checked as ACPI 6.5, 5.2.6 asks: header readable, signature (when expect is
 * given), length at least the header, at most ACPI_TABLE_MAX_LENGTH and all of it readable, and
 * every byte summing to zero. label names the table in a problem until its own signature is
 * known, what says which one it is ("the XSDT", "entry 3") and then what happens instead.
 */
static const uint8_t *load_table(struct walk *w, uint64_t addr, const char *label,
				 const char *expect, const char *what, const char *then,
				 uint32_t *length)
{
	unsigned long long a = addr;
	const uint8_t *t = w->translate(addr, SDT_HEADER_LENGTH, w->ctx);
	char sig[5];

	if (!t) {
		problem(w, label, "%s at %#llx is not readable, %s", what, a, then);
		return NULL;
	}
	copy_printable(sig, t, 4);
	if (expect && memcmp(t, expect, 4) != 0) {
		problem(w, label, "%s at %#llx has signature \"%s\", %s", what, a, sig, then);
		return NULL;
	}
	if (!expect && strlen(sig) == 4)
		label = sig;
	uint32_t len = read32(t + SDT_LENGTH);
	if (len < SDT_HEADER_LENGTH || len > ACPI_TABLE_MAX_LENGTH) {
		problem(w, label, "%s at %#llx claims length %u, %s", what, a, len, then);
		return NULL;
	}
	t = w->translate(addr, len, w->ctx);
	if (!t) {
		problem(w, label, "%s at %#llx: length %u runs past readable memory, %s", what, a,
			len, then);
		return NULL;
	}
	if (checksum(t, len) != 0) {
		problem(w, label, "%s at %#llx fails its checksum, %s", what, a, then);
		return NULL;
	}
	*length = len;
	return t;
}

static void add_cpu(struct walk *w, uint32_t apic_id, uint32_t uid, uint32_t flags, bool x2apic)
{
	struct acpi_info *info = w->info;
	bool enabled = flags & MADT_ENABLED;

	/* 0xFF (xAPIC) and 0xFFFFFFFF (x2APIC) are broadcast ids: placeholders, never a CPU. */
	if (apic_id == (x2apic ? 0xffffffffu : 0xffu)) {
		if (enabled)
			problem(w, "APIC", "an enabled %s entry has the broadcast id %#x, ignored",
				x2apic ? "x2APIC" : "local APIC", apic_id);
		return;
	}
	/*
	 * Firmware may list a CPU twice, in a type 0 and a type 9 entry (ACPI 6.5, 5.2.12.12 wants
	 * ids below 255 in type 0 entries, some firmware lists them in both), or repeat an entry:
	 * the first one counts.
	 */
	for (unsigned i = 0; i < info->cpu_count; i++) {
		if (info->cpus[i].apic_id == apic_id) {
			if (info->cpu_duplicates++ == 0)
				w->first_duplicate = apic_id;
			return;
		}
	}
	if (info->cpu_count >= ACPI_MAX_CPUS) {
		if (!info->cpus_truncated)
			problem(w, "APIC", "more than %d processor entries, the rest ignored",
				ACPI_MAX_CPUS);
		info->cpus_truncated = true;
		return;
	}
	struct acpi_cpu *cpu = &info->cpus[info->cpu_count++];
	cpu->apic_id = apic_id;
	cpu->uid = uid;
	cpu->enabled = enabled;
	cpu->online_capable = !enabled && (flags & MADT_ONLINE_CAPABLE);
	cpu->x2apic_entry = x2apic;
}

/* UID byte 2, APIC id byte 3, flags bytes 4-7 (5.2.12.2). */
static void madt_local_apic(struct walk *w, const uint8_t *e)
{
	add_cpu(w, e[3], e[2], read32(e + 4), false);
}

/* x2APIC id bytes 4-7, flags 8-11, UID 12-15 (5.2.12.12). */
static void madt_local_x2apic(struct walk *w, const uint8_t *e)
{
	add_cpu(w, read32(e + 4), read32(e + 12), read32(e + 8), true);
}

/* A 64-bit address at bytes 4-11 (5.2.12.8); the spec allows one. */
static void madt_apic_override(struct walk *w, const uint8_t *e)
{
	uint64_t a = read64(e + 4);

	if (w->apic_overridden) {
		problem(w, "APIC", "a second local APIC address override, ignored");
	} else if (a == 0) {
		problem(w, "APIC", "local APIC address override to 0, ignored");
	} else {
		w->info->local_apic_address = a;
		w->apic_overridden = true;
	}
}

/* The entries the kernel reads, with the length their fields need; it skips the others. */
static const struct madt_entry_kind {
	uint8_t type;
	uint8_t length;
	void (*read)(struct walk *w, const uint8_t *e);
} madt_entry_kinds[] = {
	{ MADT_LOCAL_APIC, MADT_LOCAL_APIC_LENGTH, madt_local_apic },
	{ MADT_LOCAL_X2APIC, MADT_LOCAL_X2APIC_LENGTH, madt_local_x2apic },
	{ MADT_LOCAL_APIC_OVERRIDE, MADT_LOCAL_APIC_OVERRIDE_LENGTH, madt_apic_override },
};

/*
 * The entry at offset off: type, length, body (5.2.12). Returns its length, which alone says where
 * the next one is, or 0 when it cannot be trusted and the walk must stop there.
 */
static uint32_t madt_entry(struct walk *w, const uint8_t *t, uint32_t len, uint32_t off)
{
	if (len - off < 2) {
		problem(w, "APIC", "a stray byte after the last entry, at offset %u", off);
		return 0;
	}
	uint8_t type = t[off], elen = t[off + 1];
	if (elen < 2 || elen > len - off) {
		problem(w, "APIC",
			"entry at offset %u (type %u) has length %u in a table of %u: "
			"entries from there on ignored",
			off, type, elen, len);
		return 0;
	}
	for (size_t i = 0; i < sizeof(madt_entry_kinds) / sizeof(madt_entry_kinds[0]); i++) {
		const struct madt_entry_kind *k = &madt_entry_kinds[i];
		if (k->type != type)
			continue;
		if (elen < k->length)
			problem(w, "APIC", "type %u entry at offset %u is only %u bytes, ignored",
				type, off, elen);
		else
			k->read(w, t + off);
	}
	return elen;
}

/* What the whole table says once every entry is read. */
static void madt_summary(struct walk *w)
{
	struct acpi_info *info = w->info;

	if (info->cpu_duplicates)
		problem(w, "APIC",
			"%u entries repeat an APIC id listed before (first %#x), ignored",
			info->cpu_duplicates, w->first_duplicate);
	if (info->cpu_count == 0)
		problem(w, "APIC", "no processor entries");
	if (info->local_apic_address == 0)
		problem(w, "APIC", "local APIC address is 0");
}

static void parse_madt(struct walk *w, const uint8_t *t, uint32_t len)
{
	struct acpi_info *info = w->info;

	if (len < MADT_ENTRIES) {
		problem(w, "APIC", "length %u leaves no room for the MADT's fields, skipped", len);
		return;
	}
	info->madt_found = true;
	info->local_apic_address = read32(t + MADT_LOCAL_APIC_ADDRESS);
	info->pcat_compat = read32(t + MADT_FLAGS) & MADT_PCAT_COMPAT;

	uint32_t off = MADT_ENTRIES, step;
	while (off < len && (step = madt_entry(w, t, len, off)) != 0)
		off += step;
	if (off < len)
		info->madt_walk_stopped = true;
	madt_summary(w);
}

/* A usable I/O port: the x86 I/O space is 16 bits wide. */
static bool io_port(uint64_t a)
{
	return a != 0 && a <= 0xffff;
}

/* No usable X_PM_TMR_BLK (x_addr 0, or not an I/O port): PM_TMR_BLK, when it is a port. */
static void pm_timer_legacy(struct walk *w, uint32_t legacy, uint64_t x_addr, uint8_t x_space)
{
	if (x_addr != 0)
		problem(w, "FACP", "X_PM_TMR_BLK %#llx in space %u is no I/O port, %s",
			(unsigned long long)x_addr, x_space,
			io_port(legacy) ? "using PM_TMR_BLK" : "no PM timer");
	if (io_port(legacy))
		w->info->pm_timer_port = legacy;
	else if (legacy != 0)
		problem(w, "FACP", "PM_TMR_BLK %#x is no I/O port, no PM timer", legacy);
}

/* PM timer: X_PM_TMR_BLK when present and nonzero (5.2.9), else PM_TMR_BLK. */
static void fadt_pm_timer(struct walk *w, const uint8_t *t, uint32_t len, uint32_t flags)
{
	struct acpi_info *info = w->info;
	uint32_t legacy = len >= FADT_PM_TMR_BLK + 4 ? read32(t + FADT_PM_TMR_BLK) : 0;
	uint64_t x_addr = 0;
	uint8_t x_space = 0;

	info->pm_timer_32bit = flags & FADT_TMR_VAL_EXT;
	if (len >= FADT_X_PM_TMR_BLK + GAS_LENGTH) {
		x_space = t[FADT_X_PM_TMR_BLK + GAS_SPACE];
		x_addr = read64(t + FADT_X_PM_TMR_BLK + GAS_ADDRESS);
	}
	if (flags & FADT_HW_REDUCED_ACPI) {
		info->pm_timer_32bit = false;
	} else if (x_addr != 0 && x_space == ACPI_SPACE_IO && io_port(x_addr)) {
		info->pm_timer_port = (uint32_t)x_addr;
		if (legacy != 0 && legacy != x_addr)
			problem(w, "FACP",
				"PM_TMR_BLK %#x and X_PM_TMR_BLK %#llx differ, using the latter",
				legacy, (unsigned long long)x_addr);
	} else {
		pm_timer_legacy(w, legacy, x_addr, x_space);
	}
	if (info->pm_timer_port == 0)
		info->pm_timer_32bit = false;
}

/*
 * Reset register (4.8.4.6): a GAS in memory, I/O or PCI configuration space, 8 bits wide
 * at bit offset 0, written with RESET_VALUE.
 */
static void fadt_reset_register(struct walk *w, const uint8_t *t, uint32_t len)
{
	struct acpi_info *info = w->info;

	if (len < FADT_RESET_VALUE + 1) {
		problem(w, "FACP", "RESET_REG_SUP set in a %u-byte FADT without RESET_REG", len);
		return;
	}
	const uint8_t *gas = t + FADT_RESET_REG;
	uint8_t space = gas[GAS_SPACE];
	uint64_t addr = read64(gas + GAS_ADDRESS);
	if (space > ACPI_SPACE_PCI || addr == 0 || gas[GAS_BIT_WIDTH] != 8 ||
	    gas[GAS_BIT_OFFSET] != 0 || (space == ACPI_SPACE_IO && !io_port(addr))) {
		problem(w, "FACP",
			"RESET_REG (space %u, width %u, offset %u, address %#llx) is unusable, "
			"no ACPI reset",
			space, gas[GAS_BIT_WIDTH], gas[GAS_BIT_OFFSET], (unsigned long long)addr);
		return;
	}
	info->reset_supported = true;
	info->reset_space = space;
	info->reset_address = addr;
	info->reset_value = t[FADT_RESET_VALUE];
}

static void parse_fadt(struct walk *w, const uint8_t *t, uint32_t len)
{
	struct acpi_info *info = w->info;
	uint32_t flags = 0;

	/* Old FADTs are short (ACPI 1.0: 116 bytes): every field only if the length covers it. */
	info->fadt_found = true;
	if (len >= FADT_FLAGS + 4)
		flags = read32(t + FADT_FLAGS);
	if (len > FADT_V2_LENGTH) {
		info->boot_arch_flags = read16(t + FADT_IAPC_BOOT_ARCH);
		info->boot_arch_valid = true;
	}
	fadt_pm_timer(w, t, len, flags);
	if (flags & FADT_RESET_REG_SUP)
		fadt_reset_register(w, t, len);
}

static void visit(struct walk *w, const char *root, unsigned index, uint64_t addr)
{
	char what[24];
	uint32_t len;

	if (addr == 0) {
		problem(w, root, "entry %u is address 0, skipped", index);
		return;
	}
	/* The same table listed twice is read once. */
	if (addr == w->madt_addr || addr == w->fadt_addr)
		return;
	format_snprintf(what, sizeof(what), "entry %u", index);
	const uint8_t *t = load_table(w, addr, root, NULL, what, "skipped", &len);
	if (!t)
		return;
	/* One MADT and one FADT per system (5.2.12, 5.2.9): the first good one is used. */
	if (memcmp(t, "APIC", 4) == 0) {
		if (w->info->madt_found) {
			problem(w, "APIC", "%s at %#llx is a second MADT, ignored", what,
				(unsigned long long)addr);
			return;
		}
		parse_madt(w, t, len);
		if (w->info->madt_found)
			w->madt_addr = addr;
	} else if (memcmp(t, "FACP", 4) == 0) {
		if (w->info->fadt_found) {
			problem(w, "FACP", "%s at %#llx is a second FADT, ignored", what,
				(unsigned long long)addr);
			return;
		}
		parse_fadt(w, t, len);
		w->fadt_addr = addr;
	}
}

/* Walks the XSDT (64-bit entries) or the RSDT (32-bit entries); false when it is unusable. */
static bool walk_root(struct walk *w, uint64_t addr, bool xsdt, const char *then)
{
	const char *name = xsdt ? "XSDT" : "RSDT";
	unsigned entry_size = xsdt ? 8 : 4;
	uint32_t len;
	const uint8_t *t =
		load_table(w, addr, name, name, xsdt ? "the XSDT" : "the RSDT", then, &len);

	if (!t)
		return false;
	uint32_t count = (len - SDT_HEADER_LENGTH) / entry_size;
	uint32_t extra = (len - SDT_HEADER_LENGTH) % entry_size;
	if (extra)
		problem(w, name, "%u bytes after the last entry, ignored", extra);
	/* Each entry may be a table of up to 16 MiB to checksum: a broken root of millions of
	 * entries would keep the boot busy for hours. Machines list a few dozen tables. */
	if (count > ACPI_ROOT_MAX_ENTRIES) {
		problem(w, name, "%u entries; only the first %u are read", count,
			ACPI_ROOT_MAX_ENTRIES);
		count = ACPI_ROOT_MAX_ENTRIES;
	}
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = t + SDT_HEADER_LENGTH + i * entry_size;
		visit(w, name, i, xsdt ? read64(e) : read32(e));
	}
	return true;
}

/* The XSDT address of a revision 2+ RSDP, or 0 when its extended part cannot be trusted. */
static uint64_t rsdp_xsdt(struct walk *w, uint64_t rsdp_addr, uint8_t revision)
{
	const uint8_t *p = w->translate(rsdp_addr, ACPI_RSDP_V2_LENGTH, w->ctx);
	uint32_t len = p ? read32(p + RSDP_LENGTH) : 0;

	/* Read no byte beyond the length once it is known to be sane. */
	if (!p || len < ACPI_RSDP_V2_LENGTH || len > RSDP_MAX_LENGTH ||
	    !(p = w->translate(rsdp_addr, len, w->ctx)) || !acpi_rsdp_valid(p, len)) {
		problem(w, "RSDP",
			"revision %u: length %u or extended checksum fails, using the RSDT",
			revision, len);
		return 0;
	}
	return read64(p + RSDP_XSDT_ADDRESS);
}

void acpi_parse(uint64_t rsdp_addr, acpi_translate_fn translate, void *ctx, struct acpi_info *info,
		struct acpi_result *result)
{
	struct walk w = { .translate = translate, .ctx = ctx, .info = info, .result = result };

	memset(info, 0, sizeof(*info));
	memset(result, 0, sizeof(*result));
	if (rsdp_addr == 0) {
		problem(&w, "RSDP", "no RSDP");
		return;
	}
	const uint8_t *rsdp = translate(rsdp_addr, ACPI_RSDP_V1_LENGTH, ctx);
	if (!rsdp) {
		problem(&w, "RSDP", "RSDP at %#llx is not readable", (unsigned long long)rsdp_addr);
		return;
	}
	/* ACPI 6.5, 5.2.5.3: signature, and the first 20 bytes sum to zero in every revision. */
	if (memcmp(rsdp, "RSD PTR ", 8) != 0 || checksum(rsdp, ACPI_RSDP_V1_LENGTH) != 0) {
		problem(&w, "RSDP", "RSDP at %#llx has a bad signature or checksum",
			(unsigned long long)rsdp_addr);
		return;
	}
	uint8_t revision = rsdp[RSDP_REVISION];
	uint32_t rsdt = read32(rsdp + RSDP_RSDT_ADDRESS);
	info->rsdp_revision = revision;
	copy_printable(info->oem_id, rsdp + RSDP_OEM_ID, 6);

	/* ACPI 6.5, 5.2.5.3 and 5.2.8: revision 2+ gives the XSDT, which supersedes the RSDT. */
	uint64_t xsdt = revision >= 2 ? rsdp_xsdt(&w, rsdp_addr, revision) : 0;
	if (xsdt && walk_root(&w, xsdt, true, rsdt ? "using the RSDT" : "no tables")) {
		info->via_xsdt = true;
		return;
	}
	if (rsdt)
		walk_root(&w, rsdt, false, "no tables");
	else
		problem(&w, "RSDP", "no usable XSDT and an RSDT address of 0: no tables");
}
