/* Deciding which CPUs to start; see cpu_list.h. Portable: no hardware access. */
#include "lib/cpu_list.h"

#include <string.h>

#include "lib/format.h"

/* SDM Vol.3A 11.6.1: in xAPIC mode the ICR destination field is 8 bits (bits 63:56), and 0xFF is the
 * broadcast destination (11.6.2.1); an INIT or SIPI for a larger ID would be sent to (id << 24), truncated:
 * to some other CPU, usually ID 0. Only x2APIC mode (11.12.9/11.12.10, 32-bit destinations) reaches them. */
static bool addressable(u32 apic_id, bool x2apic_mode)
{
    return x2apic_mode ? apic_id != ACPI_X2APIC_BROADCAST_ID : apic_id < ACPI_XAPIC_BROADCAST_ID;
}

static void refuse(struct cpu_list *l, u32 apic_id)
{
    if (l->refused_count < CPU_LIST_REFUSED_MAX)
        l->refused_ids[l->refused_count] = apic_id;
    l->refused_count++;
}

/* An enabled CPU: the boot CPU's own entry (never started: it runs this code), or an AP to start. */
static void add_enabled(struct cpu_list *l, u32 apic_id, u32 uid, bool x2apic_entry, u32 boot_apic_id,
                        bool x2apic_mode)
{
    if (apic_id == boot_apic_id) {
        if (!l->boot_listed) { /* the first entry naming it; duplicates were removed by the parser */
            l->boot_listed = true;
            l->boot_uid = uid;
            l->boot_x2apic_entry = x2apic_entry;
        }
        return;
    }
    if (!addressable(apic_id, x2apic_mode)) {
        refuse(l, apic_id);
        return;
    }
    for (u32 i = 0; i < l->ap_count; i++)
        if (l->aps[i].apic_id == apic_id)
            return; /* cpus=1,1 */
    if (l->ap_count < CPU_LIST_MAX)
        l->aps[l->ap_count++] = (struct cpu_list_ap){apic_id, uid, x2apic_entry};
}

static bool enabled_in_madt(const struct acpi_madt *m, u32 apic_id)
{
    for (u32 i = 0; i < m->cpu_count; i++) {
        const struct acpi_cpu *c = &m->cpus[i];
        if (c->enabled && !c->duplicate && !c->invalid_id && c->apic_id == apic_id)
            return true;
    }
    return false;
}

/* Listed but not started: absent placeholders (neither Enabled nor Online Capable, ACPI 6.5 5.2.12.2) and
 * online-capable CPUs. Placeholders often reuse an ID (0, 0xFF, 0xFFFFFFFF, or an enabled CPU's): an ID
 * that names a CPU which is enabled, or the running boot CPU, is not absent; each ID is listed once. */
static void add_not_enabled(struct cpu_list *l, const struct acpi_madt *m, u32 apic_id, u32 boot_apic_id)
{
    if (apic_id == boot_apic_id || enabled_in_madt(m, apic_id))
        return;
    for (u32 i = 0; i < l->absent_count; i++)
        if (l->absent_ids[i] == apic_id)
            return;
    if (l->absent_count < CPU_LIST_MAX)
        l->absent_ids[l->absent_count++] = apic_id;
}

static void note_refused(struct cpu_list *l, bool x2apic_mode)
{
    if (!l->refused_count)
        return;
    size_t n = strlen(l->note);
    k_snprintf(l->note + n, sizeof(l->note) - n, "%s%u listed CPUs not started: APIC ID 0x%x%s %s", n ? "; " : "",
               l->refused_count, l->refused_ids[0], l->refused_count > 1 ? " and others" : "",
               x2apic_mode ? "is the x2APIC broadcast ID"
                           : "cannot be addressed in xAPIC mode (8-bit destination); boot with apic=x2apic");
}

static void boot_cpu_only(struct cpu_list *l, const char *why)
{
    l->source = "boot CPU only";
    k_snprintf(l->note, sizeof(l->note), "%s; use cpus=ID,... to name the APs", why);
}

void cpu_list_build(struct cpu_list *l, const struct acpi_info *ai, const u32 *cpus, u32 cpus_count,
                    u32 boot_apic_id, bool x2apic_mode)
{
    memset(l, 0, sizeof(*l));
    if (cpus_count) {
        l->source = "cpus= option";
        for (u32 i = 0; i < cpus_count; i++)
            add_enabled(l, cpus[i], 0, false, boot_apic_id, x2apic_mode);
        note_refused(l, x2apic_mode);
        return;
    }
    const struct acpi_madt *m = &ai->madt;
    if (!ai->has_rsdp)
        return boot_cpu_only(l, ai->no_rsdp ? ai->no_rsdp : "no ACPI RSDP found");
    if (!ai->has_madt)
        return boot_cpu_only(l, "no usable ACPI MADT");
    /* A checksum only shows the bytes are the ones firmware wrote. An entry that does not fit (length
     * below its type's size, past the end) means the rest was decoded from the wrong offsets, or not at
     * all: the CPUs before it may be real, those after it lost, and a misaligned decode can invent one.
     * Starting part of a list is worse than starting none, so none of it is used. */
    if (!m->entries_complete)
        return boot_cpu_only(l, "MADT not trusted: its walk stopped at a malformed entry (see smp/acpi_tables)");
    if (m->cpu_enabled == 0)
        return boot_cpu_only(l, "the MADT lists no enabled processor");

    l->source = "ACPI MADT";
    for (u32 i = 0; i < m->cpu_count; i++) {
        const struct acpi_cpu *c = &m->cpus[i];
        if (c->duplicate || c->invalid_id) /* reported by the parser */
            continue;
        if (c->enabled)
            add_enabled(l, c->apic_id, c->uid, c->type == ACPI_MADT_X2APIC, boot_apic_id, x2apic_mode);
        else
            add_not_enabled(l, m, c->apic_id, boot_apic_id);
    }
    note_refused(l, x2apic_mode);
}
