/* The PMU programming API over the per-kind backends: binding, event-select encoding and validation, preload,
 * reset and conveniences. Portable: every hardware access goes through p->hw (pmu/access.h). */
#include "pmu/pmu_internal.h"

#include "pmu/kind.h"
#include "pmu/pmu_msr.h"

#include <string.h>

#define PMU_MAX_WIDTH 64

static bool is_amd(const struct pmu *p)
{
    return pmu_kind_get(p->caps->kind)->amd_core;
}

static bool arch_perfmon(const struct pmu_caps *c)
{
    return pmu_kind_get(c->kind)->arch_perfmon;
}

int pmu_init(struct pmu *p, const struct pmu_caps *caps, struct hw_access *hw)
{
    memset(p, 0, sizeof(*p));
    p->caps = caps;
    p->hw = hw;
    const struct pmu_kind_desc *d = pmu_kind_get(caps->kind);
    if (!d->backend) {
        p->error = "no PMU of a kind pmuboot can program (pmu_caps kind none)";
        return PMU_ENOTSUP;
    }
    p->be = d->backend;
    if (caps->num_gp == 0 || caps->gp_width == 0 || caps->gp_width > PMU_MAX_WIDTH) {
        p->be = NULL;
        p->error = "capabilities give no GP counters or a GP counter width outside 1..64";
        return PMU_EINVAL;
    }
    if (caps->fixed_mask && (caps->fixed_width == 0 || caps->fixed_width > PMU_MAX_WIDTH)) {
        p->be = NULL;
        p->error = "capabilities give fixed counters with a width outside 1..64";
        return PMU_EINVAL;
    }
    /* Fixed counters exist only with architectural perfmon v2+ (SDM Vol.3B 21.2.2); a stray mask is ignored. */
    u64 fixed = d->arch_perfmon && caps->version >= 2 ? caps->fixed_mask : 0;
    p->counters = (u64)caps->gp_mask | (fixed << PMU_FIXED_BIT);
    p->gp_mask_val = pmu_width_mask(caps->gp_width);
    p->fixed_mask_val = fixed ? pmu_width_mask(caps->fixed_width) : 0;
    p->status_bits = d->status_bits ? d->status_bits(p) : 0;
    return 0;
}

bool pmu_has_status(const struct pmu *p)
{
    return p->status_bits != 0;
}

bool pmu_reserved_faults(const struct pmu *p)
{
    return pmu_kind_get(p->caps->kind)->reserved_faults;
}

bool pmu_reserved_faults_documented(const struct pmu *p)
{
    return pmu_kind_get(p->caps->kind)->reserved_faults_documented;
}

bool pmu_has_global_ctrl(const struct pmu *p)
{
    return p->caps->msrs.global_ctrl != 0;
}

/* ---- event select encoding ---- */

u64 pmu_evsel_reserved(const struct pmu *p)
{
    const struct pmu_kind_desc *d = pmu_kind_get(p->caps->kind);
    return d->evsel_reserved ? d->evsel_reserved(p) : ~0ull;
}

/* The widest event code the select holds. */
static u32 event_limit(const struct pmu *p)
{
    /* AMD family 10h+ EventSelect[11:8] in bits 35:32 (APM Vol.2 13.2.1); family 0Fh (K8) and Intel/KNC
     * selects hold 8 bits (SDM Vol.3B 21.2.1.1; KNC PMU Table 1-5). */
    return is_amd(p) && p->caps->family >= 0x10 ? 0xfff : 0xff;
}

int pmu_evsel_encode(const struct pmu *p, const struct pmu_evsel *e, u64 *raw, const char **why)
{
    const char *reason = NULL;
    *raw = 0;
    if (!p->be)
        reason = "the PMU is not initialised";
    else if (e->event > event_limit(p))
        reason = is_amd(p) ? (p->caps->family >= 0x10 ? "event code wider than 12 bits (AMD EventSelect[11:0])"
                                                       : "event code wider than 8 bits (AMD family < 10h)")
                           : "event code wider than 8 bits (Intel/KNC event select)";
    else if (e->any_thread && arch_perfmon(p->caps) && p->caps->version < 3)
        reason = "AnyThread needs architectural perfmon v3 (SDM Vol.3B 21.2.3)";
    else if (e->any_thread && arch_perfmon(p->caps) && p->caps->anythread_deprecated)
        reason = "AnyThread is deprecated on this CPU (CPUID.0AH:EDX[15])";
    else if (e->any_thread && is_amd(p))
        reason = "AMD event selects have no AnyThread bit (bit 21 reserved, APM Vol.2 13.2.1)";
    if (reason) {
        if (why)
            *why = reason;
        return PMU_EINVAL;
    }
    u64 v = (e->event & EVSEL_EVENT) | ((u64)e->umask << EVSEL_UMASK_SHIFT) | ((u64)e->cmask << EVSEL_CMASK_SHIFT);
    if (is_amd(p))
        v |= (u64)(e->event >> 8) << AMD_EVSEL_EVENT_HI_SHIFT;
    v |= e->usr ? EVSEL_USR : 0;
    v |= e->os ? EVSEL_OS : 0;
    v |= e->edge ? EVSEL_EDGE : 0;
    v |= e->intr ? EVSEL_INT : 0;
    v |= e->any_thread ? EVSEL_ANY : 0;
    v |= e->enable ? EVSEL_EN : 0;
    v |= e->inv ? EVSEL_INV : 0;
    if (v & pmu_evsel_reserved(p)) { /* cannot happen for the fields above; kept as the last guard */
        if (why)
            *why = "encoding sets a reserved bit of this PMU's event select";
        return PMU_EINVAL;
    }
    *raw = v;
    if (why)
        *why = NULL;
    return 0;
}

void pmu_evsel_decode(const struct pmu *p, u64 raw, struct pmu_evsel *e)
{
    memset(e, 0, sizeof(*e));
    e->event = raw & EVSEL_EVENT;
    if (is_amd(p))
        e->event |= ((raw >> AMD_EVSEL_EVENT_HI_SHIFT) & 0xf) << 8;
    e->umask = (raw >> EVSEL_UMASK_SHIFT) & 0xff;
    e->cmask = (raw >> EVSEL_CMASK_SHIFT) & 0xff;
    e->usr = raw & EVSEL_USR;
    e->os = raw & EVSEL_OS;
    e->edge = raw & EVSEL_EDGE;
    e->intr = raw & EVSEL_INT;
    e->any_thread = raw & EVSEL_ANY;
    e->enable = raw & EVSEL_EN;
    e->inv = raw & EVSEL_INV;
}

u64 pmu_fixed_ctrl_reserved(const struct pmu *p)
{
    const struct pmu_caps *c = p->caps;
    if (!arch_perfmon(c) || !c->msrs.fixed_ctr_ctrl)
        return 0;
    /* SDM Vol.3B 21.2.2 Figure 21-2: 4 bits per fixed counter; bit 2 of each (AnyThread) only from v3. */
    u32 field = PMU_FIXED_OS | PMU_FIXED_USR | PMU_FIXED_PMI;
    if (c->version >= 3)
        field |= PMU_FIXED_ANY; /* kept out of the mask even when deprecated: the SDM does not say it faults */
    u64 allowed = 0;
    for (u32 i = 0; i < c->num_fixed && i < 16; i++)
        allowed |= (u64)0xf << (4 * i); /* fields of holes are not claimed reserved (not documented to #GP) */
    u64 reserved = ~allowed;
    for (u32 i = 0; i < c->num_fixed && i < 16; i++)
        reserved |= (u64)(0xf & ~field) << (4 * i);
    /* Adaptive PEBS puts per-counter bits at 32 + i (Linux ICL_FIXED_0_ADAPTIVE); unknown without
     * PERF_CAPABILITIES, so only claimed reserved when PERF_CAPABILITIES says no baseline PEBS. */
    if (!c->has_perf_capabilities || c->perf_caps.pebs_baseline)
        reserved &= ~(pmu_width_mask(c->num_fixed) << 32);
    return reserved;
}

u64 pmu_global_ctrl_reserved(const struct pmu *p)
{
    const struct pmu_caps *c = p->caps;
    if (!c->msrs.global_ctrl)
        return 0;
    u64 allowed = pmu_width_mask(c->num_gp);
    if (arch_perfmon(c)) {
        allowed |= pmu_width_mask(c->num_fixed) << PMU_FIXED_BIT;
        /* Bit 48 enables PERF_METRICS (Linux GLOBAL_CTRL_EN_PERF_METRICS); unknown until PERF_CAPABILITIES
         * is read. */
        if (!c->has_perf_capabilities || c->perf_caps.perf_metrics)
            allowed |= 1ull << PMU_STATUS_PERF_METRICS;
    }
    return ~allowed;
}

/* ---- conveniences ---- */

int pmu_program_gp(struct pmu *p, u32 gp, const struct pmu_evsel *e)
{
    u64 raw;
    int r = pmu_evsel_encode(p, e, &raw, NULL);
    if (r)
        return r;
    return p->be->select_write(p, gp, raw);
}

int pmu_program_fixed(struct pmu *p, u32 fixed, u32 field4)
{
    return p->be->fixed_ctrl_write(p, fixed, field4);
}

u64 pmu_counter_mask(const struct pmu *p, u32 bit)
{
    if (!pmu_counter_exists(p, bit))
        return 0;
    return PMU_IS_FIXED(bit) ? p->fixed_mask_val : p->gp_mask_val;
}

/* GP counters without full-width writes take bits 31:0 sign-extended (SDM Vol.3B 21.2.6 "Full-Width Writes
 * to Performance Counter Registers"); Linux sets max_period = 2^31 - 1 there (events/intel/core.c). 2^31
 * itself is still exact: 2^w - 2^31 is the sign extension of 0x80000000. Fixed counters, v6 aliases (GP from
 * msrs.legacy_gp on), AMD and KNC counters take their full width. */
static bool sign_extended_writes(const struct pmu *p, u32 bit)
{
    return arch_perfmon(p->caps) && !PMU_IS_FIXED(bit) && !p->caps->msrs.ctr0_full_width &&
           bit < p->caps->msrs.legacy_gp;
}

u64 pmu_max_period(const struct pmu *p, u32 bit)
{
    u64 mask = pmu_counter_mask(p, bit);
    if (!mask)
        return 0;
    u64 max = mask; /* period 2^w would preload 0 and wrap only after 2^w events: not representable for w = 64 */
    if (sign_extended_writes(p, bit))
        max = 1ull << 31;
    /* Without a status register an overflow is seen only as the top bit clearing (AMD APM Vol.2 13.2.1; Linux
     * events/core.c x86_pmu_handle_irq), so a preload must leave that bit set: at most 2^(w-1) - 1 (Linux
     * events/amd/core.c max_period = (1ULL << 47) - 1 for 48-bit counters). */
    if (!pmu_has_status(p) && max > mask >> 1)
        max = mask >> 1;
    return max;
}

int pmu_preload(struct pmu *p, u32 bit, u64 period)
{
    if (!pmu_counter_exists(p, bit) || period == 0 || period > pmu_max_period(p, bit))
        return PMU_EINVAL;
    u64 value = (0 - period) & pmu_counter_mask(p, bit); /* 2^w - period */
    return p->be->counter_write(p, bit, value);
}

int pmu_sign_overflow(struct pmu *p, u64 armed, u64 *overflowed)
{
    *overflowed = 0;
    if (armed & ~p->counters)
        return PMU_EINVAL;
    int first = 0;
    for (u32 bit = 0; bit < 64; bit++) {
        if (!((armed >> bit) & 1))
            continue;
        u64 v = 0;
        int r = p->be->counter_read(p, bit, &v);
        if (r) {
            first = first ? first : r;
            continue;
        }
        u64 top = (pmu_counter_mask(p, bit) >> 1) + 1;
        if (!(v & top))
            *overflowed |= 1ull << bit;
    }
    return first;
}

static void keep_first(int *first, int r)
{
    if (r && !*first)
        *first = r;
}

/* Linux intel_pmu_reset / amd_pmu_cpu_reset order: global enable off first (SDM 325462-079US: Intel GLOBAL_CTRL
 * resets with every GP enable bit set), then selects, fixed control, counters, and status last so that
 * nothing can set a status bit after it was cleared. Continues past errors; returns the first. */
int pmu_reset(struct pmu *p)
{
    const struct pmu_caps *c = p->caps;
    struct hw_access *hw = p->hw;
    int first = 0;
    if (!p->be)
        return PMU_ENOTSUP;
    if (pmu_has_global_ctrl(p))
        keep_first(&first, p->be->global_set(p, 0));
    for (u32 gp = 0; gp < c->num_gp; gp++)
        if (pmu_gp_exists(p, gp))
            keep_first(&first, p->be->select_write(p, gp, 0)); /* clears EN where there is no global ctrl */
    if (arch_perfmon(c) && c->msrs.fixed_ctr_ctrl)
        keep_first(&first, hw_wrmsr(hw, c->msrs.fixed_ctr_ctrl, 0));
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(p, bit))
            keep_first(&first, p->be->counter_write(p, bit, 0));
    /* Freeze on PMI off (IA32_DEBUGCTL bits 11, 12; SDM Vol.3B 18.4.7, 21.2.4.1): firmware may leave them set,
     * and the handler does not expect counting to stop by itself. Linux keeps them clear outside its LBR/
     * freeze users. Written only when set, so a part where they do not exist is never written. */
    if (arch_perfmon(c)) {
        u64 dbg = 0;
        const u64 freeze = DEBUGCTL_FREEZE_LBRS_ON_PMI | DEBUGCTL_FREEZE_PERFMON_ON_PMI;
        if (!hw_rdmsr(hw, MSR_IA32_DEBUGCTL, &dbg) && (dbg & freeze))
            keep_first(&first, hw_wrmsr(hw, MSR_IA32_DEBUGCTL, dbg & ~freeze));
    }
    if (pmu_has_status(p)) {
        u64 st = 0;
        int r = p->be->status_read(p, &st);
        keep_first(&first, r);
        if (!r && (st & p->status_bits))
            keep_first(&first, p->be->status_clear(p, st & p->status_bits));
    }
    return first;
}

/* AMD RDPMC index space (APM Vol.3 RDPMC; Linux events/amd/uncore.c RDPMC_BASE_NB, RDPMC_BASE_LLC): core
 * counters from 0, northbridge / data-fabric counters 6..9 with PerfCtrExtNB, L3 counters 10..15 with
 * PerfCtrExtLLC. The first index past the core counters is a valid uncore counter on Zen: step past every
 * enumerated block. */
#define AMD_RDPMC_NB_FIRST 6
#define AMD_RDPMC_NB_LAST 9
#define AMD_RDPMC_LLC_FIRST 10
#define AMD_RDPMC_LLC_LAST 15

u32 pmu_rdpmc_invalid_index(const struct pmu *p)
{
    u32 idx = p->be->rdpmc_index(p, p->caps->num_gp);
    if (is_amd(p)) {
        if (p->caps->amd_perfctr_nb && idx >= AMD_RDPMC_NB_FIRST && idx <= AMD_RDPMC_NB_LAST)
            idx = AMD_RDPMC_NB_LAST + 1;
        if (p->caps->amd_perfctr_llc && idx >= AMD_RDPMC_LLC_FIRST && idx <= AMD_RDPMC_LLC_LAST)
            idx = AMD_RDPMC_LLC_LAST + 1;
    }
    return idx;
}

/* ---- shared by the backends ---- */

int pmu_set_select_enables(struct pmu *p, u64 bits)
{
    if (bits & ~p->counters)
        return PMU_EINVAL;
    int first = 0;
    for (u32 gp = 0; gp < p->caps->num_gp; gp++) {
        if (!pmu_gp_exists(p, gp))
            continue;
        u64 sel = 0;
        int r = p->be->select_read(p, gp, &sel);
        if (r) {
            keep_first(&first, r);
            continue;
        }
        u64 want = (bits >> gp) & 1 ? sel | EVSEL_EN : sel & ~EVSEL_EN;
        if (want != sel)
            keep_first(&first, p->be->select_write(p, gp, want));
    }
    return first;
}

int pmu_get_select_enables(struct pmu *p, u64 *bits)
{
    *bits = 0;
    int first = 0;
    for (u32 gp = 0; gp < p->caps->num_gp; gp++) {
        if (!pmu_gp_exists(p, gp))
            continue;
        u64 sel = 0;
        int r = p->be->select_read(p, gp, &sel);
        keep_first(&first, r);
        if (!r && (sel & EVSEL_EN))
            *bits |= 1ull << gp;
    }
    return first;
}

const char *pmu_strerror(int rc)
{
    switch (rc) {
    case 0:
        return "ok";
    case PMU_ENOTSUP:
        return "not supported by this PMU";
    case PMU_EINVAL:
        return "invalid argument";
    case HW_GP:
        return "#GP";
    case HW_UD:
        return "#UD";
    default:
        return (rc & ~0xff) == HW_FAULT ? "fault" : "unknown error";
    }
}
