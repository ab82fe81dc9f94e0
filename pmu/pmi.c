/* PMI handler (see pmi.h). Step numbers follow the protocol and docs/pmi-protocol.md:
 * (1) PMI arrives, LVT masked by the APIC (Intel); (2) stop counting; (3) read the overflow status;
 * (4) service each set bit; (5) clear exactly those bits; (6) re-read, loop (bounded); (7) restart;
 * (8) unmask the LVT entry; (9) EOI. */
#include "pmu/pmi.h"

#include <string.h>

static void note_error(struct pmi_state *s, int r)
{
    if (r && !s->last_error)
        s->last_error = r;
    if ((r & ~0xff) == HW_FAULT)
        s->faulted_now = true;
}

/* NMI mode after a faulting access: the fault handler's IRET has unblocked NMIs (SDM Vol.3A "Handling Multiple
 * NMIs"), so nothing may raise another PMI before this handler's own IRET - it would nest on the same IST stack.
 * No unmask, no restart. */
static bool nmi_unsafe(const struct pmi_state *s)
{
    return s->nmi_mode && s->faulted_now;
}

static void restart(struct pmi_state *s)
{
    if (!nmi_unsafe(s))
        note_error(s, s->pmu->be->global_set(s->pmu, s->running));
}

/* The status to acknowledge: every bit the status register holds that its clear register accepts - counter bits
 * and the others (CondChgd, OvfBuf, Ovf_Uncore, CTR_Frz, LBR_Frz, ASCI, ...; SDM Vol.3B 21.2.4) - as Linux's
 * Intel handler acks the whole status it read (intel_pmu_handle_irq -> intel_pmu_ack_status). Leaving CTR_Frz
 * set (freeze on PMI) would keep every counter frozen after the first PMI. Only counter bits are serviced.
 * PMUs without a status register show an overflow only in the counter (its top bit clears when a preloaded
 * counter wraps): pmu_sign_overflow() reads that, as Linux's x86_pmu_handle_irq does. */
static u64 read_status(struct pmi_state *s)
{
    struct pmu *p = s->pmu;
    u64 st = 0;
    int r = p->be->status_read(p, &st);
    if (r == PMU_ENOTSUP) {
        st = 0;
        note_error(s, pmu_sign_overflow(p, s->armed, &st));
        s->status_seen |= st;
        return st;
    }
    note_error(s, r);
    st &= p->status_bits;
    s->status_seen |= st & p->counters;
    return st;
}

static void clear_status(struct pmi_state *s, u64 bits)
{
    struct pmu *p = s->pmu;
    int r = p->be->status_clear(p, bits);
    if (r != PMU_ENOTSUP) /* without a status register the reload in step (4) is the clear */
        note_error(s, r);
}

u64 pmi_reload_value(const struct pmu *p, u32 bit, u64 period)
{
    return (0 - period) & pmu_counter_mask(p, bit); /* as pmu_preload writes it: 2^w - period */
}

/* A counter only counts up from its reload value 2^w - period; it is below that value again only after passing
 * all-ones, which is the overflow (SDM Vol.3B 21.2.1.1 "overflow ... when the counter wraps"; AMD APM Vol.2 13.2.1).
 * So at service time, with counting stopped, a value at or above the reload value means the counter has not wrapped
 * since it was loaded, whatever the skid. */
bool pmi_counter_wrapped(u64 value, u64 reload)
{
    return value < reload;
}

static void service(struct pmi_state *s, u64 status)
{
    for (u64 left = status & s->pmu->counters; left; left &= left - 1) { /* only the set bits: the hot path */
        u32 bit = (u32)__builtin_ctzll(left);
        s->serviced[bit]++;
        s->serviced_total++;
        /* Always reload (Linux x86_pmu_handle_irq -> x86_perf_event_set_period): a counter armed without a
         * period gets the longest one. Without a status register the reload is the only thing that ends the
         * overflow condition (the top bit clear); skipping it made every re-read find it again. */
        u64 period = s->period[bit] ? s->period[bit] : pmu_max_period(s->pmu, bit), value = 0, overshoot = 0;
        bool judge = s->check_wrap && s->period[bit];
        if (s->exact_reload || judge)
            note_error(s, s->pmu->be->counter_read(s->pmu, bit, &value));
        if (judge && !pmi_counter_wrapped(value, pmi_reload_value(s->pmu, bit, period)))
            s->phantom |= 1ull << bit;
        if (s->exact_reload)
            overshoot = value < period ? value : 0; /* not a fresh wrap: do not guess, reload plainly */
        note_error(s, pmu_preload(s->pmu, bit, period - overshoot));
    }
}

static void unmask(struct pmi_state *s)
{
    if (nmi_unsafe(s))
        return;
    hw_apic_write(s->pmu->hw, HW_APIC_LVT_PMC, s->lvt & ~HW_LVT_MASKED);
}

static void eoi(struct pmi_state *s)
{
    if (!s->nmi_mode) /* NMIs are not acknowledged with EOI (SDM Vol.3A 11.8.5) */
        hw_apic_write(s->pmu->hw, HW_APIC_EOI, 0);
}

/* Steps (3)-(6): read, service, clear exactly what was read, re-read until clear (bounded). With
 * ack_first, the bits are cleared before servicing (Linux's order); otherwise after (KNC's). */
static void drain(struct pmi_state *s, bool ack_first)
{
    struct pmu *p = s->pmu;
    u64 status = read_status(s);
    if (!(status & p->counters))
        s->empty_pmis++;
    u32 loops = 0;
    while (status) {
        if (++loops > PMI_MAX_LOOPS) {
            /* The status will not clear: reset the PMU rather than spin, and report it. */
            s->stuck++;
            note_error(s, pmu_reset(p));
            break;
        }
        if (ack_first)
            clear_status(s, status);
        service(s, status);
        if (!ack_first)
            clear_status(s, status);
        status = read_status(s);
    }
    if (loops > s->max_loops_seen)
        s->max_loops_seen = loops;
}

void pmi_handle(struct pmi_state *s)
{
    struct pmu *p = s->pmu;
    s->pmis++;
    s->faulted_now = false;
    switch (s->variant) {
    case PMI_UNMASK_STOPPED:
        note_error(s, p->be->global_set(p, 0)); /* (2) */
        drain(s, false);                          /* (3)-(6) */
        unmask(s);                                /* (8) before (7): line low, counting stopped */
        restart(s);                               /* (7) */
        eoi(s);                                   /* (9) */
        break;
    case PMI_LATE:
        note_error(s, p->be->global_set(p, 0));
        drain(s, true);
        restart(s);
        unmask(s);
        eoi(s);
        break;
    case PMI_EARLY:
        unmask(s);
        note_error(s, p->be->global_set(p, 0));
        drain(s, false);
        restart(s);
        eoi(s);
        break;
    case PMI_NO_STOP:
    default:
        drain(s, false); /* counters keep running: an overflow after the last read stays pending */
        unmask(s);
        eoi(s);
        break;
    }
    if (nmi_unsafe(s)) {
        /* Leave no PMI source (early unmasked first; AMD does not mask on delivery): stop, mask. A second fault
         * here changes nothing more. */
        s->nmi_fault_stops++;
        p->be->global_set(p, 0);
        hw_apic_write(p->hw, HW_APIC_LVT_PMC, s->lvt | HW_LVT_MASKED);
    }
}

void pmi_init(struct pmi_state *s, struct pmu *p, enum pmi_variant v, u32 lvt_unmasked, bool nmi_mode)
{
    memset(s, 0, sizeof(*s));
    s->pmu = p;
    s->variant = v;
    s->lvt = lvt_unmasked & ~HW_LVT_MASKED;
    s->nmi_mode = nmi_mode;
}

static const char *const variant_names[PMI_VARIANTS] = {"unmask-stopped", "late", "early", "no-stop"};

const char *pmi_variant_name(enum pmi_variant v)
{
    return v < PMI_VARIANTS ? variant_names[v] : "?";
}

bool pmi_variant_parse(const char *name, enum pmi_variant *v)
{
    if (!strcmp(name, "knc")) { /* the order's first name: Intel Xeon Phi Coprocessor PMU, doc 327357-001, 1.4.3.9 */
        *v = PMI_UNMASK_STOPPED;
        return true;
    }
    for (int i = 0; i < PMI_NO_STOP; i++) /* the negative control is not selectable */
        if (!strcmp(name, variant_names[i])) {
            *v = (enum pmi_variant)i;
            return true;
        }
    return false;
}

/* The null backend: no counters, an always-clear status, nothing to stop or start. */
static int null_set(struct pmu *p, u64 bits)
{
    (void)p;
    (void)bits;
    return 0;
}
static int null_get(struct pmu *p, u64 *bits)
{
    (void)p;
    *bits = 0;
    return 0;
}
static int null_select_write(struct pmu *p, u32 gp, u64 raw)
{
    (void)p, (void)gp, (void)raw;
    return PMU_ENOTSUP;
}
static int null_select_read(struct pmu *p, u32 gp, u64 *raw)
{
    (void)p, (void)gp;
    *raw = 0;
    return PMU_ENOTSUP;
}
static int null_fixed(struct pmu *p, u32 fixed, u32 field)
{
    (void)p, (void)fixed, (void)field;
    return PMU_ENOTSUP;
}
static int null_counter_write(struct pmu *p, u32 bit, u64 v)
{
    (void)p, (void)bit, (void)v;
    return PMU_ENOTSUP;
}
static int null_counter_read(struct pmu *p, u32 bit, u64 *v)
{
    (void)p, (void)bit;
    *v = 0;
    return PMU_ENOTSUP;
}
static u32 null_rdpmc_index(const struct pmu *p, u32 bit)
{
    (void)p;
    return bit;
}

const struct pmu_backend pmu_backend_null = {
    .name = "null",
    .global_set = null_set,
    .global_get = null_get,
    .status_read = null_get,
    .status_clear = null_set,
    .status_set = null_set,
    .select_write = null_select_write,
    .select_read = null_select_read,
    .fixed_ctrl_write = null_fixed,
    .counter_write = null_counter_write,
    .counter_read = null_counter_read,
    .counter_rdpmc = null_counter_read,
    .rdpmc_index = null_rdpmc_index,
};

void pmu_init_null(struct pmu *p, const struct pmu_caps *caps, struct hw_access *hw)
{
    memset(p, 0, sizeof(*p));
    p->caps = caps;
    p->be = &pmu_backend_null;
    p->hw = hw;
}
