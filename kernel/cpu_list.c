/* Deciding which CPUs to start; see cpu_list.h. Portable: no hardware access. */
#include "kernel/cpu_list.h"

#include <string.h>

#include "kernel/lib/format.h"

static void add(struct cpu_list *l, u32 apic_id, bool enabled, u32 uid, bool x2apic_entry, u32 boot_apic_id)
{
    if (apic_id == boot_apic_id) {
        l->boot_listed = true;
        l->boot_uid = uid;
        l->boot_x2apic_entry = x2apic_entry;
        return;
    }
    if (!enabled) {
        if (l->absent_count < CPU_LIST_MAX)
            l->absent_ids[l->absent_count++] = apic_id;
        return;
    }
    if (l->ap_count < CPU_LIST_MAX)
        l->aps[l->ap_count++] = (struct cpu_list_ap){apic_id, uid, x2apic_entry};
}

void cpu_list_build(struct cpu_list *l, const struct acpi_info *ai, const u32 *cpus, u32 cpus_count,
                    u32 boot_apic_id, bool x2apic_mode)
{
    (void)x2apic_mode;
    memset(l, 0, sizeof(*l));
    if (cpus_count) {
        l->source = "cpus= option";
        for (u32 i = 0; i < cpus_count; i++)
            add(l, cpus[i], true, 0, false, boot_apic_id);
        return;
    }
    const struct acpi_madt *m = &ai->madt;
    if (!ai->has_madt || m->cpu_enabled == 0) {
        l->source = "boot CPU only";
        k_snprintf(l->note, sizeof(l->note), "%s; use cpus=ID,... to name the APs",
                   !ai->has_rsdp   ? "no ACPI RSDP found"
                   : !ai->has_madt ? "no usable ACPI MADT"
                                   : "the MADT lists no enabled processor");
        return;
    }
    l->source = "ACPI MADT";
    for (u32 i = 0; i < m->cpu_count; i++) {
        const struct acpi_cpu *c = &m->cpus[i];
        if (c->duplicate)
            continue;
        add(l, c->apic_id, c->enabled, c->uid, c->type == ACPI_MADT_X2APIC, boot_apic_id);
    }
}
