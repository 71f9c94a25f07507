// SPDX-License-Identifier: GPL-2.0
/*
 * The end-of-run screen: the copy of the records, the screen's plan (kernel/qr/plan.h), making the
 * QR codes at ring 3 (kernel/qr/job.h), and the pages in turn with the summary.
 *
 * Each page change is also a line on the serial port ("qr: page 3 of 8 on the screen", then
 * "... off the screen" before the screen changes again): what tools/qemu-run --photos waits for
 * to take each screendump, and what tells it that the page was still there when it took it.
 */
#include <stdarg.h>
#include <string.h>

#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/lib/crc32.h"
#include "kernel/lib/format.h"
#include "kernel/framebuffer.h"
#include "kernel/page_alloc.h"
#include "kernel/paging.h"
#include "kernel/end_screen.h"
#include "kernel/qr/job.h"
#include "kernel/qr_page_draw.h"
#include "kernel/qr/plan.h"
#include "kernel/qr/record_copy.h"
#include "kernel/record_stream.h"
#include "kernel/tick.h"
#include "kernel/time.h"
#include "kernel/trap.h"
#include "kernel/user.h"

#define IA32_FS_BASE 0xc0000100 /* SDM vol. 4, table 2-2 */
#define LARGE_PAGE (2u << 20)
#define COPY_BYTES LARGE_PAGE /* the records: the default suite's log is 160 KB */
_Static_assert(QR_WORK_BYTES % LARGE_PAGE == 0, "the work area is whole large pages");
_Static_assert(sizeof(struct qr_job) <= QR_JOB_BYTES, "the job outgrew its pages");
#define USER_STACK_BYTES (256 * 1024)

/* The exceptions ring-3 code can raise by itself (SDM vol. 3A, table 6-1). */
static const uint8_t fault_vectors[] = { 0, 4, 5, 6, 7, 12, 13, 14, 16, 17, 19 };

static const char *const status_text[QR_STATUS_COUNT] = {
	[QR_OK] = "made",
	[QR_NO_MEMORY] = "the memory set aside for them is too small",
	[QR_NOTHING] = "the copy of the records is empty",
	[QR_TOO_SMALL] = "the screen's codes cannot hold a record",
	[QR_DEFLATE] = "zlib refused a chunk",
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
	qr.job = user_pages(QR_WORK_BYTES);
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
static unsigned make_codes(const struct qr_page_shape *shape)
{
	struct qr_job *job = qr.job;
	uint64_t tsc = rdtsc();

	memset(job, 0, sizeof(*job));
	job->copy = qr.copy.buf;
	job->copy_len = qr.copy.used;
	job->copy_left = qr.copy.dropped_counts + qr.copy.dropped_others;
	job->run_id = crc32_ieee((uint32_t)(tsc ^ tsc >> 32), qr.copy.buf, qr.copy.used);
	qr_plan_job(shape, job);
	job->heap = (uint8_t *)job + QR_JOB_BYTES;
	job->heap_size = QR_HEAP_BYTES;
	job->modules = job->heap + QR_HEAP_BYTES;
	job->modules_size = QR_MODULES_BYTES;
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
static bool codes_ready(const struct qr_page_shape *shape)
{
	if (!qr.job) {
		kprintf("no QR codes of the records: %s\n", qr.problem);
		return false;
	}
	uint64_t start = rdtsc();
	unsigned status = make_codes(shape);
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
	char made[96];
	qr_job_words(job, made, sizeof(made));
	/* No "@<digit>" in text: a log reader would take it for a damaged record. */
	serial_line(
		"qr: %s (numbers %llu to %llu) made in %llu ms: run %08x, %u a page, version %d "
		"or less at %u pixels a module, %u deflated bytes a code, %u compressions",
		made, (unsigned long long)job->code[0].first_seq,
		(unsigned long long)job->code[job->codes - 1].last_seq, (unsigned long long)ms,
		job->run_id, job->per_page, job->version, shape->module_px, (unsigned)job->capacity,
		job->probes);
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
		/* On the status line: a line of text would push the summary's head off 25 rows. Its
		 * 80 columns hold the whole of it with the longest caveat (79 with "model PMU:
		 * nothing measured"): shorter words than show_verdict()'s (kernel/end.c). */
		static char status[200];
		format_snprintf(status, sizeof(status),
				"run over: %s%s%s%s | QR codes need GRUB's framebuffer",
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
	const struct qr_plan *plan = qr_plan_for(w, h, cw, ch);
	if (!plan) {
		kprintf("no QR codes of the records: the screen is too small for them\n");
		cpu_halt_forever();
	}
	struct qr_page_layout layout;
	qr_page_layout(&plan->shape, w, h, cw, ch, &layout);
	if (!codes_ready(&plan->shape))
		cpu_halt_forever();
	const struct qr_job *job = qr.job;
	const struct qr_page_run run = { pass, caveat, qr.ms };
	unsigned pages = qr_pages(job);
	for (;;) {
		udelay((uint64_t)qr.ms * 1000);
		for (unsigned p = 0; p < pages; p++) {
			qr_page_draw(job, &layout, p, &run);
			serial_line("qr: page %u of %u on the screen", p + 1, pages);
			udelay((uint64_t)qr.ms * 1000);
			serial_line("qr: page %u of %u off the screen", p + 1, pages);
		}
		show_summary();
	}
}
