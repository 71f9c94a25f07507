// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict of the boot and its end (kernel/end.h).
 */
#include "kernel/config.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/lib/format.h"
#include "kernel/end_screen.h"
#include "kernel/record_stream.h"
#include "kernel/end.h"
#include "kernel/smp.h"

static unsigned failures;
static const char *first_reason;
static unsigned exit_mode = EXIT_MODE_HALT;
static int ending;

void boot_fail(const char *reason)
{
	if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) == 0)
		first_reason = reason;
}

bool boot_failed(void)
{
	return __atomic_load_n(&failures, __ATOMIC_RELAXED) != 0;
}

void boot_abort(const char *reason)
{
	boot_fail(reason);
	boot_end();
}

void boot_set_exit_mode(unsigned mode)
{
	exit_mode = mode;
}

static const char *caveat_text, *caveat_banner[2]; /* [pass] */

void boot_set_caveat(const char *caveat, const char *pass_banner, const char *fail_banner)
{
	caveat_text = caveat;
	caveat_banner[1] = pass_banner;
	caveat_banner[0] = fail_banner;
}

/*
 * The banner's band: a failure red; a pass green only when something was measured. A pass on the
 * model PMU or with no PMU measured nothing, and its band (blue) must not read as a measurement's
 * pass from across the room.
 */
static enum screen_colour verdict_band(bool pass)
{
	if (!pass)
		return SCREEN_RED;
	return caveat_text ? SCREEN_BLUE : SCREEN_GREEN;
}

/* For a person at the machine: the verdict in words, and in large type on its band. */
static void show_verdict(bool pass)
{
	static char status[160];
	const char *verdict = pass ? "PASS" : "FAIL";

	if (caveat_text)
		format_snprintf(status, sizeof(status), "pmu-testkernel: the run is over: %s (%s)",
				verdict, caveat_text);
	else
		format_snprintf(status, sizeof(status), "pmu-testkernel: the run is over: %s",
				verdict);
	console_status(status);
	console_banner(caveat_text ? caveat_banner[pass] : verdict, verdict_band(pass));
}

void boot_end(void)
{
	irq_disable();
	if (__atomic_exchange_n(&ending, 1, __ATOMIC_ACQ_REL))
		cpu_halt_forever();

	bool pass = !boot_failed();
	/* Other CPUs must stop touching the console and the PMU before the end record. */
	smp_stop_others();
	console_break_lock();
	record_emit_end(pass, failures, pass ? NULL : first_reason);
	if (!pass)
		console_set_alert(true);
	kprintf("\nRUN %s%s%s%s%s%s\n", pass ? "PASSED" : "FAILED", pass ? "" : ": ",
		pass ? "" : first_reason, caveat_text ? " (" : "", caveat_text ? caveat_text : "",
		caveat_text ? ")" : "");
	show_verdict(pass);
	if (exit_mode == EXIT_MODE_HALT)
		qr_end_screen(pass, caveat_text); /* the records as QR codes, with the summary */
	machine_exit(exit_mode, pass);
}
