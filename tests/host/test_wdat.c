/* Host tests for lib/wdat.c (ACPI WDAT, Microsoft "Hardware Watchdog Timers Design Specification"): the table that
 * run-qemu.sh --wdat gives QEMU's q35 (the ICH9 TCO, as QEMU's hw/acpi/wdat-ich9.c describes it, plus SET_REBOOT) is
 * parsed and its actions run against a register file the way Linux's drivers/watchdog/wdat_wdt.c runs them; tables
 * pmuboot must not drive are refused with the reason. Each table sits in a buffer of its exact size (ASan). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tests/host/support/acpi_checksum.h"
#include "tests/host/support/acpi_problems.h"
#include "lib/tco_lpc_ids.h"
#include "lib/wdat.h"

#define BASE 0x7fe0000ull

struct ins {
    u8 action, instruction, space, bits, access;
    u64 address;
    u32 value, mask;
};

static const struct ins ich9[] = {
    {WDAT_RESET, WDAT_WRITE_VALUE, 1, 16, 2, 0x660, 0x1, 0x1ff},
    {WDAT_QUERY_RUNNING_STATE, WDAT_READ_VALUE, 1, 16, 2, 0x668, 0x0, 0x800},
    {WDAT_SET_RUNNING_STATE, WDAT_WRITE_VALUE | WDAT_PRESERVE_REGISTER, 1, 16, 2, 0x668, 0x0, 0x800},
    {WDAT_QUERY_STOPPED_STATE, WDAT_READ_VALUE, 1, 16, 2, 0x668, 0x800, 0x800},
    {WDAT_SET_STOPPED_STATE, WDAT_WRITE_VALUE | WDAT_PRESERVE_REGISTER, 1, 16, 2, 0x668, 0x800, 0x800},
    {WDAT_SET_COUNTDOWN_PERIOD, WDAT_WRITE_COUNTDOWN, 1, 16, 2, 0x672, 0x0, 0x3ff},
    {WDAT_QUERY_COUNTDOWN_PERIOD, WDAT_READ_COUNTDOWN, 1, 16, 2, 0x672, 0x0, 0x3ff},
    {WDAT_QUERY_WATCHDOG_STATUS, WDAT_READ_VALUE, 1, 16, 2, 0x666, 0x2, 0x2},
    {WDAT_SET_REBOOT, WDAT_WRITE_VALUE | WDAT_PRESERVE_REGISTER, 0, 32, 3, 0xfed1f410, 0x0, 0x20},
    {WDAT_QUERY_REBOOT, WDAT_READ_VALUE, 0, 32, 3, 0xfed1f410, 0x0, 0x20},
};
#define NICH9 (sizeof(ich9) / sizeof(ich9[0]))

struct table {
    u8 *b;
    u32 len;
};

static void put16(u8 *p, u16 v) { memcpy(p, &v, 2); }
static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

static void fix_checksum(struct table *t)
{
    acpi_test_checksum(t->b, t->len, 9);
}

static struct table wdat_new(const struct ins *in, u32 n)
{
    u32 len = WDAT_ENTRIES_AT + n * WDAT_ENTRY_LEN;
    struct table t = {calloc(1, len), len};
    assert_non_null(t.b);
    memcpy(t.b, "WDAT", 4);
    put32(t.b + 4, len);
    t.b[8] = 1;
    put32(t.b + 36, WDAT_HEADER_LEN);
    put16(t.b + 40, 0xff);
    t.b[42] = t.b[43] = t.b[44] = 0xff;
    put32(t.b + 48, 600);
    put32(t.b + 52, 1023);
    put32(t.b + 56, 4);
    t.b[60] = 0x81;
    put32(t.b + 64, n);
    for (u32 i = 0; i < n; i++) {
        u8 *e = t.b + WDAT_ENTRIES_AT + i * WDAT_ENTRY_LEN;
        e[0] = in[i].action;
        e[1] = in[i].instruction;
        e[4] = in[i].space;
        e[5] = in[i].bits;
        e[7] = in[i].access;
        put64(e + 8, in[i].address);
        put32(e + 16, in[i].value);
        put32(e + 20, in[i].mask);
    }
    fix_checksum(&t);
    return t;
}

static bool parse(struct table *t, struct acpi_wdat *w, struct acpi_problems *pr)
{
    struct phys_window win = {BASE, t->len, t->b, NULL};
    memset(pr, 0, sizeof(*pr));
    return acpi_wdat_parse(&win, BASE, w, pr);
}

/* A register file: I/O ports 0..0xffff (16-bit cells at even ports) and one memory register (GCS). */
struct regs {
    u16 io[0x10000];
    u32 gcs;
    u32 writes;
};

static u32 rd(void *ctx, const struct acpi_gas *g, u32 width)
{
    struct regs *r = ctx;
    assert_int_equal(width, g->space_id == 1 ? 2 : 4);
    return g->space_id == 1 ? r->io[g->address] : r->gcs;
}

static void wr(void *ctx, const struct acpi_gas *g, u32 width, u32 v)
{
    struct regs *r = ctx;
    assert_int_equal(width, g->space_id == 1 ? 2 : 4);
    if (g->space_id == 1)
        r->io[g->address] = (u16)v;
    else
        r->gcs = v;
    r->writes++;
}

static void test_ich9_table_runs(void **state)
{
    (void)state;
    struct table t = wdat_new(ich9, NICH9);
    struct acpi_wdat w;
    struct acpi_problems pr;
    assert_true(parse(&t, &w, &pr));
    assert_int_equal(pr.count, 0);
    assert_int_equal(w.count, NICH9);
    assert_int_equal(w.period_ms, 600);
    struct regs *r = calloc(1, sizeof(*r));
    assert_non_null(r);
    struct wdat_io io = {r, rd, wr};
    r->io[0x668] = 0x0800 | 0x0001; /* halted, another bit set */
    r->gcs = 0x21;                  /* NO_REBOOT and another bit */
    u32 v = 7;

    assert_true(wdat_run(&w, WDAT_QUERY_RUNNING_STATE, 0, &io, &v));
    assert_int_equal(v, 0);
    assert_true(wdat_run(&w, WDAT_SET_REBOOT, 0, &io, NULL));
    assert_int_equal(r->gcs, 0x01); /* preserved the rest */
    assert_true(wdat_run(&w, WDAT_QUERY_REBOOT, 0, &io, &v));
    assert_int_equal(v, 1);
    assert_true(wdat_run(&w, WDAT_SET_COUNTDOWN_PERIOD, 7, &io, NULL));
    assert_int_equal(r->io[0x672], 7);
    assert_true(wdat_run(&w, WDAT_QUERY_COUNTDOWN_PERIOD, 0, &io, &v));
    assert_int_equal(v, 7);
    assert_true(wdat_run(&w, WDAT_RESET, 0, &io, NULL));
    assert_int_equal(r->io[0x660], 1);
    assert_true(wdat_run(&w, WDAT_SET_RUNNING_STATE, 0, &io, NULL));
    assert_int_equal(r->io[0x668], 0x0001);
    assert_true(wdat_run(&w, WDAT_QUERY_RUNNING_STATE, 0, &io, &v));
    assert_int_equal(v, 1);
    assert_true(wdat_run(&w, WDAT_SET_STOPPED_STATE, 0, &io, NULL));
    assert_int_equal(r->io[0x668], 0x0801);
    assert_true(wdat_run(&w, WDAT_QUERY_STOPPED_STATE, 0, &io, &v));
    assert_int_equal(v, 1);
    r->io[0x666] = 0x2;
    assert_true(wdat_run(&w, WDAT_QUERY_WATCHDOG_STATUS, 0, &io, &v));
    assert_int_equal(v, 1);
    u32 before = r->writes;
    assert_false(wdat_run(&w, WDAT_SET_SHUTDOWN, 0, &io, NULL)); /* not in the table: nothing touched */
    assert_int_equal(r->writes, before);

    /* Counts: whole periods rounded up, within 4..1023. */
    assert_int_equal(wdat_count_for(&w, 4000), 7);
    assert_int_equal(wdat_count_for(&w, 600), 4);
    assert_int_equal(wdat_count_for(&w, 1000000), 1023);
    assert_int_equal(wdat_count_for(&w, 120000), 200);
    free(r);
    free(t.b);
}

/* A bit offset moves the field: the value and mask are the field's, as Linux shifts them. */
static void test_bit_offset(void **state)
{
    (void)state;
    struct ins in[NICH9];
    memcpy(in, ich9, sizeof(in));
    struct table t = wdat_new(in, NICH9);
    u8 *e = t.b + WDAT_ENTRIES_AT + 5 * WDAT_ENTRY_LEN; /* SET_COUNTDOWN_PERIOD */
    e[6] = 4;
    e[1] = WDAT_WRITE_COUNTDOWN | WDAT_PRESERVE_REGISTER;
    fix_checksum(&t);
    struct acpi_wdat w;
    struct acpi_problems pr;
    assert_true(parse(&t, &w, &pr));
    struct regs *r = calloc(1, sizeof(*r));
    assert_non_null(r);
    struct wdat_io io = {r, rd, wr};
    r->io[0x672] = 0xc00f;
    assert_true(wdat_run(&w, WDAT_SET_COUNTDOWN_PERIOD, 0x2a, &io, NULL));
    assert_int_equal(r->io[0x672], 0xc2af);
    free(r);
    free(t.b);
}

static void refused(struct table *t, const char *expect)
{
    struct acpi_wdat w;
    struct acpi_problems pr;
    assert_false(parse(t, &w, &pr));
    assert_true(pr.count > 0);
    if (!acpi_test_has_problem(&pr, expect))
        fail_msg("expected a problem containing \"%s\", first: \"%s\"", expect, pr.msg[0]);
    free(t->b);
}

static void test_refused(void **state)
{
    (void)state;
    struct table t = wdat_new(ich9, NICH9);
    put32(t.b + 36, 28);
    fix_checksum(&t);
    refused(&t, "Watchdog Header Length 28");

    t = wdat_new(ich9, NICH9);
    put32(t.b + 64, NICH9 + 1);
    fix_checksum(&t);
    refused(&t, "do not fit");

    t = wdat_new(ich9 + 1, NICH9 - 1); /* no RESET */
    refused(&t, "no RESET action");

    t = wdat_new(ich9, NICH9);
    t.b[60] = 0x80;
    fix_checksum(&t);
    refused(&t, "disabled by the firmware");

    t = wdat_new(ich9, NICH9);
    t.b[43] = 0x1f;
    fix_checksum(&t);
    refused(&t, "PCI device");

    t = wdat_new(ich9, NICH9);
    put32(t.b + 48, 0);
    fix_checksum(&t);
    refused(&t, "no usable countdown");

    struct ins in[NICH9];
    memcpy(in, ich9, sizeof(in));
    in[2].space = 2; /* PCI configuration space */
    t = wdat_new(in, NICH9);
    refused(&t, "neither in system memory nor in system I/O");

    memcpy(in, ich9, sizeof(in));
    in[2].access = 4; /* qword */
    t = wdat_new(in, NICH9);
    refused(&t, "not byte, word or dword");

    memcpy(in, ich9, sizeof(in));
    in[0].address = 0x70;
    in[0].access = 1;
    t = wdat_new(in, NICH9);
    refused(&t, "RTC/CMOS");

    memcpy(in, ich9, sizeof(in));
    in[8].address = 0x100000000ull;
    t = wdat_new(in, NICH9);
    refused(&t, "above 4 GiB");

    memcpy(in, ich9, sizeof(in));
    in[1].instruction = 0x04;
    t = wdat_new(in, NICH9);
    refused(&t, "unknown instruction");

    t = wdat_new(ich9, NICH9);
    t.b[9] ^= 1;
    refused(&t, "checksum");

    /* No SET_COUNTDOWN_PERIOD: the firmware's countdown, possibly too short (Linux's wdat_wdt refuses it too). */
    u32 k = 0;
    for (u32 i = 0; i < NICH9; i++)
        if (ich9[i].action != WDAT_SET_COUNTDOWN_PERIOD)
            in[k++] = ich9[i];
    assert_int_equal(k, NICH9 - 1);
    t = wdat_new(in, k);
    refused(&t, "no SET_COUNTDOWN_PERIOD action");
}

/* The TCO's LPC bridges (generated from Linux's lpc_ich): QEMU's ICH9, real ones, and not the later parts. */
static void test_tco_lpc_ids(void **state)
{
    (void)state;
    assert_string_equal(tco_lpc_name(0x2918), "ICH9");
    assert_non_null(tco_lpc_name(0x1c44)); /* Cougar Point */
    assert_non_null(tco_lpc_name(tco_lpc_ids[0].device));
    assert_non_null(tco_lpc_name(tco_lpc_ids[tco_lpc_ids_count - 1].device));
    assert_null(tco_lpc_name(0x0f1c)); /* Bay Trail: TCO version 3 */
    assert_null(tco_lpc_name(0x7000)); /* PIIX3, QEMU's pc */
    assert_null(tco_lpc_name(0x0000));
    assert_null(tco_lpc_name(0xffff));
    for (unsigned i = 1; i < tco_lpc_ids_count; i++)
        assert_true(tco_lpc_ids[i - 1].device < tco_lpc_ids[i].device);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ich9_table_runs),
        cmocka_unit_test(test_bit_offset),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_tco_lpc_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
