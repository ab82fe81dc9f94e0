/* Register-level PMU model: MSR semantics per PMU kind, RDPMC, event counting with exact overflow points,
 * the PMI line. See pmu_model.h for the API and docs/model.md for what is and is not modelled.
 *
 * Sources, cited at each rule:
 *   SDM     Intel SDM Vol.3B "Performance Monitoring" (21.2.x: architectural perfmon v1..v6), Vol.4 Table 2-2
 *           (architectural MSRs), Vol.2 RDPMC/RDMSR/WRMSR.
 *   APM     AMD64 APM Vol.2 13.2 "Performance Monitoring Counters", Vol.3 RDPMC.
 *   KNC     Intel Xeon Phi Coprocessor (Knights Corner) PMU, doc 327357-001 (1.4, Tables 1-1 to 1-10).
 *   KVM     Linux arch/x86/kvm/pmu.c, vmx/pmu_intel.c, svm/pmu.c, which emulate the same rules for guests. */
#include "emul/model/pmu_model.h"

#include "pmu/kind.h"
#include "pmu/events.h"
#include "pmu/pmu_msr.h"

#include <string.h>

/* Event-select fields: SDM 21.2.1.1 figure "Layout of IA32_PERFEVTSELx MSRs"; APM 13.2.1 PerfEvtSeln;
 * KNC Table 1-5 (same low 32 bits; KNC bit 21 is its thread-count mode, Intel's AnyThread). */
#define SEL_USR BIT(16)
#define SEL_OS BIT(17)
#define SEL_INT BIT(20)
#define SEL_ANY BIT(21)
#define SEL_EN BIT(22)
/* Intel bits above 31 that leaf 23H can make valid: Linux asm/perf_event.h ARCH_PERFMON_EVENTSEL_EQ,
 * _RDPMC_USER_DISABLE, _UMASK2. */
#define SEL_EQ BIT(36)
#define SEL_RDPMC_USER_DISABLE BIT(37)
#define SEL_UMASK2 (0xffull << 40)
/* AMD: APM 13.2.1 PerfEvtSeln: EventSelect[11:8] in 35:32, HostOnly/GuestOnly 41:40; 19, 21, 39:36 and 63:42
 * reserved. */
#define AMD_SEL_EVENT_HI (0xfull << 32)
#define AMD_SEL_RESERVED (BIT(19) | BIT(21) | (0xfull << 36) | ~((1ull << 42) - 1))
/* KNC Table 1-5: bit 19 reserved; Table 1-2: PerfEvtSel is 32 bits wide. */
#define KNC_SEL_RESERVED (BIT(19) | 0xffffffff00000000ull)

/* Fixed-counter control field, 4 bits per counter: SDM 21.2.2 figure "Layout of IA32_FIXED_CTR_CTRL MSR". */
#define FX_OS 0x1u
#define FX_USR 0x2u
#define FX_ANY 0x4u
#define FX_PMI 0x8u

/* IA32_PERF_GLOBAL_STATUS bits beyond the counters: SDM Vol.4 Table 2-2 (0x38E, 0x390, 0x391). */
#define ST_TRACE_TOPA BIT(55) /* v4 */
#define ST_LBR_FRZ BIT(58)    /* v4 */
#define ST_CTR_FRZ BIT(59)    /* v4: "performance counters in the core PMU are frozen" */
#define ST_ASCI BIT(60)       /* v4 */
#define ST_OVF_UNCORE BIT(61) /* v3 */
#define ST_OVF_BUF BIT(62)    /* v2 */
#define ST_COND_CHGD BIT(63)  /* v2 */

/* IA32_DEBUGCTL, typed in from SDM Vol.4 Table 2-2 (address 1D9H) and checked against Linux msr-index.h
 * (MSR_IA32_DEBUGCTLMSR 0x000001d9, DEBUGCTLMSR_FREEZE_LBRS_ON_PMI (1UL << 11),
 * DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI (1UL << 12)), not from pmu/. Bits that may be written: LBR[0], BTF[1],
 * TR[6], BTS[7], BTINT[8], BTS_OFF_OS[9], BTS_OFF_USR[10], FREEZE_LBRS_ON_PMI[11], FREEZE_PERFMON_ON_PMI[12],
 * ENABLE_UNCORE_PMI[13], FREEZE_WHILE_SMM[14], RTM_DEBUG[15]; others #GP. */
#define MODEL_MSR_DEBUGCTL 0x1d9
#define DBG_FREEZE_LBRS_ON_PMI BIT(11)
#define DBG_FREEZE_PERFMON_ON_PMI BIT(12)
#define DBG_VALID (BIT(0) | BIT(1) | (0x3ffull << 6))

static u64 low_mask(u32 n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* The register model of the kind (its emulated face, pmu/emul_face.h): Intel architectural perfmon (Intel,
 * Zhaoxin), AMD's core counters or Knights Corner's. The rules below are the model's own reading of the manuals, kept
 * apart from pmu/ so that each checks the other; only which rules a kind follows, and what its fixed counters and
 * instructions event are, come from its face. */
static bool is_intel(const struct pmu_model *m)
{
    return m->face->regs == PMU_EMUL_REGS_ARCH_PERFMON;
}

static bool is_amd(const struct pmu_model *m)
{
    return m->face->regs == PMU_EMUL_REGS_AMD_CORE;
}

static bool is_knc(const struct pmu_model *m)
{
    return m->face->regs == PMU_EMUL_REGS_KNC;
}

static bool has_status(const struct pmu_model *m)
{
    return m->caps.msrs.global_status != 0;
}

static bool has_global_ctrl(const struct pmu_model *m)
{
    return m->caps.msrs.global_ctrl != 0;
}

static u64 counters(const struct pmu_model *m)
{
    return m->gp_bits | m->fx_bits;
}

static bool exists(const struct pmu_model *m, u32 bit)
{
    return bit < 64 && (counters(m) & BIT(bit));
}

static u64 *counter_slot(struct pmu_model *m, u32 bit)
{
    return bit < PMU_MODEL_FIXED_BIT ? &m->gp_ctr[bit] : &m->fx_ctr[bit - PMU_MODEL_FIXED_BIT];
}

static u64 value_mask(const struct pmu_model *m, u32 bit)
{
    return bit < PMU_MODEL_FIXED_BIT ? m->gp_val_mask : m->fx_val_mask;
}

static u32 fixed_field(const struct pmu_model *m, u32 fixed)
{
    return (u32)(m->fixed_ctrl >> (4 * fixed)) & 0xf;
}

/* ---- PMI line ---------------------------------------------------------------------------------------- */

/* Where a status register exists, the PMI request stays pending until software clears the status bit (KNC
 * 1.4.3.9: the line "stays at 1" while an overflow is not cleared), so the line is the OR of the requests.
 * The SDM ties the PMI to the overflow event ("generates an exception through its local APIC on overflow",
 * SDM 21.2.1.1 INT, 21.2.2 PMI field), so a request is taken when the counter wraps with INT/PMI set. */
static void update_line(struct pmu_model *m)
{
    apic_model_set_line(&m->apic, m->pmi_req != 0);
}

static bool pmi_enabled(const struct pmu_model *m, u32 bit)
{
    if (bit < PMU_MODEL_FIXED_BIT)
        return (m->gp_sel[bit] & SEL_INT) != 0;
    return (fixed_field(m, bit - PMU_MODEL_FIXED_BIT) & FX_PMI) != 0;
}

static void clear_status(struct pmu_model *m, u64 bits)
{
    if (m->faults & PMU_FAULT_STATUS_STICKY)
        bits = 0; /* the write is accepted and clears nothing */
    if (m->faults & PMU_FAULT_FREEZE_NOT_RELEASED)
        bits &= ~(ST_CTR_FRZ | ST_LBR_FRZ); /* the freeze stays: counters and LBR keep still */
    m->global_status &= ~bits;
    m->pmi_req &= m->global_status;
    update_line(m);
}

/* PMU_FAULT_STATUS_EXTRA_BIT: the next existing counter after `bit`, wrapping around (the bit itself when it is the
 * only counter). */
static u64 next_counter(const struct pmu_model *m, u32 bit)
{
    u64 above = counters(m) & ~(BIT(bit) | (BIT(bit) - 1));
    u64 pick = above ? above : counters(m);
    return pick & -pick;
}

/* Counters in `bits` wrapped at the same event. */
static void overflow(struct pmu_model *m, u64 bits)
{
    bool pulse = false, any_pmi = false;
    for (u32 bit = 0; bit < 64; bit++) {
        if (!(bits & BIT(bit)))
            continue;
        m->st.overflows[bit]++;
        m->st.overflows_total++;
        /* PMU_FAULT_LOST_PMI: the overflow is recorded but no PMI is requested. */
        bool pmi = pmi_enabled(m, bit) && !(m->faults & PMU_FAULT_LOST_PMI);
        any_pmi |= pmi;
        if (pmi)
            m->st.pmi_requests++;
        if (has_status(m)) {
            /* Sticky, and set whether or not INT is: SDM 21.2.2 (GLOBAL_STATUS "indicates a counter overflow
             * condition has occurred"), KNC GLOBAL_STATUS "updated even when the APIC interrupt is not
             * enabled". */
            m->global_status |= BIT(bit);
            if (pmi)
                m->pmi_req |= BIT(bit);
            if (m->faults & PMU_FAULT_STATUS_EXTRA_BIT)
                m->global_status |= next_counter(m, bit);
        } else {
            /* Intel v1, AMD legacy/PerfCtrExtCore: no status register; the PMI is a pulse per overflow. */
            m->ovf_seen |= BIT(bit);
            pulse |= pmi;
        }
    }
    /* Freeze on PMI (SDM Vol.3B 18.4.7 / 21.2.4.1 "Legacy freeze" vs "Streamlined freeze"): with
     * DEBUGCTL.FREEZE_PERFMON_ON_PMI a PMI clears IA32_PERF_GLOBAL_CTRL (v2, v3) or sets GLOBAL_STATUS.CTR_Frz,
     * which stops counting until software clears it (v4+); FREEZE_LBRS_ON_PMI sets LBR_Frz (v4+). */
    if (any_pmi && is_intel(m) && m->caps.version >= 2 && !(m->faults & PMU_FAULT_NO_FREEZE)) {
        if (m->debugctl & DBG_FREEZE_PERFMON_ON_PMI) {
            if (m->caps.version >= 4) {
                m->global_status |= ST_CTR_FRZ;
            } else {
                if (m->faults & PMU_FAULT_FREEZE_KEEPS_COUNTING)
                    m->freeze_ignored |= m->global_ctrl; /* reads 0, keeps counting */
                m->global_ctrl = 0;
            }
        }
        /* FREEZE_LBRS_ON_PMI: v4+ report it in LBR_Frz, cleared through STATUS_RESET; before v4 the PMI clears
         * DEBUGCTL.LBR, which software sets again (SDM Vol.3B 18.4.7; Linux __intel_pmu_lbr_enable sets it again
         * below v4 and "v4 can do that as part of the GLOBAL_STATUS ack"). */
        if ((m->debugctl & DBG_FREEZE_LBRS_ON_PMI) && !(m->faults & PMU_FAULT_LBR_NO_FREEZE)) {
            if (m->caps.version >= 4)
                m->global_status |= ST_LBR_FRZ;
            else
                m->debugctl &= ~BIT(0);
        }
    }
    /* AMD LbrExtV2 with Fn8000_0022 EAX[2]: DEBUGCTL bit 11 freezes the LBR on a PMI, reported in
     * PerfCntrGlobalStatus bit 58 (Linux amd/lbr.c amd_pmu_lbr_enable_all, amd/core.c amd_pmu_v2_handle_irq). */
    if (any_pmi && is_amd(m) && m->lbr.c.freeze && (m->debugctl & DBG_FREEZE_LBRS_ON_PMI) &&
        !(m->faults & (PMU_FAULT_NO_FREEZE | PMU_FAULT_LBR_NO_FREEZE)))
        m->global_status |= ST_LBR_FRZ;
    /* Simultaneous overflows share one line transition (KNC 1.4.3.9: "the first one is signalled to the
     * APIC; the rest are tracked in the overflow status register"). */
    if (has_status(m)) {
        update_line(m);
    } else if (pulse) {
        apic_model_set_line(&m->apic, true);
        apic_model_set_line(&m->apic, false);
    }
    if (!m->overflow_hook)
        return;
    for (u32 bit = 0; bit < 64; bit++) {
        if (bits & BIT(bit)) {
            m->hook_depth++;
            m->overflow_hook(m, bit, m->overflow_hook_arg);
            m->hook_depth--;
        }
    }
}

/* ---- counting ---------------------------------------------------------------------------------------- */

/* Does the counter count events now? */
static bool counting(const struct pmu_model *m, u32 bit)
{
    if (!exists(m, bit))
        return false;
    if ((m->faults & PMU_FAULT_HELD_BY_HOST) && m->caps.num_gp && bit == m->caps.num_gp - 1)
        return false;
    /* v4 CTR_Frz: SDM Vol.4 Table 2-2, IA32_PERF_GLOBAL_STATUS[59] "performance counters in the core PMU are
     * frozen"; cleared through STATUS_RESET (SDM 21.2.4.2). */
    if (is_intel(m) && m->caps.version >= 4 && (m->global_status & ST_CTR_FRZ) &&
        !(m->faults & PMU_FAULT_FREEZE_KEEPS_COUNTING))
        return false;
    /* Counting needs the per-counter enable AND the global bit: SDM 21.2.2 ("each enable bit in
     * IA32_PERF_GLOBAL_CTRL is AND'ed with the enable bits for all privilege levels"), KNC 1.4.1, APM 13.2.2
     * (PerfMonV2 PerfCntrGlobalCtl). Without a global control only the select counts (v1, AMD before V2). */
    if (has_global_ctrl(m) && !((m->global_ctrl | m->freeze_ignored) & BIT(bit)))
        return false;
    bool os, usr;
    if (bit < PMU_MODEL_FIXED_BIT) {
        u64 sel = m->gp_sel[bit];
        if (!(sel & SEL_EN))
            return false;
        /* USR: CPL 1..3, OS: CPL 0 (SDM 21.2.1.1, APM 13.2.1, KNC Table 1-5). */
        os = sel & SEL_OS;
        usr = sel & SEL_USR;
    } else {
        /* Fixed field: bit 0 counts at ring 0, bit 1 at ring > 0; 0 in both stops it (SDM 21.2.2). */
        u32 f = fixed_field(m, bit - PMU_MODEL_FIXED_BIT);
        os = f & FX_OS;
        usr = f & FX_USR;
    }
    return m->cpl == 0 ? os : usr;
}

struct event_match {
    u16 event;
    u8 umask;
};

static bool selects(const struct pmu_model *m, u32 bit, const struct event_match *e)
{
    if (bit < PMU_MODEL_FIXED_BIT) {
        u64 sel = m->gp_sel[bit];
        u16 ev = sel & 0xff;
        if (is_amd(m))
            ev |= (u16)(((sel & AMD_SEL_EVENT_HI) >> 32) << 8);
        /* Edge, invert and counter mask are not modelled: every event counts once (docs/model.md). A counter the
         * family does not wire the event to counts nothing (AMD family 15h, Linux amd/core.c
         * amd_get_event_constraints_f15h: pmu_event_gp_constraint, the table the checks use). */
        return ev == e->event && ((sel >> 8) & 0xff) == e->umask &&
               (pmu_event_gp_constraint(&m->caps, e->event, e->umask).counters >> bit & 1);
    }
    /* The event each fixed counter counts is the kind's (its face: Intel's SDM 21.2.2 fixed-counter table). */
    u32 f = bit - PMU_MODEL_FIXED_BIT;
    const struct pmu_emul_encoding *fx = m->face->fixed;
    return f < ARRAY_SIZE(m->face->fixed) && fx[f].event && fx[f].event == e->event && fx[f].umask == e->umask;
}

/* Feed `n` events, one at a time in effect: advance by the largest step that wraps at most at its last event,
 * handle the overflow, and re-evaluate (an overflow hook may reprogram anything). `only` limits the counters
 * (a tick); otherwise counters are chosen by the event. Returns the events that found a counting counter. */
static u64 advance(struct pmu_model *m, const struct event_match *e, u64 only, u64 exclude, u64 n)
{
    u64 done = 0;
    bool early = m->faults & PMU_FAULT_EARLY_PMI;
    while (done < n) {
        u64 active = 0, step = n - done;
        for (u32 bit = 0; bit < 64; bit++) {
            if (!(counters(m) & BIT(bit)) || !counting(m, bit))
                continue;
            if (e ? !selects(m, bit, e) : !(only & BIT(bit)))
                continue;
            if (exclude & BIT(bit))
                continue;
            active |= BIT(bit);
            u64 to_wrap = value_mask(m, bit) - *counter_slot(m, bit) + 1;
            if (early && to_wrap > 1)
                to_wrap--; /* stop at the all-ones value too */
            if (to_wrap < step)
                step = to_wrap;
        }
        if (!active)
            break;
        u64 wrapped = 0;
        for (u32 bit = 0; bit < 64; bit++) {
            if (!(active & BIT(bit)))
                continue;
            u64 *c = counter_slot(m, bit);
            u64 to_wrap = value_mask(m, bit) - *c + 1;
            /* A counter that passes its all-ones value wraps to 0: that is the overflow (SDM 21.2.1.1, KNC 1.4:
             * "when the count no longer fits in 40 bits"). PMU_FAULT_EARLY_PMI signals it on reaching all-ones. */
            *c = (*c + step) & value_mask(m, bit);
            if (early ? *c == value_mask(m, bit) : step == to_wrap)
                wrapped |= BIT(bit);
            m->st.events_counted += step;
        }
        done += step;
        /* A counter enabled for PEBS that wraps arms the assist instead of overflowing (SDM "Processor Event Based
         * Sampling": "when a PEBS-enabled counter overflows, the PEBS hardware is armed ... upon the next occurrence
         * of the event, the assist writes a record"). */
        u64 pebs = wrapped & m->pebs.enable;
        m->pebs.armed |= pebs;
        wrapped &= ~pebs;
        if (wrapped)
            overflow(m, wrapped);
    }
    return done;
}

/* ---- PEBS -------------------------------------------------------------------------------------------- */

static bool mem_rd64(struct pmu_model *m, u64 addr, u64 *v)
{
    return m->pebs.mem.read && m->pebs.mem.read(m->pebs.mem.ctx, addr, v, 8);
}

/* The assist for the armed counters `bits` at this event (SDM "Processor Event Based Sampling": the assist
 * bounds-checks the DS area, writes the record at the PEBS index and advances it, reloads each counter from its "PEBS
 * counter reset" field; when the index reaches the interrupt threshold it sets OvfBuffer (GLOBAL_STATUS[62]) and
 * raises a PMI; at the absolute maximum nothing is written). */
static void pebs_assist(struct pmu_model *m, u64 bits)
{
    struct pebs_model *p = &m->pebs;
    p->armed &= ~bits;
    u64 ds = p->ds_area, index, absmax, threshold;
    if (!ds || !mem_rd64(m, ds + DS_PEBS_INDEX, &index) || !mem_rd64(m, ds + DS_PEBS_ABS_MAX, &absmax) ||
        !mem_rd64(m, ds + DS_PEBS_THRESHOLD, &threshold))
        return; /* no DS save area the model can read: nothing is written */
    bool adaptive = false;
    for (u32 bit = 0; bit < 64; bit++) {
        if (!(bits & BIT(bit)))
            continue;
        adaptive |= bit < PMU_MODEL_FIXED_BIT ? (m->gp_sel[bit] & PEBS_EVSEL_ADAPTIVE) != 0
                                              : (m->fixed_ctrl & PEBS_FIXED_ADAPTIVE(bit - PMU_MODEL_FIXED_BIT)) != 0;
        u64 reset = 0;
        mem_rd64(m, ds + pebs_reset_offset(&p->c, bit), &reset);
        *counter_slot(m, bit) = reset & value_mask(m, bit);
    }
    u32 size = pebs_model_record(p, bits, adaptive, m->global_status | bits, &m->lbr, m->faults, p->buf);
    bool skip = (m->faults & PMU_FAULT_PEBS_MISSING_RECORD) && ++p->records % 3 == 0;
    if (!skip && index + size <= absmax && p->mem.write && p->mem.write(p->mem.ctx, index, p->buf, size)) {
        index += size;
        p->mem.write(p->mem.ctx, ds + DS_PEBS_INDEX, &index, 8);
    }
    if (index >= threshold || (m->faults & PMU_FAULT_PEBS_PMI_EVERY_RECORD)) {
        m->global_status |= ST_OVF_BUF;
        m->pmi_req |= ST_OVF_BUF;
        m->st.pmi_requests++;
        update_line(m);
    }
}

void pmu_model_set_pebs(struct pmu_model *m, const struct pebs_caps *c, const struct pebs_model_mem *mem)
{
    pebs_model_init(&m->pebs, c, mem);
}

void pmu_model_set_insn(struct pmu_model *m, const struct pebs_model_insn *in)
{
    m->pebs.insn = *in;
}

/* The instructions-retired encoding of the kind (its face: SDM arch event C0H/00H; APM "Retired Instructions" C0H;
 * KNC INSTRUCTIONS_EXECUTED 16H): PMU_FAULT_OVERCOUNT adds to it only. */
static bool is_instructions(const struct pmu_model *m, const struct event_match *e)
{
    return e->event == m->face->instructions.event && e->umask == m->face->instructions.umask;
}

void pmu_model_count(struct pmu_model *m, u16 event, u8 umask, u64 n)
{
    struct event_match e = {event, umask};
    if ((m->faults & PMU_FAULT_OVERCOUNT) && is_instructions(m, &e)) {
        m->overcount_acc += n;
        n += m->overcount_acc / PMU_MODEL_OVERCOUNT_N;
        m->overcount_acc %= PMU_MODEL_OVERCOUNT_N;
    }
    if (!n)
        return;
    /* Armed PEBS counters this event reaches: the assist records it and reloads them; the event is theirs no further,
     * the other counters count it. */
    u64 trig = 0;
    for (u32 bit = 0; m->pebs.armed && bit < 64; bit++)
        if ((m->pebs.armed & BIT(bit)) && counting(m, bit) && selects(m, bit, &e))
            trig |= BIT(bit);
    if (trig) {
        pebs_assist(m, trig);
        advance(m, &e, 0, trig, 1);
        n--;
    }
    advance(m, &e, 0, 0, n);
}

u64 pmu_model_tick(struct pmu_model *m, u32 bit, u64 n)
{
    if (!exists(m, bit))
        return 0;
    return advance(m, NULL, BIT(bit), 0, n);
}

/* ---- MSR decoding ------------------------------------------------------------------------------------ */

enum reg_kind {
    REG_NONE,
    REG_SEL,          /* event select of GP idx */
    REG_CTR,          /* GP counter, the kind's legacy write semantics */
    REG_CTR_FULL,     /* GP counter, full-width write (IA32_A_PMCx, v6 alias) */
    REG_FIXED,        /* fixed counter idx */
    REG_FIXED_CTRL,
    REG_GLOBAL_CTRL,
    REG_STATUS,
    REG_STATUS_RESET, /* Intel OVF_CTRL / STATUS_RESET, AMD STATUS_CLR, KNC OVF_CTRL */
    REG_STATUS_SET,
    REG_INUSE,
    REG_PERF_CAPS,
    REG_SPFLT,
    REG_DEBUGCTL,
};

struct reg {
    enum reg_kind kind;
    u32 idx;
};

static bool in_block(u32 msr, u32 base, u32 stride, u32 count, u32 *idx)
{
    if (!base || msr < base || !stride)
        return false;
    u32 off = msr - base;
    if (off % stride || off / stride >= count)
        return false;
    *idx = off / stride;
    return true;
}

static struct reg decode(const struct pmu_model *m, u32 msr)
{
    const struct pmu_msrs *r = &m->caps.msrs;
    struct reg out = {REG_NONE, 0};
    u32 i;
    if (msr == 0)
        return out; /* pmu_caps.h: 0 means "no such register" */
    if (msr == r->fixed_ctr_ctrl)
        return (struct reg){REG_FIXED_CTRL, 0};
    if (msr == r->global_ctrl)
        return (struct reg){REG_GLOBAL_CTRL, 0};
    if (msr == r->global_status)
        return (struct reg){REG_STATUS, 0};
    if (msr == r->global_status_reset)
        return (struct reg){REG_STATUS_RESET, 0};
    if (msr == r->global_status_set)
        return (struct reg){REG_STATUS_SET, 0};
    if (msr == r->global_inuse)
        return (struct reg){REG_INUSE, 0};
    if (msr == r->perf_capabilities)
        return (struct reg){REG_PERF_CAPS, 0};
    if (msr == r->spflt_ctrl)
        return (struct reg){REG_SPFLT, 0};
    if (msr == MODEL_MSR_DEBUGCTL && (is_intel(m) || m->lbr.c.kind == LBR_AMD_V2))
        return (struct reg){REG_DEBUGCTL, 0};

    u32 ngp = m->caps.num_gp;
    /* Intel: IA32_PERFEVTSELi / IA32_PMCi / IA32_A_PMCi exist for the counters the caps list up to i = 9, whatever
     * the version (pmu_msr.h MSR_IA32_ARCH_GP_MAX: SDM Vol.4 Table 2-2 in recent editions; Linux programs GP 8
     * and 9 of a v5 Lion Cove P-core there, events/perf_event.h x86_pmu_config_addr/x86_pmu_event_addr). Counters
     * beyond are reached through the v6 aliases only (events/intel/core.c "Support V6+ MSR Aliasing"). This is
     * the hardware's map, not the backend's choice (pmu_msrs.legacy_gp), so the caps' map is not consulted. */
    u32 legacy = is_intel(m) ? MIN(ngp, (u32)MSR_IA32_ARCH_GP_MAX) : ngp;
    u32 stride = r->stride ? r->stride : 1;
    if (in_block(msr, r->evtsel0, stride, legacy, &i) && (m->gp_bits & BIT(i)))
        return (struct reg){REG_SEL, i};
    if (in_block(msr, r->ctr0, stride, legacy, &i) && (m->gp_bits & BIT(i)))
        return (struct reg){REG_CTR, i};
    if (in_block(msr, m->a_pmc0, 1, legacy, &i) && (m->gp_bits & BIT(i)))
        return (struct reg){REG_CTR_FULL, i};
    if (in_block(msr, r->fixed_ctr0, 1, m->caps.num_fixed, &i) && (m->fx_bits & BIT(PMU_MODEL_FIXED_BIT + i)))
        return (struct reg){REG_FIXED, i};
    /* v6: one block of v6_stride MSRs per counter, CTR at +0 and CFG_A (the select) at +1; CFG_B/CFG_C are not
     * modelled and fault as absent (docs/model.md). */
    if (in_block(msr, r->v6_gp_ctr0, r->v6_stride, ngp, &i) && (m->gp_bits & BIT(i)))
        return (struct reg){REG_CTR_FULL, i};
    if (in_block(msr, r->v6_gp_cfg_a0, r->v6_stride, ngp, &i) && (m->gp_bits & BIT(i)))
        return (struct reg){REG_SEL, i};
    if (in_block(msr, r->v6_fixed_ctr0, r->v6_stride, m->caps.num_fixed, &i) &&
        (m->fx_bits & BIT(PMU_MODEL_FIXED_BIT + i)))
        return (struct reg){REG_FIXED, i};
    /* AMD PerfCtrExtCore: "MSR_F15H_PERF_CTR[0-3] are aliased to MSR_K7_PERFCTRn" (KVM pmu.c; svm/pmu.c
     * get_gp_pmc_amd), selects likewise. */
    if (m->face->k7_aliases) {
        if (in_block(msr, MSR_K7_EVNTSEL0, 1, MIN(ngp, 4u), &i) && (m->gp_bits & BIT(i)))
            return (struct reg){REG_SEL, i};
        if (in_block(msr, MSR_K7_PERFCTR0, 1, MIN(ngp, 4u), &i) && (m->gp_bits & BIT(i)))
            return (struct reg){REG_CTR, i};
    }
    return out;
}

/* ---- per-register semantics -------------------------------------------------------------------------- */

static u64 intel_sel_reserved(const struct pmu_model *m)
{
    /* SDM 21.2.1.1: bits 63:32 reserved. Leaf 23H makes some valid: EQ, RDPMC_USER_DISABLE, UMASK2 (Linux
     * asm/perf_event.h; pmu_caps umask2/eq_bit/rdpmc_user_disable). IN_TX/IN_TXCP (bits 32, 33) are keyed on
     * TSX in CPUID, not on the version, as KVM does (vmx/pmu_intel.c intel_pmu_refresh: with HLE or RTM in the
     * guest's CPUID.(7,0):EBX, "pmu->reserved_bits ^= HSW_IN_TX", HSW_IN_TXCP allowed too; KVM reports
     * version 2). Adaptive PEBS is not modelled and stays reserved. */
    u64 rsvd = 0xffffffff00000000ull;
    if (m->caps.tsx)
        rsvd &= ~(BIT(32) | BIT(33));
    if (m->caps.umask2)
        rsvd &= ~SEL_UMASK2;
    if (m->caps.eq_bit)
        rsvd &= ~SEL_EQ;
    if (m->caps.rdpmc_user_disable)
        rsvd &= ~SEL_RDPMC_USER_DISABLE;
    /* Adaptive_Record (bit 34) with adaptive PEBS (PERF_CAPABILITIES.PEBS_BASELINE; Linux ICL_EVENTSEL_ADAPTIVE). */
    if (m->pebs.c.adaptive)
        rsvd &= ~PEBS_EVSEL_ADAPTIVE;
    /* AnyThread (bit 21) exists from version 3 (SDM 21.2.3); before that the bit is reserved. */
    if (m->caps.version < 3)
        rsvd |= SEL_ANY;
    return rsvd;
}

static u64 fixed_ctrl_valid(const struct pmu_model *m)
{
    /* One 4-bit field per existing fixed counter (SDM 21.2.2; v5 fixed-counter bitmap, SDM 21.2.5); AnyThread
     * (field bit 2) from version 3 (SDM 21.2.3). Everything else is reserved. */
    u64 field = FX_OS | FX_USR | FX_PMI | (m->caps.version >= 3 ? FX_ANY : 0);
    u64 valid = 0;
    for (u32 i = 0; i < PMU_MODEL_MAX_FIXED; i++)
        if (m->fx_bits & BIT(PMU_MODEL_FIXED_BIT + i))
            valid |= field << (4 * i) | (m->pebs.c.adaptive && i < 8 ? PEBS_FIXED_ADAPTIVE(i) : 0);
    return valid;
}

/* Bits IA32_PERF_GLOBAL_OVF_CTRL / STATUS_RESET may clear (SDM Vol.4 Table 2-2 0x390; v4 additions SDM
 * 21.2.4.2). KVM pmu.c: "GLOBAL_OVF_CTRL ... clears bits in GLOBAL_STATUS, and so the set of reserved bits is
 * the same". */
static u64 intel_status_reset_valid(const struct pmu_model *m)
{
    u64 v = counters(m) | ST_OVF_BUF | ST_COND_CHGD;
    if (m->caps.version >= 3)
        v |= ST_OVF_UNCORE;
    if (m->caps.version >= 4)
        v |= ST_TRACE_TOPA | ST_LBR_FRZ | ST_CTR_FRZ | ST_ASCI;
    return v;
}

/* IA32_PERF_GLOBAL_STATUS_SET (SDM Vol.4 Table 2-2 0x391): counters, 55, 58..62; 63 reserved. */
static u64 intel_status_set_valid(const struct pmu_model *m)
{
    return counters(m) | ST_TRACE_TOPA | ST_LBR_FRZ | ST_CTR_FRZ | ST_ASCI | ST_OVF_UNCORE | ST_OVF_BUF;
}

/* IA32_PERF_GLOBAL_INUSE (SDM 21.2.4.3): bit n = PERFEVTSELn[7:0] != 0, bit 32+i = fixed field i [1:0] != 0,
 * bit 63 = some INT / fixed PMI bit set (PEBS enables are not modelled). */
static u64 intel_inuse(const struct pmu_model *m)
{
    u64 v = 0;
    bool pmi = false;
    for (u32 i = 0; i < PMU_MODEL_MAX_GP; i++) {
        if (!(m->gp_bits & BIT(i)))
            continue;
        if (m->gp_sel[i] & 0xff)
            v |= BIT(i);
        pmi |= (m->gp_sel[i] & SEL_INT) != 0;
    }
    for (u32 i = 0; i < PMU_MODEL_MAX_FIXED; i++) {
        if (!(m->fx_bits & BIT(PMU_MODEL_FIXED_BIT + i)))
            continue;
        if (fixed_field(m, i) & (FX_OS | FX_USR))
            v |= BIT(PMU_MODEL_FIXED_BIT + i);
        pmi |= (fixed_field(m, i) & FX_PMI) != 0;
    }
    return pmi ? v | BIT(63) : v;
}

static int msr_read(struct pmu_model *m, u32 msr, u64 *val)
{
    if (lbr_model_owns(&m->lbr, msr))
        return lbr_model_rdmsr(&m->lbr, msr, val);
    if (is_intel(m) && pebs_model_owns(&m->pebs, msr))
        return pebs_model_rdmsr(&m->pebs, msr, val);
    struct reg r = decode(m, msr);
    switch (r.kind) {
    case REG_SEL:
        *val = m->gp_sel[r.idx];
        return 0;
    case REG_CTR:
    case REG_CTR_FULL:
        *val = m->gp_ctr[r.idx];
        return 0;
    case REG_FIXED:
        *val = m->fx_ctr[r.idx];
        return 0;
    case REG_FIXED_CTRL:
        *val = m->fixed_ctrl;
        return 0;
    case REG_GLOBAL_CTRL:
        *val = m->global_ctrl;
        return 0;
    case REG_STATUS:
        *val = m->global_status;
        return 0;
    case REG_STATUS_RESET:
        /* KNC Table 1-2: IA32_PERF_GLOBAL_OVF_CTRL is write-only. Intel and AMD read 0 (KVM pmu.c
         * kvm_pmu_get_msr). */
        if (is_knc(m))
            return HW_GP;
        *val = 0;
        return 0;
    case REG_STATUS_SET:
        *val = 0; /* a command register: nothing to read back (model choice, docs/model.md) */
        return 0;
    case REG_INUSE:
        *val = intel_inuse(m);
        return 0;
    case REG_PERF_CAPS:
        *val = m->caps.perf_caps.raw;
        return 0;
    case REG_SPFLT:
        *val = m->spflt;
        return 0;
    case REG_DEBUGCTL:
        *val = m->debugctl;
        return 0;
    case REG_NONE:
        break;
    }
    /* An MSR this CPU does not implement: #GP (SDM Vol.2 RDMSR "If ECX specifies a reserved or unimplemented
     * MSR address"). */
    return HW_GP;
}

static int write_counter(struct pmu_model *m, u32 bit, u64 val, bool full_width)
{
    u64 mask = value_mask(m, bit);
    m->overcount_acc = 0; /* PMU_FAULT_OVERCOUNT: one more per N counted since the last counter write */
    if (is_amd(m)) {
        /* KVM pmu.c: "AMD ignores writes to reserved bits and read-only PMU MSRs, whereas Intel generates #GP";
         * svm/pmu.c pmc_write_counter keeps the 48 counter bits. */
        *counter_slot(m, bit) = val & mask;
        return 0;
    }
    if (is_intel(m) && bit < PMU_MODEL_FIXED_BIT && !full_width && !m->face->pmc_full_width) {
        /* SDM 21.2.6 "Full-Width Writes to Performance Counter Registers": the value written to IA32_PMCx "is
         * the signed extended 64-bit value of the EAX[31:0] input of WRMSR" (EDX ignored). A kind whose face says
         * otherwise (Zhaoxin) takes the full width there, as its full-width alias does. */
        u64 v = (m->faults & PMU_FAULT_WIDTH) ? (u32)val : (u64)(s64)(s32)(u32)val;
        *counter_slot(m, bit) = v & mask;
        return 0;
    }
    /* Full width: IA32_A_PMCx (SDM 21.2.6; KVM pmu_intel.c faults "data & ~counter_bitmask"), fixed counters
     * ("bits beyond the width of the fixed-function counter are reserved and must be written as zeros", SDM
     * 21.2.2), KNC counters (KNC 1.4 PerfCnt: all 40 bits written, 63:40 reserved). */
    if (val & ~mask)
        return HW_GP;
    *counter_slot(m, bit) = val;
    return 0;
}

static int msr_write(struct pmu_model *m, u32 msr, u64 val)
{
    if (lbr_model_owns(&m->lbr, msr))
        return lbr_model_wrmsr(&m->lbr, msr, val);
    if (is_intel(m) && pebs_model_owns(&m->pebs, msr))
        return pebs_model_wrmsr(&m->pebs, msr, val);
    struct reg r = decode(m, msr);
    u64 valid;
    switch (r.kind) {
    case REG_SEL:
        if (is_amd(m)) {
            m->gp_sel[r.idx] = val & ~AMD_SEL_RESERVED; /* reserved bits ignored (KVM svm/pmu.c) */
            return 0;
        }
        if (val & (is_knc(m) ? KNC_SEL_RESERVED : intel_sel_reserved(m)))
            return HW_GP;
        m->gp_sel[r.idx] = val;
        return 0;
    case REG_CTR:
        return write_counter(m, r.idx, val, false);
    case REG_CTR_FULL:
        return write_counter(m, r.idx, val, true);
    case REG_FIXED:
        return write_counter(m, PMU_MODEL_FIXED_BIT + r.idx, val, true);
    case REG_FIXED_CTRL:
        if (val & ~fixed_ctrl_valid(m))
            return HW_GP; /* KVM pmu_intel.c fixed_ctr_ctrl_mask */
        m->fixed_ctrl = val;
        return 0;
    case REG_GLOBAL_CTRL:
        m->freeze_ignored = 0; /* PMU_FAULT_FREEZE_KEEPS_COUNTING: software's write takes effect */
        if (is_amd(m)) {
            m->global_ctrl = val & m->gp_bits; /* KVM pmu.c: "data &= ~pmu->global_ctrl_mask" */
            return 0;
        }
        /* Enable bits of counters that do not exist #GP: SDM "Global Counter Control Facilities In Intel
         * Microarchitecture Code Name Sandy Bridge" ("attempts to set the invalid bits will cause #GP"), KVM
         * kvm_valid_perf_global_ctrl; KNC GLOBAL_CTRL has bits 1:0 only. */
        if (val & ~counters(m))
            return HW_GP;
        m->global_ctrl = val;
        return 0;
    case REG_STATUS:
        /* Read-only. Intel: #GP (KVM pmu.c "Intel generates #GP on attempts to write reserved/RO MSRs"); KNC
         * Table 1-2: RO; AMD PerfCntrGlobalStatus: "Per PPR, Read-only MSR. Writes are ignored." (KVM pmu.c). */
        return is_amd(m) ? 0 : HW_GP;
    case REG_STATUS_RESET:
        /* Write 1 to clear (SDM 21.2.2 GLOBAL_OVF_CTRL; KNC 0x2E "writing 1 to bit n clears overflow status bit
         * n"; APM PerfCntrGlobalStatusClr, Linux amd_pmu_ack_global_status). */
        valid = is_intel(m) ? intel_status_reset_valid(m) : counters(m) | (m->lbr.c.freeze ? ST_LBR_FRZ : 0);
        if (is_amd(m))
            val &= valid; /* reserved bits ignored; Linux writes ~status here */
        else if (val & ~valid)
            return HW_GP; /* KNC: 63:2 reserved */
        clear_status(m, val);
        return 0;
    case REG_STATUS_SET:
        /* Write 1 to set (SDM 21.2.4.2 "allows software to set individual bits in IA32_PERF_GLOBAL_STATUS";
         * AMD PerfCntrGlobalStatusSet). Only the status changes: no overflow event, so no PMI request
         * (docs/model.md). */
        valid = is_intel(m) ? intel_status_set_valid(m) : counters(m);
        if (is_amd(m))
            val &= valid;
        else if (val & ~valid)
            return HW_GP;
        m->global_status |= val;
        return 0;
    case REG_INUSE:
    case REG_PERF_CAPS:
        return HW_GP; /* read-only: SDM Vol.4 Table 2-2 (0x392 "RO", 0x345 "RO") */
    case REG_SPFLT:
        m->spflt = val; /* KNC Table 1-2: 64-bit RW, no reserved bits listed */
        return 0;
    case REG_DEBUGCTL:
        if (val & ~DBG_VALID)
            return HW_GP;
        m->debugctl = val;
        return 0;
    case REG_NONE:
        break;
    }
    return HW_GP; /* SDM Vol.2 WRMSR: reserved or unimplemented MSR address */
}

static int do_rdpmc(struct pmu_model *m, u32 ecx, u64 *val)
{
    /* SDM Vol.2 RDPMC / APM Vol.3 RDPMC: at CPL > 0 with CR4.PCE = 0, #GP(0). */
    if (m->cpl != 0 && !m->cr4_pce)
        return HW_GP;
    u32 bit;
    if (is_intel(m)) {
        /* SDM Vol.2 RDPMC: ECX[31:16] is the type (0 general-purpose, 4000H fixed-function, 2000H performance
         * metrics, not modelled), ECX[15:0] the index; "specifying an unsupported PMC encoding will cause
         * #GP(0)". */
        u32 type = ecx >> 16, idx = ecx & 0xffff;
        if (type == 0 && idx < PMU_MODEL_MAX_GP)
            bit = idx;
        else if (type == 0x4000 && idx < PMU_MODEL_MAX_FIXED)
            bit = PMU_MODEL_FIXED_BIT + idx;
        else
            return HW_GP;
    } else if (is_amd(m) || is_knc(m)) {
        /* APM Vol.3 RDPMC: ECX is the counter number: core counters 0..5, then the northbridge / data-fabric
         * counters at 6..9 (with PerfCtrExtNB, CPUID 0x80000001 ECX[24]) and the L3 counters at 10..15 (with
         * PerfCtrExtLLC, ECX[28]). Indices typed in from Linux events/amd/uncore.c (RDPMC_BASE_NB 6,
         * NUM_COUNTERS_NB 4, RDPMC_BASE_LLC 10, NUM_COUNTERS_L3 6), not from pmu/. The uncore counters are not
         * modelled beyond existing: they read 0. KNC Table 1-1: ECX 0/1. KVM amd_check_rdpmc_early: #GP beyond. */
        if (is_amd(m) && ((m->caps.amd_perfctr_nb && ecx >= 6 && ecx <= 9) ||
                          (m->caps.amd_perfctr_llc && ecx >= 10 && ecx <= 15))) {
            *val = 0;
            return 0;
        }
        if (ecx >= PMU_MODEL_MAX_GP)
            return HW_GP;
        bit = ecx;
    } else {
        return HW_GP;
    }
    if (!exists(m, bit) || ((m->faults & PMU_FAULT_RDPMC_GP0_ONLY) && bit != 0))
        return HW_GP;
    /* Unimplemented high bits read 0 (SDM Vol.2 RDPMC; KNC Table 1-1 "zero-extended 40-bit value"). */
    *val = *counter_slot(m, bit);
    return 0;
}

/* ---- the hw_ops, with log and hooks ------------------------------------------------------------------ */

static void access_begin(struct pmu_model *m, struct pmu_model_access *a, enum pmu_model_op op, u32 reg, u64 value)
{
    *a = (struct pmu_model_access){.index = m->access_index++, .op = op, .reg = reg, .value = value};
    m->log[a->index % PMU_MODEL_LOG_LEN].index = ~0ull; /* in progress: not in the log yet */
    m->st.accesses++;
    if (m->access_hook && m->hook_depth == 0) {
        m->hook_depth++;
        m->access_hook(m, a, false, m->access_hook_arg);
        m->hook_depth--;
    }
}

static void access_end(struct pmu_model *m, struct pmu_model_access *a)
{
    if (a->result)
        m->st.faults++;
    m->log[a->index % PMU_MODEL_LOG_LEN] = *a;
    if (m->access_hook && m->hook_depth == 0) {
        m->hook_depth++;
        m->access_hook(m, a, true, m->access_hook_arg);
        m->hook_depth--;
    }
}

static int op_rdmsr(void *ctx, u32 msr, u64 *val)
{
    struct pmu_model *m = ctx;
    struct pmu_model_access a;
    access_begin(m, &a, PMU_MODEL_OP_RDMSR, msr, 0);
    u64 v = 0;
    /* SDM Vol.2 RDMSR/WRMSR: #GP(0) if the current privilege level is not 0. */
    a.result = m->cpl != 0 ? HW_GP : msr_read(m, msr, &v);
    *val = a.result ? 0 : v;
    a.value = *val;
    access_end(m, &a);
    return a.result;
}

static int op_wrmsr(void *ctx, u32 msr, u64 val)
{
    struct pmu_model *m = ctx;
    struct pmu_model_access a;
    access_begin(m, &a, PMU_MODEL_OP_WRMSR, msr, val);
    a.result = m->cpl != 0 ? HW_GP : msr_write(m, msr, val);
    access_end(m, &a);
    return a.result;
}

static int op_rdpmc(void *ctx, u32 ecx, u64 *val)
{
    struct pmu_model *m = ctx;
    struct pmu_model_access a;
    access_begin(m, &a, PMU_MODEL_OP_RDPMC, ecx, 0);
    u64 v = 0;
    a.result = do_rdpmc(m, ecx, &v);
    *val = a.result ? 0 : v;
    a.value = *val;
    access_end(m, &a);
    return a.result;
}

static u32 op_apic_read(void *ctx, u32 reg)
{
    struct pmu_model *m = ctx;
    struct pmu_model_access a;
    access_begin(m, &a, PMU_MODEL_OP_APIC_READ, reg, 0);
    u32 v = apic_model_read(&m->apic, reg);
    a.value = v;
    access_end(m, &a);
    return v;
}

static void op_apic_write(void *ctx, u32 reg, u32 val)
{
    struct pmu_model *m = ctx;
    struct pmu_model_access a;
    access_begin(m, &a, PMU_MODEL_OP_APIC_WRITE, reg, val);
    apic_model_write(&m->apic, reg, val);
    access_end(m, &a);
}

static const struct hw_ops model_ops = {
    .rdmsr = op_rdmsr,
    .wrmsr = op_wrmsr,
    .rdpmc = op_rdpmc,
    .apic_read = op_apic_read,
    .apic_write = op_apic_write,
};

void pmu_model_access(struct pmu_model *m, struct hw_access *out)
{
    memset(out, 0, sizeof(*out));
    out->ops = &model_ops;
    out->ctx = m;
}

/* ---- construction, reset ----------------------------------------------------------------------------- */

static const char *check_caps(const struct pmu_caps *c)
{
    if (!pmu_kind_get(c->kind)->emul)
        return "caps.kind has no emulated face (pmu/emul_face.h): no register model";
    if (c->num_gp > PMU_MODEL_MAX_GP)
        return "caps.num_gp > 32: beyond the unified status layout";
    if (c->num_fixed > PMU_MODEL_MAX_FIXED)
        return "caps.num_fixed > 16: beyond the unified status layout";
    if (c->num_gp && (c->gp_width == 0 || c->gp_width > 63))
        return "caps.gp_width must be 1..63 when GP counters exist";
    if (c->num_fixed && (c->fixed_width == 0 || c->fixed_width > 63))
        return "caps.fixed_width must be 1..63 when fixed counters exist";
    return NULL;
}

/* A kind without an emulated face has no register model: check_caps refuses it and the model faults everything. */
static const struct pmu_emul_face no_face = {.regs = PMU_EMUL_REGS_NONE};

void pmu_model_init(struct pmu_model *m, const struct pmu_caps *caps, enum model_apic_behaviour b)
{
    memset(m, 0, sizeof(*m));
    m->caps = *caps;
    m->face = pmu_kind_get(caps->kind)->emul ? pmu_kind_get(caps->kind)->emul : &no_face;
    m->config_error = check_caps(caps);
    if (!m->config_error) {
        m->gp_val_mask = low_mask(caps->gp_width);
        m->fx_val_mask = low_mask(caps->fixed_width);
        m->gp_bits = caps->gp_mask & low_mask(caps->num_gp);
        m->fx_bits = (u64)(caps->fixed_mask & (u32)low_mask(caps->num_fixed)) << PMU_MODEL_FIXED_BIT;
        /* IA32_A_PMCx exist when PERF_CAPABILITIES.FW_WRITE[13] (SDM 21.2.6); discovery records the base in
         * msrs.ctr0_full_width. */
        if (is_intel(m))
            m->a_pmc0 = caps->msrs.ctr0_full_width ? caps->msrs.ctr0_full_width
                                                   : (caps->perf_caps.full_width_write ? MSR_IA32_A_PMC0 : 0);
    }
    apic_model_init(&m->apic, b, !is_amd(m));
    pmu_model_reset(m);
}

void pmu_model_reset(struct pmu_model *m)
{
    /* PMU_FAULT_COUNTERS_SURVIVE_RESET: counters, selects and fixed control keep their values. */
    if (!(m->faults & PMU_FAULT_COUNTERS_SURVIVE_RESET)) {
        memset(m->gp_ctr, 0, sizeof(m->gp_ctr));
        memset(m->gp_sel, 0, sizeof(m->gp_sel));
        memset(m->fx_ctr, 0, sizeof(m->fx_ctr));
        m->fixed_ctrl = 0;
    }
    m->global_status = 0;
    m->pmi_req = 0;
    m->ovf_seen = 0;
    m->spflt = 0;
    m->debugctl = 0; /* SDM Vol.3A Table 9-1: DEBUGCTL powers up 0 */
    m->global_ctrl = 0;
    m->freeze_ignored = 0;
    /* "At RESET, both Intel and AMD CPUs set all enable bits for general purpose counters in
     * IA32_PERF_GLOBAL_CTRL" (KVM pmu.c kvm_pmu_refresh; SDM 325462-079US), so v1-style software counts. KNC: every
     * control register resets to 0 (KNC Table 1-2, 1.4.4). */
    if (has_global_ctrl(m) && !is_knc(m) && !(m->faults & PMU_FAULT_GLOBAL_CTRL_RESET_ZERO))
        m->global_ctrl = m->gp_bits;
    /* CondChgd may read 1 after reset on some Intel parts (Linux b292d7a10487: Ivy Bridge Xeons); opt-in. */
    if (is_intel(m) && has_status(m) && m->reset_condchgd)
        m->global_status |= ST_COND_CHGD;
    apic_model_reset(&m->apic);
    lbr_model_reset(&m->lbr);
    pebs_model_reset(&m->pebs);
    update_line(m);
}

void pmu_model_set_lbr(struct pmu_model *m, const struct lbr_caps *c)
{
    lbr_model_init(&m->lbr, c);
}

void pmu_model_retire_branch(struct pmu_model *m, const struct lbr_model_branch *b)
{
    if (m->lbr.c.kind == LBR_NONE)
        return;
    /* Recording needs the enable, and no freeze pending (LBR_Frz, v4+ and AMD). */
    bool on = lbr_model_enabled(&m->lbr, m->debugctl) && !(m->global_status & ST_LBR_FRZ);
    if (on)
        lbr_model_branch(&m->lbr, b, m->faults);
}

/* Select values Linux printed in "[Firmware Bug]: the BIOS has corrupted hw-PMU resources (MSR %x is %Lx)"
 * (arch/x86/events/core.c check_hw_exists()), or the same fields for the vendor's cycles/instructions event:
 * EN 22, OS 17, USR 16 (SDM Vol.3B Figure 21-1; APM Vol.2 13.2.1; KNC PMU Table 1-5). */
#define FW_SEL_AMD 0x530076ull  /* + INT 20, event 076h: "MSR c0010200 is 530076" */
#define FW_SEL_INTEL 0x43003Cull /* event 3CH UnHalted Core Cycles (SDM Vol.3B Table 21-1) */
#define FW_SEL_KNC 0x430016ull   /* event 16H INSTRUCTIONS_EXECUTED (KNC PMU Table 1-6) */
#define FW_FIXED_CTRL 0x330ull   /* fixed 1 and 2 at OS+USR: "MSR 38d is 330" */

void pmu_model_firmware_left_enabled(struct pmu_model *m)
{
    struct hw_access hw;
    pmu_model_access(m, &hw);
    u64 sel = is_amd(m) ? FW_SEL_AMD : is_knc(m) ? FW_SEL_KNC : FW_SEL_INTEL;
    hw_wrmsr(&hw, m->caps.msrs.evtsel0, sel);
    if (m->caps.num_fixed >= 3 && m->caps.msrs.fixed_ctr_ctrl)
        hw_wrmsr(&hw, m->caps.msrs.fixed_ctr_ctrl, FW_FIXED_CTRL);
}

void pmu_model_init_signal(struct pmu_model *m)
{
    /* PMU_FAULT_RESET_ON_INIT: INIT treated as a reset of the PMU, against KNC PMU 1.4.4 and the SDM. */
    if (m->faults & PMU_FAULT_RESET_ON_INIT) {
        u32 keep = m->faults;
        m->faults &= ~PMU_FAULT_COUNTERS_SURVIVE_RESET;
        pmu_model_reset(m);
        m->faults = keep;
        return;
    }
    apic_model_reset(&m->apic);
}

void pmu_model_set_faults(struct pmu_model *m, u32 faults)
{
    m->faults = faults;
    m->apic.mask_on_delivery = !is_amd(m) && !(faults & PMU_FAULT_LVTPC_NO_MASK);
    m->apic.duplicate = (faults & PMU_FAULT_DUPLICATE_PMI) != 0;
    if (m->config_error)
        return;
    /* PMU_FAULT_WIDTH: the counters hold one bit less than CPUID enumerates. */
    u32 less = (faults & PMU_FAULT_WIDTH) ? 1 : 0;
    m->gp_val_mask = low_mask(m->caps.gp_width - less);
    m->fx_val_mask = m->caps.fixed_width ? low_mask(m->caps.fixed_width - less) : 0;
    for (u32 i = 0; i < PMU_MODEL_MAX_GP; i++)
        m->gp_ctr[i] &= m->gp_val_mask;
    for (u32 i = 0; i < PMU_MODEL_MAX_FIXED; i++)
        m->fx_ctr[i] &= m->fx_val_mask;
}

/* ---- PMIs, hooks, inspection ------------------------------------------------------------------------- */

bool pmu_model_pending_pmi(const struct pmu_model *m)
{
    return apic_model_pending(&m->apic);
}

bool pmu_model_take_pmi(struct pmu_model *m, struct apic_model_irq *out)
{
    return apic_model_take(&m->apic, out);
}

void pmu_model_pmi_done(struct pmu_model *m)
{
    apic_model_iret(&m->apic);
}

u32 pmu_model_service(struct pmu_model *m, void (*handler)(struct pmu_model *m, const struct apic_model_irq *irq,
                                                          void *arg),
                      void *arg, u32 max)
{
    u32 n = 0;
    struct apic_model_irq irq;
    while (n < max && pmu_model_take_pmi(m, &irq)) {
        handler(m, &irq, arg);
        pmu_model_pmi_done(m);
        n++;
    }
    return n;
}

void pmu_model_set_access_hook(struct pmu_model *m, pmu_model_access_hook fn, void *arg)
{
    m->access_hook = fn;
    m->access_hook_arg = arg;
}

void pmu_model_set_overflow_hook(struct pmu_model *m, pmu_model_overflow_hook fn, void *arg)
{
    m->overflow_hook = fn;
    m->overflow_hook_arg = arg;
}

const struct pmu_model_access *pmu_model_log_entry(const struct pmu_model *m, u64 index)
{
    if (index >= m->access_index || m->access_index - index > PMU_MODEL_LOG_LEN)
        return NULL;
    const struct pmu_model_access *a = &m->log[index % PMU_MODEL_LOG_LEN];
    return a->index == index ? a : NULL; /* NULL while that access is still in progress */
}

u64 pmu_model_counter(const struct pmu_model *m, u32 bit)
{
    if (!exists(m, bit))
        return 0;
    return bit < PMU_MODEL_FIXED_BIT ? m->gp_ctr[bit] : m->fx_ctr[bit - PMU_MODEL_FIXED_BIT];
}

bool pmu_model_pmi_line(const struct pmu_model *m)
{
    return m->apic.line;
}
