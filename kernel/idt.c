// SPDX-License-Identifier: GPL-2.0
/*
 * The IDT: 256 interrupt gates into kernel/isr.asm (SDM vol. 3A, 6.14.1 "64-Bit Mode IDT").
 * Interrupt gates clear IF, so handlers run with interrupts off. #DF, NMI and #MC run on their
 * own IST stacks: a kernel stack overflow becomes a reported double fault, not a triple fault.
 */
#include "kernel/cpu.h"
#include "kernel/gdt.h"
#include "kernel/trap.h"

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attributes;
	uint16_t offset_middle;
	uint32_t offset_high;
	uint32_t reserved;
} __attribute__((packed));

#define GATE_INTERRUPT 0x8e /* present, DPL 0, 64-bit interrupt gate */
#define GATE_DPL3 0x60

extern const uint64_t isr_stub_table[256];

static struct idt_gate idt[256] __attribute__((aligned(16)));

static void set_gate(unsigned vector, uint8_t ist, int dpl3)
{
	uint64_t target = isr_stub_table[vector];
	struct idt_gate *g = &idt[vector];

	g->offset_low = target & 0xffff;
	g->selector = GDT_KERNEL_CS;
	g->ist = ist;
	g->type_attributes = GATE_INTERRUPT | (dpl3 ? GATE_DPL3 : 0);
	g->offset_middle = (target >> 16) & 0xffff;
	g->offset_high = (uint32_t)(target >> 32);
	g->reserved = 0;
}

void idt_init(void)
{
	for (unsigned v = 0; v < 256; v++)
		set_gate(v, 0, 0);
	/* INT3 (and INT 3) from CPL 3 raises #BP, as Linux's IDT has it (a system gate): with DPL 0
	 * the gate itself would refuse it with #GP (SDM vol. 3A, 6.12.1.1). */
	set_gate(VECTOR_BREAKPOINT, 0, 1);
	set_gate(VECTOR_DOUBLE_FAULT, IST_DOUBLE_FAULT, 0);
	set_gate(VECTOR_NMI, IST_NMI, 0);
	set_gate(VECTOR_MACHINE_CHECK, IST_MACHINE_CHECK, 0);
}

void idt_set_dpl3(uint8_t vector)
{
	set_gate(vector, 0, 1);
}

void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) pointer = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	__asm__ volatile("lidt %0" ::"m"(pointer));
}

void pic_disable(void)
{
	/* ICW1-4: remap master to 0x20 and slave to 0x28 (8259A data sheet), then mask all. */
	outb(0x20, 0x11);
	outb(0xa0, 0x11);
	outb(0x21, VECTOR_PIC_BASE);
	outb(0xa1, VECTOR_PIC_BASE + 8);
	outb(0x21, 0x04);
	outb(0xa1, 0x02);
	outb(0x21, 0x01);
	outb(0xa1, 0x01);
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
}
