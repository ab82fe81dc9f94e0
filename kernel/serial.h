/* 16550-compatible UART driver: I/O ports or MMIO with 8/16/32-bit register access and a register stride
 * (struct uart_desc, lib/uart.h). Polled output only. */
#pragma once
#include "lib/types.h"
#include "lib/uart.h"

/* Program the UART for u->baud 8N1 (u->baud 0: keep the firmware's divisor and line settings), FIFOs on,
 * interrupts off. Returns false if no UART answers (the scratch register does not hold a written value): the
 * previous UART stays in use. MMIO must lie below 4 GiB (the identity map). */
bool serial_init(const struct uart_desc *u);
void serial_putc(char c);
/* The divisor latch as the UART holds it (to report the firmware's baud when u->baud was 0); 0 if unread. */
u32 serial_divisor(void);
