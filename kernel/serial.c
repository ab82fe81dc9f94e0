/* 16550 UART driver (National Semiconductor PC16550D datasheet: registers, divisor latch, LSR THRE). The
 * register file is the same in I/O space and MMIO; MMIO UARTs space registers 1, 2 or 4 bytes apart and
 * may need 32-bit accesses (Linux earlycon mmio32; SPCR Generic Address Structure access size). */
#include "kernel/serial.h"

#include "kernel/x86.h"
#include "lib/uart_probe.h"

static struct uart_desc active = {.space = UART_SPACE_IO, .access_bytes = 1, .base = 0x3F8, .baud = 115200};
static bool present; /* set by the first serial_init that finds a UART */
static u32 fifo_bytes = 1; /* what the transmitter takes at once once LSR.THRE is set */
static u32 tx_room;        /* bytes that may still be written since THRE was last seen */

enum { THR = 0, DLL = 0, IER = 1, DLM = 1, FCR = 2, IIR = 2, LCR = 3, MCR = 4, LSR = 5 };
#define LSR_THRE 0x20
#define LCR_DLAB 0x80
#define TX_SPIN_LIMIT 100000 /* a UART that never drains must not hang the kernel */

static u8 reg_read(const struct uart_desc *u, u32 reg)
{
    u64 a = u->base + ((u64)reg << u->reg_shift);
    if (u->space == UART_SPACE_IO)
        return inb((u16)a);
    switch (u->access_bytes) {
    case 4:
        return (u8) * (volatile u32 *)(uintptr_t)a;
    case 2:
        return (u8) * (volatile u16 *)(uintptr_t)a;
    default:
        return *(volatile u8 *)(uintptr_t)a;
    }
}

static void reg_write(const struct uart_desc *u, u32 reg, u8 v)
{
    u64 a = u->base + ((u64)reg << u->reg_shift);
    if (u->space == UART_SPACE_IO) {
        outb((u16)a, v);
        return;
    }
    switch (u->access_bytes) {
    case 4:
        *(volatile u32 *)(uintptr_t)a = v;
        break;
    case 2:
        *(volatile u16 *)(uintptr_t)a = v;
        break;
    default:
        *(volatile u8 *)(uintptr_t)a = v;
        break;
    }
}

static u8 probe_read(void *ctx, u32 reg)
{
    return reg_read(ctx, reg);
}

static void probe_write(void *ctx, u32 reg, u8 v)
{
    reg_write(ctx, reg, v);
}

const char *serial_init(const struct uart_desc *u)
{
    static char why[200];
    /* Linux's 8250 tests (lib/uart_probe.h); like Linux, no loopback test on COM1..COM3 (arch/x86/include/asm/
     * serial.h STD_COMX_FLAGS: UPF_SKIP_TEST, for modems without a loopback mode), but COM4 and every other port. */
    u32 com;
    bool loopback = !uart_is_com(u, &com) || com == 3;
    struct uart_regs regs = {probe_read, probe_write, (void *)u};
    if (uart_probe(&regs, loopback, why, sizeof(why)))
        return why;
    u32 div = uart_divisor(u, u->baud);
    reg_write(u, IER, 0x00);
    if (div) {
        reg_write(u, LCR, LCR_DLAB);
        reg_write(u, DLL, (u8)div);
        reg_write(u, DLM, (u8)(div >> 8));
        reg_write(u, LCR, 0x03); /* 8N1, DLAB off */
    }
    reg_write(u, FCR, 0x07); /* enable and clear FIFOs */
    reg_write(u, MCR, 0x03); /* DTR, RTS */
    /* PC16550D: IIR bits 7:6 read 11 when the FIFOs are enabled; then THRE means the whole 16-byte transmit FIFO
     * is empty, and 16 bytes may follow without polling (one LSR read per 16 bytes: under QEMU TCG every
     * register access is an exit, and the checklist of hundreds of CPUs is most of a run's time). An 8250 or
     * 16450 has no FIFO: one byte per THRE. */
    fifo_bytes = (reg_read(u, IIR) & 0xC0) == 0xC0 ? 16 : 1;
    tx_room = 0;
    active = *u;
    present = true;
    return NULL;
}

u32 serial_divisor(void)
{
    if (!present)
        return 0;
    u8 lcr = reg_read(&active, LCR);
    reg_write(&active, LCR, lcr | LCR_DLAB);
    u32 div = reg_read(&active, DLL) | (u32)reg_read(&active, DLM) << 8;
    reg_write(&active, LCR, lcr & (u8)~LCR_DLAB);
    return div;
}

static u64 pace_ticks, pace_next;

void serial_pace(u64 ticks)
{
    pace_ticks = ticks;
    pace_next = 0;
}

u32 serial_baud(void)
{
    return active.baud ? active.baud : 115200;
}

void serial_putc(char c)
{
    if (!present)
        return;
    if (pace_ticks) {
        u64 now;
        while ((now = rdtsc()) < pace_next)
            cpu_relax();
        pace_next = now + pace_ticks;
    }
    if (!tx_room) {
        for (u32 i = 0; i < TX_SPIN_LIMIT && !(reg_read(&active, LSR) & LSR_THRE); i++)
            cpu_relax();
        tx_room = fifo_bytes;
    }
    tx_room--;
    reg_write(&active, THR, (u8)c);
}
