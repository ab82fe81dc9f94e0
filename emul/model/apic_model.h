/* Model of the part of one local APIC that a PMI touches: the LVT performance-counter entry
 * (xAPIC offset 0x340), the 1-bit PMI line from the PMU, and the EOI register. One instance per logical CPU,
 * owned by a struct pmu_model (pmu_model.h), which drives the line. docs/model.md says what is modelled.
 *
 * The model never runs a handler: an accepted PMI waits until the test takes it (apic_model_take), as the CPU
 * would when it dispatches the interrupt. */
#pragma once
#include "lib/types.h"

/* What the APIC does with a PMI line that is already high when software unmasks the LVT entry. */
enum model_apic_behaviour {
    /* Edge-triggered, as KNC PMU 1.4.3.9 describes: only a 0->1 edge while unmasked delivers a PMI; an edge
     * while masked is dropped and unmasking with the line still high delivers nothing (a lost PMI). */
    MODEL_APIC_STRICT_EDGE,
    /* The line is re-sampled when the mask is cleared: a line still high at unmask delivers then. */
    MODEL_APIC_LEVEL,
};

/* LVT entry fields: SDM Vol.3A, APIC chapter, "Local Vector Table" (figure "Local Vector Table (LVT)"). */
#define APIC_MODEL_LVT_VECTOR 0x000000ffu
#define APIC_MODEL_LVT_DM_MASK 0x00000700u   /* delivery mode, bits 10:8 */
#define APIC_MODEL_LVT_DM_FIXED 0x00000000u
#define APIC_MODEL_LVT_DM_SMI 0x00000200u
#define APIC_MODEL_LVT_DM_NMI 0x00000400u
#define APIC_MODEL_LVT_MASKED 0x00010000u    /* bit 16 */
/* Bits software can write in the performance-counter entry; the rest (delivery status 12, reserved) read 0. */
#define APIC_MODEL_LVT_PC_WRITABLE (APIC_MODEL_LVT_VECTOR | APIC_MODEL_LVT_DM_MASK | APIC_MODEL_LVT_MASKED)
/* SDM Vol.3A "Local APIC State After Power-Up or Reset" (INIT: "Local APIC State After an INIT Reset"): every
 * LVT entry reads masked, all other bits 0. */
#define APIC_MODEL_LVT_RESET APIC_MODEL_LVT_MASKED

struct apic_model_stats {
    u64 line_rises;       /* 0->1 edges of the PMI line */
    u64 delivered;        /* PMIs accepted (queued for the CPU) */
    u64 edges_masked;     /* edges that arrived while the LVT was masked: dropped (a lost PMI under STRICT) */
    u64 unmask_high;      /* mask cleared while the line was high (LEVEL: delivered; STRICT: nothing) */
    u64 coalesced;        /* accepted while one was already waiting for the CPU: merged into it (lost) */
    u64 other_mode;       /* accepted with a delivery mode other than fixed/NMI (SMI...): not queued */
    u64 taken;            /* dispatched to the test by apic_model_take() */
    u64 eoi;              /* EOI writes that ended an in-service PMI */
    u64 spurious_eoi;     /* EOI writes with no PMI in service */
    u64 unknown_reads, unknown_writes; /* accesses to registers the model does not have */
};

struct apic_model_irq {
    u64 seq;   /* 1, 2, ...: order of acceptance */
    u8 vector; /* from the LVT at acceptance (meaningless for NMI, kept for the record) */
    bool nmi;  /* delivered as an NMI rather than a fixed interrupt */
};

struct apic_model {
    enum model_apic_behaviour behaviour;
    bool mask_on_delivery; /* set the LVT mask when a PMI is accepted (Intel: yes; AMD: no, see apic_model.c) */
    u32 lvt_pc;
    bool line;             /* the PMU's PMI line, as last driven */
    /* Fixed delivery: one IRR and one ISR bit for the PMI vector (SDM Vol.3A "Interrupt Acceptance for Fixed
     * Interrupts"). */
    bool irr, isr;
    struct apic_model_irq irr_irq;
    /* NMI delivery: one latched NMI, blocked while an NMI handler runs until its IRET (SDM Vol.3A "Handling
     * Multiple NMIs"). */
    bool nmi_latched, in_nmi;
    struct apic_model_irq nmi_irq;
    u64 seq;
    struct apic_model_stats st;
    /* Set by the kernel's emulated PMU: a 0->1 edge of the line is handed to deliver() instead of the modelled
     * LVT/IRR/ISR, which then sit unused (the kernel delivers through the real local APIC, emul/kernel/pmu_emul.c). */
    void (*deliver)(void *ctx);
    void *deliver_ctx;
    /* PMU_FAULT_DUPLICATE_PMI: each accepted PMI is accepted again once the first was taken. */
    bool duplicate;
    bool dup_owed;
};

void apic_model_init(struct apic_model *a, enum model_apic_behaviour b, bool mask_on_delivery);
/* Power-up/reset/INIT state of what is modelled: LVT masked, nothing pending or in service. The line keeps its
 * level (it belongs to the PMU). */
void apic_model_reset(struct apic_model *a);
/* The PMU drives its PMI line to `level`. */
void apic_model_set_line(struct apic_model *a, bool level);
/* Register access by xAPIC offset (HW_APIC_LVT_PMC, HW_APIC_EOI; anything else is counted as unknown,
 * reads 0 and ignores writes). */
u32 apic_model_read(struct apic_model *a, u32 reg);
void apic_model_write(struct apic_model *a, u32 reg, u32 val);
/* A PMI the CPU would dispatch now: an NMI not blocked by a running NMI handler, or a fixed interrupt in the
 * IRR with nothing of its vector in service (the CPU's IF flag and TPR are not modelled). */
bool apic_model_pending(const struct apic_model *a);
/* Dispatch it (NMI first): fixed moves IRR -> ISR (ends at EOI); NMI marks an NMI handler running (ends at
 * apic_model_iret). False and *out untouched when none is pending. */
bool apic_model_take(struct apic_model *a, struct apic_model_irq *out);
/* The handler returned (IRET): ends the NMI-blocking window. Fixed interrupts end at EOI, not here. */
void apic_model_iret(struct apic_model *a);
