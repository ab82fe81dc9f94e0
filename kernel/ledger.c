/* The ledger of machine state pmuboot changes (see ledger.h). */
#include "kernel/ledger.h"

#include <string.h>

#include "kernel/cmos.h"
#include "lib/format.h"

static struct ledger_entry entries[LEDGER_MAX];
static u32 count, refused;
static char skip[24];

bool ledger_note(const char *what, u64 (*read)(u64 arg), void (*write)(u64 arg, u64 value), u64 arg, u64 found,
                 u32 bits)
{
    for (u32 i = 0; i < count; i++)
        if (entries[i].read == read && entries[i].arg == arg) {
            entries[i].restored = false; /* changed again after a restore */
            return true;
        }
    if (count >= LEDGER_MAX) {
        refused++;
        return false;
    }
    struct ledger_entry *e = &entries[count++];
    *e = (struct ledger_entry){.found = found, .read = read, .write = write, .arg = arg, .bits = bits};
    k_snprintf(e->what, sizeof(e->what), "%s", what);
    return true;
}

static u64 cmos_get(u64 idx)
{
    return cmos_read((u8)idx);
}

static void cmos_put(u64 idx, u64 v)
{
    cmos_write_raw((u8)idx, (u8)v);
}

/* A run of CMOS bytes that were unused (0) before the run: arg = first | length << 8; its value is the number of bytes
 * that are not 0. */
static u64 cmos_run_get(u64 arg)
{
    u64 n = 0;
    for (u32 i = 0; i < (arg >> 8); i++)
        n += cmos_read((u8)((arg & 0xff) + i)) != 0;
    return n;
}

static void cmos_run_put(u64 arg, u64 v)
{
    (void)v;
    for (u32 i = 0; i < (arg >> 8); i++)
        cmos_write_raw((u8)((arg & 0xff) + i), 0);
}

bool ledger_note_cmos_unused(u8 first, u8 len, const char *what)
{
    char name[72];
    k_snprintf(name, sizeof(name), "CMOS 0x%02x..0x%02x (%s; bytes not 0)", first, first + len - 1, what);
    return ledger_note(name, cmos_run_get, cmos_run_put, first | (u64)len << 8, 0, 8);
}

bool ledger_note_cmos(u8 idx, u8 found, const char *what)
{
    char name[72];
    k_snprintf(name, sizeof(name), "CMOS 0x%02x%s%s%s", idx, what ? " (" : "", what ? what : "", what ? ")" : "");
    return ledger_note(name, cmos_get, cmos_put, idx, found, 8);
}

static void restore(struct ledger_entry *e)
{
    e->write(e->arg, e->found);
    e->restored = true;
}

void ledger_restore_cmos(u8 idx)
{
    for (u32 i = 0; i < count; i++)
        if (entries[i].read == cmos_get && entries[i].arg == idx)
            restore(&entries[i]);
}

u32 ledger_restore_all(void)
{
    u32 n = 0;
    for (u32 i = 0; i < count; i++) {
        struct ledger_entry *e = &entries[i];
        if ((skip[0] && strstr(e->what, skip)) || (e->restored && e->read(e->arg) == e->found))
            continue;
        restore(e);
        n++;
    }
    return n;
}

bool ledger_skips(const char *what)
{
    return skip[0] && strstr(what, skip);
}

void ledger_set_skip(const char *text)
{
    k_snprintf(skip, sizeof(skip), "%s", text ? text : "");
}

u32 ledger_count(void)
{
    return count;
}

const struct ledger_entry *ledger_entry_at(u32 i)
{
    return i < count ? &entries[i] : NULL;
}

static u8 cmos_boot[128];

void ledger_snapshot_cmos(void)
{
    for (u32 i = 0; i < sizeof(cmos_boot); i++)
        cmos_boot[i] = cmos_read((u8)i);
}

const u8 *ledger_cmos_at_boot(void)
{
    return cmos_boot;
}

bool ledger_has_cmos(u8 idx)
{
    for (u32 i = 0; i < count; i++) {
        const struct ledger_entry *e = &entries[i];
        if ((e->read == cmos_get && e->arg == idx) ||
            (e->read == cmos_run_get && idx >= (e->arg & 0xff) && idx < (e->arg & 0xff) + (e->arg >> 8)))
            return true;
    }
    return false;
}

u32 ledger_refused(void)
{
    return refused;
}
