/* 16550 UART on the legacy COM ports (ttyS0..3). */
#pragma once
#include "kernel/types.h"

/* Program the UART for baud 8N1, FIFOs on, interrupts off. Returns false if no UART answers (the scratch
 * register does not hold a written value) — output then goes nowhere, as on a machine without that port. */
bool serial_init(u32 port_index, u32 baud);
void serial_putc(char c);
u16 serial_port_base(u32 port_index);
