/* Suite uncore's register list, save, restore and probe (uncore_regs.h). */
#include "tests/uncore/portable/uncore_regs.h"

#include "lib/format.h"

u64 uncore_width_mask(u8 width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

void uncore_regs_find(struct uncore_regs *r, struct hw_access *hw, const struct uncore_kind_desc *k, u32 cores)
{
    r->k = k;
    r->hw = hw;
    r->ncounters = 0;
    for (size_t i = 0; i < k->boxes_len; i++) {
        const struct uncore_box_desc *b = &k->boxes[i];
        u32 boxes = b->boxes;
        if (b->boxes_capped_by_cores && boxes > cores)
            boxes = cores; /* Linux snb/skl_uncore_cpu_init: no more C-Boxes than cores */
        u64 v;
        if (b->boxes_msr) {
            if (hw_rdmsr(hw, b->boxes_msr, &v)) {
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
    r->read_fault[i] = hw_rdmsr(r->hw, msr, &r->val[i]);
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
        hw_rdmsr(r->hw, r->k->global.status, &r->status);
}

void uncore_regs_restore(struct uncore_regs *r)
{
    const struct uncore_kind_desc *k = r->k;
    struct hw_access *hw = r->hw;
    if (k->global.ctrl)
        hw_wrmsr(hw, k->global.ctrl, 0); /* nothing counts or interrupts while the rest goes back */
    for (u32 i = 0; i < r->nsaved; i++)
        if (!r->read_fault[i] && r->msr[i] != k->global.ctrl)
            hw_wrmsr(hw, r->msr[i], r->val[i]);
    u64 now, value;
    u32 msr;
    if (k->global.status && !hw_rdmsr(hw, k->global.status, &now) && (now & ~r->status) &&
        uncore_status_clear_write(k, now & ~r->status, now, &msr, &value)) {
        /* Only the bits set since: the kind's clear adds OVF_PMI and CHG, which stay if they were found set. */
        if (k->global.clear == UNCORE_CLEAR_OVF_CTRL_W1)
            value &= ~r->status;
        hw_wrmsr(hw, msr, value);
    }
    for (u32 i = 0; i < r->nsaved; i++)
        if (!r->read_fault[i] && r->msr[i] == k->global.ctrl)
            hw_wrmsr(hw, r->msr[i], r->val[i]);
}

/* An emulator that presents the model without its registers (QEMU TCG reads an unknown MSR as 0 and drops the
 * write) reads 0 back; real hardware reads the pattern, plus what it counted since if the counter was left running
 * (the global control is stopped around the probe, but a counter's own enable may hold it going on other kinds). */
bool uncore_regs_probe(struct hw_access *hw, const struct uncore_kind_desc *k, struct uncore_probe *p)
{
    *p = (struct uncore_probe){.msr = k->global.ctrl ? k->global.ctrl : (k->boxes_len ? k->boxes[0].ctl0 : 0),
                               .ctr = k->boxes_len ? k->boxes[0].ctr0 : 0};
    p->fault = hw_rdmsr(hw, p->msr, &p->value);
    if (p->fault || !p->ctr)
        return false;
    bool stop = k->global.ctrl && p->value; /* a global control found set: stopped around the probe, then back */
    if (stop)
        hw_wrmsr(hw, k->global.ctrl, 0);
    u64 found = 0;
    p->ctr_fault = hw_rdmsr(hw, p->ctr, &found);
    if (!p->ctr_fault)
        p->ctr_fault = hw_wrmsr(hw, p->ctr, UNCORE_PROBE_PATTERN);
    if (!p->ctr_fault)
        p->ctr_fault = hw_rdmsr(hw, p->ctr, &p->read_back);
    p->backed = !p->ctr_fault && p->read_back >= UNCORE_PROBE_PATTERN &&
                p->read_back - UNCORE_PROBE_PATTERN < (1ull << 24);
    if (!p->ctr_fault)
        hw_wrmsr(hw, p->ctr, found);
    if (stop)
        hw_wrmsr(hw, k->global.ctrl, p->value);
    return p->backed;
}

static const char *fault_name(int r)
{
    return (r & 0xff) == 13 ? "#GP" : (r & 0xff) == 6 ? "#UD" : "a fault";
}

void uncore_probe_describe(const struct uncore_kind_desc *k, const struct uncore_probe *p, struct strbuf *sb)
{
    if (p->fault)
        sb_printf(sb, "MSR 0x%x (%s) read: %s (vector %d)", p->msr,
                  k->global.ctrl ? "the global control" : "the first counter's select", fault_name(p->fault),
                  p->fault & 0xff);
    else if (p->ctr_fault)
        sb_printf(sb, "counter MSR 0x%x read, written and read back: %s (vector %d)", p->ctr, fault_name(p->ctr_fault),
                  p->ctr_fault & 0xff);
    else if (!p->backed)
        sb_printf(sb, "counter MSR 0x%x written 0x%llx reads back 0x%llx: the register is not backed (an emulator "
                  "presenting the model without its uncore?)", p->ctr, (unsigned long long)UNCORE_PROBE_PATTERN,
                  (unsigned long long)p->read_back);
    else
        sb_printf(sb, "MSR 0x%x read 0x%llx; counter MSR 0x%x held a write", p->msr, (unsigned long long)p->value,
                  p->ctr);
}
