/* Is a 16550-compatible UART really at this address? The tests Linux's 8250 driver runs before it trusts a port
 * (drivers/tty/serial/8250/8250_port.c: autoconfig's IER and loopback tests, serial8250_do_startup's "LSR safety
 * check"), plus a plausible IIR. Linux's earlycon (drivers/tty/serial/8250/8250_early.c) runs none of them: it
 * writes wherever it is told, and so would pmuboot without this. RAM, a floating bus or a device that is not a UART
 * fails at least one. Portable: the register accesses come through `struct uart_regs` (kernel/serial.c gives the
 * real ones, the host tests a model). */
#pragma once
#include "lib/types.h"

struct uart_regs {
    u8 (*read)(void *ctx, u32 reg);          /* register reg (0..7) as the option's stride and width reach it */
    void (*write)(void *ctx, u32 reg, u8 value);
    void *ctx;
};

/* NULL when the port answers as a 16550 does; else one line saying which test failed and what the registers read
 * (in why, why_size bytes). Every register the tests change is restored. loopback = false skips the loopback test,
 * as Linux does for COM1..COM3 (UPF_SKIP_TEST, arch/x86/include/asm/serial.h). */
const char *uart_probe(const struct uart_regs *r, bool loopback, char *why, size_t why_size);
