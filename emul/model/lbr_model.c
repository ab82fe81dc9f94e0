/* The register model's Last Branch Records (see lbr_model.h). */
#include "emul/model/lbr_model.h"

#include <string.h>

#include "emul/model/pmu_model.h"
#include "pmu/access.h"

/* Filter registers' bits, read here for the model (pmu/lbr.c writes them for the checks). Legacy MSR_LBR_SELECT and
 * AMD LBR_SELECT: bit set = branches of that kind are NOT captured (SDM Vol.3B 18.7.2 Table 17-11: CPL_EQ_0 0,
 * CPL_NEQ_0 1, JCC 2, NEAR_REL_CALL 3, NEAR_IND_CALL 4, NEAR_RET 5, NEAR_IND_JMP 6, NEAR_REL_JMP 7, FAR_BRANCH 8;
 * AMD: the same nine, Linux amd/lbr.c "Filter bits operate in suppress mode"). IA32_LBR_CTL: bit set = captured
 * (LBREn 0, OS 1, USR 2, CALL_STACK 3, JCC 16, NEAR_REL_JMP 17, NEAR_IND_JMP 18, NEAR_REL_CALL 19, NEAR_IND_CALL 20,
 * NEAR_RET 21, OTHER_BRANCH 22). */
static bool kept(const struct lbr_model *l, const struct lbr_model_branch *b, u32 faults)
{
    static const u8 sel_bit[LBR_BR_COUNT] = {[LBR_BR_JCC] = 2,      [LBR_BR_REL_CALL] = 3, [LBR_BR_IND_CALL] = 4,
                                             [LBR_BR_RET] = 5,      [LBR_BR_IND_JMP] = 6,  [LBR_BR_REL_JMP] = 7,
                                             [LBR_BR_FAR] = 8};
    static const u8 ctl_bit[LBR_BR_COUNT] = {[LBR_BR_JCC] = 16,      [LBR_BR_REL_JMP] = 17, [LBR_BR_IND_JMP] = 18,
                                             [LBR_BR_REL_CALL] = 19, [LBR_BR_IND_CALL] = 20, [LBR_BR_RET] = 21,
                                             [LBR_BR_FAR] = 22};
    bool leak = (faults & PMU_FAULT_LBR_FILTER_LEAK) && b->to_cpl == 0;
    if (l->c.kind == LBR_ARCH) {
        /* Without CPL or branch filtering (CPUID.1CH:EBX[0], [1]) nothing is filtered that way. */
        bool cpl = !l->c.cpl_filter || (b->to_cpl ? l->select >> 2 & 1 : l->select >> 1 & 1);
        bool type = !l->c.type_filter || (l->select >> ctl_bit[b->kind] & 1);
        return (cpl || leak) && type;
    }
    if (!l->c.select)
        return true; /* Core 2, the first Atoms: no filter */
    bool cpl = !(l->select >> (b->to_cpl ? 1 : 0) & 1);
    return (cpl || leak) && !(l->select >> sel_bit[b->kind] & 1);
}

/* The record as each format stores it (SDM Vol.3B 18.4.8.1 LBR formats, Table 17-16 MSR_LBR_INFO; the Arch LBR INFO
 * layout; AMD LbrExtV2 FROM/TO, Linux amd/lbr.c struct branch_entry). Cycles: the model's count. */
static void encode(const struct lbr_model *l, const struct lbr_model_branch *b, u64 *from, u64 *to, u64 *info)
{
    u64 mp = b->mispred ? BIT(63) : 0, cyc = l->cycles > 0xffff ? 0xffff : l->cycles;
    u64 addr63 = b->from & (BIT(63) - 1);
    *from = b->from;
    *to = b->to;
    *info = 0;
    switch (l->c.kind) {
    case LBR_LEGACY:
        switch (l->c.format) {
        case LBR_FMT_32:
            *from = (b->to << 32) | (b->from & 0xffffffffu);
            *to = 0;
            break;
        case LBR_FMT_EIP_FLAGS:
            *from = mp | addr63;
            break;
        case LBR_FMT_EIP_FLAGS2: /* IN_TX 62 and ABORT 61 are 0 outside a transaction */
            *from = mp | (b->from & (BIT(61) - 1));
            break;
        case LBR_FMT_TIME:
            *from = mp | addr63;
            *to = cyc << 48 | (b->to & (BIT(48) - 1));
            break;
        case LBR_FMT_INFO:
        case LBR_FMT_INFO2:
            *info = mp | cyc;
            break;
        default:
            break;
        }
        break;
    case LBR_ARCH:
        *info = (l->c.has_mispred ? mp : 0) | (l->c.has_type ? (u64)lbr_arch_br_type(b->kind) << 56 : 0) |
                (l->c.has_cycles ? BIT(60) | cyc : 0);
        break;
    case LBR_AMD_V2: /* TO bit 63 valid, bit 62 spec: 10b = a non-speculative record of the correct path */
        *from = mp | (b->from & (BIT(58) - 1));
        *to = BIT(63) | (b->to & (BIT(58) - 1));
        break;
    default:
        break;
    }
}

void lbr_model_init(struct lbr_model *l, const struct lbr_caps *c)
{
    memset(l, 0, sizeof(*l));
    l->c = *c;
    if (l->c.depth > LBR_MAX_DEPTH)
        l->c.depth = LBR_MAX_DEPTH;
    lbr_model_reset(l);
}

/* Power-up: no record, filters clear ("MSR_LBR_SELECT is cleared to zero at RESET", SDM Vol.3B 18.7.2), Arch LBR at
 * its greatest depth, AMD's enable clear. */
void lbr_model_reset(struct lbr_model *l)
{
    struct lbr_caps c = l->c;
    memset(l, 0, sizeof(*l));
    l->c = c;
    l->depth = c.depth;
}

static bool in(u32 msr, u32 base, u32 stride, u32 n, u32 *i)
{
    if (!base || msr < base || (msr - base) % stride || (msr - base) / stride >= n)
        return false;
    *i = (msr - base) / stride;
    return true;
}

bool lbr_model_owns(const struct lbr_model *l, u32 msr)
{
    const struct lbr_caps *c = &l->c;
    u32 i;
    if (c->kind == LBR_NONE || !msr)
        return false;
    return in(msr, c->from, c->stride, c->depth, &i) || in(msr, c->to, c->stride, c->depth, &i) ||
           in(msr, c->info, 1, c->depth, &i) || msr == c->tos || msr == c->select || msr == c->depth_msr ||
           (c->kind == LBR_AMD_V2 && msr == c->enable_msr);
}

/* Arch LBR: an entry at or beyond IA32_LBR_DEPTH #GPs (SDM Vol.3B, Architectural LBR MSRs). */
static bool entry(const struct lbr_model *l, u32 msr, u32 base, u32 *i)
{
    return in(msr, base, l->c.stride, l->c.kind == LBR_ARCH ? (u32)l->depth : l->c.depth, i);
}

static u64 select_valid(const struct lbr_model *l)
{
    switch (l->c.kind) {
    case LBR_ARCH:
        return 0xfull | 0x7full << 16; /* LBREn, OS, USR, CALL_STACK, the seven kinds (Linux ARCH_LBR_CTL_MASK) */
    case LBR_AMD_V2:
        return 0x1ff; /* Linux amd/lbr.c LBR_SELECT_MASK */
    default:
        return 0x3ff; /* bits 0-8 and EN_CALL_STACK 9 (Linux LBR_SEL_MASK) */
    }
}

int lbr_model_rdmsr(struct lbr_model *l, u32 msr, u64 *val)
{
    const struct lbr_caps *c = &l->c;
    u32 i;
    if (msr == c->select) {
        *val = l->select;
    } else if (msr == c->tos && c->kind == LBR_LEGACY) {
        *val = l->tos;
    } else if (msr == c->depth_msr && c->kind == LBR_ARCH) {
        *val = l->depth;
    } else if (c->kind == LBR_AMD_V2 && msr == c->enable_msr) {
        *val = l->extn_cfg;
    } else if (entry(l, msr, c->from, &i)) {
        *val = l->from[i];
    } else if (entry(l, msr, c->to, &i)) {
        *val = l->to[i];
    } else if (c->info && in(msr, c->info, 1, c->kind == LBR_ARCH ? (u32)l->depth : c->depth, &i)) {
        *val = l->info[i];
    } else {
        return HW_GP;
    }
    return 0;
}

int lbr_model_wrmsr(struct lbr_model *l, u32 msr, u64 val)
{
    const struct lbr_caps *c = &l->c;
    u32 i;
    if (msr == c->select) {
        if (val & ~select_valid(l))
            return HW_GP;
        l->select = val;
    } else if (msr == c->tos && c->kind == LBR_LEGACY) {
        l->tos = val % c->depth;
    } else if (msr == c->depth_msr && c->kind == LBR_ARCH) {
        /* Only an enumerated depth (CPUID.1CH:EAX[7:0], bit n for 8(n+1) entries); a write clears every
         * entry (Linux intel_pmu_arch_lbr_reset: "Write to ARCH_LBR_DEPTH MSR, all LBR entries are reset to 0"). */
        if (!val || val % 8 || val > c->depth || !(c->depth_mask >> (val / 8 - 1) & 1))
            return HW_GP;
        l->depth = val;
        memset(l->from, 0, sizeof(l->from));
        memset(l->to, 0, sizeof(l->to));
        memset(l->info, 0, sizeof(l->info));
    } else if (c->kind == LBR_AMD_V2 && msr == c->enable_msr) {
        l->extn_cfg = val;
    } else if (entry(l, msr, c->from, &i)) {
        l->from[i] = val;
    } else if (entry(l, msr, c->to, &i)) {
        l->to[i] = val;
    } else if (c->info && in(msr, c->info, 1, c->kind == LBR_ARCH ? (u32)l->depth : c->depth, &i)) {
        l->info[i] = val;
    } else {
        return HW_GP;
    }
    return 0;
}

bool lbr_model_enabled(const struct lbr_model *l, u64 debugctl)
{
    switch (l->c.kind) {
    case LBR_LEGACY:
        return debugctl & 1;             /* IA32_DEBUGCTL.LBR */
    case LBR_ARCH:
        return l->select & 1;            /* IA32_LBR_CTL.LBREn */
    case LBR_AMD_V2:
        return l->extn_cfg >> 6 & 1;     /* DBG_EXTN_CFG.LBRV2EN */
    default:
        return false;
    }
}

void lbr_model_branch(struct lbr_model *l, const struct lbr_model_branch *b, u32 faults)
{
    if (b->kind < 0 || b->kind >= LBR_BR_COUNT) {
        l->cycles++;
        return;
    }
    l->cycles++;
    if (!kept(l, b, faults))
        return;
    /* PMU_FAULT_LBR_MISSING_RECORD: every 16th record is lost. */
    if ((faults & PMU_FAULT_LBR_MISSING_RECORD) && ++l->recorded % 16 == 0)
        return;
    u64 f, t, inf;
    encode(l, b, &f, &t, &inf);
    l->cycles = 0;
    u32 n = l->c.kind == LBR_ARCH ? (u32)l->depth : l->c.depth;
    u32 at, prev;
    if (l->c.kind == LBR_LEGACY) {
        /* A ring: the next record goes after the top of stack, which then points at it (SDM Vol.3B 18.4.8). */
        l->tos = (l->tos + 1) % n;
        at = (u32)l->tos;
        prev = (at + n - 1) % n;
    } else {
        /* Entry 0 is the youngest: the others move down one (Arch LBR; AMD "From[0] and To[0] always represent the
         * TOS", Linux amd/lbr.c). */
        for (u32 i = n - 1; i > 0; i--) {
            l->from[i] = l->from[i - 1];
            l->to[i] = l->to[i - 1];
            l->info[i] = l->info[i - 1];
        }
        at = 0;
        prev = 1;
    }
    l->from[at] = f;
    l->to[at] = t;
    l->info[at] = inf;
    /* PMU_FAULT_LBR_OUT_OF_ORDER: the two youngest records trade places. */
    if ((faults & PMU_FAULT_LBR_OUT_OF_ORDER) && n > 1) {
        u64 x;
        x = l->from[at], l->from[at] = l->from[prev], l->from[prev] = x;
        x = l->to[at], l->to[at] = l->to[prev], l->to[prev] = x;
        x = l->info[at], l->info[at] = l->info[prev], l->info[prev] = x;
    }
}

void lbr_model_youngest(const struct lbr_model *l, u32 i, u64 *from, u64 *to, u64 *info)
{
    u32 n = l->c.kind == LBR_ARCH ? (u32)l->depth : l->c.depth;
    *from = *to = *info = 0;
    if (l->c.kind == LBR_NONE || i >= n)
        return;
    u32 s = l->c.kind == LBR_LEGACY ? (u32)((l->tos + n - i) % n) : i;
    *from = l->from[s];
    *to = l->to[s];
    *info = l->info[s];
}
