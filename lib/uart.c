/* UART descriptions (see uart.h). */
#include "lib/uart.h"

#include <string.h>

static const u16 com_base[4] = {0x3F8, 0x2F8, 0x3E8, 0x2E8};

u16 uart_com_base(u32 index)
{
    return com_base[index & 3];
}

void uart_com(struct uart_desc *u, u32 index, u32 baud)
{
    memset(u, 0, sizeof(*u));
    u->space = UART_SPACE_IO;
    u->access_bytes = 1;
    u->base = uart_com_base(index);
    u->baud = baud;
}

bool uart_is_com(const struct uart_desc *u, u32 *index)
{
    if (u->space != UART_SPACE_IO || u->reg_shift)
        return false;
    for (u32 i = 0; i < ARRAY_SIZE(com_base); i++)
        if (u->base == com_base[i]) {
            *index = i;
            return true;
        }
    return false;
}

static bool parse_num(const char *s, size_t n, u64 *out)
{
    u64 v = 0;
    bool hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (!n || (hex && n == 2))
        return false;
    for (size_t i = hex ? 2 : 0; i < n; i++) {
        char c = s[i];
        int d = (c >= '0' && c <= '9') ? c - '0'
                : hex && (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : hex && (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (d < 0 || v > (~0ull - (u64)d) / (hex ? 16 : 10))
            return false;
        v = v * (hex ? 16 : 10) + (u64)d;
    }
    *out = v;
    return true;
}

const char *uart_parse_baud(const char *v, u32 *baud)
{
    size_t n = strlen(v);
    if (n > 2 && !strcmp(v + n - 2, "n8"))
        n -= 2; /* Linux's options format BBBBPNF: only no parity, 8 bits is spoken here */
    u64 b;
    if (!parse_num(v, n, &b) || (n > 1 && v[1] == 'x') || b < 50 || b > 4000000)
        return "baud rate must be a number from 50 to 4000000, optionally followed by n8";
    *baud = (u32)b;
    return NULL;
}

static const struct {
    const char *name;
    u8 space, shift, access;
} iotypes[] = {
    {"io", UART_SPACE_IO, 0, 1},
    {"mmio", UART_SPACE_MMIO, 0, 1},
    {"mmio16", UART_SPACE_MMIO, 1, 2},
    {"mmio32", UART_SPACE_MMIO, 2, 4},
};

const char *uart_parse_earlycon(const char *v, struct uart_desc *u)
{
    const char *p;
    if (!strncmp(v, "uart8250,", 9))
        p = v + 9;
    else if (!strncmp(v, "uart,", 5))
        p = v + 5;
    else
        return "expects auto, ttyS0..3[,BAUD] or uart[8250],io|mmio|mmio16|mmio32,ADDR[,BAUD]";
    struct uart_desc d = {.space = UART_SPACE_MMIO, .access_bytes = 1};
    const char *comma = strchr(p, ',');
    size_t n = comma ? (size_t)(comma - p) : strlen(p);
    bool typed = false;
    for (u32 i = 0; i < ARRAY_SIZE(iotypes); i++)
        if (strlen(iotypes[i].name) == n && !strncmp(p, iotypes[i].name, n)) {
            d.space = iotypes[i].space;
            d.reg_shift = iotypes[i].shift;
            d.access_bytes = iotypes[i].access;
            typed = true;
        }
    if (typed) {
        if (!comma)
            return "needs an address after the I/O type, e.g. uart,io,0x3f8";
        p = comma + 1;
        comma = strchr(p, ',');
        n = comma ? (size_t)(comma - p) : strlen(p);
    } else if (n < 2 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) {
        if (n == 8 && !strncmp(p, "mmio32be", 8))
            return "mmio32be (big-endian registers) is not supported on x86";
        return "I/O type must be io, mmio, mmio16 or mmio32 (or a 0x address, meaning mmio)";
    }
    if (!parse_num(p, n, &d.base))
        return "UART address must be a number (0x-hex or decimal)";
    if (d.space == UART_SPACE_IO && d.base > 0xFFFF - 7)
        return "I/O port address must be at most 0xfff8";
    if (d.space == UART_SPACE_MMIO && (d.base == 0 || d.base + (8u << d.reg_shift) > (1ull << 32)))
        return "MMIO address must be non-zero and below 4 GiB (pmuboot maps only the low 4 GiB)";
    if (d.base % d.access_bytes)
        return "MMIO address must be aligned to the register access width";
    if (comma) {
        const char *why = uart_parse_baud(comma + 1, &d.baud);
        if (why)
            return why;
    }
    *u = d;
    return NULL;
}

u32 uart_divisor(const struct uart_desc *u, u32 baud)
{
    u64 clock = u->clock_hz ? u->clock_hz : UART_CLOCK_PC;
    if (!baud)
        return 0;
    u64 div = (clock + 8ull * baud) / (16ull * baud); /* rounded */
    if (!div || div > 0xFFFF)
        return 0;
    u64 actual = clock / (16 * div);
    u64 diff = actual > baud ? actual - baud : baud - actual;
    return diff * 50 <= baud ? (u32)div : 0; /* within 2%: what a receiver tolerates */
}

void uart_describe(const struct uart_desc *u, struct strbuf *sb)
{
    u32 com;
    if (uart_is_com(u, &com))
        sb_printf(sb, "ttyS%u I/O 0x%llx", com, (unsigned long long)u->base);
    else if (u->space == UART_SPACE_IO)
        sb_printf(sb, "uart I/O 0x%llx", (unsigned long long)u->base);
    else
        sb_printf(sb, "uart MMIO%u 0x%llx", u->access_bytes * 8, (unsigned long long)u->base);
    if (u->reg_shift)
        sb_printf(sb, " (stride %u)", 1u << u->reg_shift);
    if (u->clock_hz && u->clock_hz != UART_CLOCK_PC)
        sb_printf(sb, " clock %u Hz", u->clock_hz);
    if (u->baud)
        sb_printf(sb, " %u", u->baud);
    else
        sb_printf(sb, " baud as firmware set it");
}
