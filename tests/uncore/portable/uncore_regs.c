/* Suite uncore's register list, save and restore (uncore_regs.h). */
#include "tests/uncore/uncore_regs.h"

#include "kernel/safe.h"

u64 uncore_width_mask(u8 width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

void uncore_regs_find(struct uncore_regs *r, const struct uncore_kind_desc *k, u32 cores)
{
    r->k = k;
    r->ncounters = 0;
    for (size_t i = 0; i < k->boxes_len; i++) {
        const struct uncore_box_desc *b = &k->boxes[i];
        u32 boxes = b->boxes;
        if (b->boxes_capped_by_cores && boxes > cores)
            boxes = cores; /* Linux snb/skl_uncore_cpu_init: no more C-Boxes than cores */
        u64 v;
        if (b->boxes_msr) {
            if (rdmsr_safe(b->boxes_msr, &v)) {
                if (boxes > cores)
                    boxes = cores; /* the count register faults: no more boxes than cores, the most a part has */
            } else if ((v & b->boxes_mask) < boxes) {
                boxes = (u32)(v & b->boxes_mask); /* Linux icl/tgl/adl_uncore_cpu_init: the count MSR_UNC_CBO_CONFIG gives */
            }
        }
        for (u32 box = 0; box < boxes; box++)
            for (u32 c = 0; c < b->counters && r->ncounters < UNCORE_REGS_MAX / 2 - 1; c++)
                r->c[r->ncounters++] = (struct uncore_counter_ref){b, uncore_box_ctl(b, box, c),
                                                                  uncore_box_ctr(b, box, c), c, b->width};
    }
    if (k->fixed.ctl)
        r->c[r->ncounters++] = (struct uncore_counter_ref){NULL, k->fixed.ctl, k->fixed.ctr, 0, k->fixed.width};
}

static void save_one(struct uncore_regs *r, u32 msr)
{
    u32 i = r->nsaved++;
    r->msr[i] = msr;
    r->read_fault[i] = rdmsr_safe(msr, &r->val[i]);
}

void uncore_regs_save(struct uncore_regs *r)
{
    r->nsaved = 0;
    if (r->k->global.ctrl)
        save_one(r, r->k->global.ctrl);
    for (u32 i = 0; i < r->ncounters; i++) {
        save_one(r, r->c[i].ctl);
        save_one(r, r->c[i].ctr);
    }
    r->status = 0;
    if (r->k->global.status)
        rdmsr_safe(r->k->global.status, &r->status);
}

void uncore_regs_restore(struct uncore_regs *r)
{
    const struct uncore_kind_desc *k = r->k;
    if (k->global.ctrl)
        wrmsr_safe(k->global.ctrl, 0); /* nothing counts or interrupts while the rest goes back */
    for (u32 i = 0; i < r->nsaved; i++)
        if (!r->read_fault[i] && r->msr[i] != k->global.ctrl)
            wrmsr_safe(r->msr[i], r->val[i]);
    u64 now, value;
    u32 msr;
    if (k->global.status && !rdmsr_safe(k->global.status, &now) && (now & ~r->status) &&
        uncore_status_clear_write(k, now & ~r->status, now, &msr, &value)) {
        /* Only the bits set since: the kind's clear adds OVF_PMI and CHG, which stay if they were found set. */
        if (k->global.clear == UNCORE_CLEAR_OVF_CTRL_W1)
            value &= ~r->status;
        wrmsr_safe(msr, value);
    }
    for (u32 i = 0; i < r->nsaved; i++)
        if (!r->read_fault[i] && r->msr[i] == k->global.ctrl)
            wrmsr_safe(r->msr[i], r->val[i]);
}
