/* ACPI ERST decoding, its interpreter and its operations (see erst.h). Offsets from ACPI 6.5 18.5 "Error
 * Serialization": the table header and its Serialization Instruction Entries (18.5.1.2). */
#include "lib/erst.h"

#include <stdarg.h>
#include <string.h>

#include "lib/acpi_reg.h"
#include "lib/format.h"

typedef unsigned long long ull; /* for %llx */

#define ERST_CPER_LENGTH_AT 20      /* UEFI 2.10 N.2.1: Record Length */
#define ERST_CPER_PERSISTENCE_AT 108 /* ... Persistence Information, reserved for the store */
#define ERST_CPER_MIN_LEN 128        /* ... the record header */

static const char *const action_names[] = {
    "BEGIN_WRITE", "BEGIN_READ", "BEGIN_CLEAR", "END", "SET_RECORD_OFFSET", "EXECUTE_OPERATION",
    "CHECK_BUSY_STATUS", "GET_COMMAND_STATUS", "GET_RECORD_IDENTIFIER", "SET_RECORD_IDENTIFIER",
    "GET_RECORD_COUNT", "BEGIN_DUMMY_WRITE", NULL, "GET_ERROR_LOG_ADDRESS_RANGE", "GET_ERROR_LOG_ADDRESS_LENGTH",
    "GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES", "GET_EXECUTE_OPERATION_TIMINGS",
};

static const char *action_name(u8 a)
{
    return a < ARRAY_SIZE(action_names) && action_names[a] ? action_names[a] : "an unknown action";
}

/* The actions pmuboot's operations run and Linux's apei_exec_run requires (BEGIN_x and END are optional, as Linux
 * runs them with apei_exec_run_optional; the record count and the walk over identifiers only feed the evidence). */
static const u8 required[] = {
    ERST_SET_RECORD_OFFSET,           ERST_EXECUTE_OPERATION,           ERST_CHECK_BUSY_STATUS,
    ERST_GET_COMMAND_STATUS,          ERST_SET_RECORD_IDENTIFIER,       ERST_GET_ERROR_LOG_ADDRESS_RANGE,
    ERST_GET_ERROR_LOG_ADDRESS_LENGTH, ERST_GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES,
};

static bool has_action(const struct acpi_erst *t, u8 action)
{
    for (u32 i = 0; i < t->count; i++)
        if (t->e[i].action == action)
            return true;
    return false;
}

bool erst_uses_register(const struct erst_entry *e)
{
    u8 i = e->instruction;
    return i != ERST_NOOP && i != ERST_ADD && i != ERST_SUBTRACT && i != ERST_STALL && i != ERST_GOTO;
}

/* What makes an entry unusable, or NULL. */
static const char *entry_problem(const struct erst_entry *e)
{
    if (e->action == 0x0c || e->action > ERST_GET_EXECUTE_OPERATION_TIMINGS)
        return "an unknown action";
    if (e->instruction > ERST_MOVE_DATA)
        return "an unknown instruction (Linux's interpreter refuses the table too)";
    /* Flags bits 1..7 are reserved: ignored, as Linux ignores them. */
    if (!erst_uses_register(e))
        return NULL; /* its register is not read: Linux maps and checks only the ones it reaches */
    const struct acpi_gas *g = &e->reg;
    const char *why = acpi_gas_register_problem(g, 8);
    if (why)
        return why;
    if (!g->address) /* as Linux's apei_check_gar */
        return "a register at address 0";
    if ((u32)g->bit_width + g->bit_offset > acpi_gas_access_bytes(g) * 8)
        return "a bit width and offset beyond the access size";
    return NULL;
}

bool acpi_erst_parse(const struct phys_window *mem, u64 phys, struct acpi_erst *out, struct acpi_problems *pr)
{
    u8 h[ERST_HEADER_LEN];
    memset(out, 0, sizeof(*out));
    if (!acpi_table_check(mem, phys, "ERST", "ERST", ERST_HEADER_LEN, pr))
        return false;
    phys_read(mem, phys, h, sizeof(h));
    u32 length = acpi_get32(h + 4), header_size = acpi_get32(h + 36), n = acpi_get32(h + 44);
    out->phys = phys;
    out->length = length;
    /* Linux's erst_check_table takes 48 (the whole header) or 12 (without the ACPI header), and wants the entry count
     * to be exactly what the length holds. */
    if (header_size != ERST_HEADER_LEN && header_size != ERST_HEADER_LEN - 36) {
        acpi_problem(pr, "ERST: Serialization Header Size %u, not 48: where the instructions start is unknown",
                     header_size);
        return false;
    }
    u32 fits = (length - ERST_HEADER_LEN) / ERST_ENTRY_LEN;
    if (n != fits || (length - ERST_HEADER_LEN) % ERST_ENTRY_LEN) {
        acpi_problem(pr, "ERST: %u instruction entries %s its %u bytes", n,
                     n > fits ? "do not fit in" : "do not fill", length);
        return false;
    }
    if (n > ERST_MAX_ENTRIES) {
        acpi_problem(pr, "ERST: %u instruction entries, pmuboot keeps %u", n, ERST_MAX_ENTRIES);
        return false;
    }
    bool ok = true;
    for (u32 i = 0; i < n; i++) {
        u8 b[ERST_ENTRY_LEN];
        phys_read(mem, phys + ERST_HEADER_LEN + (u64)i * ERST_ENTRY_LEN, b, sizeof(b));
        struct erst_entry *e = &out->e[i];
        e->action = b[0];
        e->instruction = b[1];
        e->flags = b[2];
        e->reg = (struct acpi_gas){b[4], b[5], b[6], b[7], acpi_get64(b + 8)};
        e->value = acpi_get64(b + 16);
        e->mask = acpi_get64(b + 24);
        const char *why = entry_problem(e);
        if (why) {
            acpi_problem(pr, "ERST: entry %u (action 0x%x, instruction 0x%x, 0x%llx) has %s", i,
                         e->action, e->instruction, (ull)e->reg.address, why);
            ok = false;
        }
    }
    out->count = n;
    for (u32 i = 0; i < ARRAY_SIZE(required); i++)
        if (!has_action(out, required[i])) {
            acpi_problem(pr, "ERST: no %s action (every write, read or clear runs it)", action_name(required[i]));
            ok = false;
        }
    return ok;
}

enum acpi_lookup acpi_erst_find(const struct phys_window *mem, const struct acpi_info *ai, struct acpi_erst *out,
                               struct acpi_problems *pr)
{
    memset(out, 0, sizeof(*out));
    u64 phys = 0;
    enum acpi_lookup l = acpi_table_lookup(ai, "ERST", &phys, pr);
    if (l != ACPI_LOOKUP_FOUND)
        return l;
    return acpi_erst_parse(mem, phys, out, pr) ? ACPI_LOOKUP_FOUND : ACPI_LOOKUP_BAD;
}

void acpi_erst_format(const struct acpi_erst *t, struct strbuf *sb)
{
    sb_printf(sb, "%u instructions", t->count);
}

/* ---- the interpreter ---- */

/* One operation's state, kept across its actions as Linux keeps its apei_exec_context: `value` is the input an
 * action takes and the output it leaves. */
struct exec {
    u64 value, var1, var2, src_base, dst_base;
};

PRINTF_LIKE(2, 3) static bool fail(struct erst_dev *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(d->why, sizeof(d->why), fmt, ap);
    va_end(ap);
    return false;
}

static u64 field(struct erst_dev *d, const struct erst_entry *e)
{
    const struct acpi_gas *g = &e->reg;
    return acpi_reg_field(d->io->read(d->io->ctx, g, acpi_gas_access_bytes(g)), g, e->mask);
}

static void put_field(struct erst_dev *d, const struct erst_entry *e, u64 v)
{
    const struct acpi_gas *g = &e->reg;
    u32 width = acpi_gas_access_bytes(g);
    bool preserve = e->flags & ERST_FLAG_PRESERVE_REGISTER;
    u64 old = preserve ? d->io->read(d->io->ctx, g, width) : 0;
    d->io->write(d->io->ctx, g, width, acpi_reg_merge(v, g, e->mask, preserve, old));
}

static void stall(struct erst_dev *d, u64 us)
{
    d->io->stall_us(d->io->ctx, (u32)MIN(us, (u64)ERST_MAX_STALL_US));
}

/* One instruction; *pc is the index of the next one within the action. The Value field is the entry's, as the
 * specification says (Linux's erst.c compares and jumps with its context value instead; the tables it meets use
 * only the register instructions, where the two readings agree). */
static bool step(struct erst_dev *d, struct exec *x, const struct erst_entry *e, u32 *pc)
{
    u64 v;
    (*pc)++;
    switch (e->instruction) {
    case ERST_READ_REGISTER:
        x->value = field(d, e);
        break;
    case ERST_READ_REGISTER_VALUE:
        x->value = field(d, e) == e->value;
        break;
    case ERST_WRITE_REGISTER:
        put_field(d, e, x->value);
        break;
    case ERST_WRITE_REGISTER_VALUE:
        x->value = e->value;
        put_field(d, e, x->value);
        break;
    case ERST_NOOP:
        break;
    case ERST_LOAD_VAR1:
        x->var1 = field(d, e);
        break;
    case ERST_LOAD_VAR2:
        x->var2 = field(d, e);
        break;
    case ERST_STORE_VAR1:
        put_field(d, e, x->var1);
        break;
    case ERST_ADD:
        x->var1 += x->var2;
        break;
    case ERST_SUBTRACT:
        x->var1 -= x->var2;
        break;
    case ERST_ADD_VALUE:
        put_field(d, e, field(d, e) + e->value);
        break;
    case ERST_SUBTRACT_VALUE:
        put_field(d, e, field(d, e) - e->value);
        break;
    case ERST_STALL:
        stall(d, e->value);
        break;
    case ERST_STALL_WHILE_TRUE: /* VAR1 microseconds between reads; at least one, so that the budget runs out */
        for (u64 spent = 0; field(d, e) == e->value; spent += MAX(MIN(x->var1, (u64)ERST_MAX_STALL_US), 1ull)) {
            if (spent >= ERST_FIRMWARE_TIMEOUT_US)
                return fail(d, "%s: the register at 0x%llx still holds 0x%llx after %u us (STALL_WHILE_TRUE)",
                            action_name(e->action), (ull)e->reg.address, (ull)e->value, ERST_FIRMWARE_TIMEOUT_US);
            d->io->stall_us(d->io->ctx, (u32)MAX(MIN(x->var1, (u64)ERST_MAX_STALL_US), 1ull));
        }
        break;
    case ERST_SKIP_NEXT_INSTRUCTION_IF_TRUE:
        if (field(d, e) == e->value)
            (*pc)++;
        break;
    case ERST_GOTO:
        *pc = e->value > 0xffffffffu ? 0xffffffffu : (u32)e->value; /* past the end: the action ends, as in Linux */
        break;
    case ERST_SET_SRC_ADDRESS_BASE:
        x->src_base = field(d, e);
        break;
    case ERST_SET_DST_ADDRESS_BASE:
        x->dst_base = field(d, e);
        break;
    case ERST_MOVE_DATA:
        v = field(d, e);
        if (!d->io->move || !d->io->move(d->io->ctx, x->dst_base + v, x->src_base + v, x->var2))
            return fail(d, "%s: MOVE_DATA of %llu bytes from 0x%llx to 0x%llx: memory pmuboot cannot reach",
                        action_name(e->action), (ull)x->var2, (ull)(x->src_base + v), (ull)(x->dst_base + v));
        break;
    }
    return true;
}

/* Run every instruction of the action (ACPI 6.5 18.5.1.2: in table order, GOTO and SKIP counting within the
 * action). An action the table lacks: true when optional (BEGIN_x, END), else false. */
static bool run(struct erst_dev *d, struct exec *x, u8 action, bool optional)
{
    const struct acpi_erst *t = d->table;
    u16 idx[ERST_MAX_ENTRIES];
    u32 n = 0;
    for (u32 i = 0; i < t->count; i++)
        if (t->e[i].action == action)
            idx[n++] = (u16)i;
    if (!n)
        return optional || fail(d, "the table has no %s action", action_name(action));
    u32 steps = 0;
    for (u32 pc = 0; pc < n;) {
        if (++steps > ERST_MAX_STEPS)
            return fail(d, "%s did not end within %u instructions (a GOTO loop)", action_name(action),
                        ERST_MAX_STEPS);
        if (!step(d, x, &t->e[idx[pc]], &pc))
            return false;
    }
    return true;
}

static bool output(struct erst_dev *d, u8 action, u64 *out)
{
    struct exec x = {0};
    if (!run(d, &x, action, false))
        return false;
    *out = x.value;
    return true;
}

bool erst_get_range(struct erst_dev *d, struct erst_range *r)
{
    u64 attributes = 0;
    memset(r, 0, sizeof(*r));
    if (!output(d, ERST_GET_ERROR_LOG_ADDRESS_RANGE, &r->base) ||
        !output(d, ERST_GET_ERROR_LOG_ADDRESS_LENGTH, &r->size) ||
        !output(d, ERST_GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES, &attributes))
        return false;
    r->attributes = (u32)attributes;
    return true;
}

/* [base, base+len) overlaps a region the memory map calls available: RAM pmuboot (and an OS) may allocate. */
static bool overlaps_free_ram(const struct boot_info *bi, u64 base, u64 len)
{
    for (u32 i = 0; bi && i < bi->mmap_count; i++) {
        const struct mem_region *m = &bi->mmap[i];
        if (m->type == MEM_AVAILABLE && base < m->base + m->length && m->base < base + len)
            return true;
    }
    return false;
}

const char *erst_range_problem(const struct erst_range *r, u64 need, const struct boot_info *bi)
{
    if (!r->base || !r->size || r->base + r->size < r->base)
        return "the firmware gives no Error Log Address Range";
    if (r->attributes & ERST_RANGE_NVRAM)
        return "the Error Log Address Range is NVRAM, written in place (Linux's erst.c does not implement it either)";
    if (r->size < need)
        return "the Error Log Address Range is smaller than pmuboot's record";
    if (overlaps_free_ram(bi, r->base, r->size))
        return "the Error Log Address Range overlaps RAM the memory map offers (Linux would not claim it either)";
    return NULL;
}

const char *erst_registers_problem(const struct acpi_erst *t, const struct boot_info *bi, char *why, size_t n)
{
    for (u32 i = 0; i < t->count; i++) {
        const struct erst_entry *e = &t->e[i];
        if (erst_uses_register(e) && e->reg.space_id == ACPI_GAS_SYSTEM_MEMORY &&
            overlaps_free_ram(bi, e->reg.address, acpi_gas_access_bytes(&e->reg))) {
            k_snprintf(why, n,
                       "instruction %u's register 0x%llx lies in RAM the memory map offers (Linux's "
                       "apei_resources_request would not claim it either)",
                       i, (ull)e->reg.address);
            return why;
        }
    }
    return NULL;
}

const char *erst_status_name(u64 status, char *buf, size_t n)
{
    static const char *const names[] = {"SUCCESS",      "NOT_ENOUGH_SPACE",   "HARDWARE_NOT_AVAILABLE",
                                        "FAILED",       "RECORD_STORE_EMPTY", "RECORD_NOT_FOUND"};
    if (status < ARRAY_SIZE(names))
        return names[status];
    k_snprintf(buf, n, "status 0x%llx", (ull)status);
    return buf;
}

/* EXECUTE_OPERATION, then CHECK_BUSY_STATUS until clear, GET_COMMAND_STATUS and END (Linux's loop in each of its
 * three operations). */
static enum erst_outcome execute(struct erst_dev *d, struct exec *x, const char *what)
{
    if (!run(d, x, ERST_EXECUTE_OPERATION, false))
        return ERST_FAILED;
    for (u32 spent = 0;; spent++) {
        if (!run(d, x, ERST_CHECK_BUSY_STATUS, false))
            return ERST_FAILED;
        if (!x->value)
            break;
        if (spent >= ERST_FIRMWARE_TIMEOUT_US) {
            fail(d, "%s: the firmware was still busy after %u us (CHECK_BUSY_STATUS)", what,
                 ERST_FIRMWARE_TIMEOUT_US);
            return ERST_FAILED;
        }
        d->io->stall_us(d->io->ctx, 1);
    }
    if (!run(d, x, ERST_GET_COMMAND_STATUS, false))
        return ERST_FAILED;
    u64 status = x->value;
    if (!run(d, x, ERST_END, true))
        return ERST_FAILED;
    if (status == ERST_STATUS_SUCCESS)
        return ERST_DONE;
    char buf[24];
    fail(d, "%s: the firmware says %s", what, erst_status_name(status, buf, sizeof(buf)));
    return status == ERST_STATUS_RECORD_NOT_FOUND || status == ERST_STATUS_RECORD_STORE_EMPTY ? ERST_NO_RECORD
                                                                                              : ERST_FAILED;
}

static bool id_usable(struct erst_dev *d, u64 id)
{
    return (id != ERST_ID_UNSPECIFIED && id != ERST_ID_NONE) ||
           fail(d, "record identifier 0x%llx means \"any\" or \"none\" to the firmware", (ull)id);
}

enum erst_outcome erst_write(struct erst_dev *d, u64 offset)
{
    struct exec x = {0};
    if (!run(d, &x, ERST_BEGIN_WRITE, true))
        return ERST_FAILED;
    x.value = offset;
    if (!run(d, &x, ERST_SET_RECORD_OFFSET, false))
        return ERST_FAILED;
    return execute(d, &x, "write");
}

enum erst_outcome erst_read(struct erst_dev *d, u64 id, u64 offset)
{
    struct exec x = {0};
    if (!id_usable(d, id) || !run(d, &x, ERST_BEGIN_READ, true))
        return ERST_FAILED;
    x.value = offset;
    if (!run(d, &x, ERST_SET_RECORD_OFFSET, false))
        return ERST_FAILED;
    x.value = id;
    if (!run(d, &x, ERST_SET_RECORD_IDENTIFIER, false))
        return ERST_FAILED;
    return execute(d, &x, "read");
}

enum erst_outcome erst_clear(struct erst_dev *d, u64 id)
{
    struct exec x = {0};
    if (!id_usable(d, id) || !run(d, &x, ERST_BEGIN_CLEAR, true))
        return ERST_FAILED;
    x.value = id;
    if (!run(d, &x, ERST_SET_RECORD_IDENTIFIER, false))
        return ERST_FAILED;
    return execute(d, &x, "clear");
}

bool erst_record_count(struct erst_dev *d, u64 *count)
{
    return output(d, ERST_GET_RECORD_COUNT, count);
}

bool erst_next_record_id(struct erst_dev *d, u64 *id)
{
    return output(d, ERST_GET_RECORD_IDENTIFIER, id);
}

enum erst_outcome erst_put_record(struct erst_dev *d, const struct erst_range *r, u8 *range, const u8 *rec, u32 len)
{
    if (len < ERST_CPER_MIN_LEN || len > r->size) {
        fail(d, "write: a record of %u bytes (at least %u, the range holds %llu)", len, ERST_CPER_MIN_LEN,
             (ull)r->size);
        return ERST_FAILED;
    }
    memcpy(range, rec, len);
    memcpy(range + ERST_CPER_PERSISTENCE_AT, "ER", 2); /* Linux's erst_write: the serialization signature */
    return erst_write(d, 0);
}

enum erst_outcome erst_get_record(struct erst_dev *d, const struct erst_range *r, const u8 *range, u64 id, u8 *out,
                                  u32 cap, u32 *len)
{
    enum erst_outcome o = erst_read(d, id, 0);
    if (o != ERST_DONE)
        return o;
    u32 n = acpi_get32(range + ERST_CPER_LENGTH_AT);
    if (n < ERST_CPER_MIN_LEN || n > r->size || n > cap) {
        fail(d, "read: record 0x%llx claims %u bytes (at least %u, at most %llu in the range, %u expected)", (ull)id,
             n, ERST_CPER_MIN_LEN, (ull)r->size, cap);
        return ERST_FAILED;
    }
    memcpy(out, range, n);
    *len = n;
    return ERST_DONE;
}
