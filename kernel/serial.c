// SPDX-License-Identifier: GPL-2.0
/*
 * 16550 UART (National Semiconductor PC16550D data sheet; the register map every PC COM port and
 * QEMU's serial device implement). Every wait is bounded: where no UART exists the line status
 * register reads 0xFF, and a UART whose transmitter never empties must not hang the run.
 */
#include "kernel/cpu.h"
#include "kernel/serial.h"

#define UART_DATA 0 /* THR/RBR; divisor low byte when DLAB = 1 */
#define UART_IER 1  /* interrupt enable; divisor high byte when DLAB = 1 */
#define UART_FCR 2  /* FIFO control */
#define UART_LCR 3  /* line control */
#define UART_MCR 4  /* modem control */
#define UART_LSR 5  /* line status */
#define UART_SCRATCH 7

#define LCR_8N1 0x03
#define LCR_DLAB 0x80
#define FCR_ENABLE_CLEAR 0x07 /* enable FIFOs, clear receive and transmit FIFOs */
#define MCR_DTR_RTS 0x03      /* OUT2 stays off: no interrupts reach the PIC */
#define LSR_THR_EMPTY 0x20

/* About 10 ms of polling on real hardware, where each port read takes about a microsecond. */
#define TRANSMIT_WAIT_LOOPS 10000
/* After this many timeouts in a row the UART is considered gone and output stops. */
#define TIMEOUTS_BEFORE_GIVING_UP 4

static uint16_t uart;
static bool present;
static unsigned timeouts;

bool serial_init(uint16_t port, uint32_t baud)
{
	uart = port;
	present = false;
	timeouts = 0;
	if (!port || !baud)
		return false;
	if (inb(port + UART_LSR) == 0xff)
		return false;
	outb(port + UART_SCRATCH, 0x5a);
	if (inb(port + UART_SCRATCH) != 0x5a)
		return false;

	uint16_t divisor = (uint16_t)(115200 / baud);
	outb(port + UART_IER, 0);
	outb(port + UART_LCR, LCR_DLAB);
	outb(port + UART_DATA, divisor & 0xff);
	outb(port + UART_IER, divisor >> 8);
	outb(port + UART_LCR, LCR_8N1);
	outb(port + UART_FCR, FCR_ENABLE_CLEAR);
	outb(port + UART_MCR, MCR_DTR_RTS);
	present = true;
	return true;
}

bool serial_present(void)
{
	return present;
}

void serial_putc(char c)
{
	if (!present)
		return;
	for (unsigned i = 0; i < TRANSMIT_WAIT_LOOPS; i++) {
		if (inb(uart + UART_LSR) & LSR_THR_EMPTY) {
			outb(uart + UART_DATA, (uint8_t)c);
			timeouts = 0;
			return;
		}
		cpu_relax();
	}
	if (++timeouts >= TIMEOUTS_BEFORE_GIVING_UP)
		present = false;
}

void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		serial_putc(s[i]);
}
