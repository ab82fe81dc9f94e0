/* Suite "skid": where the PMI lands, in instructions, after the instruction whose event overflowed the counter
 * (docs/skid.md). No manual bounds it for a counter's PMI (the SDM and the APM describe PEBS and IBS for precise
 * sampling because of it); rr's maintainers ask vendors for it (rr issues 2834, 2720, 3614). Each trial preloads
 * one counter to overflow on a chosen instruction of a straight run of ADDs at CPL 3 (counting USR only, so the
 * handler never counts), the handler notes its return RIP and the counter, and the single-step oracle's stream of
 * the same workload maps that RIP to an instruction. Per counter: fixed and NMI delivery, each with freeze-on-PMI
 * off and (Intel v2+) on. The arithmetic and the verdict: tests/skid/portable/skid_judge.c. */
#include <string.h>

#include "apic/apic.h"
#include "emul/kernel/pmu_emul.h"
#include "harness/framework.h"
#include "harness/workload.h"
#include "kernel/percpu.h"
#include "kernel/percpu_array.h"
#include "kernel/safe.h"
#include "kernel/singlestep.h"
#include "kernel/timing.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "pmu/kernel/pmi_kernel.h"
#include "pmu/kernel/pmu_cpu.h"
#include "pmu/pmu_msr.h"
#include "tests/events/portable/events_workloads.h"
#include "tests/pmi/pmi_counters.h"
#include "tests/pmi/portable/pmi_checks.h"
#include "tests/skid/portable/skid_judge.h"

#define STREAM_N EW_STRAIGHT_MAX    /* ew_straight(256): 8 instructions of set-up, 256 ADDs, the RET */
#define STREAM_MAX (STREAM_N + 16)
#define FIRST_PERIOD 24             /* the first trial's overflow lands on an early ADD ... */
#define PERIOD_STEP 37              /* ... the next ones 37 instructions on, wrapping within the ADDs */
#define PERIOD_SPAN 200

/* What the handler saw, per CPU. */
struct skid_cpu {
    volatile bool armed, taken;
    bool nmi;
    struct pmu *p;
    u32 bit;
    u64 rip, cs;
    bool via_step; /* the NMI came inside the emulated PMU's single-step trap: the RIP is where the workload resumes */
    u64 ctr;
    int ctr_rc;
    volatile u32 extra; /* PMIs after the first (the counter was stopped: none expected) */
};
PER_CPU_ARRAY(struct skid_cpu, skid_cpus);

/* The oracle's stream of ew_straight(STREAM_N) at CPL 3, per CPU. */
struct stream {
    u64 rip[STREAM_MAX];
    u32 n;
    bool overflow;
};
PER_CPU_ARRAY(struct stream, streams);

/* One configuration's trials and their distances, per CPU. */
struct trials {
    struct skid_trial t[SKID_MAX_TRIALS];
    s64 d[SKID_MAX_TRIALS];
};
PER_CPU_ARRAY(struct trials, trial_sets);

static void note_rip(const struct step_record *r, void *arg)
{
    struct stream *s = arg;
    if (s->n < STREAM_MAX)
        s->rip[s->n++] = r->rip;
    else
        s->overflow = true;
}

static s64 stream_index(const struct stream *s, u64 rip)
{
    for (u32 i = 0; i < s->n; i++)
        if (s->rip[i] == rip)
            return i;
    return -1;
}

static void take(struct trap_frame *f)
{
    struct skid_cpu *sc = &skid_cpus[this_cpu()->index];
    if (!sc->armed || sc->taken) {
        sc->extra++;
        return;
    }
    sc->rip = f->rip;
    sc->cs = f->cs;
    u64 resume;
    sc->via_step = (f->cs & 3) == 0 && singlestep_resume_rip(&resume);
    if (sc->via_step)
        sc->rip = resume;
    sc->ctr_rc = sc->p->be->counter_read(sc->p, sc->bit, &sc->ctr); /* before anything else retires at CPL 3 */
    sc->p->be->global_set(sc->p, 0);
    sc->taken = true;
}

static void skid_vector(struct trap_frame *f)
{
    take(f);
    apic_eoi();
}

static void skid_nmi(struct trap_frame *f)
{
    take(f);
}

struct config {
    bool nmi, freeze;
};

static const char *config_name(const struct config *k)
{
    static const char *const names[2][2] = {{"fixed", "fixed+freeze"}, {"NMI", "NMI+freeze"}};
    return names[k->nmi][k->freeze];
}

/* One trial: counter `bit` preloaded to overflow on its period-th event, the workload run with interrupts on. */
static void trial(struct pmu *p, u32 bit, const struct config *k, u64 period, const struct stream *s,
                  struct skid_trial *t)
{
    struct skid_cpu *sc = &skid_cpus[this_cpu()->index];
    *t = (struct skid_trial){.period = period};
    pmu_reset(p);
    u64 dbg = 0;
    if (k->freeze && (rdmsr_safe(MSR_IA32_DEBUGCTL, &dbg) ||
                      wrmsr_safe(MSR_IA32_DEBUGCTL, dbg | DEBUGCTL_FREEZE_PERFMON_ON_PMI)))
        return;
    const char *why = NULL;
    if (pmi_program_instructions(p, bit, false, &why) || pmu_preload(p, bit, period))
        return;
    *sc = (struct skid_cpu){.nmi = k->nmi, .p = p, .bit = bit};
    sc->armed = true;
    u64 flags = irq_save();
    apic_write(APIC_LVT_PMC, pmi_lvt_value(k->nmi));
    sti();
    p->be->global_set(p, 1ull << bit);
    workload_run(3, true, ew_straight, STREAM_N);
    p->be->global_set(p, 0);
    u64 end = rdtsc() + us_to_tsc(1000); /* a PMI still on its way */
    while (!sc->taken && rdtsc() < end)
        cpu_relax();
    cli();
    apic_write(APIC_LVT_PMC, pmi_lvt_value(k->nmi) | LVT_MASKED);
    sc->armed = false;
    irq_restore(flags);
    if (k->freeze)
        wrmsr_safe(MSR_IA32_DEBUGCTL, dbg);
    t->pmi = sc->taken;
    s64 idx = sc->taken && ((sc->cs & 3) == 3 || sc->via_step) ? stream_index(s, sc->rip) : -1;
    t->in_stream = idx >= 0;
    t->interrupted = idx;
    /* Freeze off: the counter ran until the handler read it, so it tells how far past the wrap the PMI came. */
    if (!k->freeze && sc->taken && !sc->ctr_rc) {
        u64 mask = pmu_counter_mask(p, bit);
        t->counter_read = true;
        t->after_wrap = sc->ctr > mask / 2 ? -(s64)((mask + 1 - sc->ctr) & mask) : (s64)sc->ctr;
    }
}

static u32 trials_per_config(void)
{
    return g_pmu_emulated ? 8 : 64; /* single-stepped, a trial costs about 270 #DB traps */
}

static void skid_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    struct stream *s = &streams[this_cpu()->index];
    memset(s, 0, sizeof(*s));
    struct step_stats st = {0};
    step_run(3, ew_straight, STREAM_N, note_rip, s, &st);
    if (!expect_true(c, "oracle stream", st.ended && !s->overflow && s->n == STREAM_N + 9, "ew_straight: 265",
                     "%u instructions%s", s->n, st.ended ? "" : ", did not end"))
        return;
    bool freeze_ok = pmu_freezes_on_pmi(&pmc->caps);
    u64 bound = pmu_emul_skid_bound();
    if (!freeze_ok)
        check_note(c, "freeze-on-PMI", "not measured: Intel perfmon v2+ only (SDM Vol.3B 18.4.7); this PMU: %s v%u",
                   pmu_kind_name(pmc->caps.kind), pmc->caps.version);
    /* A hypervisor may refuse the bit (KVM vmx_get_supported_debugctl allows BTF, BUS_LOCK_DETECT and the LBR bits
     * only): then the freeze configurations are not measured, with that evidence. */
    u64 dbg = 0;
    if (freeze_ok && (rdmsr_safe(MSR_IA32_DEBUGCTL, &dbg) ||
                      wrmsr_safe(MSR_IA32_DEBUGCTL, dbg | DEBUGCTL_FREEZE_PERFMON_ON_PMI))) {
        freeze_ok = false;
        check_note(c, "freeze-on-PMI", "not measured: writing IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12) faults%s",
                   pmc->caps.hypervisor ? " (the hypervisor does not allow it)" : "");
    }
    if (freeze_ok)
        wrmsr_safe(MSR_IA32_DEBUGCTL, dbg);
    check_note(c, "distance", "instructions from the overflowing one to the one the PMI interrupted (1: the next): "
                              "min, median, p99, max over the valid trials");
    if (bound)
        check_note(c, "bound", "%llu: the emulated PMU's declared skid (pmu_skid=) + 1", (unsigned long long)bound);
    else
        check_note(c, "bound", "none: no manual gives one for a counter's PMI; a measurement, FAIL only if early");
    irq_handler_t old_vec = irq_register_local(VECTOR_PMI, skid_vector);
    irq_handler_t old_nmi = irq_register_local(2, skid_nmi);
    (void)old_vec, (void)old_nmi;
    u64 ctrs = instructions_counters(c, p);
    u32 n = trials_per_config();
    struct skid_trial *t = trial_sets[this_cpu()->index].t;
    s64 *d = trial_sets[this_cpu()->index].d;
    for (u32 bit = 0; bit < 64; bit++) {
        if (!(ctrs >> bit & 1))
            continue;
        struct skid_start start = {0};
        for (u32 ki = 0; ki < 4; ki++) {
            struct config k = {ki & 1, ki >> 1};
            if (k.freeze && !freeze_ok)
                continue;
            for (u32 i = 0; i < n; i++)
                trial(p, bit, &k, FIRST_PERIOD + (i * PERIOD_STEP) % PERIOD_SPAN, s, &t[i]);
            char what[64];
            k_snprintf(what, sizeof(what), "%s%u %s", PMU_IS_FIXED(bit) ? "fixed" : "gp",
                       PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit, config_name(&k));
            if (!k.freeze) { /* where counting starts, from the counter read in the handler */
                struct skid_start here;
                skid_counting_start(t, n, &here);
                if (!here.found) {
                    check_inconclusive(c, what, "%u trials read the counter, at most %u agree on where counting "
                                       "started: the distance is not defined", here.trials, here.agree);
                    continue;
                }
                if (!start.found)
                    start = here;
            }
            if (!start.found) {
                check_inconclusive(c, what, "where counting starts is not known (no trial read the counter)");
                continue;
            }
            u32 valid = 0;
            for (u32 i = 0; i < n; i++)
                valid += skid_distance(&t[i], start.start, &d[valid]);
            struct skid_summary sum;
            skid_summarize(d, valid, n, bound, &sum);
            const char *why = "";
            enum skid_verdict v = skid_judge(&sum, &why);
            char obs[96];
            u32 no_pmi = 0, outside = 0;
            for (u32 i = 0; i < n; i++) {
                no_pmi += !t[i].pmi;
                outside += t[i].pmi && !t[i].in_stream;
            }
            k_snprintf(obs, sizeof(obs), "%u/%u trials: %lld %lld %lld %lld", sum.valid, sum.trials,
                       (long long)sum.min, (long long)sum.median, (long long)sum.p99, (long long)sum.max);
            if (no_pmi || outside)
                k_snprintf(obs + strlen(obs), sizeof(obs) - strlen(obs), " (no PMI %u, RIP outside %u)", no_pmi,
                           outside);
            if (v == SKID_INCONCLUSIVE)
                check_inconclusive(c, what, "%s; %s", obs, why);
            else if (v != SKID_PASS)
                expect_true(c, what, false, bound ? "min >= 1, max <= bound" : "min >= 1", "%s; %s", obs, why);
            else
                expect_true(c, what, true, bound ? "min >= 1, max <= bound" : "min >= 1", "%s", obs);
        }
        if (start.found) {
            char key[40];
            k_snprintf(key, sizeof(key), "%s%u counting starts", PMU_IS_FIXED(bit) ? "fixed" : "gp",
                       PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit);
            check_note(c, key, "%lld instructions before the workload (%u of %u trials)", (long long)start.start,
                       start.agree, start.trials);
        }
    }
    irq_register_local(VECTOR_PMI, NULL);
    irq_register_local(2, NULL);
    pmu_reset(p);
}

static const struct check_def skid_checks[] = {
    {"pmi_distance", skid_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_skid = {"skid", "PMI skid: where the PMI lands after the overflowing instruction", true,
                                 SUITE_CHECKS(skid_checks)};
