// SPDX-License-Identifier: GPL-2.0
/*
 * The end-of-run screen: the copy of the records, making the QR codes at ring 3
 * (kernel/qr/job.h), and the pages in turn with the summary.
 *
 * Each page change is also a line on the serial port ("qr: records 3 of 8 on the screen", then
 * "... off the screen" before the screen changes again): what tools/qemu-run --photos waits for
 * to take each screendump, and what tells it that the page was still there when it took it.
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/lib/crc32.h"
#include "kernel/font.h"
#include "kernel/lib/format.h"
#include "kernel/framebuffer.h"
#include "kernel/page_alloc.h"
#include "kernel/paging.h"
#include "kernel/end_screen.h"
#include "kernel/qr/job.h"
#include "kernel/qr/page.h"
#include "kernel/qr/record_copy.h"
#include "kernel/record_stream.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/trap.h"
#include "kernel/user.h"

#define IA32_FS_BASE 0xc0000100 /* SDM vol. 4, table 2-2 */
#define LARGE_PAGE (2u << 20)
#define COPY_BYTES LARGE_PAGE	    /* the records: the default suite's log is 160 KB */
#define WORK_BYTES (3 * LARGE_PAGE) /* the job, the heap and the modules */
#define JOB_BYTES 4096
#define HEAP_BYTES (4u << 20) /* libdeflate's compressor (0.7 MB), the chunks' buffers */
_Static_assert(sizeof(struct qr_job) <= JOB_BYTES, "the job outgrew its page");
_Static_assert(JOB_BYTES + HEAP_BYTES + CHUNK_CODES_MAX * QR_MODULES_MAX <= WORK_BYTES,
	       "the modules do not fit beside the heap");
#define USER_STACK_BYTES (256 * 1024)

/* The exceptions ring-3 code can raise by itself (SDM vol. 3A, table 6-1). */
static const uint8_t fault_vectors[] = { 0, 4, 5, 6, 7, 12, 13, 14, 16, 17, 19 };

static const char *const status_text[QR_STATUS_COUNT] = {
	[QR_OK] = "made",
	[QR_NO_MEMORY] = "the memory set aside for them is too small",
	[QR_NOTHING] = "the copy of the records is empty",
	[QR_TOO_SMALL] = "the screen's largest code cannot hold a record",
	[QR_DEFLATE] = "libdeflate refused a chunk",
	[QR_ENCODE] = "qrcodegen refused a chunk",
	[QR_ASSERT] = "an assertion of a library failed",
	[QR_STACK_SMASH] = "the stack protector fired",
	[QR_FAULT] = "an exception at ring 3",
};

static struct {
	bool on;
	uint32_t ms;
	struct record_copy copy;
	struct qr_job *job;
	uint64_t stack_top;
	const char *problem; /* why no memory was set aside */
	bool in_user;
	uint64_t fault_vector, fault_rip;
} qr = { .on = true,
	 .ms = CONFIG_QR_MS_DEFAULT,
	 .problem = "the run ended before the kernel "
		    "set memory aside for them" };

/* Memory that CPL 3 may use, in whole 2 MiB pages (no page table is split for it). */
static void *user_pages(uint64_t bytes)
{
	uint64_t base = page_alloc(bytes, LARGE_PAGE);

	if (!base || !paging_allow_user(base, base + bytes))
		return NULL;
	return (void *)(uintptr_t)base;
}

/* Every record from now on, kept for the codes (record_set_keeper). */
static void keep_record(uint64_t seq, const char *type, const char *json, size_t len)
{
	if (qr.job)
		record_copy_add(&qr.copy, seq, type, json, len);
}

void qr_end_screen_setup(bool on, uint32_t ms)
{
	uint32_t w, h, cw, ch;

	qr.on = on;
	qr.ms = ms;
	if (!on || !framebuffer_size(&w, &h, &cw, &ch))
		return;
	void *copy = user_pages(COPY_BYTES);
	qr.job = user_pages(WORK_BYTES);
	qr.stack_top = user_stack_alloc(USER_STACK_BYTES);
	if (!copy || !qr.job || !qr.stack_top) {
		qr.job = NULL;
		qr.problem = "no free memory for the copy of the records and the codes";
		return;
	}
	record_copy_init(&qr.copy, copy, COPY_BYTES);
	record_set_keeper(keep_record);
}

static void serial_line(const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	int n = format_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	uint64_t flags = console_acquire();
	console_write_serial_line_locked(line, n < 0 ? 0 : strnlen(line, sizeof(line)));
	console_release(flags);
}

/* An exception at CPL 3 during the call ends the call, not the run (the end record is out). */
static void user_fault(struct trap_frame *f)
{
	if (!qr.in_user || (f->cs & 3) != 3)
		trap_report_unexpected(f);
	qr.fault_vector = f->vector;
	qr.fault_rip = f->rip;
	qr.job->status = QR_FAULT;
	user_call_abort(QR_FAULT);
}

static void fault_handlers(trap_handler handler)
{
	for (size_t i = 0; i < sizeof(fault_vectors); i++)
		trap_register(fault_vectors[i], handler, 0);
}

/* The codes, at ring 3: IA32_FS_BASE on the job's TLS words for the libraries' stack
 * protector, this CPU's tick stopped (no tick handler may run in the middle), faults caught. */
static unsigned make_codes(int version)
{
	struct qr_job *job = qr.job;
	uint64_t tsc = rdtsc();

	memset(job, 0, sizeof(*job));
	job->copy = qr.copy.buf;
	job->copy_len = qr.copy.used;
	job->copy_left = qr.copy.dropped_counts + qr.copy.dropped_others;
	job->run_id = crc32_ieee((uint32_t)(tsc ^ tsc >> 32), qr.copy.buf, qr.copy.used);
	job->version = version;
	job->heap = (uint8_t *)job + JOB_BYTES;
	job->heap_size = HEAP_BYTES;
	job->modules = job->heap + HEAP_BYTES;
	/* A canary with a zero low byte, as glibc makes it: a string overrun stops at it. */
	job->tls[QR_JOB_CANARY_WORD] = (tsc * 0x9e3779b97f4a7c15ull) << 8;
	uint64_t fs_base = rdmsr(IA32_FS_BASE);
	wrmsr(IA32_FS_BASE, (uint64_t)(uintptr_t)job->tls);
	tick_stop();
	fault_handlers(user_fault);
	qr.in_user = true;
	user_call((uint64_t)(uintptr_t)qr_user_entry, (uint64_t)(uintptr_t)job, 0, qr.stack_top);
	qr.in_user = false;
	fault_handlers(NULL);
	wrmsr(IA32_FS_BASE, fs_base);
	return job->status < QR_STATUS_COUNT ? job->status : QR_FAULT;
}

/* Code k's modules, a run of dark modules in a row at a time. */
static void draw_code(const uint8_t *modules, uint32_t size, const struct qr_page_layout *l)
{
	uint32_t m = l->module_px;

	for (uint32_t y = 0; y < size; y++)
		for (uint32_t x = 0; x < size;) {
			if (!modules[y * size + x]) {
				x++;
				continue;
			}
			uint32_t run = x;
			while (run < size && modules[y * size + run])
				run++;
			framebuffer_fill_rect(l->code_x + x * m, l->code_y + y * m, (run - x) * m,
					      m, SCREEN_BLACK);
			x = run;
		}
}

static void show_page(unsigned k, bool pass, const char *caveat)
{
	const struct qr_job *job = qr.job;
	const struct qr_code_info *info = &job->code[k];
	static struct qr_page_text text;
	struct qr_page_layout l;
	uint32_t w, h, cw, ch;

	framebuffer_size(&w, &h, &cw, &ch);
	framebuffer_fill_rect(0, 0, w, h, SCREEN_WHITE);
	if (!qr_page_layout(w, h, cw, ch, info->size, &l))
		return;
	draw_code(job->modules + (size_t)k * QR_MODULES_MAX, info->size, &l);
	struct qr_page_facts facts = {
		.number = k + 1,
		.total = job->codes,
		.run_id = job->run_id,
		.pass = pass,
		.caveat = caveat,
		.first_seq = info->first_seq,
		.last_seq = info->last_seq,
		.records = info->records,
		.note = k ? "" : job->note,
		.ms = qr.ms,
	};
	qr_page_text(&facts, l.columns, &text);
	uint32_t y = l.text_y;
	for (unsigned i = 0; i < text.count && y + 2 * ch <= h; i++) {
		/* The headline at twice the text's size (itself doubled on large screens). */
		uint32_t scale = i == 0 ? 2 : 1;
		framebuffer_text(l.text_x, y, text.lines[i], scale * cw / console_font.width,
				 SCREEN_ATTRIBUTE(SCREEN_BLACK, SCREEN_WHITE));
		y += scale * ch;
	}
}

static void show_summary(void)
{
	uint32_t w, h, cw, ch;

	framebuffer_size(&w, &h, &cw, &ch);
	uint64_t flags = console_acquire();
	framebuffer_fill_rect(0, 0, w, h, SCREEN_BLACK);
	screen_redraw();
	console_release(flags);
}

/* Make the codes and say so; false (and why, on the screen) when there are none. */
static bool codes_ready(int version)
{
	if (!qr.job) {
		kprintf("no QR codes of the records: %s\n", qr.problem);
		return false;
	}
	uint64_t start = rdtsc();
	unsigned status = make_codes(version);
	uint64_t ms = tsc_to_ns(rdtsc() - start) / 1000000;
	const struct qr_job *job = qr.job;
	if (status != QR_OK) {
		kprintf("no QR codes of the records: %s%s%s", status_text[status],
			job->failure ? ": " : "", job->failure ? job->failure : "");
		if (status == QR_FAULT)
			kprintf(" (vector %llu at RIP %p)", (unsigned long long)qr.fault_vector,
				(void *)(uintptr_t)qr.fault_rip);
		kprintf("\n");
		return false;
	}
	/* No "@<digit>" in text: a log reader would take it for a damaged record. */
	serial_line(
		"qr: %u codes of %llu records (numbers %llu to %llu) made in %llu ms: run %08x, "
		"version %d or less, %u deflated bytes a code, %u compressions",
		job->codes, (unsigned long long)job->kept,
		(unsigned long long)job->code[0].first_seq,
		(unsigned long long)job->code[job->codes - 1].last_seq, (unsigned long long)ms,
		job->run_id, version, (unsigned)job->capacity, job->probes);
	if (job->note[0])
		serial_line("qr: not in the codes: %s", job->note);
	return true;
}

void qr_end_screen(bool pass, const char *caveat)
{
	uint32_t w, h, cw, ch;

	if (!qr.on)
		return;
	if (console_has_vga()) {
		/* On the status line: a line of text would push the summary's head off 25 rows. */
		static char status[200];
		format_snprintf(status, sizeof(status),
				"pmu-testkernel: the run is over: %s%s%s%s | QR codes need GRUB's "
				"framebuffer",
				pass ? "PASS" : "FAIL", caveat ? " (" : "", caveat ? caveat : "",
				caveat ? ")" : "");
		console_status(status);
		serial_line(
			"qr: no QR codes of the records: VGA text cannot show them; the stick's "
			"GRUB entries give a framebuffer that can");
		return;
	}
	if (!framebuffer_size(&w, &h, &cw, &ch))
		return;
	kprintf("halted: the run is over; the screen shows this summary and the records as QR "
		"codes in turn (qr=off: the summary only)\n");
	int version = qr_page_version(w, h, cw);
	if (!version) {
		kprintf("no QR codes of the records: the screen is too small for them\n");
		cpu_halt_forever();
	}
	if (!codes_ready(version))
		cpu_halt_forever();
	const struct qr_job *job = qr.job;
	for (;;) {
		udelay((uint64_t)qr.ms * 1000);
		for (unsigned k = 0; k < job->codes; k++) {
			show_page(k, pass, caveat);
			serial_line("qr: records %u of %u on the screen", k + 1, job->codes);
			udelay((uint64_t)qr.ms * 1000);
			serial_line("qr: records %u of %u off the screen", k + 1, job->codes);
		}
		show_summary();
	}
}
