/* Host tests for lib/spcr.c (ACPI SPCR, Microsoft "Serial Port Console Redirection Table" revisions 1-4),
 * lib/uart.c (divisors, descriptions) and lib/console_choice.c (console=auto follows a usable SPCR,
 * else COM1; an explicit console= wins). Tables are built here from the spec's field offsets, each in a
 * buffer of its exact size so ASan catches a read past it; bad tables must be refused, never followed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/host/support/acpi_checksum.h"
#include "lib/console_choice.h"
#include "lib/spcr.h"

#define BASE 0x7fe0000ull /* where the table lies in the fake physical memory */

struct table {
    u8 *b;
    u32 len;
};

static void fix_checksum(struct table *t)
{
    acpi_test_checksum(t->b, t->len, 9);
}

static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

/* An SPCR like the one run-qemu.sh --spcr ttyS1 gives QEMU's -acpitable: COM2 (I/O 0x2f8, 8-bit), 115200, IRQ 3. */
static struct table spcr_new(u8 rev, u32 len)
{
    struct table t = {calloc(1, len), len};
    assert_non_null(t.b);
    memcpy(t.b, "SPCR", 4);
    put32(t.b + 4, len);
    t.b[8] = rev;
    memcpy(t.b + 10, "PMUBT ", 6);
    t.b[36] = SPCR_IF_16550;
    t.b[40] = 1; /* GAS: system I/O */
    t.b[41] = 8;
    t.b[43] = 1;
    put64(t.b + 44, 0x2f8);
    t.b[52] = 1;
    t.b[53] = 3;
    t.b[58] = 7; /* 115200 */
    t.b[60] = 1;
    fix_checksum(&t);
    return t;
}

/* The GAS at offset 40: space, bit width, bit offset, access size, address. */
static void set_base(struct table *t, u8 space, u8 width, u8 offset, u8 access, u64 addr)
{
    t->b[40] = space;
    t->b[41] = width;
    t->b[42] = offset;
    t->b[43] = access;
    put64(t->b + 44, addr);
    fix_checksum(t);
}

static bool parse(struct table *t, struct acpi_spcr *s, struct acpi_problems *pr)
{
    struct phys_window w = {BASE, t->len, t->b, NULL};
    memset(pr, 0, sizeof(*pr));
    return acpi_spcr_parse(&w, BASE, s, pr);
}

static void test_com2_rev2(void **state)
{
    (void)state;
    struct table t = spcr_new(2, 80);
    struct acpi_spcr s;
    struct acpi_problems pr;
    assert_true(parse(&t, &s, &pr));
    assert_int_equal(pr.count, 0);
    assert_true(s.usable);
    assert_int_equal(s.revision, 2);
    assert_int_equal(s.uart.space, UART_SPACE_IO);
    assert_int_equal(s.uart.base, 0x2f8);
    assert_int_equal(s.uart.reg_shift, 0);
    assert_int_equal(s.uart.access_bytes, 1);
    assert_int_equal(s.uart.baud, 115200);
    u32 com = 9;
    assert_true(uart_is_com(&s.uart, &com));
    assert_int_equal(com, 1);
    char buf[160];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    uart_describe(&s.uart, &sb);
    assert_string_equal(buf, "ttyS1 I/O 0x2f8 115200");
    free(t.b);
}

/* Interface 0x12 with an MMIO GAS: 32-bit registers 4 bytes apart (an AMD FCH / DesignWare-style UART). */
static void test_mmio32_gas(void **state)
{
    (void)state;
    struct table t = spcr_new(2, 80);
    t.b[36] = SPCR_IF_16550_GAS;
    set_base(&t, 0, 32, 0, 3, 0xfedc9000);
    struct acpi_spcr s;
    struct acpi_problems pr;
    assert_true(parse(&t, &s, &pr));
    assert_true(s.usable);
    assert_int_equal(s.uart.space, UART_SPACE_MMIO);
    assert_int_equal(s.uart.base, 0xfedc9000u);
    assert_int_equal(s.uart.reg_shift, 2);
    assert_int_equal(s.uart.access_bytes, 4);
    char buf[160];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    uart_describe(&s.uart, &sb);
    assert_string_equal(buf, "uart MMIO32 0xfedc9000 (stride 4) 115200");

    /* Byte accesses at a 4-byte stride; access size 0 (undefined) takes the register width. */
    set_base(&t, 0, 32, 0, 1, 0xfedc9000);
    assert_true(parse(&t, &s, &pr) && s.usable);
    assert_int_equal(s.uart.reg_shift, 2);
    assert_int_equal(s.uart.access_bytes, 1);
    set_base(&t, 0, 32, 0, 0, 0xfedc9000);
    assert_true(parse(&t, &s, &pr) && s.usable);
    assert_int_equal(s.uart.access_bytes, 4);
    set_base(&t, 0, 0, 0, 2, 0xfedc9000); /* width 0: from the access size */
    assert_true(parse(&t, &s, &pr) && s.usable);
    assert_int_equal(s.uart.reg_shift, 1);
    assert_int_equal(s.uart.access_bytes, 2);
    free(t.b);
}

/* Revision 3 adds the UART clock, revision 4 the precise baud rate (which overrides the baud code). */
static void test_rev4_clock_and_precise_baud(void **state)
{
    (void)state;
    struct table t = spcr_new(4, 88);
    put32(t.b + 76, 48000000);
    put32(t.b + 80, 1500000);
    t.b[58] = 0;
    fix_checksum(&t);
    struct acpi_spcr s;
    struct acpi_problems pr;
    assert_true(parse(&t, &s, &pr));
    assert_true(s.usable);
    assert_int_equal(s.uart.clock_hz, 48000000);
    assert_int_equal(s.uart.baud, 1500000);
    assert_int_equal(uart_divisor(&s.uart, 1500000), 2);

    /* The same bytes in a revision 2 table are reserved: ignored. */
    t.b[8] = 2;
    fix_checksum(&t);
    assert_true(parse(&t, &s, &pr) && s.usable);
    assert_int_equal(s.uart.clock_hz, 0);
    assert_int_equal(s.uart.baud, 0); /* baud code 0: as is */
    free(t.b);
}

static void test_baud_codes(void **state)
{
    (void)state;
    static const struct {
        u8 code;
        u32 baud;
    } codes[] = {{0, 0}, {3, 9600}, {4, 19200}, {6, 57600}, {7, 115200}, {5, 0}, {0xff, 0}};
    struct table t = spcr_new(2, 80);
    for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
        t.b[58] = codes[i].code;
        fix_checksum(&t);
        struct acpi_spcr s;
        struct acpi_problems pr;
        assert_true(parse(&t, &s, &pr) && s.usable);
        assert_int_equal(s.uart.baud, codes[i].baud);
    }
    free(t.b);
}

/* Tables that must not be used at all (false, a problem naming why). */
static void test_bad_tables(void **state)
{
    (void)state;
    struct acpi_spcr s;
    struct acpi_problems pr;
    struct table t = spcr_new(2, 80);
    t.b[9] ^= 1; /* checksum */
    assert_false(parse(&t, &s, &pr));
    assert_int_equal(pr.count, 1);
    assert_non_null(strstr(pr.msg[0], "checksum"));
    free(t.b);

    t = spcr_new(2, 80); /* shorter than the fixed fields: the first 60 bytes alone, length 60 */
    struct table short_t = {malloc(60), 60};
    assert_non_null(short_t.b);
    memcpy(short_t.b, t.b, 60);
    put32(short_t.b + 4, 60);
    fix_checksum(&short_t);
    assert_false(parse(&short_t, &s, &pr));
    free(short_t.b);
    assert_non_null(strstr(pr.msg[0], "shorter"));
    free(t.b);

    t = spcr_new(2, 80);
    put32(t.b + 4, 200); /* length past the memory that holds it */
    fix_checksum(&t);
    assert_false(parse(&t, &s, &pr));
    assert_non_null(strstr(pr.msg[0], "outside"));
    free(t.b);

    t = spcr_new(2, 80);
    memcpy(t.b, "SPCX", 4);
    fix_checksum(&t);
    assert_false(parse(&t, &s, &pr));
    assert_non_null(strstr(pr.msg[0], "signature"));
    free(t.b);

    t = spcr_new(2, 80); /* a window that ends inside the header */
    struct phys_window w = {BASE, 20, t.b, NULL};
    memset(&pr, 0, sizeof(pr));
    assert_false(acpi_spcr_parse(&w, BASE, &s, &pr));
    free(t.b);
}

/* Well-formed tables naming a port pmuboot cannot drive: parsed, not usable, with the reason. */
static void test_unusable_ports(void **state)
{
    (void)state;
    static const struct {
        u8 itype, space, width, offset, access;
        u64 addr;
        u8 baud_code;
        const char *why;
    } cases[] = {
        {0x03, 0, 32, 0, 3, 0x9000000, 7, "interface type 0x3"}, /* ARM PL011 */
        {0x0e, 0, 32, 0, 3, 0x9000000, 7, "not a 16550"},        /* ARM SBSA generic */
        {0x00, 1, 8, 0, 1, 0, 7, "disabled"},
        {0x00, 2, 8, 0, 1, 0x2f8, 7, "neither system memory"},  /* PCI configuration space */
        {0x00, 1, 8, 4, 1, 0x2f8, 7, "bit offset"},
        {0x00, 1, 12, 0, 1, 0x2f8, 7, "bit width"},
        {0x12, 0, 64, 0, 4, 0xfedc9000, 7, "bit width"},
        {0x12, 0, 32, 0, 4, 0xfedc9000, 7, "access size"},      /* qword */
        {0x12, 0, 8, 0, 3, 0xfedc9000, 7, "wider"},
        {0x12, 1, 32, 0, 3, 0x2f8, 7, "wider than a byte"},
        {0x00, 1, 8, 0, 1, 0xfffc, 7, "0xffff"},
        {0x12, 0, 32, 0, 3, 0xfedc9002, 7, "aligned"},
        {0x12, 0, 32, 0, 3, 0x1fedc9000ull, 7, "above 4 GiB"},
        {0x12, 0, 32, 0, 3, 0xfffffff0u, 7, "above 4 GiB"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct table t = spcr_new(2, 80);
        t.b[36] = cases[i].itype;
        t.b[58] = cases[i].baud_code;
        set_base(&t, cases[i].space, cases[i].width, cases[i].offset, cases[i].access, cases[i].addr);
        struct acpi_spcr s;
        struct acpi_problems pr;
        assert_true(parse(&t, &s, &pr));
        if (s.usable || !strstr(s.why, cases[i].why))
            fail_msg("case %zu: usable %d, why '%s', expected '%s'", i, s.usable, s.why, cases[i].why);
        free(t.b);
    }
    /* A baud the UART clock cannot make within 2%. */
    struct table t = spcr_new(4, 88);
    put32(t.b + 80, 1000000); /* 1.8432 MHz / 16 = 115200 at most */
    fix_checksum(&t);
    struct acpi_spcr s;
    struct acpi_problems pr;
    assert_true(parse(&t, &s, &pr));
    assert_false(s.usable);
    assert_non_null(strstr(s.why, "cannot be reached"));
    free(t.b);
}

static void test_divisors(void **state)
{
    (void)state;
    struct uart_desc u;
    uart_com(&u, 0, 115200);
    assert_int_equal(uart_divisor(&u, 115200), 1);
    assert_int_equal(uart_divisor(&u, 9600), 12);
    assert_int_equal(uart_divisor(&u, 50), 2304);
    assert_int_equal(uart_divisor(&u, 0), 0);
    assert_int_equal(uart_divisor(&u, 230400), 0); /* above the clock's reach */
    assert_int_equal(uart_divisor(&u, 56000), 0);  /* the nearest, 57600, is 2.9% off: too far */
    u.clock_hz = 24000000;                          /* 24 MHz SoC UART: 115200 -> 13 (0.16% off) */
    assert_int_equal(uart_divisor(&u, 115200), 13);
}

/* console=auto follows a usable SPCR; every other case says why COM1 was kept. */
static void test_console_choice(void **state)
{
    (void)state;
    struct options o;
    options_default(&o);
    struct console_choice c;
    struct table t = spcr_new(2, 80);
    struct acpi_spcr s;
    struct acpi_problems pr;
    assert_true(parse(&t, &s, &pr));

    console_choose(&o, ACPI_LOOKUP_FOUND, &s, &c);
    assert_true(c.from_spcr);
    assert_int_equal(c.uart.base, 0x2f8);
    assert_non_null(strstr(c.why, "ACPI SPCR rev 2"));

    console_choose(&o, ACPI_LOOKUP_ABSENT, NULL, &c);
    assert_false(c.from_spcr);
    assert_int_equal(c.uart.base, 0x3f8);
    assert_int_equal(c.uart.baud, 115200);
    assert_non_null(strstr(c.why, "no ACPI SPCR table"));
    console_choose(&o, ACPI_LOOKUP_NO_ACPI, NULL, &c);
    assert_non_null(strstr(c.why, "no ACPI tables"));
    console_choose(&o, ACPI_LOOKUP_BAD, NULL, &c);
    assert_int_equal(c.uart.base, 0x3f8);
    assert_non_null(strstr(c.why, "fails its checks"));

    t.b[36] = 0x03;
    fix_checksum(&t);
    assert_true(parse(&t, &s, &pr));
    console_choose(&o, ACPI_LOOKUP_FOUND, &s, &c);
    assert_false(c.from_spcr);
    assert_int_equal(c.uart.base, 0x3f8);
    assert_non_null(strstr(c.why, "interface type 0x3"));

    /* An explicit console= wins over the SPCR. */
    char err[200];
    assert_true(cmdline_parse("console=ttyS2,9600", &o, err, sizeof(err)));
    console_choose(&o, ACPI_LOOKUP_FOUND, &s, &c);
    assert_int_equal(c.uart.base, 0x3e8);
    assert_int_equal(c.uart.baud, 9600);
    assert_string_equal(c.why, "console=ttyS2,9600");
    assert_true(cmdline_parse("console=uart,mmio32,0xfe030000", &o, err, sizeof(err)));
    console_choose(&o, ACPI_LOOKUP_FOUND, &s, &c);
    assert_int_equal(c.uart.base, 0xfe030000u);
    assert_int_equal(c.uart.access_bytes, 4);

    console_choice_fallback(&c, "IER test failed");
    assert_int_equal(c.uart.base, 0x3f8);
    assert_non_null(strstr(c.why, "uart MMIO32 0xfe030000 (stride 4) baud as firmware set it refused: IER test failed; "
                                  "fell back to COM1"));
    free(t.b);
}

/* acpi_spcr_find over a root table: absent, listed but bad, found. */
static void test_find(void **state)
{
    (void)state;
    struct table t = spcr_new(2, 80);
    struct phys_window w = {BASE, t.len, t.b, NULL};
    struct acpi_info *ai = calloc(1, sizeof(*ai));
    assert_non_null(ai);
    struct acpi_spcr s;
    struct acpi_problems pr = {0};
    assert_int_equal(acpi_spcr_find(&w, ai, &s, &pr), ACPI_LOOKUP_NO_ACPI);
    ai->has_rsdp = ai->has_root = true;
    ai->root.table_count = 1;
    ai->root.tables[0] = (struct acpi_table_ref){BASE, 80, "APIC", 1, true};
    assert_int_equal(acpi_spcr_find(&w, ai, &s, &pr), ACPI_LOOKUP_ABSENT);
    ai->root.tables[0] = (struct acpi_table_ref){BASE, 80, "SPCR", 2, false};
    assert_int_equal(acpi_spcr_find(&w, ai, &s, &pr), ACPI_LOOKUP_BAD);
    ai->root.tables[0].valid = true;
    assert_int_equal(acpi_spcr_find(&w, ai, &s, &pr), ACPI_LOOKUP_FOUND);
    assert_true(s.usable);
    free(ai);
    free(t.b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_com2_rev2),
        cmocka_unit_test(test_mmio32_gas),
        cmocka_unit_test(test_rev4_clock_and_precise_baud),
        cmocka_unit_test(test_baud_codes),
        cmocka_unit_test(test_bad_tables),
        cmocka_unit_test(test_unusable_ports),
        cmocka_unit_test(test_divisors),
        cmocka_unit_test(test_console_choice),
        cmocka_unit_test(test_find),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
