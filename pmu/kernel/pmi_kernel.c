#include "pmu/kernel/pmi_kernel.h"

#include "apic/apic.h"
#include "kernel/traps.h"
#include "kernel/percpu_array.h"

PER_CPU_ARRAY_GLOBAL(struct pmi_cpu, pmi_cpus);

u32 pmi_lvt_value(bool nmi)
{
    /* SDM Vol.3A 11.5.1: NMI delivery ignores the vector field. */
    return nmi ? LVT_DM_NMI : (LVT_DM_FIXED | VECTOR_PMI);
}

static void take(struct pmi_cpu *pc)
{
    pc->entries++;
    if (pc->sample_lvt)
        pc->lvt_at_entry = apic_read(APIC_LVT_PMC);
    pmi_handle(&pc->st);
}

static void pmi_vector(struct trap_frame *f)
{
    (void)f;
    struct pmi_cpu *pc = &pmi_cpus[this_cpu()->index];
    if (pc->active && !pc->st.nmi_mode) {
        take(pc);
        return;
    }
    if (pc->active) {
        if (!pc->wrong_mode++)
            pc->wrong_mode_lvt = apic_read(APIC_LVT_PMC);
    } else {
        pc->stray++;
    }
    apic_eoi();
}

static void pmi_nmi(struct trap_frame *f)
{
    (void)f;
    struct pmi_cpu *pc = &pmi_cpus[this_cpu()->index];
    if (pc->active && pc->st.nmi_mode) {
        take(pc);
    } else if (pc->active) {
        if (!pc->wrong_mode++)
            pc->wrong_mode_lvt = apic_read(APIC_LVT_PMC);
    } else {
        pc->stray++;
    }
}

void pmi_kernel_init(void)
{
    irq_register(VECTOR_PMI, pmi_vector);
    irq_register(2, pmi_nmi);
}

struct pmi_cpu *pmi_arm(struct pmu *p, enum pmi_variant v, bool nmi)
{
    struct pmi_cpu *pc = &pmi_cpus[this_cpu()->index];
    pc->active = false;
    apic_write(APIC_LVT_PMC, pmi_lvt_value(nmi) | LVT_MASKED);
    pmi_init(&pc->st, p, v, pmi_lvt_value(nmi), nmi);
    pc->entries = 0;
    pc->stray = 0;
    pc->wrong_mode = 0;
    pc->wrong_mode_lvt = 0;
    pc->sample_lvt = false;
    pc->active = true;
    apic_write(APIC_LVT_PMC, pmi_lvt_value(nmi));
    return pc;
}

void pmi_disarm(void)
{
    struct pmi_cpu *pc = &pmi_cpus[this_cpu()->index];
    apic_write(APIC_LVT_PMC, pmi_lvt_value(pc->st.nmi_mode) | LVT_MASKED);
    pc->active = false;
}
