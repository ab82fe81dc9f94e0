/* The register model's PEBS (see pebs_model.h). The assist itself (when a record is written, the counter reload,
 * the buffer interrupt) is driven from pmu_model.c, which owns the counters; this file holds the MSRs and builds
 * and stores a record. */
#include "emul/model/pebs_model.h"

#include <string.h>

#include "emul/model/pmu_model.h"
#include "pmu/access.h"

void pebs_model_init(struct pebs_model *p, const struct pebs_caps *c, const struct pebs_model_mem *mem)
{
    memset(p, 0, sizeof(*p));
    p->c = *c;
    if (mem)
        p->mem = *mem;
}

/* IA32_PEBS_ENABLE resets to 0 (SDM, the IA32_PEBS_ENABLE layout figure); DS_AREA and DATA_CFG with it. */
void pebs_model_reset(struct pebs_model *p)
{
    p->ds_area = p->enable = p->data_cfg = p->armed = 0;
}

bool pebs_model_owns(const struct pebs_model *p, u32 msr)
{
    if (msr == MSR_IA32_MISC_ENABLE)
        return true; /* read for PEBS_UNAVAIL: answered whether or not PEBS is there */
    if (!p->c.present)
        return false;
    return msr == MSR_IA32_DS_AREA || msr == MSR_IA32_PEBS_ENABLE || (msr == MSR_PEBS_DATA_CFG && p->c.adaptive);
}

int pebs_model_rdmsr(const struct pebs_model *p, u32 msr, u64 *val)
{
    switch (msr) {
    case MSR_IA32_MISC_ENABLE:
        /* SDM Vol.4 IA32_MISC_ENABLE: [7] performance monitoring available, [11] BTS unavailable (not modelled),
         * [12] PEBS unavailable. */
        *val = BIT(7) | BIT(11) | (p->c.present ? 0 : MISC_ENABLE_PEBS_UNAVAIL);
        return 0;
    case MSR_IA32_DS_AREA:
        *val = p->ds_area;
        return 0;
    case MSR_IA32_PEBS_ENABLE:
        *val = p->enable;
        return 0;
    case MSR_PEBS_DATA_CFG:
        *val = p->data_cfg;
        return 0;
    default:
        return HW_GP;
    }
}

int pebs_model_wrmsr(struct pebs_model *p, u32 msr, u64 val)
{
    switch (msr) {
    case MSR_IA32_DS_AREA:
        p->ds_area = val;
        return 0;
    case MSR_IA32_PEBS_ENABLE:
        /* One bit per counter that can sample (GP from bit 0, fixed from bit 32 with the baseline; KVM
         * pebs_enable_rsvd); the load-latency and precise-store bits are not modelled and stay reserved. */
        if (val & ~p->c.counters)
            return HW_GP;
        p->enable = val;
        p->armed &= val;
        return 0;
    case MSR_PEBS_DATA_CFG:
        /* MEMINFO, GP, XMMS, LBRS and the LBR entry count (KVM pebs_data_cfg_rsvd: 0xff00000f valid). */
        if (val & ~0xff00000full)
            return HW_GP;
        p->data_cfg = val;
        return 0;
    default:
        return HW_GP;
    }
}

static void put64(u8 *p, u64 v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (u8)(v >> (8 * i));
}

u32 pebs_model_record(const struct pebs_model *p, u64 bits, bool adaptive, u64 status, const struct lbr_model *lbr,
                      u32 faults, u8 *out)
{
    const struct pebs_model_insn *in = &p->insn;
    /* PMU_FAULT_PEBS_EVENTING_IP: the instruction after the eventing one is named as the eventing one (and, where a
     * format has no EventingIP, the eventing one as the one after): an IP off by one instruction. */
    bool off = faults & PMU_FAULT_PEBS_EVENTING_IP;
    u64 eventing = off ? in->next_ip : in->ip;
    const u64 *g = in->gpr; /* RAX RCX RDX RBX RSP RBP RSI RDI R8-R15 */
    if (p->c.format < 4) {
        /* Formats 0-3 (SDM "64-bit PEBS record format" and its Nehalem, Haswell and Skylake extensions): RFLAGS,
         * RIP (the instruction after the eventing one: the assist is trap-like), then RAX RBX RCX RDX RSI RDI RBP
         * RSP R8-R15; 0x90 GLOBAL_STATUS (1-2) or Applicable Counters (3), 0x98 DLA, 0xA0 DSE, 0xA8 latency, 0xB0
         * EventingRIP, 0xB8 TSX tuning, 0xC0 TSC. */
        static const u8 legacy_order[8] = {0, 3, 1, 2, 6, 7, 5, 4};
        u32 size = p->c.basic_size;
        memset(out, 0, size);
        put64(out + 0x00, in->rflags);
        put64(out + 0x08, off && p->c.format < 2 ? in->ip : in->next_ip);
        for (u32 i = 0; i < 8; i++)
            put64(out + 0x10 + 8 * i, g[legacy_order[i]]);
        for (u32 i = 8; i < 16; i++)
            put64(out + 0x10 + 8 * i, g[i]);
        if (p->c.format >= 1)
            put64(out + 0x90, p->c.format >= 3 ? bits : status);
        if (p->c.format >= 2)
            put64(out + 0xb0, eventing);
        if (p->c.format >= 3)
            put64(out + 0xc0, in->tsc);
        return size;
    }
    /* Adaptive (SDM adaptive PEBS; Linux struct pebs_basic and the groups after it). The format field is
     * MSR_PEBS_DATA_CFG when a triggering counter has Adaptive_Record set, else 0 and the record is the basic group
     * ("Ignored Adaptive", kvm-unit-tests 2cb2af7f53db). */
    u64 cfg = adaptive && p->c.adaptive ? p->data_cfg : 0;
    u32 size = pebs_record_size(&p->c, cfg, cfg != 0 || adaptive);
    memset(out, 0, size);
    put64(out + 0x00, (u64)size << 48 | (cfg & 0xffffffffffffull));
    put64(out + 0x08, eventing);
    put64(out + 0x10, bits);
    put64(out + 0x18, in->tsc);
    u32 o = 0x20;
    if (cfg & PEBS_CFG_MEMINFO)
        o += 0x20; /* no memory access is modelled: address, source, latency 0 */
    if (cfg & PEBS_CFG_GP) {
        put64(out + o, in->rflags);
        put64(out + o + 8, in->next_ip);
        for (u32 i = 0; i < 16; i++)
            put64(out + o + 0x10 + 8 * i, g[i]);
        o += 0x90;
    }
    if (cfg & PEBS_CFG_XMMS)
        o += 0x100; /* the model has no XMM state: zeros */
    if (cfg & PEBS_CFG_LBRS) {
        u32 n = (u32)(cfg >> PEBS_CFG_LBR_SHIFT & 0xff) + 1;
        for (u32 i = 0; i < n; i++, o += 24) {
            u64 f = 0, t = 0, inf = 0;
            /* PMU_FAULT_PEBS_LBR_LEAK: another context's branches (a host kernel's addresses) in the group, as when
             * a hypervisor does not switch the LBRs the assist reads (kvm-unit-tests 8d0f574f). */
            if (faults & PMU_FAULT_PEBS_LBR_LEAK) {
                f = 0xffffffff81000000ull + 0x40 * i;
                t = 0xffffffff81000800ull + 0x40 * i;
            } else if (lbr) {
                lbr_model_youngest(lbr, i, &f, &t, &inf);
            }
            put64(out + o, f);
            put64(out + o + 8, t);
            put64(out + o + 16, inf);
        }
    }
    return size;
}
