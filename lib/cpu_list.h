/* Which CPUs to start, decided from the ACPI MADT (or the cpus= option) without touching hardware, so the
 * host tests run the same decisions as the kernel (tests/host/test_acpi.c). kernel/enumerate.c applies the
 * result to struct smp_state. */
#pragma once
#include "lib/acpi.h"
#include "lib/types.h"

#define CPU_LIST_MAX ACPI_MAX_CPUS
#define CPU_LIST_REFUSED_MAX 8 /* examples kept; refused_count counts all */

struct cpu_list_ap {
    u32 apic_id;
    u32 acpi_uid;
    bool x2apic_entry; /* listed by a Local x2APIC (type 9) entry */
};

struct cpu_list {
    const char *source; /* "ACPI MADT", "cpus= option", "boot CPU only" */
    char note[160];     /* why, when the source is not the obvious one; "" otherwise */
    bool boot_listed;   /* an enabled entry (or cpus=) names the boot CPU's APIC ID */
    u32 boot_uid;
    bool boot_x2apic_entry;
    u32 ap_count; /* APs to start, in table order */
    struct cpu_list_ap aps[CPU_LIST_MAX];
    u32 absent_count; /* distinct IDs listed but not enabled and not started */
    u32 absent_ids[CPU_LIST_MAX];
    u32 refused_count; /* enabled (or cpus=) CPUs not started: not addressable in this APIC mode */
    u32 refused_ids[CPU_LIST_REFUSED_MAX];
};

/* cpus (cpus_count > 0: the cpus= option) wins over the MADT in ai. boot_apic_id is the boot CPU's APIC ID;
 * x2apic_mode tells whether IPIs carry 32-bit destinations (else 8-bit, SDM Vol.3A 11.6.1). */
void cpu_list_build(struct cpu_list *out, const struct acpi_info *ai, const u32 *cpus, u32 cpus_count,
                    u32 boot_apic_id, bool x2apic_mode);
