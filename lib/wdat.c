/* ACPI WDAT decoding and its interpreter (see wdat.h). Offsets from the "Hardware Watchdog Timers Design
 * Specification", Table 1 (the header) and Table 2 (an instruction entry). */
#include "lib/wdat.h"

#include <string.h>

#include "lib/acpi_reg.h"

typedef unsigned long long ull; /* for %llx */

static bool known_instruction(u8 ins)
{
    return (ins & (u8)~WDAT_PRESERVE_REGISTER) <= WDAT_WRITE_COUNTDOWN;
}

/* What makes an entry unusable, or NULL. */
static const char *entry_problem(const struct wdat_entry *e)
{
    const struct acpi_gas *g = &e->reg;
    if (!known_instruction(e->instruction))
        return "an unknown instruction";
    const char *why = acpi_gas_register_problem(g, 4); /* as Linux's interpreter: byte, word or dword access */
    if (why)
        return why;
    if (g->space_id == ACPI_GAS_SYSTEM_MEMORY && g->address > (1ull << 32) - acpi_gas_access_bytes(g))
        return "a memory register above 4 GiB (pmuboot maps only the low 4 GiB)";
    return NULL;
}

bool acpi_wdat_parse(const struct phys_window *mem, u64 phys, struct acpi_wdat *out, struct acpi_problems *pr)
{
    u8 h[WDAT_ENTRIES_AT];
    memset(out, 0, sizeof(*out));
    if (!acpi_table_check(mem, phys, "WDAT", "WDAT", WDAT_ENTRIES_AT, pr))
        return false;
    phys_read(mem, phys, h, sizeof(h));
    u32 length = acpi_get32(h + 4), header_len = acpi_get32(h + 36);
    out->phys = phys;
    out->pci_segment = acpi_get16(h + 40);
    out->pci_bus = h[42];
    out->pci_dev = h[43];
    out->pci_fn = h[44];
    out->period_ms = acpi_get32(h + 48);
    out->max_count = acpi_get32(h + 52);
    out->min_count = acpi_get32(h + 56);
    out->flags = h[60];
    u32 n = acpi_get32(h + 64);
    bool ok = true;
    if (header_len != WDAT_HEADER_LEN) {
        acpi_problem(pr, "WDAT: Watchdog Header Length %u, not %u: where the instructions start is unknown", header_len,
                     WDAT_HEADER_LEN);
        ok = false;
    }
    if (n > (length - WDAT_ENTRIES_AT) / WDAT_ENTRY_LEN) {
        acpi_problem(pr, "WDAT: %u instruction entries do not fit in its %u bytes", n, length);
        ok = false;
    } else if (n > WDAT_MAX_ENTRIES) {
        acpi_problem(pr, "WDAT: %u instruction entries, pmuboot keeps %u", n, WDAT_MAX_ENTRIES);
        ok = false;
    }
    if (!out->period_ms || !out->max_count || out->min_count > out->max_count) {
        acpi_problem(pr, "WDAT: Timer Period %u ms, counts %u..%u: no usable countdown", out->period_ms,
                     out->min_count, out->max_count);
        ok = false;
    }
    /* As Linux (drivers/acpi/acpi_watchdog.c): a watchdog the firmware disabled, or one on a PCI device (whose
     * registers move with its BARs), is not used. */
    if (!(out->flags & WDAT_FLAG_ENABLED)) {
        acpi_problem(pr, "WDAT: Watchdog Flags 0x%x: disabled by the firmware", out->flags);
        ok = false;
    }
    if (out->pci_segment != 0xff || out->pci_bus != 0xff || out->pci_dev != 0xff || out->pci_fn != 0xff) {
        acpi_problem(pr, "WDAT: the watchdog is PCI device %04x:%02x:%02x.%x (its registers move with its BARs)",
                     out->pci_segment, out->pci_bus, out->pci_dev, out->pci_fn);
        ok = false;
    }
    if (!ok)
        return false;
    for (u32 i = 0; i < n; i++) {
        u8 b[WDAT_ENTRY_LEN];
        phys_read(mem, phys + WDAT_ENTRIES_AT + (u64)i * WDAT_ENTRY_LEN, b, sizeof(b));
        struct wdat_entry *e = &out->e[i];
        e->action = b[0];
        e->instruction = b[1];
        e->reg = (struct acpi_gas){b[4], b[5], b[6], b[7], acpi_get64(b + 8)};
        e->value = acpi_get32(b + 16);
        e->mask = acpi_get32(b + 20);
        const char *why = entry_problem(e);
        if (why) {
            acpi_problem(pr, "WDAT: instruction %u (action 0x%x, instruction 0x%x, register 0x%llx) has %s", i,
                         e->action, e->instruction, (ull)e->reg.address, why);
            ok = false;
        }
    }
    out->count = n;
    static const struct {
        u8 action;
        const char *name;
    } required[] = {{WDAT_RESET, "RESET"},
                    {WDAT_SET_RUNNING_STATE, "SET_RUNNING_STATE"},
                    {WDAT_SET_STOPPED_STATE, "SET_STOPPED_STATE"},
                    /* Not required by the specification, but Linux's wdat_wdt probe fails without it (it sets its own
                     * timeout before anything else: "In some cases the BIOS default is too short and causes immediate
                     * reboot"), and so does pmuboot: the firmware's countdown is unknown and may be too short. */
                    {WDAT_SET_COUNTDOWN_PERIOD, "SET_COUNTDOWN_PERIOD"}};
    for (u32 i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        if (!wdat_has(out, required[i].action)) {
            acpi_problem(pr, "WDAT: no %s action (%s)", required[i].name,
                         required[i].action == WDAT_SET_COUNTDOWN_PERIOD
                             ? "the watchdog's countdown would be the firmware's, which may be too short; Linux's "
                               "wdat_wdt refuses such a table too"
                             : "required");
            ok = false;
        }
    return ok;
}

enum acpi_lookup acpi_wdat_find(const struct phys_window *mem, const struct acpi_info *ai, struct acpi_wdat *out,
                               struct acpi_problems *pr)
{
    memset(out, 0, sizeof(*out));
    u64 phys = 0;
    enum acpi_lookup l = acpi_table_lookup(ai, "WDAT", &phys, pr);
    if (l != ACPI_LOOKUP_FOUND)
        return l;
    return acpi_wdat_parse(mem, phys, out, pr) ? ACPI_LOOKUP_FOUND : ACPI_LOOKUP_BAD;
}

bool wdat_has(const struct acpi_wdat *w, u8 action)
{
    for (u32 i = 0; i < w->count; i++)
        if (w->e[i].action == action)
            return true;
    return false;
}

bool wdat_run(const struct acpi_wdat *w, u8 action, u32 param, const struct wdat_io *io, u32 *result)
{
    bool found = false;
    u32 ret = 0;
    for (u32 i = 0; i < w->count; i++) {
        const struct wdat_entry *e = &w->e[i];
        if (e->action != action)
            continue;
        found = true;
        u32 width = acpi_gas_access_bytes(&e->reg), x;
        bool preserve = e->instruction & WDAT_PRESERVE_REGISTER;
        u8 ins = e->instruction & (u8)~WDAT_PRESERVE_REGISTER;
        switch (ins) {
        case WDAT_READ_VALUE: /* true when the field holds the value */
            x = (u32)acpi_reg_field(io->read(io->ctx, &e->reg, width), &e->reg, e->mask);
            ret = x == e->value;
            break;
        case WDAT_READ_COUNTDOWN:
            ret = (u32)acpi_reg_field(io->read(io->ctx, &e->reg, width), &e->reg, e->mask);
            break;
        case WDAT_WRITE_VALUE:
        case WDAT_WRITE_COUNTDOWN:
            x = (u32)acpi_reg_merge(ins == WDAT_WRITE_VALUE ? e->value : param, &e->reg, e->mask, preserve,
                                    preserve ? io->read(io->ctx, &e->reg, width) : 0);
            io->write(io->ctx, &e->reg, width, x);
            break;
        }
    }
    if (result)
        *result = ret;
    return found;
}

u32 wdat_count_for(const struct acpi_wdat *w, u32 ms)
{
    u64 c = ((u64)ms + w->period_ms - 1) / w->period_ms;
    return c < w->min_count ? w->min_count : c > w->max_count ? w->max_count : (u32)c;
}

void acpi_wdat_format(const struct acpi_wdat *w, struct strbuf *sb)
{
    sb_printf(sb, "period %u ms, counts %u..%u, %u instructions, flags 0x%x", w->period_ms, w->min_count, w->max_count,
              w->count, w->flags);
}
