/* The local-APIC side of a PMI: LVT performance-counter entry, PMI line edges, IRR/ISR for the PMI vector,
 * NMI latch, EOI. See apic_model.h and docs/model.md. */
#include "emul/model/apic_model.h"

#include "pmu/access.h"

#include <string.h>

void apic_model_init(struct apic_model *a, enum model_apic_behaviour b, bool mask_on_delivery)
{
    memset(a, 0, sizeof(*a));
    a->behaviour = b;
    a->mask_on_delivery = mask_on_delivery;
    apic_model_reset(a);
}

void apic_model_reset(struct apic_model *a)
{
    a->lvt_pc = APIC_MODEL_LVT_RESET;
    a->irr = a->isr = false;
    a->nmi_latched = a->in_nmi = false;
    a->dup_owed = false;
}

static bool lvt_masked(const struct apic_model *a)
{
    return (a->lvt_pc & APIC_MODEL_LVT_MASKED) != 0;
}

/* The APIC takes the PMI through the unmasked LVT entry. */
static void accept(struct apic_model *a)
{
    struct apic_model_irq irq = {
        .seq = ++a->seq,
        .vector = (u8)(a->lvt_pc & APIC_MODEL_LVT_VECTOR),
        .nmi = (a->lvt_pc & APIC_MODEL_LVT_DM_MASK) == APIC_MODEL_LVT_DM_NMI,
    };
    /* Intel: "The local APIC handles the performance-monitoring counter interrupt and automatically sets the
     * mask flag in the corresponding LVT entry. This flag remains set until cleared by software." (Intel SDM, as
     * quoted by KNC PMU 1.4.3.9). AMD: "On AMD and Hygon platforms, the
     * local APIC does not automatically set the mask bit of the LVTPC register when handling a PMI" (Linux
     * commit "KVM: x86/pmu: Do not mask LVTPC when handling a PMI on AMD platforms"; Linux events/amd/core.c
     * amd_pmu_v2_handle_irq: "the Mask (M) bit of the LVT PMI entry is not set by the local APIC"). KVM
     * kvm_apic_local_deliver sets it at acceptance, which is what is modelled. */
    if (a->mask_on_delivery)
        a->lvt_pc |= APIC_MODEL_LVT_MASKED;

    switch (a->lvt_pc & APIC_MODEL_LVT_DM_MASK) {
    case APIC_MODEL_LVT_DM_FIXED:
        /* SDM Vol.3A "Interrupt Acceptance for Fixed Interrupts": the IRR and ISR can queue two interrupts per
         * vector, one in each; "any additional interrupts issued for the same interrupt vector are collapsed
         * into the single bit in the IRR". */
        if (a->irr) {
            a->st.coalesced++;
            return;
        }
        a->irr = true;
        a->irr_irq = irq;
        break;
    case APIC_MODEL_LVT_DM_NMI:
        /* SDM Vol.3A "Handling Multiple NMIs": while an NMI handler runs, one further NMI is held pending;
         * more are lost. */
        if (a->nmi_latched) {
            a->st.coalesced++;
            return;
        }
        a->nmi_latched = true;
        a->nmi_irq = irq;
        break;
    default:
        /* SMI (and encodings the LVT PC entry does not define) leave the model. */
        a->st.other_mode++;
        return;
    }
    a->st.delivered++;
    if (a->duplicate && !a->dup_owed)
        a->dup_owed = true; /* PMU_FAULT_DUPLICATE_PMI: accepted again once this one was taken */
}

/* PMU_FAULT_DUPLICATE_PMI: the owed second copy, once the first has left the queue. */
static void pay_duplicate(struct apic_model *a)
{
    if (!a->dup_owed)
        return;
    a->dup_owed = false;
    a->duplicate = false; /* the copy itself is not duplicated again */
    accept(a);
    a->duplicate = true;
}

void apic_model_set_line(struct apic_model *a, bool level)
{
    bool rise = level && !a->line;
    a->line = level;
    if (!rise)
        return;
    a->st.line_rises++;
    if (a->deliver) {
        a->deliver(a->deliver_ctx);
        return;
    }
    /* KNC PMU 1.4.3.9: the PMU signals the APIC by a 0->1 transition of a 1-bit line. An edge that finds the
     * entry masked is not delivered (SDM Vol.3A "Local Vector Table": mask 1 "inhibits reception of the
     * interrupt"). */
    if (lvt_masked(a)) {
        a->st.edges_masked++;
        return;
    }
    accept(a);
}

static void write_lvt_pc(struct apic_model *a, u32 val)
{
    bool was_masked = lvt_masked(a);
    a->lvt_pc = val & APIC_MODEL_LVT_PC_WRITABLE; /* delivery status (bit 12) is read-only; reserved bits read 0 */
    if (was_masked && !lvt_masked(a) && a->line) {
        a->st.unmask_high++;
        /* KNC PMU 1.4.3.9: "to raise another interrupt request to the APIC, the line must go 0->1 at the time
         * the mask is removed" - under STRICT nothing happens here. LEVEL re-samples the line instead. */
        if (a->behaviour == MODEL_APIC_LEVEL)
            accept(a);
    }
}

u32 apic_model_read(struct apic_model *a, u32 reg)
{
    switch (reg) {
    case HW_APIC_LVT_PMC:
        return a->lvt_pc;
    case HW_APIC_EOI:
        return 0; /* write-only register */
    default:
        a->st.unknown_reads++;
        return 0;
    }
}

void apic_model_write(struct apic_model *a, u32 reg, u32 val)
{
    switch (reg) {
    case HW_APIC_LVT_PMC:
        write_lvt_pc(a, val);
        break;
    case HW_APIC_EOI:
        /* SDM Vol.3A "End-of-Interrupt (EOI)": the write clears the highest-priority ISR bit; NMIs need none. */
        if (a->isr) {
            a->isr = false;
            a->st.eoi++;
        } else {
            a->st.spurious_eoi++;
        }
        break;
    default:
        a->st.unknown_writes++;
        break;
    }
}

bool apic_model_pending(const struct apic_model *a)
{
    return (a->nmi_latched && !a->in_nmi) || (a->irr && !a->isr);
}

bool apic_model_take(struct apic_model *a, struct apic_model_irq *out)
{
    if (a->nmi_latched && !a->in_nmi) {
        a->nmi_latched = false;
        a->in_nmi = true;
        *out = a->nmi_irq;
    } else if (a->irr && !a->isr) {
        /* Same vector in service blocks it: the ISR's priority class is not below its own (SDM Vol.3A
         * "Interrupt, Task, and Processor Priority"). */
        a->irr = false;
        a->isr = true;
        *out = a->irr_irq;
    } else {
        return false;
    }
    a->st.taken++;
    pay_duplicate(a);
    return true;
}

void apic_model_iret(struct apic_model *a)
{
    a->in_nmi = false;
}
