// SPDX-License-Identifier: GPL-2.0
/*
 * Local APIC register logic (kernel/apic.c) over a recorded MSR/MMIO interface: QEMU's TCG has no
 * x2APIC, so this is where the x2APIC paths are proven (SDM vol. 3A, 10.12).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/apic.h"

enum op { READ_MSR, WRITE_MSR, READ_MMIO, WRITE_MMIO, FENCE };

struct access {
	enum op op;
	uint64_t where;
	uint64_t value;
};

/* A fake APIC: registers by MSR number or MMIO address, and the log of every access. */
struct recorder {
	struct access log[64];
	unsigned count;
	uint64_t apic_base;	/* IA32_APIC_BASE */
	uint64_t x2apic_id;	/* MSR 0x802 */
	uint32_t xapic_id;	/* MMIO ID register */
	unsigned pending_reads; /* ICR low reads that still show delivery pending */
};

static void log_access(struct recorder *r, enum op op, uint64_t where, uint64_t value)
{
	assert_true(r->count < 64);
	r->log[r->count++] = (struct access){ op, where, value };
}

static uint64_t read_msr(void *ctx, uint32_t msr)
{
	struct recorder *r = ctx;
	uint64_t v = msr == IA32_APIC_BASE ? r->apic_base : msr == 0x802 ? r->x2apic_id : 0;
	log_access(r, READ_MSR, msr, v);
	return v;
}

static void write_msr(void *ctx, uint32_t msr, uint64_t value)
{
	struct recorder *r = ctx;
	if (msr == IA32_APIC_BASE)
		r->apic_base = value;
	log_access(r, WRITE_MSR, msr, value);
}

static uint32_t read_mmio(void *ctx, uint64_t address)
{
	struct recorder *r = ctx;
	uint32_t v = 0;
	if (address == 0xfee00000 + APIC_ID)
		v = r->xapic_id;
	if (address == 0xfee00000 + APIC_ICR_LOW && r->pending_reads) {
		r->pending_reads--;
		v = APIC_ICR_PENDING;
	}
	log_access(r, READ_MMIO, address, v);
	return v;
}

static void write_mmio(void *ctx, uint64_t address, uint32_t value)
{
	log_access(ctx, WRITE_MMIO, address, value);
}

static void fence(void *ctx)
{
	log_access(ctx, FENCE, 0, 0);
}

static struct recorder rec;
static struct apic_backend backend = { read_msr, write_msr, read_mmio, write_mmio, fence, &rec };

static struct apic make_apic(enum apic_mode mode)
{
	memset(&rec, 0, sizeof(rec));
	return (struct apic){ mode, 0xfee00000, &backend };
}

static void expect(unsigned i, enum op op, uint64_t where, uint64_t value)
{
	assert_true(i < rec.count);
	assert_int_equal(rec.log[i].op, op);
	assert_int_equal(rec.log[i].where, where);
	assert_int_equal(rec.log[i].value, value);
}

static void test_choose_mode(void **state)
{
	(void)state;
	uint64_t xapic = 0xfee00000 | APIC_BASE_ENABLE | APIC_BASE_BSP;
	uint64_t x2apic = xapic | APIC_BASE_EXTD;
	struct apic_mode_choice c;

	/* Keep what the firmware left. */
	c = apic_choose_mode(xapic, true, APIC_REQUEST_AUTO, 7);
	assert_int_equal(c.mode, APIC_MODE_XAPIC);
	assert_null(c.warning);
	c = apic_choose_mode(x2apic, true, APIC_REQUEST_AUTO, 7);
	assert_int_equal(c.mode, APIC_MODE_X2APIC);
	/* x2APIC left by the firmware cannot be turned back into xAPIC: warn, keep it. */
	c = apic_choose_mode(x2apic, true, APIC_REQUEST_XAPIC, 7);
	assert_int_equal(c.mode, APIC_MODE_X2APIC);
	assert_non_null(c.warning);
	/* Asked for x2APIC. */
	c = apic_choose_mode(xapic, true, APIC_REQUEST_X2APIC, 7);
	assert_int_equal(c.mode, APIC_MODE_X2APIC);
	c = apic_choose_mode(xapic, false, APIC_REQUEST_X2APIC, 7);
	assert_int_equal(c.mode, APIC_MODE_XAPIC);
	assert_non_null(c.warning);
	/* Ids above 254 need x2APIC. */
	c = apic_choose_mode(xapic, true, APIC_REQUEST_AUTO, 300);
	assert_int_equal(c.mode, APIC_MODE_X2APIC);
	c = apic_choose_mode(xapic, false, APIC_REQUEST_AUTO, 300);
	assert_int_equal(c.mode, APIC_MODE_XAPIC);
	assert_non_null(strstr(c.warning, "above 254"));
}

static void test_x2apic_ipis(void **state)
{
	(void)state;
	struct apic a = make_apic(APIC_MODE_X2APIC);

	/* One 64-bit ICR write (MSR 0x830), destination in the upper half, each after a fence. */
	assert_true(apic_send_init(&a, 5));
	expect(0, FENCE, 0, 0);
	expect(1, WRITE_MSR, 0x830, (5ull << 32) | 0xc500);
	assert_true(apic_send_startup(&a, 0x1234, 0x9f000));
	expect(2, FENCE, 0, 0);
	expect(3, WRITE_MSR, 0x830, (0x1234ull << 32) | 0x069f);
	assert_true(apic_send_nmi(&a, 3));
	expect(4, FENCE, 0, 0);
	expect(5, WRITE_MSR, 0x830, (3ull << 32) | 0x4400);
	assert_true(apic_send_ipi(&a, 1, 0xf0));
	expect(6, FENCE, 0, 0);
	expect(7, WRITE_MSR, 0x830, (1ull << 32) | 0xf0);
	assert_int_equal(rec.count, 8); /* no polling of a delivery status in x2APIC mode */
}

/*
 * SDM vol. 3A, 10.12.3: a WRMSR to an x2APIC register is not serializing and may pass earlier
 * stores, so the IPI that announces posted work (kernel/smp.c: smp_post()) could wake a CPU that
 * still reads the old value and halts again. Every ICR write must come right after a fence, as
 * Linux's weak_wrmsr_fence(); the other x2APIC writes need none (the EOI and the timer announce
 * nothing stored), and xAPIC's uncached stores are not passed by earlier stores.
 */
static void test_x2apic_icr_write_follows_a_fence(void **state)
{
	(void)state;
	struct apic a = make_apic(APIC_MODE_X2APIC);

	apic_eoi(&a);
	apic_send_ipi(&a, 2, APIC_ICR_DELIVERY_FIXED | 0xf1);
	apic_timer_oneshot(&a, 0xe0, 100, false);
	apic_send_nmi(&a, 2);
	unsigned icr_writes = 0, fences = 0;
	for (unsigned i = 0; i < rec.count; i++) {
		fences += rec.log[i].op == FENCE;
		if (rec.log[i].op != WRITE_MSR || rec.log[i].where != 0x830)
			continue;
		icr_writes++;
		assert_true(i > 0);
		assert_int_equal(rec.log[i - 1].op, FENCE);
	}
	assert_int_equal(icr_writes, 2);
	assert_int_equal(fences, 2);

	a = make_apic(APIC_MODE_XAPIC);
	apic_send_ipi(&a, 2, APIC_ICR_DELIVERY_FIXED | 0xf1);
	for (unsigned i = 0; i < rec.count; i++)
		assert_int_not_equal(rec.log[i].op, FENCE);
}

static void test_x2apic_registers(void **state)
{
	(void)state;
	struct apic a = make_apic(APIC_MODE_X2APIC);

	rec.x2apic_id = 0x1000; /* a 32-bit id, beyond xAPIC's 8 bits */
	assert_int_equal(apic_id(&a), 0x1000);
	expect(0, READ_MSR, 0x802, 0x1000);
	apic_eoi(&a);
	expect(1, WRITE_MSR, 0x80b, 0);
	apic_timer_periodic(&a, 0xe0, 12345);
	expect(2, WRITE_MSR, 0x83e, APIC_TIMER_DIVIDE_BY_16);
	expect(3, WRITE_MSR, 0x832, APIC_LVT_TIMER_PERIODIC | 0xe0);
	expect(4, WRITE_MSR, 0x838, 12345);
	apic_timer_stop(&a);
	expect(5, WRITE_MSR, 0x832, APIC_LVT_MASKED);
	expect(6, WRITE_MSR, 0x838, 0);
}

static void test_x2apic_enable_from_disabled(void **state)
{
	(void)state;
	struct apic a = make_apic(APIC_MODE_X2APIC);

	/* A disabled APIC goes to xAPIC-enabled first, then to x2APIC (SDM figure 10-27). */
	rec.apic_base = 0xfee00000;
	apic_enable(&a, 0xff);
	expect(0, READ_MSR, IA32_APIC_BASE, 0xfee00000);
	expect(1, WRITE_MSR, IA32_APIC_BASE, 0xfee00000 | APIC_BASE_ENABLE);
	expect(2, READ_MSR, IA32_APIC_BASE, 0xfee00000 | APIC_BASE_ENABLE);
	expect(3, WRITE_MSR, IA32_APIC_BASE, 0xfee00000 | APIC_BASE_ENABLE | APIC_BASE_EXTD);
	expect(4, WRITE_MSR, 0x808, 0); /* TPR: accept everything */
	/* Every LVT masked, then the SVR enables the APIC with the spurious vector. */
	expect(5, WRITE_MSR, 0x832, APIC_LVT_MASKED);
	expect(6, WRITE_MSR, 0x833, APIC_LVT_MASKED);
	expect(7, WRITE_MSR, 0x834, APIC_LVT_MASKED);
	expect(8, WRITE_MSR, 0x835, APIC_LVT_MASKED);
	expect(9, WRITE_MSR, 0x836, APIC_LVT_MASKED);
	expect(10, WRITE_MSR, 0x837, APIC_LVT_MASKED);
	expect(11, WRITE_MSR, 0x80f, APIC_SVR_ENABLE | 0xff);
	assert_int_equal(rec.count, 12);

	/* Already in x2APIC mode: IA32_APIC_BASE is read, not rewritten. */
	memset(&rec, 0, sizeof(rec));
	rec.apic_base = 0xfee00000 | APIC_BASE_ENABLE | APIC_BASE_EXTD;
	apic_enable(&a, 0xff);
	for (unsigned i = 0; i < rec.count; i++)
		assert_false(rec.log[i].op == WRITE_MSR && rec.log[i].where == IA32_APIC_BASE);
}

static void test_xapic(void **state)
{
	(void)state;
	struct apic a = make_apic(APIC_MODE_XAPIC);

	rec.xapic_id = 0x07000000;
	assert_int_equal(apic_id(&a), 7);
	/* The destination goes to ICR high before the command in ICR low sends the IPI. */
	memset(&rec, 0, sizeof(rec));
	rec.pending_reads = 2;
	assert_true(apic_send_startup(&a, 1, 0x8000));
	expect(0, WRITE_MMIO, 0xfee00310, 1u << 24);
	expect(1, WRITE_MMIO, 0xfee00300, 0x0608);
	expect(2, READ_MMIO, 0xfee00300, APIC_ICR_PENDING);
	expect(3, READ_MMIO, 0xfee00300, APIC_ICR_PENDING);
	expect(4, READ_MMIO, 0xfee00300, 0);
	assert_int_equal(rec.count, 5);
}

static unsigned stuck_polls;

/* An ICR whose delivery status never clears: counts the polls, logs nothing. */
static uint32_t read_mmio_stuck(void *ctx, uint64_t address)
{
	(void)ctx;
	(void)address;
	stuck_polls++;
	return APIC_ICR_PENDING;
}

static void write_mmio_quiet(void *ctx, uint64_t address, uint32_t value)
{
	(void)ctx;
	(void)address;
	(void)value;
}

static void test_xapic_stuck_ipi_is_reported(void **state)
{
	(void)state;
	struct apic_backend stuck = { read_msr,		write_msr, read_mmio_stuck,
				      write_mmio_quiet, fence,	   &rec };
	struct apic a = { APIC_MODE_XAPIC, 0xfee00000, &stuck };

	stuck_polls = 0;
	assert_false(apic_send_nmi(&a, 2));
	/* The wait is bounded, and long enough for any real delivery. */
	assert_true(stuck_polls >= 1000);
	assert_true(stuck_polls <= 1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choose_mode),
		cmocka_unit_test(test_x2apic_ipis),
		cmocka_unit_test(test_x2apic_icr_write_follows_a_fence),
		cmocka_unit_test(test_x2apic_registers),
		cmocka_unit_test(test_x2apic_enable_from_disabled),
		cmocka_unit_test(test_xapic),
		cmocka_unit_test(test_xapic_stuck_ipi_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
