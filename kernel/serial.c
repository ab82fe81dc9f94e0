/* 16550 UART driver (National Semiconductor PC16550D datasheet: registers, divisor latch, LSR THRE). */
#include "kernel/serial.h"

#include "kernel/x86.h"

static const u16 com_base[4] = {0x3F8, 0x2F8, 0x3E8, 0x2E8}; /* the conventional PC COM1..COM4 */
static u16 active = 0x3F8;
static bool present = true;

enum { THR = 0, DLL = 0, IER = 1, DLM = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5, SCR = 7 };
#define LSR_THRE 0x20
#define TX_SPIN_LIMIT 100000 /* a UART that never drains must not hang the kernel */

u16 serial_port_base(u32 port_index)
{
    return com_base[port_index & 3];
}

bool serial_init(u32 port_index, u32 baud)
{
    u16 b = serial_port_base(port_index);
    u16 div = (u16)(115200 / (baud ? baud : 115200));
    outb(b + SCR, 0x5A);
    if (inb(b + SCR) != 0x5A) {
        present = false;
        active = b;
        return false;
    }
    outb(b + IER, 0x00);
    outb(b + LCR, 0x80); /* DLAB on */
    outb(b + DLL, (u8)div);
    outb(b + DLM, (u8)(div >> 8));
    outb(b + LCR, 0x03); /* 8N1, DLAB off */
    outb(b + FCR, 0x07); /* enable and clear FIFOs */
    outb(b + MCR, 0x03); /* DTR, RTS */
    active = b;
    present = true;
    return true;
}

void serial_putc(char c)
{
    if (!present)
        return;
    for (u32 i = 0; i < TX_SPIN_LIMIT && !(inb(active + LSR) & LSR_THRE); i++)
        cpu_relax();
    outb(active + THR, (u8)c);
}
