#include "kernel/enumerate.h"

#include <string.h>

#include "apic/apic.h"
#include "lib/format.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"

struct acpi_info g_acpi;
struct cpu_list g_cpu_list;

/* g_acpi: acpi_discover ran in kmain, before the console was chosen (the SPCR may name it) and before
 * timing_init (the FADT and HPET give its clocks). Called after smp_init_bsp (the boot CPU's APIC ID is known)
 * and apic_choose_mode (the IPI width is). */
void enumerate_cpus(const struct kernel_options *o)
{
    struct cpu_list *l = &g_cpu_list;
    cpu_list_build(l, &g_acpi, o->cpus, o->cpu_count, smp.cpu[0].apic_id, apic_mode() == APIC_MODE_X2APIC);
    smp.enumeration = l->source;
    k_snprintf(smp.enumeration_note, sizeof(smp.enumeration_note), "%s", l->note);
    if (l->boot_listed) {
        smp.cpu[0].acpi_uid = l->boot_uid;
        smp.cpu[0].from_x2apic_entry = l->boot_x2apic_entry;
    }
    smp.absent_ids = l->absent_ids;
    smp.absent_count = l->absent_count;
    /* Per-CPU state for the CPUs listed, before the first is added: past what fits, smp_add_ap drops them
     * (named by smp/enumeration). */
    u32 want = MIN(1 + l->ap_count, (u32)MAX_CPUS);
    smp.capacity = percpu_resize(want, smp.dropped_why, sizeof(smp.dropped_why));
    for (u32 i = 0; i < l->ap_count; i++)
        smp_add_ap(l->aps[i].apic_id, l->aps[i].acpi_uid, l->aps[i].x2apic_entry);
}
