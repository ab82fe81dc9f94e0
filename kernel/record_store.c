/* The record store (see record_store.h). */
#include "kernel/record_store.h"

#include <string.h>

#include "kernel/cmos.h"
#include "kernel/enumerate.h"
#include "kernel/erst_store.h"
#include "kernel/boot_state.h"
#include "kernel/ledger.h"
#include "kernel/paging.h"
#include "lib/acpi.h"
#include "lib/cper.h"
#include "lib/format.h"
#include "lib/hang_record.h"
#include "lib/reset_record.h"
#include "kernel/portable/kernel_options.h"

struct record_store g_records;
static bool initialised;
static struct {
    bool open;
    u8 slot;
    char where[40];
} rec[RECORD_KINDS];

static const char *const kind_name[RECORD_KINDS] = {"hang record", "reset record"};
static const u64 erst_id[RECORD_KINDS] = {CPER_PMUBOOT_ID(CPER_PMUBOOT_HANG), CPER_PMUBOOT_ID(CPER_PMUBOOT_RESET)};

void record_store_init(void)
{
    if (initialised)
        return;
    initialised = true;
    struct acpi_fadt fadt = {0};
    const struct acpi_table_ref *t = g_acpi.has_root ? acpi_root_find(&g_acpi.root, "FACP") : NULL;
    struct acpi_problems pr = {0};
    bool have_fadt = t && acpi_fadt_parse(&phys_all, t->phys, &fadt, &pr);
    if (erst_store_init(g_records.erst, sizeof(g_records.erst))) {
        g_records.kind = STORE_ERST;
        k_snprintf(g_records.evidence, sizeof(g_records.evidence), "ACPI ERST, the firmware's store for an OS's records "
                   "(records 0x%llx, 0x%llx: CPER, pmuboot's creator GUID)", (unsigned long long)erst_id[0],
                   (unsigned long long)erst_id[1]);
        return;
    }
    if (kernel_options()->cmos_first) {
        const char *why = cmos_window_user(&g_records.cmos, kernel_options()->cmos_first, kernel_options()->cmos_last, fadt.century);
        if (why) {
            k_snprintf(g_records.evidence, sizeof(g_records.evidence), "none: cmos=0x%x-0x%x refused: %s; nothing is "
                       "written there", kernel_options()->cmos_first, kernel_options()->cmos_last, why);
            return;
        }
    } else if (cmos_layout_is_qemu(boot_state()->ident.hypervisor_bit, have_fadt ? fadt.oem_id : "")) {
        cmos_window_qemu(&g_records.cmos);
    } else {
        k_snprintf(g_records.evidence, sizeof(g_records.evidence),
                   "none: no store the platform made for records, and this CMOS's layout is unknown (not QEMU: %s); "
                   "cmos=FIRST-LAST names bytes in 0x40..0x7F that are free on this board",
                   !boot_state()->ident.hypervisor_bit ? "no hypervisor" : have_fadt ? "the FADT's OEM ID is not QEMU's \"BOCHS\""
                                                                          : "no ACPI FADT");
        return;
    }
    g_records.kind = STORE_CMOS;
    k_snprintf(g_records.evidence, sizeof(g_records.evidence), "CMOS 0x%02x..0x%02x%s: %s", g_records.cmos.first,
               g_records.cmos.last, g_records.cmos.keep_first <= g_records.cmos.keep_last ? " but 0x5b..0x5f" : "",
               g_records.cmos.source);
}

static void read_window(u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST])
{
    for (u32 i = 0; i < RESET_CMOS_END - RESET_CMOS_FIRST; i++)
        cmos[i] = cmos_read((u8)(RESET_CMOS_FIRST + i));
}

static bool valid_record(enum record_kind k, const u8 b[CMOS_RECORD_BYTES])
{
    return k == RECORD_HANG ? hang_record_valid(b) : reset_record_valid(b);
}

/* The CMOS slot of kind k (lib/cmos_slot.h): its valid record's, else free bytes clear of the other kind's record. */
static int cmos_slot(enum record_kind k, const u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST], bool *found)
{
    return k == RECORD_HANG ? cmos_record_slot(&g_records.cmos, cmos, hang_record_valid, reset_record_valid, found)
                            : cmos_record_slot(&g_records.cmos, cmos, reset_record_valid, hang_record_valid, found);
}

/* The ledger's view of an ERST record: 1 while it is stored, put back by clearing it (none was there before the run:
 * a boot that finds this run's record found what an earlier boot of the run wrote). */
static u64 erst_get(u64 id)
{
    u8 b[CMOS_RECORD_BYTES];
    return erst_store_read(id, b, sizeof(b));
}

static void erst_put(u64 id, u64 v)
{
    (void)v;
    erst_store_clear(id);
}

static bool erst_open(enum record_kind k, u8 b[CMOS_RECORD_BYTES], bool *found, char *why, size_t n)
{
    memset(b, 0, CMOS_RECORD_BYTES);
    *found = erst_store_read(erst_id[k], b, CMOS_RECORD_BYTES) && valid_record(k, b);
    if (!*found)
        memset(b, 0, CMOS_RECORD_BYTES);
    char name[72];
    k_snprintf(name, sizeof(name), "ACPI ERST record 0x%llx (%s)", (unsigned long long)erst_id[k], kind_name[k]);
    if (!ledger_note(name, erst_get, erst_put, erst_id[k], 0, 8)) {
        k_snprintf(why, n, "the ledger of changes is full: the %s is not written", kind_name[k]);
        return false;
    }
    rec[k].open = true;
    k_snprintf(rec[k].where, sizeof(rec[k].where), "ACPI ERST record 0x%llx", (unsigned long long)erst_id[k]);
    return true;
}

bool record_store_open(enum record_kind k, u8 b[CMOS_RECORD_BYTES], bool *found, char *why, size_t n)
{
    record_store_init();
    *found = false;
    if (g_records.kind == STORE_NONE) {
        k_snprintf(why, n, "no record store (%s)", g_records.evidence);
        return false;
    }
    if (g_records.kind == STORE_ERST)
        return erst_open(k, b, found, why, n);
    u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST];
    read_window(cmos);
    int slot = cmos_slot(k, cmos, found);
    if (slot < 0) {
        k_snprintf(why, n, "no 16 unused (zero) bytes in CMOS 0x%02x..0x%02x for the %s: they are not changed",
                   g_records.cmos.first, g_records.cmos.last, kind_name[k]);
        return false;
    }
    rec[k].open = true;
    rec[k].slot = (u8)slot;
    k_snprintf(rec[k].where, sizeof(rec[k].where), "CMOS 0x%02x..0x%02x", slot, slot + CMOS_RECORD_BYTES - 1);
    memcpy(b, &cmos[slot - RESET_CMOS_FIRST], CMOS_RECORD_BYTES);
    /* Before the run these bytes were unused, i.e. 0 (a slot is only ever taken where they read 0): the ledger puts
     * 0 back at the end, also on a boot that found this run's record there. */
    if (!ledger_note_cmos_unused((u8)slot, CMOS_RECORD_BYTES, kind_name[k])) {
        rec[k].open = false;
        k_snprintf(why, n, "the ledger of changes is full: the %s is not written", kind_name[k]);
        return false;
    }
    return true;
}

bool record_store_write(enum record_kind k, const u8 b[CMOS_RECORD_BYTES])
{
    if (!rec[k].open)
        return false;
    if (g_records.kind == STORE_ERST) {
        ledger_note("", erst_get, erst_put, erst_id[k], 0, 8); /* again after a restore (the first note's name stays) */
        return erst_store_write(erst_id[k], b, CMOS_RECORD_BYTES);
    }
    ledger_note_cmos_unused(rec[k].slot, CMOS_RECORD_BYTES, kind_name[k]); /* again after a restore */
    bool ok = true;
    for (u32 i = 0; i < CMOS_RECORD_BYTES; i++) {
        u8 idx = (u8)(rec[k].slot + i);
        if (cmos_read(idx) != b[i])
            cmos_write_raw(idx, b[i]); /* in the ledger as one run (record_store_open) */
    }
    for (u32 i = 0; i < CMOS_RECORD_BYTES; i++)
        ok = ok && cmos_read((u8)(rec[k].slot + i)) == b[i];
    return ok;
}

void record_store_clear(enum record_kind k)
{
    if (!rec[k].open)
        return;
    if (g_records.kind == STORE_ERST) {
        erst_store_clear(erst_id[k]);
        return;
    }
    static const u8 zero[CMOS_RECORD_BYTES];
    record_store_write(k, zero);
}

const char *record_store_failure(void)
{
    return g_records.kind == STORE_ERST && erst_store_failed() ? erst_store_last_error() : NULL;
}

bool record_store_holds(enum record_kind k)
{
    record_store_init();
    if (g_records.kind == STORE_NONE)
        return false;
    if (g_records.kind == STORE_ERST) {
        u8 b[CMOS_RECORD_BYTES];
        return erst_store_read(erst_id[k], b, sizeof(b)) && valid_record(k, b);
    }
    u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST];
    read_window(cmos);
    bool found = false;
    cmos_slot(k, cmos, &found);
    return found;
}

const char *record_store_where(enum record_kind k)
{
    return rec[k].open ? rec[k].where : "nowhere";
}
