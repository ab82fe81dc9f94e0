/* ACPI SPCR decoding (see spcr.h). Field offsets from Microsoft's "Serial Port Console Redirection Table"
 * (revision 4, which keeps the layout of revisions 1-3 and appends fields). */
#include "lib/spcr.h"

#include <string.h>

/* SPCR "Configured Baud Rate" codes; 0 (as is) and reserved codes give 0: keep the firmware's divisor. */
static u32 baud_of_code(u8 code)
{
    switch (code) {
    case 3:
        return 9600;
    case 4:
        return 19200;
    case 6:
        return 57600;
    case 7:
        return 115200;
    default:
        return 0;
    }
}

static bool width_bytes(u8 bits, u8 *bytes)
{
    if (bits != 8 && bits != 16 && bits != 32)
        return false;
    *bytes = bits / 8;
    return true;
}

static u8 log2_small(u8 v)
{
    return v == 4 ? 2 : v == 2 ? 1 : 0;
}

/* The Base Address GAS as a UART: register stride from the bit width, access width from the access size
 * (either may stand in for the other when it is 0). Returns NULL or why it cannot be used. */
static const char *decode_base(const struct acpi_gas *g, struct uart_desc *u)
{
    u8 stride = 0, access = 0;
    if (g->address == 0)
        return "Base Address is 0: console redirection disabled";
    if (g->space_id != 0 && g->space_id != 1)
        return "Base Address space is neither system memory nor system I/O";
    if (g->bit_offset)
        return "Base Address has a register bit offset (not a plain 16550 register layout)";
    if (g->bit_width && !width_bytes(g->bit_width, &stride))
        return "Base Address register bit width is not 8, 16 or 32";
    if (g->access_size > 3)
        return "Base Address access size is not byte, word or dword";
    if (g->access_size)
        access = (u8)(1u << (g->access_size - 1));
    if (!stride)
        stride = access ? access : 1;
    if (!access)
        access = stride;
    if (access > stride)
        return "Base Address access size is wider than the register width";
    memset(u, 0, sizeof(*u));
    u->reg_shift = log2_small(stride);
    u->access_bytes = access;
    u->base = g->address;
    if (g->space_id == 1) {
        u->space = UART_SPACE_IO;
        if (access != 1)
            return "I/O-space UART with register access wider than a byte";
        if (g->address + (8u << u->reg_shift) - 1 > 0xFFFF)
            return "I/O port address past 0xffff";
    } else {
        u->space = UART_SPACE_MMIO;
        if (g->address % access)
            return "MMIO address not aligned to its access width";
        if (g->address + (8u << u->reg_shift) > (1ull << 32))
            return "MMIO UART above 4 GiB (pmuboot maps only the low 4 GiB)";
    }
    return NULL;
}

bool acpi_spcr_parse(const struct phys_window *mem, u64 phys, struct acpi_spcr *out, struct acpi_problems *pr)
{
    u8 t[88];
    memset(out, 0, sizeof(*out));
    if (!acpi_table_check(mem, phys, "SPCR", "SPCR", SPCR_MIN_LEN, pr))
        return false;
    memset(t, 0, sizeof(t));
    phys_read(mem, phys, t, SPCR_MIN_LEN);
    out->phys = phys;
    out->length = acpi_get32(t + 4);
    out->revision = t[8];
    if (out->revision >= 4 && out->length >= 84)
        phys_read(mem, phys + SPCR_MIN_LEN, t + SPCR_MIN_LEN, 4);
    out->interface_type = t[36];
    out->base.space_id = t[40];
    out->base.bit_width = t[41];
    out->base.bit_offset = t[42];
    out->base.access_size = t[43];
    out->base.address = acpi_get64(t + 44);
    out->baud_code = t[58];
    out->clock_hz = out->revision >= 3 ? acpi_get32(t + 76) : 0; /* reserved (0) before revision 3 */
    out->precise_baud = out->revision >= 4 && out->length >= 84 ? acpi_get32(t + 80) : 0;

    const char *why = NULL;
    u8 it = out->interface_type;
    if (it != SPCR_IF_16550 && it != SPCR_IF_16550_SUBSET && it != SPCR_IF_16550_GAS)
        k_snprintf(out->why, sizeof(out->why), "interface type 0x%x is not a 16550-compatible UART", it);
    else if ((why = decode_base(&out->base, &out->uart)))
        k_snprintf(out->why, sizeof(out->why), "%s", why);
    if (out->why[0])
        return true;
    out->uart.clock_hz = out->clock_hz;
    out->uart.baud = out->precise_baud ? out->precise_baud : baud_of_code(out->baud_code);
    if (out->uart.baud && !uart_divisor(&out->uart, out->uart.baud)) {
        k_snprintf(out->why, sizeof(out->why), "baud %u cannot be reached from a %u Hz UART clock",
                   out->uart.baud, out->clock_hz ? out->clock_hz : UART_CLOCK_PC);
        return true;
    }
    out->usable = true;
    return true;
}

void acpi_spcr_format(const struct acpi_spcr *s, struct strbuf *sb)
{
    sb_printf(sb, "SPCR rev %u at 0x%llx: interface 0x%x, %s 0x%llx width %u access %u, baud code %u", s->revision,
              (unsigned long long)s->phys, s->interface_type,
              s->base.space_id == 1 ? "I/O" : s->base.space_id == 0 ? "MMIO" : "space?",
              (unsigned long long)s->base.address, s->base.bit_width, s->base.access_size, s->baud_code);
    if (s->precise_baud)
        sb_printf(sb, ", precise baud %u", s->precise_baud);
    if (s->clock_hz)
        sb_printf(sb, ", clock %u Hz", s->clock_hz);
    if (!s->usable)
        sb_printf(sb, ": not used: %s", s->why);
}

enum acpi_lookup acpi_spcr_find(const struct phys_window *mem, const struct acpi_info *ai, struct acpi_spcr *out,
                               struct acpi_problems *pr)
{
    memset(out, 0, sizeof(*out));
    u64 phys = 0;
    enum acpi_lookup l = acpi_table_lookup(ai, "SPCR", &phys, pr);
    if (l != ACPI_LOOKUP_FOUND)
        return l;
    return acpi_spcr_parse(mem, phys, out, pr) ? ACPI_LOOKUP_FOUND : ACPI_LOOKUP_BAD;
}
