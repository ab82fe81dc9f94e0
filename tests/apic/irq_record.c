/* The apic suite's record of the interrupts its checks take, per CPU and test vector. */
#include <string.h>

#include "apic/apic.h"
#include "kernel/smp.h"
#include "kernel/x86.h"
#include "tests/apic/irq_record.h"
#include "harness/test_util.h"
#include "kernel/percpu_array.h"

PER_CPU_ARRAY_GLOBAL(struct irq_rec[SLOTS], irq_recs);

static int slot_of(u64 vector)
{
    switch (vector) {
    case VEC_IPI: return SLOT_IPI;
    case VEC_LOW: return SLOT_LOW;
    case VEC_HIGH: return SLOT_HIGH;
    case VEC_TIMER: return SLOT_TIMER;
    case VEC_LVT_A: return SLOT_LVT_A;
    case VEC_LVT_B: return SLOT_LVT_B;
    case VEC_PMC: return SLOT_PMC;
    default: return -1;
    }
}

struct irq_rec *irq_rec_here(enum irq_slot slot)
{
    return &irq_recs[this_cpu()->index][slot];
}

void irq_rec_clear(struct irq_rec *r)
{
    memset((void *)r, 0, sizeof(*r));
}

void irq_rec_clear_all_cpus(enum irq_slot slot)
{
    for (u32 i = 0; i < smp.count; i++)
        irq_rec_clear(&irq_recs[i][slot]);
}

void irq_rec_entry(struct irq_rec *r, u8 vector, u64 tsc)
{
    r->isr_at_entry = apic_vector_bit(APIC_ISR0, vector);
    r->ppr_at_entry = apic_read(APIC_PPR) & 0xFF;
    r->apic_id = apic_id();
    if (r->count == 0)
        r->first_tsc = tsc;
    r->count++; /* last: another CPU waiting on the count finds the rest written (x86 stores stay in order) */
}

void counting_handler(struct trap_frame *f)
{
    u64 t = rdtsc();
    int s = slot_of(f->vector);
    struct irq_rec *r = s >= 0 ? irq_rec_here((enum irq_slot)s) : NULL;
    if (r)
        irq_rec_entry(r, (u8)f->vector, t);
    apic_eoi();
    if (r)
        r->isr_after_eoi = apic_vector_bit(APIC_ISR0, (u8)f->vector);
}

void vector2_handler(struct trap_frame *f)
{
    (void)f;
    if (apic_vector_bit(APIC_ISR0, VEC_ILLEGAL)) {
        irq_rec_here(SLOT_ILLEGAL)->count++;
        apic_eoi();
        return;
    }
    struct irq_rec *r = irq_rec_here(SLOT_NMI);
    r->apic_id = apic_id();
    r->count++;
}

bool lvt_present(const struct lvt_desc *d)
{
    return apic_max_lvt() >= d->min_max_lvt;
}
