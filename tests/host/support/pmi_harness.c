/* The PMI rig: pmu/pmi.c driven by the register-level model as the interrupt would drive it. See pmi_harness.h
 * and docs/pmi-protocol.md "Host tests". */
#include "tests/host/support/pmi_harness.h"
#include "tests/host/support/caps_fixture.h"

#include "pmu/events.h"
#include "pmu/pmu_msr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

size_t pmi_rig_pmus(struct pmi_rig_pmu *out, size_t max)
{
    size_t n = 0;
#define ADD(nm, used_bits, fill)                                                                               \
    do {                                                                                                       \
        if (n < max) {                                                                                         \
            out[n].name = nm;                                                                                  \
            out[n].used = used_bits;                                                                           \
            struct pmu_caps *c = &out[n].caps;                                                                 \
            fill;                                                                                              \
            n++;                                                                                               \
        }                                                                                                      \
    } while (0)
    /* Intel v1 (no global control, no status register: the sign-bit path), 2 x 40-bit GP (SDM 21.2.1). */
    ADD("intel_v1", 0x3, fixture_caps_intel(c, 1, 2, 40, 0, 0, false));
    /* Intel v2 (Core 2): 2 x 40-bit GP + 3 fixed, legacy sign-extended writes; 2 GP + 2 fixed armed. */
    ADD("intel_v2", 0x3 | BIT(PMU_FIXED(0)) | BIT(PMU_FIXED(1)), fixture_caps_intel(c, 2, 2, 40, 3, 40, false));
    /* Intel v4 (Skylake): 4 x 48-bit GP with full-width writes, 3 fixed; the 4 GP armed. */
    ADD("intel_v4", 0xf, fixture_caps_intel(c, 4, 4, 48, 3, 48, true));
    /* Intel v5 (Ice Lake server): 8 GP, 4 fixed; 2 GP + 2 fixed armed. */
    ADD("intel_v5", 0x3 | BIT(PMU_FIXED(0)) | BIT(PMU_FIXED(1)), fixture_caps_intel(c, 5, 8, 48, 4, 48, true));
    /* AMD without a status register (APM Vol.2 13.2.1): K7 legacy and PerfCtrExtCore (first 4 of 6 armed). */
    ADD("amd_legacy", 0xf, fixture_caps_amd(c, PMU_KIND_AMD_LEGACY, 4));
    ADD("amd_core_ext", 0xf, fixture_caps_amd(c, PMU_KIND_AMD_CORE_EXT, 6));
    /* AMD PerfMonV2 (APM Vol.2 13.2.2) with 4 and 6 counters, first 4 armed. */
    ADD("amd_v2_4", 0xf, fixture_caps_amd(c, PMU_KIND_AMD_PERFMON_V2, 4));
    ADD("amd_v2_6", 0xf, fixture_caps_amd(c, PMU_KIND_AMD_PERFMON_V2, 6));
    /* Knights Corner: 2 x 40-bit counters, status 0x2D, clear 0x2E, control 0x2F (KNC PMU 1.4). */
    ADD("knc", 0x3, fixture_caps_knc(c));
#undef ADD
    return n;
}

/* ---- trace ----------------------------------------------------------------------------------------- */

static void trace(struct pmi_rig *r, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void trace(struct pmi_rig *r, const char *fmt, ...)
{
    if (!r->tracing || r->trace_len >= sizeof(r->trace) - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(r->trace + r->trace_len, sizeof(r->trace) - r->trace_len, fmt, ap);
    va_end(ap);
    if (w > 0)
        r->trace_len = MIN(r->trace_len + (size_t)w, sizeof(r->trace) - 1);
}

const char *pmi_rig_bits_name(u64 bits, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (u32 b = 0; b < 64 && at < len; b++) {
        if (!(bits & BIT(b)))
            continue;
        int w = snprintf(buf + at, len - at, "%s%s%u", at ? "+" : "", PMU_IS_FIXED(b) ? "FX" : "GP",
                         PMU_IS_FIXED(b) ? b - PMU_FIXED_BIT : b);
        if (w < 0)
            break;
        at += (size_t)w;
    }
    if (!bits)
        snprintf(buf, len, "none");
    return buf;
}

static bool in_block(u32 msr, u32 base, u32 stride, u32 count, u32 *idx)
{
    if (!base || msr < base || !stride || (msr - base) % stride || (msr - base) / stride >= count)
        return false;
    *idx = (msr - base) / stride;
    return true;
}

int pmi_rig_counter_of_msr(const struct pmi_rig *r, u32 msr)
{
    const struct pmu_caps *c = &r->m.caps;
    const struct pmu_msrs *x = &c->msrs;
    u32 i, stride = x->stride ? x->stride : 1;
    u32 legacy = c->kind == PMU_KIND_INTEL_ARCH ? MIN(c->num_gp, (u32)MSR_IA32_ARCH_GP_MAX) : c->num_gp;
    if (in_block(msr, x->ctr0, stride, legacy, &i) || in_block(msr, r->m.a_pmc0, 1, legacy, &i) ||
        in_block(msr, x->v6_gp_ctr0, x->v6_stride, c->num_gp, &i))
        return (int)i;
    if (in_block(msr, x->fixed_ctr0, 1, c->num_fixed, &i) ||
        in_block(msr, x->v6_fixed_ctr0, x->v6_stride, c->num_fixed, &i))
        return (int)(PMU_FIXED_BIT + i);
    return -1;
}

static const char *msr_name(const struct pmi_rig *r, u32 msr, char *buf, size_t len)
{
    const struct pmu_msrs *x = &r->m.caps.msrs;
    u32 i, stride = x->stride ? x->stride : 1;
    int b = pmi_rig_counter_of_msr(r, msr);
    if (b >= 0)
        return pmi_rig_bits_name(BIT(b), buf, len);
    if (msr == x->global_ctrl)
        return "GLOBAL_CTRL";
    if (msr == x->global_status)
        return "STATUS";
    if (msr == x->global_status_reset)
        return "STATUS_CLR";
    if (msr == x->global_status_set)
        return "STATUS_SET";
    if (msr == x->fixed_ctr_ctrl)
        return "FIXED_CTR_CTRL";
    if (in_block(msr, x->evtsel0, stride, r->m.caps.num_gp, &i)) {
        snprintf(buf, len, "SEL%u", i);
        return buf;
    }
    snprintf(buf, len, "MSR 0x%x", msr);
    return buf;
}

const char *pmi_rig_describe_access(const struct pmi_rig *r, const struct pmu_model_access *a, char *buf, size_t len)
{
    char name[32];
    switch (a->op) {
    case PMU_MODEL_OP_RDMSR:
        snprintf(buf, len, "RDMSR %s->0x%llx", msr_name(r, a->reg, name, sizeof(name)), (unsigned long long)a->value);
        break;
    case PMU_MODEL_OP_WRMSR:
        snprintf(buf, len, "WRMSR %s=0x%llx", msr_name(r, a->reg, name, sizeof(name)), (unsigned long long)a->value);
        break;
    case PMU_MODEL_OP_RDPMC:
        snprintf(buf, len, "RDPMC 0x%x->0x%llx", a->reg, (unsigned long long)a->value);
        break;
    case PMU_MODEL_OP_APIC_READ:
        snprintf(buf, len, "APIC read 0x%x->0x%llx", a->reg, (unsigned long long)a->value);
        break;
    case PMU_MODEL_OP_APIC_WRITE:
        if (a->reg == HW_APIC_EOI)
            snprintf(buf, len, "EOI");
        else if (a->reg == HW_APIC_LVT_PMC)
            snprintf(buf, len, "LVT_PC=0x%llx%s", (unsigned long long)a->value,
                     a->value & HW_LVT_MASKED ? " (mask)" : " (unmask)");
        else
            snprintf(buf, len, "APIC 0x%x=0x%llx", a->reg, (unsigned long long)a->value);
        break;
    }
    if (a->result)
        snprintf(buf + strlen(buf), len - strlen(buf), " !%s", pmu_strerror(a->result));
    return buf;
}

/* ---- driving ---------------------------------------------------------------------------------------- */

static u64 next_rand(struct pmi_rig *r)
{
    r->lcg = r->lcg * 6364136223846793005ull + 1442695040888963407ull; /* Knuth's MMIX LCG */
    return r->lcg >> 33;
}

u64 pmi_rig_overflow(struct pmi_rig *r, u64 bits)
{
    u64 wrapped = 0;
    for (u32 b = 0; b < 64; b++) {
        if (!(bits & BIT(b)) || !pmu_counter_exists(&r->pmu, b))
            continue;
        u64 left = pmu_counter_mask(&r->pmu, b) - pmu_model_counter(&r->m, b) + 1;
        u64 n = pmu_model_tick(&r->m, b, left);
        r->fed[b] += n;
        if (n == left)
            wrapped |= BIT(b);
    }
    return wrapped;
}

void pmi_rig_feed(struct pmi_rig *r, u64 n)
{
    for (u32 b = 0; b < 64; b++)
        if (r->used & BIT(b))
            r->fed[b] += pmu_model_tick(&r->m, b, n);
}

/* The counters counting now, by the model's own gating: tick a copy of it (no hooks) by one event. */
static u64 counting_now(const struct pmu_model *m, u64 bits)
{
    static struct pmu_model copy;
    u64 on = 0;
    for (u32 b = 0; b < 64; b++) {
        if (!(bits & BIT(b)))
            continue;
        copy = *m;
        copy.access_hook = NULL;
        copy.overflow_hook = NULL;
        if (pmu_model_tick(&copy, b, 1) == 1)
            on |= BIT(b);
    }
    return on;
}

/* Everything due at point `at`: record what counts, then inject. */
static void at_point(struct pmi_rig *r, u64 at)
{
    if (r->points && at < r->points_len) {
        r->points[at].running = counting_now(&r->m, r->used);
        r->points[at].outstanding = 0;
        for (u32 b = 0; b < 64; b++)
            if ((r->used & BIT(b)) && r->s.serviced[b] < r->m.st.overflows[b])
                r->points[at].outstanding |= BIT(b);
    }
    for (u32 i = 0; i < r->n_inj; i++) {
        struct pmi_rig_injection *j = &r->inj[i];
        if (j->done || j->at != at)
            continue;
        j->done = true;
        /* One outstanding overflow per counter: a second wrap before the handler serviced the first cannot be
         * told apart from it on any PMU (the status bit is sticky, the sign bit is one bit) - that is a period
         * shorter than the handler's latency, not a protocol question - so such a counter is not injected. */
        for (u32 b = 0; b < 64; b++)
            if ((j->bits & BIT(b)) && r->s.serviced[b] < r->m.st.overflows[b])
                j->outstanding |= BIT(b);
        j->injected = pmi_rig_overflow(r, j->bits & ~j->outstanding);
        char b1[48], b2[48];
        u64 off = j->bits & ~j->injected & ~j->outstanding;
        trace(r, " <overflow %s%s%s>", pmi_rig_bits_name(j->injected, b1, sizeof(b1)), off ? ", not counting: " : "",
              off ? pmi_rig_bits_name(off, b2, sizeof(b2)) : "");
    }
}

static void hook(struct pmu_model *m, const struct pmu_model_access *a, bool after, void *arg)
{
    struct pmi_rig *r = arg;
    if (a->index < r->base)
        return;
    if (!after) {
        if (r->in_handler && r->feed_max)
            pmi_rig_feed(r, next_rand(r) % (r->feed_max + 1));
        if (r->in_handler && a->op == PMU_MODEL_OP_WRMSR) {
            int b = pmi_rig_counter_of_msr(r, a->reg);
            if (b >= 0)
                r->discarded[b] += pmu_model_counter(m, (u32)b); /* what the write is about to replace */
        }
        if (a->index == r->base)
            at_point(r, 0);
    } else {
        if (r->tracing) {
            char d[96];
            trace(r, " %s", pmi_rig_describe_access(r, a, d, sizeof(d)));
        }
        at_point(r, a->index - r->base + 1);
    }
    if (r->extra_hook)
        r->extra_hook(m, a, after, r->extra_arg);
}

bool pmi_rig_inject(struct pmi_rig *r, u64 bits, u64 at)
{
    if (r->n_inj == ARRAY_SIZE(r->inj))
        return false;
    r->inj[r->n_inj++] = (struct pmi_rig_injection){.at = at, .bits = bits};
    return true;
}

u64 pmi_rig_injected(const struct pmi_rig *r, bool *all_reached, u64 *outstanding)
{
    u64 bits = 0, out = 0;
    bool reached = true;
    for (u32 i = 0; i < r->n_inj; i++) {
        bits |= r->inj[i].injected;
        out |= r->inj[i].outstanding;
        reached &= r->inj[i].done;
    }
    if (all_reached)
        *all_reached = reached;
    if (outstanding)
        *outstanding = out;
    return bits;
}

u32 pmi_rig_drain(struct pmi_rig *r)
{
    u32 n = 0;
    struct apic_model_irq irq;
    while (pmu_model_pending_pmi(&r->m)) {
        if (n == PMI_RIG_MAX_PMIS) {
            r->storm = true;
            break;
        }
        pmu_model_take_pmi(&r->m, &irq);
        if (irq.nmi != r->nmi)
            r->wrong_delivery = true;
        trace(r, "\n  PMI %llu (%s, LVT %s):", (unsigned long long)irq.seq, irq.nmi ? "NMI" : "fixed",
              r->m.apic.lvt_pc & HW_LVT_MASKED ? "masked" : "unmasked");
        r->in_handler = true;
        pmi_handle(&r->s); /* the handler EOIs fixed-mode PMIs itself */
        r->in_handler = false;
        pmu_model_pmi_done(&r->m); /* its IRET: a latched NMI can come now */
        r->pmis_taken++;
        n++;
    }
    return n;
}

static u64 gp_evsel(struct pmi_rig *r, struct pmu_evsel *e)
{
    const struct pmu_event *ev = pmu_event_generic(r->pmu.caps, PMU_EV_INSTRUCTIONS, NULL);
    if (!ev)
        ev = pmu_event_generic(r->pmu.caps, PMU_EV_CYCLES, NULL);
    if (!ev)
        return 0;
    /* USR and OS: the handler runs at ring 0 and its events count too (what the feed models). INT: the
     * overflow requests a PMI (SDM Vol.3B 21.2.1.1, APM Vol.2 13.2.1, KNC Table 1-5). */
    struct pmu_evsel base = {.usr = true, .os = true, .intr = true, .enable = true};
    pmu_event_to_evsel(ev, &base, e);
    return 1;
}

const char *pmi_rig_setup(struct pmi_rig *r, const struct pmi_rig_pmu *pmu, const struct pmi_rig_opts *o)
{
    memset(r, 0, sizeof(*r));
    r->pmu_name = pmu->name;
    r->used = o->used ? o->used : pmu->used;
    r->nmi = o->nmi;
    r->lcg = 0x9e3779b97f4a7c15ull;
    pmu_model_init(&r->m, &pmu->caps, o->apic);
    if (r->m.config_error)
        return r->m.config_error;
    pmu_model_access(&r->m, &r->hw);
    if (pmu_init(&r->pmu, &r->m.caps, &r->hw))
        return r->pmu.error ? r->pmu.error : "pmu_init failed";
    if (r->used & ~r->pmu.counters)
        return "the armed counters are not all on this PMU";
    if (pmu_reset(&r->pmu))
        return "pmu_reset failed";
    /* The kernel's LVT value (pmu/kernel/pmi_kernel.c pmi_lvt_value): NMI ignores the vector (SDM Vol.3A 11.5.1). */
    r->lvt = o->nmi ? HW_LVT_DM_NMI : PMI_RIG_VECTOR;
    pmi_init(&r->s, &r->pmu, o->variant, r->lvt, o->nmi);
    r->s.exact_reload = o->exact_reload;
    struct pmu_evsel e;
    if (!gp_evsel(r, &e))
        return "no generic instructions/cycles event for this PMU";
    for (u32 b = 0; b < 64; b++) {
        if (!(r->used & BIT(b)))
            continue;
        int rc = PMU_IS_FIXED(b) ? pmu_program_fixed(&r->pmu, b - PMU_FIXED_BIT,
                                                     PMU_FIXED_OS | PMU_FIXED_USR | PMU_FIXED_PMI)
                                 : pmu_program_gp(&r->pmu, b, &e);
        if (rc)
            return "programming a counter failed";
        u64 period = o->period[b] ? o->period[b] : o->default_period ? o->default_period : 1000;
        if (pmu_preload(&r->pmu, b, period))
            return "pmu_preload refused the period";
        r->s.period[b] = period;
    }
    r->s.armed = r->used;
    r->s.running = r->used;
    if (r->pmu.be->global_set(&r->pmu, r->used))
        return "enabling the counters failed";
    hw_apic_write(&r->hw, HW_APIC_LVT_PMC, r->lvt);
    pmu_model_set_access_hook(&r->m, hook, r);
    hw_access_reset_counts(&r->hw);
    r->base = r->m.access_index;
    return NULL;
}

/* ---- invariants ------------------------------------------------------------------------------------- */

static const char *fail(char *buf, size_t len, struct pmi_rig *r, const char *fmt, ...) PRINTF_LIKE(4, 5);
static const char *fail(char *buf, size_t len, struct pmi_rig *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= len)
        return buf;
    const struct apic_model_stats *a = &r->m.apic.st;
    snprintf(buf + w, len - (size_t)w,
             " [status 0x%llx, line %s, LVT %s; PMIs %llu (empty %llu); APIC: edges dropped while masked %llu, "
             "unmasks with the line high %llu, coalesced %llu]",
             (unsigned long long)r->m.global_status, pmu_model_pmi_line(&r->m) ? "high" : "low",
             r->m.apic.lvt_pc & HW_LVT_MASKED ? "masked" : "unmasked", (unsigned long long)r->s.pmis,
             (unsigned long long)r->s.empty_pmis, (unsigned long long)a->edges_masked,
             (unsigned long long)a->unmask_high, (unsigned long long)a->coalesced);
    return buf;
}

const char *pmi_rig_check(struct pmi_rig *r, char *buf, size_t len)
{
    struct pmu_model *m = &r->m;
    char names[32];
    if (r->storm)
        return fail(buf, len, r, "PMI storm: more than %d PMIs in one drain", PMI_RIG_MAX_PMIS);
    if (r->wrong_delivery)
        return fail(buf, len, r, "a PMI came with the wrong delivery mode");
    if (pmu_model_pending_pmi(m) || m->apic.isr || m->apic.in_nmi)
        return fail(buf, len, r, "a PMI is still pending or in service after the drain (no EOI?)");
    if (r->s.last_error)
        return fail(buf, len, r, "the handler recorded error 0x%x (%s)", r->s.last_error,
                    pmu_strerror(r->s.last_error));
    if (r->s.stuck)
        return fail(buf, len, r, "the handler reported a stuck status %llu times", (unsigned long long)r->s.stuck);
    for (u32 b = 0; b < 64; b++) {
        if (r->s.serviced[b] == m->st.overflows[b])
            continue;
        return fail(buf, len, r, "%s: %llu overflows, %llu serviced (%s)",
                    pmi_rig_bits_name(BIT(b), names, sizeof(names)),
                    (unsigned long long)m->st.overflows[b], (unsigned long long)r->s.serviced[b],
                    r->s.serviced[b] < m->st.overflows[b] ? "LOST" : "serviced twice");
    }
    if (r->s.serviced_total != m->st.overflows_total)
        return fail(buf, len, r, "serviced_total %llu != overflows_total %llu",
                    (unsigned long long)r->s.serviced_total, (unsigned long long)m->st.overflows_total);
    if (m->global_status & r->pmu.counters)
        return fail(buf, len, r, "overflow status left set with no PMI coming");
    if (pmu_model_pmi_line(m))
        return fail(buf, len, r, "PMI line left high");
    if (m->apic.lvt_pc & HW_LVT_MASKED)
        return fail(buf, len, r, "LVT left masked: no PMI can come");
    return NULL;
}

const char *pmi_rig_probe(struct pmi_rig *r, char *buf, size_t len)
{
    char names[48];
    trace(r, "\n  probe:");
    u64 w = pmi_rig_overflow(r, r->used);
    if (w != r->used)
        return fail(buf, len, r, "probe: %s not counting after the handler (left stopped)",
                    pmi_rig_bits_name(r->used & ~w, names, sizeof(names)));
    if (!pmu_model_pending_pmi(&r->m))
        return fail(buf, len, r, "probe: a fresh overflow of every counter raised no PMI");
    pmi_rig_drain(r);
    return pmi_rig_check(r, buf, len);
}
