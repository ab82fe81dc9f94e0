/* Console choice (see console_choice.h). */
#include "lib/console_choice.h"

#include <string.h>

void console_choose(const struct options *o, enum acpi_lookup state, const struct acpi_spcr *spcr,
                    struct console_choice *c)
{
    memset(c, 0, sizeof(*c));
    switch (o->console_kind) {
    case CONSOLE_TTYS:
        uart_com(&c->uart, o->console_port, o->console_baud);
        k_snprintf(c->why, sizeof(c->why), "console=%s", o->console);
        return;
    case CONSOLE_UART:
        c->uart = o->console_uart;
        k_snprintf(c->why, sizeof(c->why), "console=%s", o->console);
        return;
    default:
        break;
    }
    uart_com(&c->uart, 0, 115200);
    switch (state) {
    case ACPI_LOOKUP_NO_ACPI:
        k_snprintf(c->why, sizeof(c->why), "console=auto: no ACPI tables found, default COM1");
        break;
    case ACPI_LOOKUP_ABSENT:
        k_snprintf(c->why, sizeof(c->why), "console=auto: no ACPI SPCR table, default COM1");
        break;
    case ACPI_LOOKUP_BAD:
        k_snprintf(c->why, sizeof(c->why), "console=auto: ACPI SPCR table fails its checks (see acpi problems), "
                                           "default COM1");
        break;
    case ACPI_LOOKUP_FOUND:
        if (!spcr->usable) {
            k_snprintf(c->why, sizeof(c->why), "console=auto: ACPI SPCR not used: %s; default COM1", spcr->why);
            break;
        }
        c->uart = spcr->uart;
        c->from_spcr = true;
        k_snprintf(c->why, sizeof(c->why), "ACPI SPCR rev %u, interface type 0x%x", spcr->revision,
                   spcr->interface_type);
        break;
    }
}

/* Bytes of register space a UART of this stride and width spans: registers 0..7. */
static u64 uart_span(const struct uart_desc *u)
{
    return (7ull << u->reg_shift) + (u->access_bytes ? u->access_bytes : 1);
}

static bool overlaps(u64 a, u64 alen, u64 b, u64 blen)
{
    return a < b + blen && b < a + alen;
}

/* The memory map's types that are RAM of some kind (Multiboot 3.3; E820 / ACPI 6.5 Table 15.6; Linux
 * arch/x86/include/asm/e820/types.h for the legacy PRAM type 12 and soft-reserved, specific-purpose RAM). */
static const char *ram_kind(u32 type)
{
    switch (type) {
    case MEM_AVAILABLE:
        return "available RAM";
    case MEM_ACPI_RECLAIM:
        return "ACPI reclaimable RAM";
    case MEM_ACPI_NVS:
        return "ACPI NVS RAM";
    case MEM_BAD:
        return "defective RAM";
    case 7:
    case 12:
        return "persistent memory";
    case 0xEFFFFFFF:
        return "soft-reserved (specific-purpose) RAM";
    default:
        return NULL;
    }
}

static const char *io_refusal(u64 base, u64 span, char *why, size_t why_size)
{
    if (overlaps(base, span, 0, 0x100))
        k_snprintf(why, why_size, "I/O ports 0x%llx-0x%llx overlap the system board's ports 0x00-0xff (DMA, PIC, "
                                  "PIT, keyboard controller, RTC, POST), which Linux claims at boot "
                                  "(standard_io_resources) and never gives to a UART",
                   (unsigned long long)base, (unsigned long long)(base + span - 1));
    else if (overlaps(base, span, 0xCF8, 8))
        k_snprintf(why, why_size, "I/O ports 0x%llx-0x%llx overlap PCI configuration ports 0xcf8-0xcff (and the reset "
                                  "control register 0xcf9)",
                   (unsigned long long)base, (unsigned long long)(base + span - 1));
    else
        return NULL;
    return why;
}

const char *console_uart_refusal(const struct uart_desc *u, const struct boot_info *bi, u64 image_start,
                                 u64 image_end, char *why, size_t why_size)
{
    u64 base = u->base, span = uart_span(u);
    u32 com;
    if (u->space == UART_SPACE_IO)
        return uart_is_com(u, &com) ? NULL : io_refusal(base, span, why, why_size);
    unsigned long long first = base, last = base + span - 1;
    if (overlaps(base, span, 0, 0xA0000)) {
        k_snprintf(why, why_size, "MMIO 0x%llx-0x%llx lies in conventional memory below 640 KiB (the real-mode "
                                  "interrupt table, the BIOS data area, the loader's data): RAM on every PC, never a "
                                  "UART", first, last);
        return why;
    }
    if (overlaps(base, span, image_start, image_end - image_start)) {
        k_snprintf(why, why_size, "MMIO 0x%llx-0x%llx lies inside pmuboot's own image (0x%llx-0x%llx): RAM", first,
                   last, (unsigned long long)image_start, (unsigned long long)(image_end - 1));
        return why;
    }
    for (u32 i = 0; bi && i < bi->mmap_count; i++) {
        const struct mem_region *r = &bi->mmap[i];
        const char *kind = ram_kind(r->type);
        if (kind && overlaps(base, span, r->base, r->length)) {
            k_snprintf(why, why_size, "MMIO 0x%llx-0x%llx is RAM: the memory map calls 0x%llx-0x%llx %s (type %u)",
                       first, last, (unsigned long long)r->base, (unsigned long long)(r->base + r->length - 1), kind,
                       r->type);
            return why;
        }
    }
    /* No map (Multiboot 3.3 flag 0 only): mem_lower KiB from 0 and mem_upper KiB from 1 MiB are RAM. */
    if (bi && !bi->mmap_count && bi->has_meminfo) {
        u64 upper = (u64)bi->mem_upper_kb * 1024;
        if (overlaps(base, span, 0x100000, upper)) {
            k_snprintf(why, why_size, "MMIO 0x%llx-0x%llx is RAM: the loader reports %u KiB of RAM from 1 MiB "
                                      "(mem_upper; no memory map)", first, last, bi->mem_upper_kb);
            return why;
        }
    }
    return NULL;
}

void console_choice_fallback(struct console_choice *c, const char *reason)
{
    char was[96], why[sizeof(c->why)];
    struct strbuf sb;
    sb_init(&sb, was, sizeof(was));
    uart_describe(&c->uart, &sb);
    k_snprintf(why, sizeof(why), "%s: %s refused: %s; fell back to COM1", c->why, was, reason);
    memcpy(c->why, why, sizeof(why));
    uart_com(&c->uart, 0, 115200);
    c->from_spcr = false;
}
