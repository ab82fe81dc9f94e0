/* Host tests for lib/erst.c (ACPI 6.5 18.5, the Error Record Serialization Table and its interpreter), lib/cper.c
 * (pmuboot's CPER records) and lib/erst_records.c (pmuboot's records in the store): the table QEMU builds for
 * -device acpi-erst is parsed and its operations run against a model of QEMU's device
 * (tests/host/support/erst_sim.h); tables pmuboot must not drive are refused with the reason; a device that reports
 * failure or stays busy ends in an error with its reason, within the time budget, and nothing more is written. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/cper.h"
#include "lib/erst.h"
#include "lib/erst_records.h"
#include "tests/host/support/acpi_problems.h"
#include "tests/host/support/erst_sim.h"

#define HANG CPER_PMUBOOT_ID(CPER_PMUBOOT_HANG)
#define RESET CPER_PMUBOOT_ID(CPER_PMUBOOT_RESET)

static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

static void assert_contains(const char *s, const char *part)
{
    if (!strstr(s, part))
        fail_msg("expected \"%s\" in \"%s\"", part, s);
}

/* The QEMU table, parsed. */
static struct acpi_erst *qemu_table(void)
{
    struct erst_table t = erst_table_new(sim_qemu_ins, sim_qemu_count);
    struct acpi_erst *e = malloc(sizeof(*e));
    struct acpi_problems pr;
    assert_non_null(e);
    assert_true(erst_table_parse(&t, e, &pr));
    assert_int_equal(pr.count, 0);
    free(t.b);
    return e;
}

static void test_qemu_table_parses(void **state)
{
    (void)state;
    struct acpi_erst *e = qemu_table();
    assert_int_equal(e->count, 27);
    assert_int_equal(e->phys, SIM_TABLE_AT);
    assert_int_equal(e->e[6].action, ERST_EXECUTE_OPERATION);
    assert_int_equal(e->e[6].value, SIM_EXECUTE_MAGIC);
    assert_int_equal(e->e[13].reg.access_size, 4);
    char buf[40];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    acpi_erst_format(e, &sb);
    assert_string_equal(buf, "27 instructions");
    free(e);
}

static void refused(struct erst_table *t, const char *expect)
{
    struct acpi_erst *e = malloc(sizeof(*e));
    struct acpi_problems pr;
    assert_non_null(e);
    assert_false(erst_table_parse(t, e, &pr));
    assert_true(pr.count > 0);
    if (!acpi_test_has_problem(&pr, expect))
        fail_msg("expected a problem containing \"%s\", first: \"%s\"", expect, pr.msg[0]);
    free(t->b);
    free(e);
}

/* QEMU's entries with entry i changed by f. */
static struct erst_table changed(u32 i, void (*f)(struct erst_ins *))
{
    struct erst_ins in[32];
    memcpy(in, sim_qemu_ins, sim_qemu_count * sizeof(in[0]));
    f(&in[i]);
    return erst_table_new(in, sim_qemu_count);
}

static void pci_space(struct erst_ins *e) { e->space = 2; }
static void bad_access(struct erst_ins *e) { e->access = 5; }
static void io_qword(struct erst_ins *e) { e->space = 1, e->address = 0xb2, e->access = 4; }
static void rtc_port(struct erst_ins *e) { e->space = 1, e->address = 0x71, e->access = 1, e->bits = 8; }
static void offset_out(struct erst_ins *e) { e->bits = 8, e->access = 1, e->bit_offset = 8; }
static void wide_field(struct erst_ins *e) { e->bits = 64; } /* 64 bits through a dword access */
static void address_0(struct erst_ins *e) { e->address = 0; }
static void unaligned(struct erst_ins *e) { e->address = SIM_BAR0 + 2; }
static void action_0c(struct erst_ins *e) { e->action = 0x0c; }
static void action_20(struct erst_ins *e) { e->action = 0x20; }
static void ins_13(struct erst_ins *e) { e->instruction = 0x13; }
static void flag_2(struct erst_ins *e) { e->flags = 0x2; }
static void noop_pci(struct erst_ins *e) { e->instruction = ERST_NOOP, e->space = 2, e->address = 0; }

static void test_refused(void **state)
{
    (void)state;
    struct erst_table t = erst_table_new(sim_qemu_ins, sim_qemu_count);
    put32(t.b + 36, 40);
    erst_table_fix(&t);
    refused(&t, "Serialization Header Size 40");

    t = erst_table_new(sim_qemu_ins, sim_qemu_count);
    put32(t.b + 44, sim_qemu_count + 1);
    erst_table_fix(&t);
    refused(&t, "28 instruction entries do not fit in its 912 bytes");

    t = erst_table_new(sim_qemu_ins, sim_qemu_count);
    put32(t.b + 44, sim_qemu_count - 1);
    erst_table_fix(&t);
    refused(&t, "26 instruction entries do not fill its 912 bytes");

    t = erst_table_new(sim_qemu_ins, sim_qemu_count);
    t.b[9] ^= 1;
    refused(&t, "checksum");

    t = erst_table_new(sim_qemu_ins, sim_qemu_count);
    memcpy(t.b, "ERSX", 4);
    erst_table_fix(&t);
    refused(&t, "signature");

    struct {
        u32 entry;
        void (*f)(struct erst_ins *);
        const char *expect;
    } bad[] = {
        {4, pci_space, "neither in system memory nor in system I/O"},
        {4, bad_access, "not byte, word, dword or qword"},
        {4, io_qword, "I/O register with 64-bit access"},
        {4, rtc_port, "RTC/CMOS"},
        {4, offset_out, "entry 4 (action 0x4, instruction 0x2, 0xfebfd008) has a bit offset outside the register"},
        {4, wide_field, "bit width and offset beyond the access size"},
        {4, address_0, "register at address 0"},
        {4, unaligned, "not aligned"},
        {18, action_0c, "unknown action"},
        {18, action_20, "unknown action"},
        {18, ins_13, "unknown instruction"},
    };
    for (u32 i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        t = changed(bad[i].entry, bad[i].f);
        refused(&t, bad[i].expect);
    }

    /* Without GET_COMMAND_STATUS (entries 10 and 11) no operation can tell how it went. */
    struct erst_ins in[32];
    memcpy(in, sim_qemu_ins, 10 * sizeof(in[0]));
    memcpy(in + 10, sim_qemu_ins + 12, (sim_qemu_count - 12) * sizeof(in[0]));
    t = erst_table_new(in, sim_qemu_count - 2);
    refused(&t, "no GET_COMMAND_STATUS action");

    /* A NOOP's register is never reached: its GAS does not matter (Linux checks only the registers it maps); nor do
     * the reserved flag bits (Linux ignores them). */
    struct acpi_erst *e = malloc(sizeof(*e));
    struct acpi_problems pr;
    assert_non_null(e);
    t = changed(18, noop_pci);
    assert_true(erst_table_parse(&t, e, &pr));
    free(t.b);
    t = changed(4, flag_2);
    assert_true(erst_table_parse(&t, e, &pr));
    free(t.b);
    free(e);
}

static void test_find(void **state)
{
    (void)state;
    struct acpi_info *ai = calloc(1, sizeof(*ai));
    struct acpi_erst *e = malloc(sizeof(*e));
    struct acpi_problems pr = {0};
    struct phys_window none = {0, 0, NULL, NULL};
    assert_non_null(ai);
    assert_non_null(e);
    assert_int_equal(acpi_erst_find(&none, ai, e, &pr), ACPI_LOOKUP_NO_ACPI);
    ai->has_rsdp = ai->has_root = true;
    assert_int_equal(acpi_erst_find(&none, ai, e, &pr), ACPI_LOOKUP_ABSENT);
    ai->root.table_count = 1;
    memcpy(ai->root.tables[0].signature, "ERST", 5);
    assert_int_equal(acpi_erst_find(&none, ai, e, &pr), ACPI_LOOKUP_BAD);
    assert_contains(pr.msg[0], "header or checksum");
    struct erst_table t = erst_table_new(sim_qemu_ins, sim_qemu_count);
    struct phys_window win = {SIM_TABLE_AT, t.len, t.b, NULL};
    ai->root.tables[0] = (struct acpi_table_ref){SIM_TABLE_AT, t.len, "ERST", 1, true};
    assert_int_equal(acpi_erst_find(&win, ai, e, &pr), ACPI_LOOKUP_FOUND);
    free(t.b);
    free(e);
    free(ai);
}

/* ---- the operations on QEMU's device ---- */

struct rig {
    struct sim *s;
    struct erst_io io;
    struct acpi_erst *t;
    struct erst_dev d;
    struct erst_range r;
};

static struct rig *rig_new(void)
{
    struct rig *g = calloc(1, sizeof(*g));
    assert_non_null(g);
    g->s = sim_new();
    g->io = sim_io(g->s);
    g->t = qemu_table();
    g->d = (struct erst_dev){g->t, &g->io, ""};
    assert_true(erst_get_range(&g->d, &g->r));
    return g;
}

static void rig_free(struct rig *g)
{
    free(g->s);
    free(g->t);
    free(g);
}

/* A CPER record of another creator (Linux pstore's), as a store may hold. */
static u32 foreign_record(u64 id, u8 *out)
{
    u8 payload[40] = "dmesg tail";
    cper_pmuboot_encode(id, payload, sizeof(payload), out);
    static const u8 pstore[16] = {0xe3, 0x74, 0xa5, 0x75, 0x52, 0x50, 0x29, 0x4b,
                                  0x8a, 0x8e, 0xbe, 0x2c, 0x64, 0x90, 0xb8, 0x9d};
    memcpy(out + 64, pstore, 16);
    return cper_pmuboot_len(sizeof(payload));
}

static void test_range(void **state)
{
    (void)state;
    struct rig *g = rig_new();
    assert_int_equal(g->r.base, SIM_BAR1);
    assert_int_equal(g->r.size, SIM_XLEN);
    assert_int_equal(g->r.attributes, 0);
    assert_null(erst_range_problem(&g->r, CPER_PMUBOOT_MAX_LEN, NULL));

    struct erst_range r = g->r;
    r.attributes = ERST_RANGE_NVRAM;
    assert_contains(erst_range_problem(&r, CPER_PMUBOOT_MAX_LEN, NULL), "NVRAM");
    r = g->r;
    r.size = 128;
    assert_contains(erst_range_problem(&r, CPER_PMUBOOT_MAX_LEN, NULL), "smaller");
    r.base = 0;
    assert_contains(erst_range_problem(&r, CPER_PMUBOOT_MAX_LEN, NULL), "no Error Log Address Range");

    struct boot_info *bi = calloc(1, sizeof(*bi));
    assert_non_null(bi);
    bi->mmap_count = 2;
    bi->mmap[0] = (struct mem_region){0, 0x7fe0000, MEM_AVAILABLE};
    bi->mmap[1] = (struct mem_region){0xfeb00000, 0x100000, MEM_RESERVED};
    char why[200];
    assert_null(erst_range_problem(&g->r, CPER_PMUBOOT_MAX_LEN, bi));
    assert_null(erst_registers_problem(g->t, bi, why, sizeof(why)));
    bi->mmap[1].type = MEM_AVAILABLE; /* a memory map that offers the device's BARs as RAM */
    assert_contains(erst_range_problem(&g->r, CPER_PMUBOOT_MAX_LEN, bi), "overlaps RAM the memory map offers");
    assert_contains(erst_registers_problem(g->t, bi, why, sizeof(why)), "instruction 0's register 0xfebfd000");
    free(bi);
    rig_free(g);
}

static void test_write_read_clear(void **state)
{
    (void)state;
    struct rig *g = rig_new();
    u8 rec[CPER_PMUBOOT_MAX_LEN], back[CPER_PMUBOOT_MAX_LEN], p[16];
    for (u32 i = 0; i < 16; i++)
        p[i] = (u8)(i * 7);
    cper_pmuboot_encode(HANG, p, 16, rec);
    assert_int_equal(erst_put_record(&g->d, &g->r, g->s->exchange, rec, cper_pmuboot_len(16)), ERST_DONE);
    assert_int_equal(sim_records(g->s), 1);
    assert_memory_equal(g->s->slot[0].data + 108, "ER", 2); /* Linux's mark for the store */
    memset(g->s->exchange, 0, SIM_XLEN);

    u32 len = 0;
    assert_int_equal(erst_get_record(&g->d, &g->r, g->s->exchange, HANG, back, sizeof(back), &len), ERST_DONE);
    assert_int_equal(len, 216);
    assert_memory_equal(back + 200, p, 16);

    u64 n = 0, id = 0;
    assert_true(erst_record_count(&g->d, &n));
    assert_int_equal(n, 1);
    assert_true(erst_next_record_id(&g->d, &id));
    assert_int_equal(id, HANG);
    assert_true(erst_next_record_id(&g->d, &id));
    assert_int_equal(id, ERST_ID_NONE);

    assert_int_equal(erst_clear(&g->d, HANG), ERST_DONE);
    assert_int_equal(sim_records(g->s), 0);
    assert_int_equal(erst_clear(&g->d, HANG), ERST_NO_RECORD);
    assert_contains(g->d.why, "clear: the firmware says RECORD_NOT_FOUND");
    memset(g->s->exchange, 0, SIM_XLEN);
    assert_int_equal(erst_write(&g->d, 0), ERST_FAILED); /* no record in the exchange buffer */
    assert_contains(g->d.why, "write: the firmware says FAILED");
    assert_int_equal(erst_read(&g->d, 0, 0), ERST_FAILED);
    assert_contains(g->d.why, "means \"any\" or \"none\"");
    rig_free(g);
}

static void test_read_absent(void **state)
{
    (void)state;
    struct rig *g = rig_new();
    u8 rec[CPER_PMUBOOT_MAX_LEN];
    u32 len = 0;
    assert_int_equal(erst_get_record(&g->d, &g->r, g->s->exchange, HANG, rec, sizeof(rec), &len), ERST_NO_RECORD);
    assert_contains(g->d.why, "RECORD_STORE_EMPTY");
    cper_pmuboot_encode(RESET, rec, 16, rec);
    assert_int_equal(erst_put_record(&g->d, &g->r, g->s->exchange, rec, cper_pmuboot_len(16)), ERST_DONE);
    assert_int_equal(erst_get_record(&g->d, &g->r, g->s->exchange, HANG, rec, sizeof(rec), &len), ERST_NO_RECORD);
    assert_contains(g->d.why, "RECORD_NOT_FOUND");
    rig_free(g);
}

static void test_failure_status(void **state)
{
    (void)state;
    static const struct {
        int status;
        const char *name;
    } cases[] = {{ERST_STATUS_FAILED, "FAILED"},
                 {ERST_STATUS_HARDWARE_NOT_AVAILABLE, "HARDWARE_NOT_AVAILABLE"},
                 {ERST_STATUS_NOT_ENOUGH_SPACE, "NOT_ENOUGH_SPACE"},
                 {0x77, "status 0x77"}};
    for (u32 i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct rig *g = rig_new();
        u8 rec[CPER_PMUBOOT_MAX_LEN] = {0};
        cper_pmuboot_encode(HANG, rec, 16, rec);
        g->s->force_status = cases[i].status;
        assert_int_equal(erst_put_record(&g->d, &g->r, g->s->exchange, rec, cper_pmuboot_len(16)), ERST_FAILED);
        assert_contains(g->d.why, cases[i].name);
        rig_free(g);
    }
}

static void test_busy_forever(void **state)
{
    (void)state;
    struct rig *g = rig_new();
    g->s->busy_forever = true;
    assert_int_equal(erst_clear(&g->d, HANG), ERST_FAILED);
    assert_contains(g->d.why, "clear: the firmware was still busy after 1000 us (CHECK_BUSY_STATUS)");
    assert_int_equal(g->s->stalls, ERST_FIRMWARE_TIMEOUT_US);
    assert_int_equal(g->s->stalled_us, ERST_FIRMWARE_TIMEOUT_US);
    rig_free(g);
}

/* ---- the instructions QEMU's table does not use: a program under GET_RECORD_COUNT, run by erst_record_count ---- */

#define MEMREG(a, ins, addr, v) {a, ins, 0, 0, 64, 4, addr, v, ~0ull, 0}
#define BARE(a, ins, v) {a, ins, 0, 0, 0, 0, 0, v, 0, 0}
#define PROGRAM ERST_GET_RECORD_COUNT

/* QEMU's table with the program instead of its GET_RECORD_COUNT entries (16, 17). */
static struct rig *rig_program(const struct erst_ins *prog, u32 n)
{
    struct erst_ins in[ERST_MAX_ENTRIES];
    u32 k = 0;
    for (u32 i = 0; i < sim_qemu_count; i++)
        if (sim_qemu_ins[i].action != PROGRAM)
            in[k++] = sim_qemu_ins[i];
    if (n)
        memcpy(in + k, prog, n * sizeof(in[0]));
    struct erst_table t = erst_table_new(in, k + n);
    struct rig *g = calloc(1, sizeof(*g));
    struct acpi_problems pr;
    assert_non_null(g);
    g->s = sim_new();
    g->io = sim_io(g->s);
    g->t = malloc(sizeof(*g->t));
    assert_non_null(g->t);
    if (!erst_table_parse(&t, g->t, &pr))
        fail_msg("%s", pr.msg[0]);
    free(t.b);
    g->d = (struct erst_dev){g->t, &g->io, ""};
    return g;
}

static void test_arithmetic(void **state)
{
    (void)state;
    static const struct erst_ins prog[] = {
        MEMREG(PROGRAM, ERST_LOAD_VAR1, CELL(0), 0),
        MEMREG(PROGRAM, ERST_LOAD_VAR2, CELL(1), 0),
        BARE(PROGRAM, ERST_ADD, 0),
        MEMREG(PROGRAM, ERST_STORE_VAR1, CELL(2), 0), /* 5 + 3 */
        BARE(PROGRAM, ERST_SUBTRACT, 0),
        BARE(PROGRAM, ERST_SUBTRACT, 0),
        MEMREG(PROGRAM, ERST_STORE_VAR1, CELL(3), 0), /* 8 - 3 - 3 */
        MEMREG(PROGRAM, ERST_ADD_VALUE, CELL(4), 10),
        MEMREG(PROGRAM, ERST_SUBTRACT_VALUE, CELL(5), 2),
        BARE(PROGRAM, ERST_NOOP, 0),
        MEMREG(PROGRAM, ERST_READ_REGISTER, CELL(2), 0),
    };
    struct rig *g = rig_program(prog, sizeof(prog) / sizeof(prog[0]));
    g->s->cell[0] = 5, g->s->cell[1] = 3, g->s->cell[4] = 1, g->s->cell[5] = 7;
    u64 out = 0;
    assert_true(erst_record_count(&g->d, &out));
    assert_int_equal(out, 8);
    assert_int_equal(g->s->cell[2], 8);
    assert_int_equal(g->s->cell[3], 2);
    assert_int_equal(g->s->cell[4], 11);
    assert_int_equal(g->s->cell[5], 5);
    rig_free(g);
}

static void test_preserve_register(void **state)
{
    (void)state;
    static const struct erst_ins prog[] = {
        /* bits 7:4 of a dword get 5: the rest kept, or not */
        {PROGRAM, ERST_WRITE_REGISTER_VALUE, ERST_FLAG_PRESERVE_REGISTER, 0, 4, 3, CELL(0), 0x5, 0xf, 4},
        {PROGRAM, ERST_WRITE_REGISTER_VALUE, 0, 0, 4, 3, CELL(1), 0x5, 0xf, 4},
        {PROGRAM, ERST_READ_REGISTER_VALUE, 0, 0, 4, 3, CELL(0), 0x5, 0xf, 4},
    };
    struct rig *g = rig_program(prog, 3);
    g->s->cell[0] = 0xffff00f3;
    g->s->cell[1] = 0xffff00f3;
    u64 out = 0;
    assert_true(erst_record_count(&g->d, &out));
    assert_int_equal(g->s->cell[0], 0xffff0053);
    assert_int_equal(g->s->cell[1], 0x50);
    assert_int_equal(out, 1); /* READ_REGISTER_VALUE: the field holds the value */
    rig_free(g);
}

/* Count cell 0 down to 0 with a backward GOTO and SKIP_NEXT_INSTRUCTION_IF_TRUE out of the loop. */
static void test_skip_goto(void **state)
{
    (void)state;
    static const struct erst_ins prog[] = {
        MEMREG(PROGRAM, ERST_SUBTRACT_VALUE, CELL(0), 1),
        MEMREG(PROGRAM, ERST_ADD_VALUE, CELL(2), 1),
        MEMREG(PROGRAM, ERST_SKIP_NEXT_INSTRUCTION_IF_TRUE, CELL(0), 0),
        BARE(PROGRAM, ERST_GOTO, 0),
        MEMREG(PROGRAM, ERST_READ_REGISTER, CELL(1), 0),
    };
    struct rig *g = rig_program(prog, sizeof(prog) / sizeof(prog[0]));
    g->s->cell[0] = 3, g->s->cell[1] = 42;
    u64 out = 0;
    assert_true(erst_record_count(&g->d, &out));
    assert_int_equal(out, 42);
    assert_int_equal(g->s->cell[0], 0);
    assert_int_equal(g->s->cell[2], 3); /* three rounds */
    rig_free(g);

    static const struct erst_ins forever[] = {BARE(PROGRAM, ERST_NOOP, 0), BARE(PROGRAM, ERST_GOTO, 0)};
    g = rig_program(forever, 2);
    assert_false(erst_record_count(&g->d, &out));
    assert_contains(g->d.why, "GET_RECORD_COUNT did not end within 4096 instructions (a GOTO loop)");
    rig_free(g);

    static const struct erst_ins past_end[] = {BARE(PROGRAM, ERST_GOTO, 7),
                                               MEMREG(PROGRAM, ERST_LOAD_VAR1, CELL(0), 0)};
    g = rig_program(past_end, 2);
    assert_true(erst_record_count(&g->d, &out)); /* a jump past the end ends the action, as in Linux */
    assert_int_equal(out, 0);
    rig_free(g);

    g = rig_program(NULL, 0);
    assert_false(erst_record_count(&g->d, &out));
    assert_contains(g->d.why, "the table has no GET_RECORD_COUNT action");
    rig_free(g);
}

static void test_stall(void **state)
{
    (void)state;
    static const struct erst_ins prog[] = {
        BARE(PROGRAM, ERST_STALL, 20),
        BARE(PROGRAM, ERST_STALL, 5000), /* at most ERST_MAX_STALL_US, as Linux's FIRMWARE_MAX_STALL */
        MEMREG(PROGRAM, ERST_LOAD_VAR1, CELL(1), 0),
        MEMREG(PROGRAM, ERST_STALL_WHILE_TRUE, CELL(0), 1),
    };
    struct rig *g = rig_program(prog, sizeof(prog) / sizeof(prog[0]));
    g->s->cell[1] = 10; /* us between reads */
    u64 out;
    assert_true(erst_record_count(&g->d, &out)); /* cell 0 is not 1: no wait */
    assert_int_equal(g->s->stalls, 2);
    assert_int_equal(g->s->stalled_us, 70);

    g->s->stalls = 0, g->s->stalled_us = 0;
    g->s->cell[0] = 1; /* and stays so */
    assert_false(erst_record_count(&g->d, &out));
    assert_contains(g->d.why,
                    "GET_RECORD_COUNT: the register at 0x10000 still holds 0x1 after 1000 us (STALL_WHILE_TRUE)");
    assert_int_equal(g->s->stalled_us, 70 + ERST_FIRMWARE_TIMEOUT_US);
    assert_int_equal(g->s->stalls, 2 + ERST_FIRMWARE_TIMEOUT_US / 10);

    g->s->stalls = 0;
    g->s->cell[1] = 0; /* VAR1 0: still a budget, spent 1 us a read */
    assert_false(erst_record_count(&g->d, &out));
    assert_int_equal(g->s->stalls, 2 + ERST_FIRMWARE_TIMEOUT_US);
    rig_free(g);
}

static void test_move_data(void **state)
{
    (void)state;
    static const struct erst_ins prog[] = {
        MEMREG(PROGRAM, ERST_SET_SRC_ADDRESS_BASE, CELL(0), 0),
        MEMREG(PROGRAM, ERST_SET_DST_ADDRESS_BASE, CELL(1), 0),
        MEMREG(PROGRAM, ERST_LOAD_VAR2, CELL(2), 0),
        MEMREG(PROGRAM, ERST_MOVE_DATA, CELL(3), 0),
    };
    struct rig *g = rig_program(prog, sizeof(prog) / sizeof(prog[0]));
    g->s->cell[0] = SIM_MEM_AT, g->s->cell[1] = SIM_MEM_AT + 64, g->s->cell[2] = 8, g->s->cell[3] = 16;
    memcpy(g->s->mem + 16, "pmuboot!", 8);
    u64 out;
    assert_true(erst_record_count(&g->d, &out));
    assert_memory_equal(g->s->mem + 80, "pmuboot!", 8);

    g->s->cell[1] = 0x7fff0000; /* memory the machine cannot reach */
    assert_false(erst_record_count(&g->d, &out));
    assert_contains(g->d.why, "MOVE_DATA of 8 bytes from 0x20010 to 0x7fff0010: memory pmuboot cannot reach");
    rig_free(g);
}

/* ---- pmuboot's records in the store (lib/erst_records.c) ---- */

static u8 *map_exchange(void *ctx, u64 base, u64 size, const char **no)
{
    struct sim *s = ctx;
    *no = NULL;
    assert_int_equal(base, SIM_BAR1);
    assert_int_equal(size, SIM_XLEN);
    return s->exchange;
}

static u8 *map_refused(void *ctx, u64 base, u64 size, const char **no)
{
    (void)ctx, (void)base, (void)size;
    *no = "above what this machine maps";
    return NULL;
}

struct store {
    struct rig *g;
    struct erst_records s;
};

static struct store *store_new(void)
{
    struct store *st = calloc(1, sizeof(*st));
    assert_non_null(st);
    st->g = rig_new();
    assert_true(erst_records_open(&st->s, st->g->t, &st->g->io, NULL, map_exchange));
    return st;
}

static void store_free(struct store *st)
{
    rig_free(st->g);
    free(st);
}

static const char *describe(struct store *st, char *buf, size_t n)
{
    struct strbuf sb;
    sb_init(&sb, buf, n);
    assert_true(erst_records_describe(&st->s, &sb));
    return buf;
}

static void test_records(void **state)
{
    (void)state;
    struct store *st = store_new();
    struct sim *s = st->g->s;
    char buf[200];
    u8 p[16], q[16];
    memset(p, 0x5a, sizeof(p));
    assert_string_equal(describe(st, buf, sizeof(buf)), "0 records in the store, none of them pmuboot's");

    assert_false(erst_records_read(&st->s, HANG, q, 16));
    assert_contains(st->s.error, "no record 0x80706d7562000001 (read: the firmware says RECORD_STORE_EMPTY)");
    assert_true(erst_records_write(&st->s, HANG, p, 16));
    assert_int_equal(s->writes_done, 1);
    assert_true(erst_records_read(&st->s, HANG, q, 16));
    assert_memory_equal(p, q, 16);
    assert_string_equal(describe(st, buf, sizeof(buf)),
                        "1 record in the store, 1 of them pmuboot's (0x80706d7562000001)");

    /* The same again: nothing written. Another payload: the old record goes, the new one is written. */
    u32 executes = s->executes;
    assert_true(erst_records_write(&st->s, HANG, p, 16));
    assert_int_equal(s->writes_done, 1);
    assert_int_equal(s->executes, executes + 1); /* the read that found it */
    p[15] = 0xa5;
    assert_true(erst_records_write(&st->s, HANG, p, 16));
    assert_int_equal(s->clears_done, 1);
    assert_int_equal(s->writes_done, 2);
    assert_int_equal(sim_records(s), 1);
    assert_true(erst_records_read(&st->s, HANG, q, 16));
    assert_memory_equal(p, q, 16);

    /* Another program's record beside them; an identifier that is not pmuboot's is refused. */
    u8 rec[CPER_PMUBOOT_MAX_LEN];
    u64 linux_id = (1700000000ull << 32) | 1; /* Linux's cper_next_record_id in 2023 */
    assert_int_equal(erst_put_record(&st->s.dev, &st->s.range, s->exchange, rec, foreign_record(linux_id, rec)),
                     ERST_DONE);
    assert_true(erst_records_write(&st->s, RESET, p, 8));
    describe(st, buf, sizeof(buf)); /* in the order of the firmware's walk */
    assert_contains(buf, "3 records in the store, 2 of them pmuboot's (0x80706d756200000");
    assert_contains(buf, "0x80706d7562000001");
    assert_contains(buf, "0x80706d7562000002");
    assert_false(erst_records_write(&st->s, linux_id, p, 16));
    assert_contains(st->s.error, "record 0x6553f10000000001 is not one of pmuboot's identifiers");
    assert_false(erst_records_clear(&st->s, linux_id));
    assert_int_equal(sim_records(s), 3);

    /* A read for another length: the record is kept, and said to be another layout. */
    assert_false(erst_records_read(&st->s, RESET, q, 16));
    assert_contains(st->s.error, "8 bytes of payload, 16 expected");
    assert_false(st->s.failed);

    assert_true(erst_records_clear(&st->s, HANG));
    assert_true(erst_records_clear(&st->s, HANG)); /* none: still true */
    assert_false(erst_records_read(&st->s, HANG, q, 16));
    assert_contains(st->s.error, "RECORD_NOT_FOUND");
    assert_int_equal(sim_records(s), 2);
    assert_false(erst_records_write(&st->s, HANG, p, CPER_PMUBOOT_MAX_PAYLOAD + 1));
    assert_contains(st->s.error, "at most 256");
    store_free(st);
}

/* A record under pmuboot's identifier that is not pmuboot's: read refuses it, a write replaces it. */
static void test_records_foreign(void **state)
{
    (void)state;
    struct store *st = store_new();
    u8 rec[CPER_PMUBOOT_MAX_LEN], p[16] = {1, 2, 3};
    assert_int_equal(erst_put_record(&st->s.dev, &st->s.range, st->g->s->exchange, rec, foreign_record(HANG, rec)),
                     ERST_DONE);
    assert_false(erst_records_read(&st->s, HANG, p, 16));
    assert_contains(st->s.error, "another creator's (75a574e3-5052-4b29-8a8e-be2c6490b89d), not pmuboot's");
    assert_true(erst_records_write(&st->s, HANG, p, 16));
    assert_int_equal(st->g->s->clears_done, 1);
    assert_true(erst_records_read(&st->s, HANG, p, 16));
    store_free(st);
}

/* A store that fails is refused from then on, with the first reason, and is not touched again. */
static void test_records_fail(void **state)
{
    (void)state;
    u8 p[16] = {0};
    struct store *st = store_new();
    st->g->s->force_status = ERST_STATUS_HARDWARE_NOT_AVAILABLE;
    assert_false(erst_records_write(&st->s, HANG, p, 16));
    assert_contains(st->s.error,
                    "ACPI ERST: read: the firmware says HARDWARE_NOT_AVAILABLE; the store is not used again");
    u32 writes = st->g->s->register_writes;
    st->g->s->force_status = -1;
    assert_false(erst_records_write(&st->s, HANG, p, 16));
    assert_contains(st->s.error, "failed earlier (read: the firmware says HARDWARE_NOT_AVAILABLE)");
    assert_false(erst_records_clear(&st->s, HANG));
    assert_false(erst_records_read(&st->s, HANG, p, 16));
    char buf[100];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    assert_false(erst_records_describe(&st->s, &sb));
    assert_int_equal(st->g->s->register_writes, writes);
    store_free(st);

    st = store_new();
    st->g->s->busy_forever = true;
    assert_false(erst_records_read(&st->s, HANG, p, 16));
    assert_contains(st->s.error, "read: the firmware was still busy after 1000 us");
    assert_int_equal(st->g->s->stalled_us, ERST_FIRMWARE_TIMEOUT_US);
    writes = st->g->s->register_writes;
    assert_false(erst_records_write(&st->s, HANG, p, 16));
    assert_int_equal(st->g->s->register_writes, writes);
    store_free(st);

    /* A store that says it wrote, and kept nothing. */
    st = store_new();
    st->g->s->drop_writes = true;
    assert_false(erst_records_write(&st->s, HANG, p, 16));
    assert_contains(st->s.error, "record 0x80706d7562000001 read back absent after its write");
    assert_true(st->s.failed);
    store_free(st);

    /* A full store. */
    st = store_new();
    u8 rec[CPER_PMUBOOT_MAX_LEN];
    for (u64 i = 1; i <= SIM_SLOTS; i++)
        assert_int_equal(erst_put_record(&st->s.dev, &st->s.range, st->g->s->exchange, rec, foreign_record(i, rec)),
                         ERST_DONE);
    assert_false(erst_records_write(&st->s, HANG, p, 16));
    assert_contains(st->s.error, "write: the firmware says NOT_ENOUGH_SPACE");
    store_free(st);

    /* The range: NVRAM, or where this machine cannot reach. */
    struct erst_records *s = malloc(sizeof(*s));
    assert_non_null(s);
    struct rig *g = rig_new();
    g->s->attributes = ERST_RANGE_NVRAM;
    assert_false(erst_records_open(s, g->t, &g->io, NULL, map_exchange));
    assert_contains(s->error, "NVRAM");
    assert_contains(s->error, "(0xfebfc000, 8192 bytes, attributes 0x2)");
    g->s->attributes = 0;
    assert_false(erst_records_open(s, g->t, &g->io, NULL, map_refused));
    assert_contains(s->error, "above what this machine maps");
    rig_free(g);
    free(s);
}

/* ---- CPER ---- */

static void test_cper(void **state)
{
    (void)state;
    u8 p[16], rec[CPER_PMUBOOT_MAX_LEN], q[16];
    char why[200];
    for (u32 i = 0; i < 16; i++)
        p[i] = (u8)(0xa0 + i);
    cper_pmuboot_encode(HANG, p, 16, rec);
    u32 n = cper_pmuboot_len(16);
    assert_int_equal(n, 216);
    assert_memory_equal(rec, "CPER\x00\x01\xff\xff\xff\xff\x01\x00", 12); /* revision 0x0100, one section */
    static const u8 creator[16] = {0x0d, 0x0c, 0x93, 0x63, 0x32, 0x38, 0xd8, 0x42,
                                   0x9b, 0x6c, 0xd2, 0x73, 0x1d, 0x2f, 0x7a, 0x0b};
    assert_memory_equal(rec + 64, creator, 16);
    assert_int_equal(rec[20], 216);
    assert_int_equal(rec[12], 3); /* informational */
    assert_int_equal(rec[104], 4); /* simulated: not a hardware error */
    assert_null(cper_pmuboot_decode(rec, n, HANG, q, 16, why, sizeof(why)));
    assert_memory_equal(p, q, 16);
    char g[40];
    efi_guid_format(&cper_pmuboot_section, g, sizeof(g));
    assert_string_equal(g, "73a14cc0-e94d-474b-9883-967d11abc226");

    u8 bad[CPER_PMUBOOT_MAX_LEN];
    memcpy(bad, rec, n);
    bad[0] = 'X';
    assert_non_null(cper_pmuboot_decode(bad, n, HANG, q, 16, why, sizeof(why)));
    assert_contains(why, "not a CPER record");
    assert_non_null(cper_pmuboot_decode(rec, 100, HANG, q, 16, why, sizeof(why)));
    assert_contains(why, "not a CPER record (100 bytes");

    n = foreign_record(HANG, bad);
    assert_non_null(cper_pmuboot_decode(bad, n, HANG, q, 16, why, sizeof(why)));
    assert_contains(why, "record 0x80706d7562000001: another creator's (75a574e3-5052-4b29-8a8e-be2c6490b89d)");

    n = cper_pmuboot_len(16);
    assert_non_null(cper_pmuboot_decode(rec, n, RESET, q, 16, why, sizeof(why)));
    assert_contains(why, "its header says record 0x80706d7562000001");
    assert_non_null(cper_pmuboot_decode(rec, n, HANG, q, 8, why, sizeof(why)));
    assert_contains(why, "16 bytes of payload, 8 expected");
    memcpy(bad, rec, n);
    bad[128 + 16] ^= 1; /* the section type */
    assert_non_null(cper_pmuboot_decode(bad, n, HANG, q, 16, why, sizeof(why)));
    assert_contains(why, "not the layout pmuboot writes");
    memcpy(bad, rec, n);
    put32(bad + 20, 300); /* a length the store did not give */
    assert_non_null(cper_pmuboot_decode(bad, n, HANG, q, 16, why, sizeof(why)));
    assert_contains(why, "record 300 bytes of 216");
}

/* pmuboot's identifiers are none of Linux's (cper_next_record_id) nor the firmware's special ones. */
static void test_record_ids(void **state)
{
    (void)state;
    assert_true(cper_pmuboot_id(HANG));
    assert_true(cper_pmuboot_id(RESET));
    assert_int_equal(HANG, 0x80706d7562000001ull);
    assert_false(cper_pmuboot_id(ERST_ID_NONE));
    assert_false(cper_pmuboot_id(ERST_ID_UNSPECIFIED));
    assert_false(cper_pmuboot_id((0x7fffffffull << 32) | 0x62000001)); /* before 2038 */
    for (u64 t = 0x80000000ull; t < (1ull << 39); t = t * 3 / 2) /* after: 0x8000000000000000 | seconds << 24 */
        assert_false(cper_pmuboot_id((0x8000000000000000ull | t << 24) + 1));
    u8 b[8];
    put64(b, HANG);
    assert_memory_equal(b + 3, "bump", 4); /* "pmub", stored little-endian */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qemu_table_parses),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_range),
        cmocka_unit_test(test_write_read_clear),
        cmocka_unit_test(test_read_absent),
        cmocka_unit_test(test_failure_status),
        cmocka_unit_test(test_busy_forever),
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_preserve_register),
        cmocka_unit_test(test_skip_goto),
        cmocka_unit_test(test_stall),
        cmocka_unit_test(test_move_data),
        cmocka_unit_test(test_records),
        cmocka_unit_test(test_records_foreign),
        cmocka_unit_test(test_records_fail),
        cmocka_unit_test(test_cper),
        cmocka_unit_test(test_record_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
