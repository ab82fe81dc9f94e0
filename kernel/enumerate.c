#include "kernel/enumerate.h"

#include "kernel/globals.h"
#include "kernel/lib/format.h"
#include "kernel/smp.h"

struct acpi_info g_acpi;

void enumerate_cpus(const struct options *o)
{
    const struct phys_window low4g = {0, 1ull << 32, (const u8 *)0};
    acpi_discover(&g_acpi, &low4g, &g_boot);

    if (o->cpu_count) {
        smp.enumeration = "cpus= option";
        for (u32 i = 0; i < o->cpu_count; i++)
            smp_add_cpu(o->cpus[i], true, 0, false);
        return;
    }
    const struct acpi_madt *m = &g_acpi.madt;
    if (!g_acpi.has_madt || m->cpu_enabled == 0) {
        smp.enumeration = "boot CPU only";
        k_snprintf(smp.enumeration_note, sizeof(smp.enumeration_note), "%s; use cpus=ID,... to name the APs",
                   !g_acpi.has_rsdp ? "no ACPI RSDP found"
                   : !g_acpi.has_madt ? "no usable ACPI MADT"
                                      : "the MADT lists no enabled processor");
        return;
    }
    smp.enumeration = "ACPI MADT";
    for (u32 i = 0; i < m->cpu_count; i++) {
        const struct acpi_cpu *c = &m->cpus[i];
        if (c->duplicate)
            continue;
        smp_add_cpu(c->apic_id, c->enabled, c->uid, c->type == ACPI_MADT_X2APIC);
    }
}
