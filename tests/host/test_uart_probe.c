/* Host tests for the console's guards: lib/uart_probe.c (Linux 8250's presence tests: LSR, IER, IIR, loopback) on a
 * model of a PC16550D, on RAM, on a floating bus and on a UART without a loopback mode; and console_uart_refusal
 * (lib/console_choice.c): MMIO the memory map calls RAM, conventional memory, pmuboot's image, the chipset's I/O
 * ports are refused before a single register is touched; reserved ranges and holes are left to the probe. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/console_choice.h"
#include "lib/uart_probe.h"

/* A PC16550D as far as the probe sees it (datasheet Table II; QEMU hw/char/serial.c behaves the same). */
struct model {
    u8 ier, mcr, lcr, lsr;
    bool no_loopback; /* a modem that ignores MCR bit 4 (Linux's reason to skip the test on COM1..3) */
    u32 accesses;
};

static u8 model_read(void *ctx, u32 reg)
{
    struct model *m = ctx;
    m->accesses++;
    switch (reg) {
    case 1:
        return m->ier;
    case 2:
        return m->ier ? 0xC2 : 0xC1; /* FIFOs on; THR empty pending once enabled, else no interrupt */
    case 3:
        return m->lcr;
    case 4:
        return m->mcr;
    case 5:
        return m->lsr;
    case 6:
        if ((m->mcr & 0x10) && !m->no_loopback) /* loopback: DTR->DSR, RTS->CTS, OUT1->RI, OUT2->DCD */
            return (u8)((m->mcr & 0x0C) << 4 | (m->mcr & 0x02) << 3 | (m->mcr & 0x01) << 5);
        return 0x00;
    default:
        return 0;
    }
}

static void model_write(void *ctx, u32 reg, u8 v)
{
    struct model *m = ctx;
    m->accesses++;
    if (reg == 1)
        m->ier = v & 0x0F; /* bits 7:4 read 0 */
    else if (reg == 3)
        m->lcr = v;
    else if (reg == 4)
        m->mcr = v & 0x1F;
}

/* Eight bytes of RAM: every register holds what was written (so the scratch-register test passes). */
static u8 ram_read(void *ctx, u32 reg) { return ((u8 *)ctx)[reg]; }
static void ram_write(void *ctx, u32 reg, u8 v) { ((u8 *)ctx)[reg] = v; }
static u8 float_read(void *ctx, u32 reg) { (void)ctx; (void)reg; return 0xFF; }
static void float_write(void *ctx, u32 reg, u8 v) { (void)ctx; (void)reg; (void)v; }

static void test_probe_16550(void **state)
{
    (void)state;
    struct model m = {.ier = 0x05, .mcr = 0x0B, .lsr = 0x60};
    struct uart_regs r = {model_read, model_write, &m};
    char why[200];
    assert_null(uart_probe(&r, true, why, sizeof(why)));
    assert_int_equal(m.ier, 0x05); /* restored */
    assert_int_equal(m.mcr, 0x0B);
    assert_null(uart_probe(&r, false, why, sizeof(why)));
}

static void test_probe_ram(void **state)
{
    (void)state;
    /* RAM that even looks like an idle UART in LSR and IIR: only the loopback test tells it apart. */
    u8 ram[8] = {0, 0, 0xC1, 0x03, 0x00, 0x60, 0x00, 0x00};
    struct uart_regs r = {ram_read, ram_write, ram};
    char why[200];
    const char *e = uart_probe(&r, true, why, sizeof(why));
    assert_non_null(e);
    assert_non_null(strstr(e, "loopback test failed"));
    /* IIR bit 0 clear: refused before the loopback test. */
    u8 ram2[8] = {0, 0, 0x00, 0, 0, 0x60, 0, 0};
    r.ctx = ram2;
    e = uart_probe(&r, false, why, sizeof(why));
    assert_non_null(e);
    assert_non_null(strstr(e, "IIR reads 0x00"));
    /* LSR bit 5 never set: the transmitter never empties. */
    u8 ram3[8] = {0, 0, 0x01, 0, 0, 0x00, 0, 0};
    r.ctx = ram3;
    e = uart_probe(&r, false, why, sizeof(why));
    assert_non_null(e);
    assert_non_null(strstr(e, "never empties"));
}

static void test_probe_floating_and_modem(void **state)
{
    (void)state;
    char why[200];
    struct uart_regs f = {float_read, float_write, NULL};
    const char *e = uart_probe(&f, true, why, sizeof(why));
    assert_non_null(e);
    assert_non_null(strstr(e, "LSR reads 0xff"));

    /* A register file whose IER does not hold 0x0f. */
    struct model m = {.lsr = 0x60};
    struct uart_regs r = {model_read, ram_write, &m}; /* writes go nowhere: IER stays 0 */
    e = uart_probe(&r, true, why, sizeof(why));
    assert_non_null(e);
    assert_non_null(strstr(e, "IER test failed: wrote 0x00 and 0x0f, read 0x00 and 0x00"));

    struct model modem = {.lsr = 0x60, .no_loopback = true};
    struct uart_regs mr = {model_read, model_write, &modem};
    e = uart_probe(&mr, true, why, sizeof(why));
    assert_non_null(e);
    assert_non_null(strstr(e, "MSR bits 7:4 0x00"));
    assert_null(uart_probe(&mr, false, why, sizeof(why))); /* COM1..3: Linux skips the loopback test */
}

/* QEMU's pc memory map for 128 MiB, as SeaBIOS reports it through multiboot1. */
static void qemu_map(struct boot_info *bi)
{
    memset(bi, 0, sizeof(*bi));
    bi->mmap[0] = (struct mem_region){0, 0x9fc00, MEM_AVAILABLE};
    bi->mmap[1] = (struct mem_region){0x9fc00, 0x400, MEM_RESERVED};
    bi->mmap[2] = (struct mem_region){0xf0000, 0x10000, MEM_RESERVED};
    bi->mmap[3] = (struct mem_region){0x100000, 0x7ee0000, MEM_AVAILABLE};
    bi->mmap[4] = (struct mem_region){0x7fe0000, 0x20000, MEM_ACPI_RECLAIM};
    bi->mmap[5] = (struct mem_region){0xfffc0000, 0x40000, MEM_RESERVED};
    bi->mmap_count = 6;
}

static const char *refusal(const char *option, const struct boot_info *bi, char *why, size_t size)
{
    struct uart_desc u;
    assert_null(uart_parse_earlycon(option, &u));
    return console_uart_refusal(&u, bi, 0x100000, 0x280000, why, size);
}

static void test_refusal(void **state)
{
    (void)state;
    static struct boot_info bi;
    qemu_map(&bi);
    char why[240];
    const char *e;
    /* Linux's earlycon syntax for an MMIO UART at 0x3f8: the real-mode IVT, not COM1. */
    e = refusal("uart,0x3f8", &bi, why, sizeof(why));
    assert_non_null(e);
    assert_non_null(strstr(e, "MMIO 0x3f8-0x3ff lies in conventional memory below 640 KiB"));
    e = refusal("uart,mmio32,0x200000", &bi, why, sizeof(why));
    assert_non_null(strstr(e, "inside pmuboot's own image (0x100000-0x27ffff)"));
    e = refusal("uart,mmio,0x3000000", &bi, why, sizeof(why));
    assert_non_null(strstr(e, "the memory map calls 0x100000-0x7fdffff available RAM (type 1)"));
    e = refusal("uart,mmio32,0x7fe0010", &bi, why, sizeof(why));
    assert_non_null(strstr(e, "ACPI reclaimable RAM (type 3)"));
    /* The last register of a stride-4 UART reaches into RAM. */
    e = refusal("uart,mmio32,0x7ffffe0", &bi, why, sizeof(why));
    assert_non_null(e);
    bi.mmap[4].type = MEM_ACPI_NVS;
    assert_non_null(strstr(refusal("uart,0x7fe0000", &bi, why, sizeof(why)), "ACPI NVS RAM (type 4)"));
    bi.mmap[4].type = 7;
    assert_non_null(strstr(refusal("uart,0x7fe0000", &bi, why, sizeof(why)), "persistent memory (type 7)"));
    bi.mmap[4].type = 12;
    assert_non_null(strstr(refusal("uart,0x7fe0000", &bi, why, sizeof(why)), "persistent memory (type 12)"));
    bi.mmap[4].type = 0xEFFFFFFF;
    assert_non_null(strstr(refusal("uart,0x7fe0000", &bi, why, sizeof(why)), "soft-reserved"));
    bi.mmap[4].type = 6; /* ACPI 6.5 AddressRangeDisabled: not RAM to the OS, left to the probe */
    assert_null(refusal("uart,0x7fe0000", &bi, why, sizeof(why)));
    bi.mmap[4].type = MEM_BAD;
    assert_non_null(strstr(refusal("uart,0x7fe0000", &bi, why, sizeof(why)), "defective RAM (type 5)"));

    /* Reserved ranges and holes are where MMIO UARTs live: left to the probe. */
    assert_null(refusal("uart,mmio32,0xfe030000", &bi, why, sizeof(why)));
    assert_null(refusal("uart,mmio32,0xfffc0000", &bi, why, sizeof(why)));
    assert_null(refusal("uart,0xf0000", &bi, why, sizeof(why))); /* reserved above 640 KiB: the probe decides */

    /* No memory map: mem_upper's RAM from 1 MiB. */
    bi.mmap_count = 0;
    bi.has_meminfo = true;
    bi.mem_lower_kb = 639;
    bi.mem_upper_kb = 130048;
    assert_non_null(strstr(refusal("uart,0x3000000", &bi, why, sizeof(why)), "130048 KiB of RAM from 1 MiB"));
    assert_null(refusal("uart,0xfe030000", &bi, why, sizeof(why)));
    assert_non_null(strstr(refusal("uart,0x9000", NULL, why, sizeof(why)), "below 640 KiB"));

    /* I/O: the COM ports pass; the chipset's ports never reach the probe. */
    assert_null(refusal("uart,io,0x3f8", &bi, why, sizeof(why)));
    assert_null(refusal("uart,io,0x2e8", &bi, why, sizeof(why)));
    assert_null(refusal("uart,io,0x1000", &bi, why, sizeof(why)));
    assert_non_null(strstr(refusal("uart,io,0xf0", &bi, why, sizeof(why)), "system board's ports 0x00-0xff"));
    assert_non_null(strstr(refusal("uart,io,0x60", &bi, why, sizeof(why)), "I/O ports 0x60-0x67"));
    assert_non_null(strstr(refusal("uart,io,0xcf4", &bi, why, sizeof(why)), "PCI configuration ports"));
    assert_null(refusal("uart,io,0xd00", &bi, why, sizeof(why)));
}

/* The whole line the header prints stays whole: the longest reason fits console_choice.why. */
static void test_fallback_text(void **state)
{
    (void)state;
    static struct boot_info bi;
    qemu_map(&bi);
    struct options o;
    options_default(&o);
    char err[200], why[240];
    assert_true(cmdline_parse("console=uart8250,mmio32,0x7ffffe0,115200n8", &o, err, sizeof(err)));
    struct console_choice c;
    console_choose(&o, ACPI_LOOKUP_ABSENT, NULL, &c);
    const char *e = console_uart_refusal(&c.uart, &bi, 0x100000, 0x280000, why, sizeof(why));
    assert_non_null(e);
    assert_true(strlen(e) < sizeof(why) - 1);
    console_choice_fallback(&c, e);
    assert_true(strlen(c.why) < sizeof(c.why) - 1);
    assert_non_null(strstr(c.why, "console=uart8250,mmio32,0x7ffffe0,115200n8: uart MMIO32 0x7ffffe0 (stride 4) "
                                  "115200 refused: MMIO 0x7ffffe0-0x7ffffff is RAM"));
    assert_non_null(strstr(c.why, "; fell back to COM1"));
    assert_int_equal(c.uart.base, 0x3f8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_16550),
        cmocka_unit_test(test_probe_ram),
        cmocka_unit_test(test_probe_floating_and_modem),
        cmocka_unit_test(test_refusal),
        cmocka_unit_test(test_fallback_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
