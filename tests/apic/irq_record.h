/* Interrupts the checks take on the test vectors: the vectors, and the per-CPU record of each (when, the ISR and
 * PPR seen in the handler, on which APIC). The apic suite's: no other suite takes interrupts on these vectors. */
#pragma once
#include "apic/apic.h"
#include "kernel/percpu.h"
#include "kernel/traps.h"
#include "lib/types.h"

/* Test vectors: clear of VECTOR_WAKE (0xF0) and VECTOR_SPURIOUS (0xFF), in distinct priority classes
 * (class = vector[7:4], SDM Vol.3A 11.8.3) where a check depends on the order. */
#define VEC_IPI 0x64
#define VEC_LOW 0x52  /* class 5 */
#define VEC_HIGH 0x93 /* class 9 */
#define VEC_TIMER 0x71
#define VEC_LVT_A 0x5A
#define VEC_LVT_B 0xA5
#define VEC_PMC 0x4E
/* An illegal vector (0..15, SDM 11.5.2). Vector 2 is the NMI gate, which trap_dispatch hands to a registered
 * handler: if the APIC wrongly delivers it as a fixed interrupt, it is caught and counted, not fatal. */
#define VEC_ILLEGAL 2

enum irq_slot { SLOT_IPI, SLOT_LOW, SLOT_HIGH, SLOT_TIMER, SLOT_LVT_A, SLOT_LVT_B, SLOT_PMC, SLOT_NMI, SLOT_ILLEGAL,
                SLOTS };

struct irq_rec {
    volatile u32 count;
    volatile u64 first_tsc;
    volatile u32 isr_at_entry;  /* the vector's ISR bit while its handler runs */
    volatile u32 isr_after_eoi; /* ... right after the handler's EOI */
    volatile u32 ppr_at_entry;
    volatile u32 apic_id; /* the APIC ID of the CPU that took it */
};
extern struct irq_rec (*irq_recs)[SLOTS]; /* per-CPU array (kernel/percpu_array.h) */

struct irq_rec *irq_rec_here(enum irq_slot slot);           /* this CPU's record */
void irq_rec_clear(struct irq_rec *r);
void irq_rec_clear_all_cpus(enum irq_slot slot);
void irq_rec_entry(struct irq_rec *r, u8 vector, u64 tsc); /* note ISR/PPR/ID, count */

/* Fixed interrupts on the test vectors: record, EOI (SDM 11.8.5), record the ISR bit after it. */
void counting_handler(struct trap_frame *f);
/* Vector 2: an NMI (SLOT_NMI), or the illegal vector 2 delivered as a fixed interrupt (SLOT_ILLEGAL: its ISR
 * bit is set and it takes an EOI; an NMI bypasses IRR/ISR, SDM 11.8.4 note). */
void vector2_handler(struct trap_frame *f);

bool lvt_present(const struct lvt_desc *d);
