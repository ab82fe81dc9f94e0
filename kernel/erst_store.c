/* pmuboot's records in the ACPI ERST (see erst_store.h). */
#include "kernel/erst_store.h"

#include <string.h>

#include "kernel/enumerate.h"
#include "kernel/boot_state.h"
#include "kernel/paging.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "lib/acpi_reg.h"
#include "lib/erst_records.h"
#include "lib/format.h"
#include "lib/pt_map.h"

typedef unsigned long long ull; /* for %llx */

static struct acpi_erst table;
static struct erst_records store;
static bool usable;            /* init found a store that answers */
static char why_not[ERST_WHY_LEN + 160]; /* ... else why not */

/* ---- the firmware's registers (identity-mapped: below 4 GiB, or mapped by init) ---- */

static u64 reg_read(void *ctx, const struct acpi_gas *g, u32 width)
{
    (void)ctx;
    if (g->space_id == ACPI_GAS_SYSTEM_IO) /* lib/acpi_reg.c refuses 64-bit port access */
        return width == 1 ? inb((u16)g->address) : width == 2 ? inw((u16)g->address) : inl((u16)g->address);
    uintptr_t a = (uintptr_t)g->address;
    return width == 1   ? *(volatile u8 *)a
           : width == 2 ? *(volatile u16 *)a
           : width == 4 ? *(volatile u32 *)a
                        : *(volatile u64 *)a;
}

static void reg_write(void *ctx, const struct acpi_gas *g, u32 width, u64 v)
{
    (void)ctx;
    if (g->space_id == ACPI_GAS_SYSTEM_IO) {
        if (width == 1)
            outb((u16)g->address, (u8)v);
        else if (width == 2)
            outw((u16)g->address, (u16)v);
        else
            outl((u16)g->address, (u32)v);
        return;
    }
    uintptr_t a = (uintptr_t)g->address;
    if (width == 1)
        *(volatile u8 *)a = (u8)v;
    else if (width == 2)
        *(volatile u16 *)a = (u16)v;
    else if (width == 4)
        *(volatile u32 *)a = (u32)v;
    else
        *(volatile u64 *)a = v;
}

static void stall_us(void *ctx, u32 us)
{
    (void)ctx;
    udelay(us);
}

/* MOVE_DATA (Linux's erst_exec_move_data maps both ranges and memmoves): here only within the identity map of the low
 * 4 GiB, as nothing may be mapped once the APs run. */
static bool move(void *ctx, u64 dst, u64 src, u64 len)
{
    (void)ctx;
    if (src > PT_LOW_MAPPED || dst > PT_LOW_MAPPED || len > PT_LOW_MAPPED - src || len > PT_LOW_MAPPED - dst)
        return false;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, (size_t)len);
    return true;
}

static const struct erst_io regs = {NULL, reg_read, reg_write, stall_us, move};

/* ---- init ---- */

/* Memory registers above 4 GiB mapped uncached-minus, as Linux's ioremap of a GAS; NULL or why not (why: n bytes). */
static const char *map_registers(char *why, size_t n)
{
    for (u32 i = 0; i < table.count; i++) {
        const struct acpi_gas *g = &table.e[i].reg;
        if (!erst_uses_register(&table.e[i]) || g->space_id != ACPI_GAS_SYSTEM_MEMORY)
            continue;
        const char *no = paging_map_device(g->address, acpi_gas_access_bytes(g));
        if (no) {
            k_snprintf(why, n, "its register at 0x%llx cannot be mapped: %s", (ull)g->address, no);
            return why;
        }
    }
    return NULL;
}

/* The Error Log Address Range: identity-mapped below 4 GiB, else mapped uncached-minus (Linux maps it with
 * ioremap_cache; uncached is the safe side for a range that may be a device's, as QEMU's BAR is). */
static u8 *map_range(void *ctx, u64 base, u64 size, const char **no)
{
    (void)ctx;
    *no = base + size > PT_LOW_MAPPED ? paging_map_device(base, size) : NULL;
    return *no ? NULL : (u8 *)(uintptr_t)base;
}

static bool refuse(char *evidence, size_t n, const char *why)
{
    k_snprintf(why_not, sizeof(why_not), "%s", why);
    k_snprintf(evidence, n, "%s", why);
    return false;
}

bool erst_store_init(char *evidence, size_t n)
{
    struct acpi_problems pr = {0};
    char why[ERST_WHY_LEN + 120];
    usable = false;
    switch (acpi_erst_find(&phys_all, &g_acpi, &table, &pr)) {
    case ACPI_LOOKUP_NO_ACPI:
        return refuse(evidence, n, "no ACPI ERST (no ACPI tables found)");
    case ACPI_LOOKUP_ABSENT:
        return refuse(evidence, n, "no ACPI ERST (the firmware lists none)");
    case ACPI_LOOKUP_BAD: {
        struct strbuf sb;
        sb_init(&sb, why, sizeof(why));
        sb_printf(&sb, "an ACPI ERST is listed but not used:");
        for (u32 i = 0; i < pr.count && i < ACPI_PROBLEMS_MAX; i++)
            sb_printf(&sb, " %s%s", pr.msg[i], i + 1 < pr.count ? ";" : "");
        return refuse(evidence, n, why);
    }
    case ACPI_LOOKUP_FOUND:
        break;
    }
    char reg_why[ERST_WHY_LEN];
    const char *no = erst_registers_problem(&table, &boot_state()->info, reg_why, sizeof(reg_why));
    if (!no)
        no = map_registers(reg_why, sizeof(reg_why));
    if (!no && !erst_records_open(&store, &table, &regs, &boot_state()->info, map_range))
        no = store.failure;
    struct strbuf sb;
    sb_init(&sb, evidence, n);
    sb_printf(&sb, "ACPI ERST at 0x%llx (", (ull)table.phys);
    acpi_erst_format(&table, &sb);
    if (!no) {
        sb_printf(&sb, "; Error Log Address Range 0x%llx, %llu bytes, attributes 0x%x): ", (ull)store.range.base,
                  (ull)store.range.size, store.range.attributes);
        if (!erst_records_describe(&store, &sb))
            no = store.failure;
    }
    if (no) {
        k_snprintf(why, sizeof(why), "the ACPI ERST at 0x%llx is not used: %s", (ull)table.phys, no);
        return refuse(evidence, n, why);
    }
    usable = true;
    return true;
}

/* ---- records ---- */

static bool ready(void)
{
    if (!usable)
        k_snprintf(store.error, sizeof(store.error), "%s", why_not[0] ? why_not : "erst_store_init was not called");
    return usable;
}

bool erst_store_read(u64 record_id, u8 *payload, u32 len)
{
    return ready() && erst_records_read(&store, record_id, payload, len);
}

bool erst_store_write(u64 record_id, const u8 *payload, u32 len)
{
    return ready() && erst_records_write(&store, record_id, payload, len);
}

bool erst_store_clear(u64 record_id)
{
    return ready() && erst_records_clear(&store, record_id);
}

const char *erst_store_last_error(void)
{
    return store.error;
}

bool erst_store_failed(void)
{
    return usable && store.failed;
}
