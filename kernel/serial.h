/* 16550-compatible UART driver: I/O ports or MMIO with 8/16/32-bit register access and a register stride
 * (struct uart_desc, lib/uart.h). Polled output only. */
#pragma once
#include "lib/types.h"
#include "lib/uart.h"

/* Program the UART for u->baud 8N1 (u->baud 0: keep the firmware's divisor and line settings), FIFOs on,
 * interrupts off. Returns NULL, or why no UART answers there (Linux's 8250 tests, lib/uart_probe.h): the previous
 * UART then stays in use. MMIO must lie below 4 GiB (the identity map) and outside RAM (console_uart_refusal). */
const char *serial_init(const struct uart_desc *u);
void serial_putc(char c);
/* The divisor latch as the UART holds it (to report the firmware's baud when u->baud was 0); 0 if unread. */
u32 serial_divisor(void);
/* At most one byte per `ticks` TSC ticks from now on (0: as fast as the UART takes them). A 16550 emulated by QEMU
 * takes every byte at once; monitor=lava paces it at the line's baud rate, as a real serial line goes, since LAVA's
 * monitors search only the last 4000 bytes pexpect holds (lava_dispatcher/shell.py searchwindowsize) and lose result
 * lines that arrive in one burst. */
void serial_pace(u64 ticks);
/* The baud rate in use (the option's, or 115200 where the firmware's divisor was kept). */
u32 serial_baud(void);
