/* A model of QEMU's ACPI ERST device and its table (see erst_sim.h). Written from QEMU's documented interface
 * (docs/specs/acpi_erst.rst) and the ACPI 6.5 18.5.2 operations, for lib/erst.c to be tested against. */
#include "tests/host/support/erst_sim.h"

#include <stdlib.h>
#include <string.h>

#include "tests/host/support/acpi_checksum.h"

#define M32 0xffffffffull
#define M64 0xffffffffffffffffull
#define ACT(a) {a, ERST_WRITE_REGISTER_VALUE, 0, 0, 32, 3, SIM_BAR0, a, M32, 0}
#define VAL(a, ins, bits, v) {a, ins, 0, 0, bits, (bits) == 64 ? 4 : 3, SIM_BAR0 + 8, v, (bits) == 64 ? M64 : M32, 0}

const struct erst_ins sim_qemu_ins[] = {
    ACT(ERST_BEGIN_WRITE),
    ACT(ERST_BEGIN_READ),
    ACT(ERST_BEGIN_CLEAR),
    ACT(ERST_END),
    VAL(ERST_SET_RECORD_OFFSET, ERST_WRITE_REGISTER, 32, 0),
    ACT(ERST_SET_RECORD_OFFSET),
    VAL(ERST_EXECUTE_OPERATION, ERST_WRITE_REGISTER_VALUE, 32, SIM_EXECUTE_MAGIC),
    ACT(ERST_EXECUTE_OPERATION),
    ACT(ERST_CHECK_BUSY_STATUS),
    VAL(ERST_CHECK_BUSY_STATUS, ERST_READ_REGISTER_VALUE, 32, 1),
    ACT(ERST_GET_COMMAND_STATUS),
    VAL(ERST_GET_COMMAND_STATUS, ERST_READ_REGISTER, 32, 0),
    ACT(ERST_GET_RECORD_IDENTIFIER),
    VAL(ERST_GET_RECORD_IDENTIFIER, ERST_READ_REGISTER, 64, 0),
    VAL(ERST_SET_RECORD_IDENTIFIER, ERST_WRITE_REGISTER, 64, 0),
    ACT(ERST_SET_RECORD_IDENTIFIER),
    ACT(ERST_GET_RECORD_COUNT),
    VAL(ERST_GET_RECORD_COUNT, ERST_READ_REGISTER, 32, 0),
    ACT(ERST_BEGIN_DUMMY_WRITE),
    ACT(ERST_GET_ERROR_LOG_ADDRESS_RANGE),
    VAL(ERST_GET_ERROR_LOG_ADDRESS_RANGE, ERST_READ_REGISTER, 64, 0),
    ACT(ERST_GET_ERROR_LOG_ADDRESS_LENGTH),
    VAL(ERST_GET_ERROR_LOG_ADDRESS_LENGTH, ERST_READ_REGISTER, 64, 0),
    ACT(ERST_GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES),
    VAL(ERST_GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES, ERST_READ_REGISTER, 32, 0),
    ACT(ERST_GET_EXECUTE_OPERATION_TIMINGS),
    VAL(ERST_GET_EXECUTE_OPERATION_TIMINGS, ERST_READ_REGISTER, 64, 0),
};
const u32 sim_qemu_count = sizeof(sim_qemu_ins) / sizeof(sim_qemu_ins[0]);

static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }
static u32 get32(const u8 *p) { u32 v; memcpy(&v, p, 4); return v; }
static u64 get64(const u8 *p) { u64 v; memcpy(&v, p, 8); return v; }

struct erst_table erst_table_new(const struct erst_ins *in, u32 n)
{
    u32 len = ERST_HEADER_LEN + n * ERST_ENTRY_LEN;
    struct erst_table t = {calloc(1, len), len};
    if (!t.b)
        abort();
    memcpy(t.b, "ERST", 4);
    put32(t.b + 4, len);
    t.b[8] = 1;
    memcpy(t.b + 10, "BOCHS ", 6);
    put32(t.b + 36, ERST_HEADER_LEN);
    put32(t.b + 44, n);
    for (u32 i = 0; i < n; i++) {
        u8 *e = t.b + ERST_HEADER_LEN + i * ERST_ENTRY_LEN;
        e[0] = in[i].action;
        e[1] = in[i].instruction;
        e[2] = in[i].flags;
        e[4] = in[i].space;
        e[5] = in[i].bits;
        e[6] = in[i].bit_offset;
        e[7] = in[i].access;
        put64(e + 8, in[i].address);
        put64(e + 16, in[i].value);
        put64(e + 24, in[i].mask);
    }
    erst_table_fix(&t);
    return t;
}

void erst_table_fix(struct erst_table *t)
{
    acpi_test_checksum(t->b, t->len, 9);
}

bool erst_table_parse(struct erst_table *t, struct acpi_erst *out, struct acpi_problems *pr)
{
    struct phys_window win = {SIM_TABLE_AT, t->len, t->b, NULL};
    memset(pr, 0, sizeof(*pr));
    return acpi_erst_parse(&win, SIM_TABLE_AT, out, pr);
}

struct sim *sim_new(void)
{
    struct sim *s = calloc(1, sizeof(*s));
    if (!s)
        abort();
    s->force_status = -1;
    return s;
}

u32 sim_records(const struct sim *s)
{
    u32 n = 0;
    for (u32 i = 0; i < SIM_SLOTS; i++)
        n += s->slot[i].id != 0;
    return n;
}

static int find(const struct sim *s, u64 id)
{
    for (u32 i = 0; i < SIM_SLOTS; i++)
        if (s->slot[i].id && s->slot[i].id == id)
            return (int)i;
    return -1;
}

static bool id_valid(u64 id)
{
    return id != ERST_ID_UNSPECIFIED && id != ERST_ID_NONE;
}

/* The record at the exchange buffer's record offset into a slot (the same identifier's, else an empty one). */
static u8 write_record(struct sim *s)
{
    if (s->record_offset > SIM_XLEN - 128)
        return ERST_STATUS_FAILED;
    const u8 *rec = s->exchange + s->record_offset;
    u32 len = get32(rec + 20);
    u64 id = get64(rec + 96);
    if (len < 128 || len > SIM_XLEN - s->record_offset || !id_valid(id))
        return ERST_STATUS_FAILED;
    if (s->drop_writes)
        return ERST_STATUS_SUCCESS;
    int i = find(s, id);
    for (u32 j = 0; i < 0 && j < SIM_SLOTS; j++)
        if (!s->slot[j].id)
            i = (int)j;
    if (i < 0)
        return ERST_STATUS_NOT_ENOUGH_SPACE;
    s->slot[i].id = id;
    memset(s->slot[i].data, 0xff, SIM_XLEN);
    memcpy(s->slot[i].data, rec, len);
    s->writes_done++;
    return ERST_STATUS_SUCCESS;
}

static u8 read_record(struct sim *s)
{
    if (!sim_records(s))
        return ERST_STATUS_RECORD_STORE_EMPTY;
    if (!id_valid(s->record_id) || s->record_offset > SIM_XLEN - 128)
        return ERST_STATUS_FAILED;
    int i = find(s, s->record_id);
    if (i < 0)
        return ERST_STATUS_RECORD_NOT_FOUND;
    u32 len = get32(s->slot[i].data + 20);
    if (len > SIM_XLEN - s->record_offset)
        return ERST_STATUS_FAILED;
    memcpy(s->exchange + s->record_offset, s->slot[i].data, len);
    return ERST_STATUS_SUCCESS;
}

static u8 clear_record(struct sim *s)
{
    if (!id_valid(s->record_id))
        return ERST_STATUS_FAILED;
    int i = find(s, s->record_id);
    if (i < 0)
        return ERST_STATUS_RECORD_NOT_FOUND;
    s->slot[i].id = 0;
    s->clears_done++;
    return ERST_STATUS_SUCCESS;
}

/* GET_RECORD_IDENTIFIER: the next stored identifier, all ones at the end (and the walk starts again). */
static u64 next_id(struct sim *s)
{
    for (; s->walk < SIM_SLOTS; s->walk++)
        if (s->slot[s->walk].id)
            return s->slot[s->walk++].id;
    s->walk = 0;
    return ERST_ID_NONE;
}

static void action(struct sim *s, u64 a)
{
    switch (a) {
    case ERST_BEGIN_WRITE:
    case ERST_BEGIN_READ:
    case ERST_BEGIN_CLEAR:
    case ERST_BEGIN_DUMMY_WRITE:
    case ERST_END:
        s->operation = (u8)a;
        break;
    case ERST_SET_RECORD_OFFSET:
        s->record_offset = (u32)s->value;
        break;
    case ERST_EXECUTE_OPERATION:
        if ((u8)s->value != SIM_EXECUTE_MAGIC)
            break;
        s->executes++;
        s->status = s->operation == ERST_BEGIN_WRITE   ? write_record(s)
                    : s->operation == ERST_BEGIN_READ  ? read_record(s)
                    : s->operation == ERST_BEGIN_CLEAR ? clear_record(s)
                                                       : ERST_STATUS_SUCCESS;
        if (s->force_status >= 0)
            s->status = (u8)s->force_status;
        s->busy = s->busy_forever;
        break;
    case ERST_CHECK_BUSY_STATUS:
        s->value = s->busy;
        break;
    case ERST_GET_COMMAND_STATUS:
        s->value = s->status;
        break;
    case ERST_GET_RECORD_IDENTIFIER:
        s->value = next_id(s);
        break;
    case ERST_SET_RECORD_IDENTIFIER:
        s->record_id = s->value;
        break;
    case ERST_GET_RECORD_COUNT:
        s->value = sim_records(s);
        break;
    case ERST_GET_ERROR_LOG_ADDRESS_RANGE:
        s->value = SIM_BAR1;
        break;
    case ERST_GET_ERROR_LOG_ADDRESS_LENGTH:
        s->value = SIM_XLEN;
        break;
    case ERST_GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES:
        s->value = s->attributes;
        break;
    case ERST_GET_EXECUTE_OPERATION_TIMINGS:
        s->value = (100ull << 32) | 10; /* at most 100 us, at least 10 */
        break;
    }
}

static u64 *cell(struct sim *s, u64 addr)
{
    if (addr < CELL(0) || addr >= CELL(SIM_CELLS) || addr % 8)
        abort(); /* the tables of these tests name no other register */
    return &s->cell[(addr - CELL(0)) / 8];
}

static u64 rd(void *ctx, const struct acpi_gas *g, u32 width)
{
    struct sim *s = ctx;
    u64 mask = width == 8 ? ~0ull : (1ull << (width * 8)) - 1;
    if (g->address == SIM_BAR0 + 8) /* 32-bit accesses reach the low half, as QEMU's erst_rd_reg64 */
        return s->value & mask;
    if (g->address == SIM_BAR0)
        return 0;
    return *cell(s, g->address) & mask;
}

static void wr(void *ctx, const struct acpi_gas *g, u32 width, u64 v)
{
    struct sim *s = ctx;
    u64 mask = width == 8 ? ~0ull : (1ull << (width * 8)) - 1;
    s->register_writes++;
    if (g->address == SIM_BAR0 + 8)
        s->value = (s->value & ~mask) | (v & mask);
    else if (g->address == SIM_BAR0)
        action(s, v & mask);
    else
        *cell(s, g->address) = (*cell(s, g->address) & ~mask) | (v & mask);
}

static void stall(void *ctx, u32 us)
{
    struct sim *s = ctx;
    s->stalls++;
    s->stalled_us += us;
}

static bool move(void *ctx, u64 dst, u64 src, u64 len)
{
    struct sim *s = ctx;
    if (src < SIM_MEM_AT || dst < SIM_MEM_AT || len > SIM_MEM_LEN || src - SIM_MEM_AT > SIM_MEM_LEN - len ||
        dst - SIM_MEM_AT > SIM_MEM_LEN - len)
        return false;
    memmove(s->mem + (dst - SIM_MEM_AT), s->mem + (src - SIM_MEM_AT), len);
    return true;
}

struct erst_io sim_io(struct sim *s)
{
    return (struct erst_io){s, rd, wr, stall, move};
}
