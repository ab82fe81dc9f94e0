/* PMI plumbing on every thread: the LVT performance-counter entry (fixed vector VECTOR_PMI or NMI), the
 * interrupt/NMI handlers that run pmu/pmi.c's protocol, and per-thread accounting. */
#pragma once
#include "kernel/percpu.h"
#include "pmu/pmi.h"

#define VECTOR_PMI 0xE8

struct pmi_cpu {
    struct pmi_state st;
    volatile bool active;       /* a check armed the PMI on this CPU */
    bool sample_lvt;            /* record the LVT entry as found at handler entry (costs one APIC read) */
    u32 lvt_at_entry;
    volatile u64 entries;       /* handler entries while active */
    volatile u64 stray;         /* PMI vector or NMI taken while not armed */
    /* While armed, an interrupt in the other delivery mode than the LVT entry was programmed with (the PMI vector
     * with NMI delivery, an NMI with fixed delivery): not handled (its EOI only, for the fixed vector), counted, and
     * the LVT entry as found when the first came kept, for the checks to name. */
    volatile u64 wrong_mode;
    volatile u32 wrong_mode_lvt;
};

extern struct pmi_cpu *pmi_cpus; /* per-CPU array (kernel/percpu_array.h) */

void pmi_kernel_init(void);     /* register the handlers (once, shared IDT) */
/* Arm this CPU: LVT entry programmed (fixed VECTOR_PMI or NMI), handler state for `p` with the variant. */
struct pmi_cpu *pmi_arm(struct pmu *p, enum pmi_variant v, bool nmi);
/* Mask the LVT entry and stop accounting. */
void pmi_disarm(void);
u32 pmi_lvt_value(bool nmi);    /* the unmasked LVT value for the delivery mode */
