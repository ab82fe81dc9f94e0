/* Suite "pebs": Processor Event-Based Sampling held exactly against the single-step oracle (docs/pebs.md). The oracle
 * steps a workload once and keeps every instruction's address; the same workload then runs unstepped at CPL 3 with one
 * counter sampling at a known period into a DS buffer, and every record must name an instruction of that stream, the
 * same number of events apart, as many as the events allow, with the registers the workload had there.
 * kvm-unit-tests x86/pmu_pebs.c checks the record format, size and applicable counters. PEBS discovery and record
 * decoding: pmu/pebs.c; the comparison: tests/pebs/portable/pebs_judge.c. */
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
#include "pmu/events.h"
#include "pmu/kernel/pmi_kernel.h"
#include "pmu/kernel/pmu_cpu.h"
#include "pmu/pebs.h"
#include "pmu/pmu_msr.h"
#include "tests/events/portable/events_workloads.h"
#include "tests/pebs/portable/pebs_judge.h"

#define STREAM_MAX 400
extern const u8 user_return_point[];
#define RECORDS_MAX 48
#define BUF_SIZE 12288
#define CALLS_N 20
#define ATTEMPTS 2
#define LBR_ENTRIES 8 /* the adaptive LBR group's entries (MSR_PEBS_DATA_CFG[31:24] + 1) */

struct pebs_cpu {
    u8 ds[4096] __attribute__((aligned(4096)));
    u8 buf[BUF_SIZE] __attribute__((aligned(4096)));
    u64 rip[STREAM_MAX];
    u16 ev[STREAM_MAX];
    u32 n, nev;
    bool overflow;
    bool branches_only;
    struct pebs_record rec[RECORDS_MAX];
    u32 nrec;
    const char *decode_why;
    volatile u32 pmis;
    volatile u64 status_at_pmi, index_at_pmi;
};
PER_CPU_ARRAY(struct pebs_cpu, pebs_cpus);

static struct pebs_cpu *me(void)
{
    return &pebs_cpus[this_cpu()->index];
}

static void note_insn(const struct step_record *r, void *arg)
{
    struct pebs_cpu *pc = arg;
    if (pc->n >= STREAM_MAX) {
        pc->overflow = true;
        return;
    }
    if (!pc->branches_only || (r->classified && r->cls.branch))
        pc->ev[pc->nev++] = (u16)pc->n;
    pc->rip[pc->n++] = r->rip;
}

/* ew_straight(256) (tests/events/events_workloads.asm): MOV EAX, 256 first, XOR EAX, EAX at 6, JMP at 7, then one
 * ADD RAX, 1 per instruction from 8 on, the RET at 264. */
static bool straight_rax(u32 i, u64 *rax)
{
    if (i > 8 + EW_STRAIGHT_MAX)
        return false;
    *rax = i < 6 ? EW_STRAIGHT_MAX : i < 8 ? 0 : i == 8 + EW_STRAIGHT_MAX ? EW_STRAIGHT_MAX : i - 7;
    return true;
}

struct workload {
    const char *name;
    u64 (*fn)(u64);
    u64 arg;
    enum pmu_generic_event ev;
    u64 period;
    bool (*rax_after)(u32 i, u64 *rax);
};

static const struct workload instructions = {"instructions, ew_straight(256)", ew_straight, EW_STRAIGHT_MAX,
                                             PMU_EV_INSTRUCTIONS, 29, straight_rax};
static const struct workload branches = {"branches, ew_calls(20)", ew_calls, CALLS_N, PMU_EV_BRANCHES, 13, NULL};

static bool oracle(struct check *c, const struct workload *w, struct pebs_cpu *pc)
{
    pc->n = pc->nev = 0;
    pc->overflow = false;
    pc->branches_only = w->ev == PMU_EV_BRANCHES;
    struct step_stats st = {0};
    step_run(3, w->fn, w->arg, note_insn, pc, &st);
    /* Where the final RET goes (the ring-3 return point), so that a record on it has an instruction after it. */
    if (pc->n < STREAM_MAX)
        pc->rip[pc->n] = (u64)user_return_point;
    char what[64];
    k_snprintf(what, sizeof(what), "oracle (%s)", w->name);
    return expect_true(c, what, st.ended && !pc->overflow && pc->nev > 3 * w->period, "the workload, stepped",
                       "%u instructions, %u counting the event", pc->n, pc->nev);
}

static void put64(u8 *p, u64 v)
{
    memcpy(p, &v, 8);
}

static u64 get64(const u8 *p)
{
    u64 v;
    memcpy(&v, p, 8);
    return v;
}

/* One sampled run: counter `bit` counts the event at CPL 3, every `period` events a record (reloaded from the DS),
 * into a buffer whose interrupt threshold is after `threshold_records` records (0: never). */
struct run_cfg {
    u32 bit;
    const struct workload *w;
    u64 data_cfg;
    bool adaptive;          /* the counter's Adaptive_Record bit */
    u32 threshold_records;
    bool lvt_unmasked;
    bool exact;             /* precise distribution, or the emulated PMU: records exactly a period (+ 1) apart */
};

static int sampled_run(struct pmu_cpu *pmc, const struct run_cfg *k, u32 *size_out)
{
    struct pmu *p = &pmc->pmu;
    const struct pebs_caps *pc = &pmc->pebs;
    struct pebs_cpu *st = me();
    u32 size = pebs_record_size(pc, k->data_cfg, k->adaptive);
    *size_out = size;
    pmu_reset(p);
    memset(st->ds, 0, sizeof(st->ds));
    memset(st->buf, 0, sizeof(st->buf));
    /* Core 2 (format 0): one page at most ("Using >PAGE_SIZE buffers makes the WRMSR to PERF_GLOBAL_CTRL ...
     * mysteriously hang on Core2", Linux intel_ds_init). */
    u32 buf_size = pc->format == 0 ? 4096 : BUF_SIZE;
    u64 base = (u64)st->buf, absmax = base + (buf_size / size) * size;
    put64(st->ds + DS_PEBS_BASE, base);
    put64(st->ds + DS_PEBS_INDEX, base);
    put64(st->ds + DS_PEBS_ABS_MAX, absmax);
    put64(st->ds + DS_PEBS_THRESHOLD, k->threshold_records ? base + k->threshold_records * size : absmax + size);
    put64(st->ds + pebs_reset_offset(pc, k->bit), (0 - k->w->period) & pmu_counter_mask(p, k->bit));
    int rc;
    const char *why = NULL;
    if (PMU_IS_FIXED(k->bit)) {
        rc = pmu_program_fixed(p, k->bit - PMU_FIXED_BIT, PMU_FIXED_USR);
        u64 v = 0;
        if (!rc && k->adaptive && !(rc = rdmsr_safe(pmc->caps.msrs.fixed_ctr_ctrl, &v)))
            rc = wrmsr_safe(pmc->caps.msrs.fixed_ctr_ctrl, v | PEBS_FIXED_ADAPTIVE(k->bit - PMU_FIXED_BIT));
    } else {
        struct pebs_event pe;
        if (!pebs_event_for(&pmc->caps, pc, k->w->ev, &pe, &why))
            return PMU_ENOTSUP;
        struct pmu_evsel e = {.event = pe.event, .umask = pe.umask, .usr = true, .enable = true};
        rc = pmu_program_gp(p, k->bit, &e);
        u64 raw = 0;
        if (!rc && k->adaptive && !(rc = p->be->select_read(p, k->bit, &raw)))
            rc = p->be->select_write(p, k->bit, raw | PEBS_EVSEL_ADAPTIVE);
    }
    rc = rc ? rc : pmu_preload(p, k->bit, k->w->period);
    rc = rc ? rc : wrmsr_safe(MSR_IA32_DS_AREA, (u64)st->ds);
    if (!rc && pc->adaptive)
        rc = wrmsr_safe(MSR_PEBS_DATA_CFG, k->data_cfg);
    rc = rc ? rc : wrmsr_safe(MSR_IA32_PEBS_ENABLE, BIT(k->bit));
    if (rc)
        return rc;
    st->pmis = 0;
    st->status_at_pmi = st->index_at_pmi = 0;
    u64 flags = irq_save();
    apic_write(APIC_LVT_PMC, VECTOR_PMI | (k->lvt_unmasked ? 0 : LVT_MASKED));
    if (k->lvt_unmasked)
        sti();
    p->be->global_set(p, BIT(k->bit));
    workload_run(3, k->lvt_unmasked, k->w->fn, k->w->arg);
    p->be->global_set(p, 0);
    wrmsr_safe(MSR_IA32_PEBS_ENABLE, 0);
    u64 end = rdtsc() + us_to_tsc(1000); /* a buffer PMI still on its way */
    while (k->lvt_unmasked && !st->pmis && rdtsc() < end)
        cpu_relax();
    cli();
    apic_write(APIC_LVT_PMC, VECTOR_PMI | LVT_MASKED);
    irq_restore(flags);
    if (pc->adaptive)
        wrmsr_safe(MSR_PEBS_DATA_CFG, 0);
    /* Decode what the assist wrote, base to index. */
    u64 index = get64(st->ds + DS_PEBS_INDEX);
    st->nrec = 0;
    st->decode_why = NULL;
    for (u64 at = base; at < index && st->nrec < RECORDS_MAX && at >= base && index <= absmax;) {
        const char *w = NULL;
        if (!pebs_decode(pc, (const u8 *)at, index - at, &st->rec[st->nrec], &w)) {
            st->decode_why = w;
            break;
        }
        at += st->rec[st->nrec++].size;
    }
    if (index > absmax || index < base)
        st->decode_why = "the PEBS index is outside the buffer";
    pmu_reset(p);
    return 0;
}

/* The evidence every check starts with, or the SKIP that says why there is no PEBS. */
static struct pmu_cpu *pebs_or_skip(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    const char *why;
    if (!pmu_cpu_usable(pmc, &why)) {
        check_skip(c, "no PMU: %s", why);
        return NULL;
    }
    if (!pmc->pebs.present) {
        check_skip(c, "no PEBS: %s", pmc->pebs.why_none);
        return NULL;
    }
    /* DS_AREA writable and kept, as Linux's probe of the MSRs it uses would find (a hypervisor that does not
     * virtualize PEBS #GPs them). */
    u64 back = 0;
    int rc = wrmsr_safe(MSR_IA32_DS_AREA, (u64)me()->ds);
    rc = rc ? rc : rdmsr_safe(MSR_IA32_DS_AREA, &back);
    if (rc || back != (u64)me()->ds) {
        check_skip(c, "PEBS record format %u is announced, but IA32_DS_AREA %s", pmc->pebs.format,
                   rc ? "faults" : "does not keep a written value");
        return NULL;
    }
    check_note(c, "pebs", "record format %u%s%s, counters 0x%llx (informational: IA32_PERF_CAPABILITIES and CPUID, which "
               "the records' layout judges)", pmc->pebs.format,
               pmc->pebs.adaptive ? ", adaptive" : "", pmc->pebs.trap ? ", trap-like" : ", fault-like",
               (unsigned long long)pmc->pebs.counters);
    return pmc;
}

static const char *counter_name(u32 bit, char *buf, size_t n)
{
    k_snprintf(buf, n, "%s%u", PMU_IS_FIXED(bit) ? "fixed" : "gp", PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit);
    return buf;
}

/* Run `k` ATTEMPTS times and judge its records against the oracle's stream (already in me()); extra(ok so far)
 * adds what the check wants of each record. The verdict from all attempts. */
typedef bool (*record_rule)(const struct run_cfg *k, const struct pebs_record *r, u32 size, const char **why);

static void judged_runs(struct check *c, const char *what, struct pmu_cpu *pmc, const struct run_cfg *k,
                        record_rule rule)
{
    struct pebs_cpu *st = me();
    struct pebs_stream s = {st->rip, st->n < STREAM_MAX ? st->n + 1 : st->n, st->ev, st->nev, k->w->rax_after};
    u32 fails = 0;
    struct pebs_judgement j = {0}, bad = {0};
    const char *bad_why = NULL;
    for (u32 a = 0; a < ATTEMPTS; a++) {
        u32 size = 0;
        int rc = sampled_run(pmc, k, &size);
        if (rc)
            return check_fail(c, "%s: programming failed (%s)", what, pmu_strerror(rc));
        const char *why = st->decode_why;
        bool ok = !why && pebs_judge(&s, k->w->period, st->rec, st->nrec, g_pmu_emulated ? 0 : 1, pmc->pebs.trap,
                                     k->exact, &j);
        /* A KVM host turns guest PEBS off while it uses PEBS itself, or maps the guest counter elsewhere (Linux
         * intel_guest_get_msrs: "Disable guest PEBS if host PEBS is enabled", host_cross_mapped_mask): no record at
         * all under a hypervisor says nothing about the vPMU's records. */
        if (!ok && !st->nrec && pmc->caps.hypervisor)
            return check_inconclusive(c, what, "no record under a hypervisor: its host may have turned guest PEBS "
                                               "off (Linux intel_guest_get_msrs; kvm-unit-tests runs pmu_pebs with "
                                               "nmi_watchdog=0)");
        if (ok && !why)
            for (u32 i = 0; i < st->nrec && ok; i++)
                ok = !rule || rule(k, &st->rec[i], size, &why);
        if (!ok) {
            fails++;
            bad = j;
            bad_why = why ? why : j.why;
        }
    }
    const char *want = k->exact ? "every record an instruction of the stream, evenly spaced"
                                : "every record an instruction of the stream, at least a period apart";
    if (!fails) {
        if (k->exact)
            expect_true(c, what, true, want, "%u records, %lld events apart (period %llu), counting from %lld before; "
                        "RAX checked in %u", j.records, (long long)j.d, (unsigned long long)k->w->period,
                        (long long)j.start, j.rax_checked);
        else
            expect_true(c, what, true, want, "%u records (at most %u), the latest %lld events after the period "
                        "(shadow); RAX checked in %u", j.records, j.expected, (long long)j.shadow_max, j.rax_checked);
        return;
    }
    char obs[200];
    k_snprintf(obs, sizeof(obs), "%u records (%u expected); record %d: %s", bad.records, bad.expected, bad.bad,
               bad_why ? bad_why : "?");
    if (fails < ATTEMPTS)
        check_inconclusive(c, what, "%s, in %u of %u attempts: not repeated", obs, fails, ATTEMPTS);
    else
        expect_true(c, what, false, want, "%s (every attempt)", obs);
}

/* Records exactly a period (+ 1) apart: on a counter with precise distribution (fixed 0 of an adaptive big core is
 * PDIR, pebs_event_for says which GP counter is), and under the emulated PMU, whose assist declares it. */
static bool exact_on(const struct pebs_event *pe, u32 bit)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    bool fixed0_pdir = bit == PMU_FIXED_BIT && pmc->pebs.adaptive && pmc->caps.core_type != 0x20;
    return g_pmu_emulated || (PMU_IS_FIXED(bit) ? fixed0_pdir : pe->precise);
}

/* The first GP counter that samples instructions, and fixed counter 0 where it does (bits; 0: none). */
static u64 instruction_samplers(struct pmu_cpu *pmc, struct pebs_event *pe)
{
    const char *why = NULL;
    if (!pebs_event_for(&pmc->caps, &pmc->pebs, PMU_EV_INSTRUCTIONS, pe, &why))
        return 0;
    u64 gp = pe->counters & 0xffffffffu;
    return (gp & -gp) | (pe->counters & BIT(PMU_FIXED_BIT));
}

/* pebs/records: basic records on every counter that can sample, for instructions and (format 1+) branches. */
static void records_check(struct check *c)
{
    struct pmu_cpu *pmc = pebs_or_skip(c);
    if (!pmc)
        return;
    struct pebs_cpu *st = me();
    const struct workload *ws[] = {&instructions, &branches};
    for (u32 wi = 0; wi < 2; wi++) {
        const struct workload *w = ws[wi];
        struct pebs_event pe;
        const char *why = NULL;
        if (!pebs_event_for(&pmc->caps, &pmc->pebs, w->ev, &pe, &why)) {
            check_note(c, w == &branches ? "branches" : "instructions", "not sampled: %s", why);
            continue;
        }
        check_note(c, w == &branches ? "branches" : "instructions", "%s %02x/%02x on counters 0x%llx%s (%s)", pe.name,
                   pe.event, pe.umask, (unsigned long long)pe.counters, pe.precise ? ", precise distribution" : "",
                   pe.source);
        if (!oracle(c, w, st))
            return;
        for (u32 bit = 0; bit < 64; bit++) {
            if (!(pe.counters >> bit & 1) || !pmu_counter_exists(&pmc->pmu, bit))
                continue;
            if (PMU_IS_FIXED(bit) && (w->ev != PMU_EV_INSTRUCTIONS || bit != PMU_FIXED_BIT))
                continue; /* fixed counter 0 counts instructions; the others no event of these workloads */
            char name[16], what[64];
            k_snprintf(what, sizeof(what), "%s, %s", counter_name(bit, name, sizeof(name)), w->name);
            struct run_cfg k = {bit, w, 0, false, 0, false, exact_on(&pe, bit)};
            judged_runs(c, what, pmc, &k, NULL);
        }
    }
}

/* Adaptive records: each one the size and format field the groups make, for the sampling counter, and its LBR group
 * only this context's (the LBR is off and cleared: all zero, kvm-unit-tests 8d0f574f's host-LBR leak). */
static bool adaptive_rule(const struct run_cfg *k, const struct pebs_record *r, u32 size, const char **why)
{
    if (r->size != size)
        *why = "its size is not the groups' size";
    else if (r->group != (k->adaptive ? k->data_cfg : 0))
        *why = "its format field is not MSR_PEBS_DATA_CFG (0 without Adaptive_Record)";
    else if (!(r->applicable >> k->bit & 1))
        *why = "its applicable counters do not name the sampling counter";
    else if (k->adaptive && (k->data_cfg & PEBS_CFG_LBRS) && r->lbr_nonzero)
        *why = "its LBR group holds branches, with the LBR off and cleared: another context's";
    else
        return true;
    return false;
}

static void lbr_zero(const struct lbr_caps *l)
{
    for (u32 i = 0; l->kind != LBR_NONE && i < l->depth; i++) {
        wrmsr_safe(l->from + i * l->stride, 0);
        if (l->to)
            wrmsr_safe(l->to + i * l->stride, 0);
        if (l->info)
            wrmsr_safe(l->info + i, 0);
    }
}

/* pebs/adaptive: every group (MemInfo, GPRs, XMMs, 8 LBR entries) on the first GP counter that samples instructions
 * and fixed counter 0, then the same
 * MSR_PEBS_DATA_CFG without the counter's Adaptive_Record bit: basic records (kvm-unit-tests 2cb2af7f53db). */
static void adaptive_check(struct check *c)
{
    struct pmu_cpu *pmc = pebs_or_skip(c);
    if (!pmc)
        return;
    if (!pmc->pebs.adaptive)
        return check_skip(c, "no adaptive PEBS: IA32_PERF_CAPABILITIES[14] PEBS_BASELINE clear (record format %u)",
                          pmc->pebs.format);
    if (!oracle(c, &instructions, me()))
        return;
    lbr_zero(&pmc->lbr);
    u64 cfg = PEBS_CFG_MEMINFO | PEBS_CFG_GP | PEBS_CFG_XMMS | PEBS_CFG_LBRS | (u64)(LBR_ENTRIES - 1) << PEBS_CFG_LBR_SHIFT;
    check_note(c, "MSR_PEBS_DATA_CFG", "0x%llx as written: MemInfo, GPRs, XMMs, %u LBR entries (%u bytes a record); each "
               "record's group field must equal it",
               (unsigned long long)cfg, LBR_ENTRIES, pebs_record_size(&pmc->pebs, cfg, true));
    struct pebs_event pe;
    u64 samplers = instruction_samplers(pmc, &pe);
    for (u32 bit = 0; bit < 64; bit++) {
        if (!(samplers >> bit & 1) || !pmu_counter_exists(&pmc->pmu, bit))
            continue;
        char name[16], what[64];
        counter_name(bit, name, sizeof(name));
        k_snprintf(what, sizeof(what), "%s, every group", name);
        struct run_cfg k = {bit, &instructions, cfg, true, 0, false, exact_on(&pe, bit)};
        judged_runs(c, what, pmc, &k, adaptive_rule);
        k_snprintf(what, sizeof(what), "%s, Adaptive_Record clear", name);
        k.adaptive = false;
        judged_runs(c, what, pmc, &k, adaptive_rule);
    }
}

static void buffer_pmi(struct trap_frame *f)
{
    (void)f;
    struct pebs_cpu *st = me();
    struct pmu_cpu *pmc = this_pmu_cpu();
    if (!st->pmis++) {
        pmc->pmu.be->global_set(&pmc->pmu, 0);
        wrmsr_safe(MSR_IA32_PEBS_ENABLE, 0);
        u64 s = 0;
        pmc->pmu.be->status_read(&pmc->pmu, &s);
        st->status_at_pmi = s;
        st->index_at_pmi = get64(st->ds + DS_PEBS_INDEX);
        if (pmc->caps.msrs.global_status_reset)
            wrmsr_safe(pmc->caps.msrs.global_status_reset, BIT(PMU_STATUS_OVF_BUF));
    }
    apic_eoi();
}

/* pebs/threshold_pmi: the interrupt threshold three records in: exactly one PMI, with GLOBAL_STATUS.OvfBuffer (bit
 * 62) set and the PEBS index at the threshold (SDM "Processor Event Based Sampling": a PMI when the index reaches the
 * threshold). The handler stops sampling at the first. */
static void threshold_check(struct check *c)
{
    struct pmu_cpu *pmc = pebs_or_skip(c);
    if (!pmc)
        return;
    struct pebs_cpu *st = me();
    if (!oracle(c, &instructions, st))
        return;
    struct pebs_event pe;
    u64 samplers = instruction_samplers(pmc, &pe) & 0xffffffffu;
    if (!samplers)
        samplers = instruction_samplers(pmc, &pe); /* fixed counter 0 alone */
    if (!samplers)
        return check_skip(c, "no counter samples instructions on this part");
    u32 bit = (u32)__builtin_ctzll(samplers);
    check_note(c, "counter", "%s%u, %s", PMU_IS_FIXED(bit) ? "fixed" : "gp",
               PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit, pe.name);
    irq_register_local(VECTOR_PMI, buffer_pmi);
    u32 pmis[ATTEMPTS], size = 0, bad = 0;
    u64 index[ATTEMPTS], status[ATTEMPTS];
    u64 base = (u64)st->buf;
    for (u32 a = 0; a < ATTEMPTS; a++) {
        struct run_cfg k = {bit, &instructions, 0, false, 3, true, true};
        int rc = sampled_run(pmc, &k, &size);
        if (rc) {
            irq_register_local(VECTOR_PMI, NULL);
            return check_fail(c, "programming failed (%s)", pmu_strerror(rc));
        }
        pmis[a] = st->pmis;
        index[a] = st->index_at_pmi;
        status[a] = st->status_at_pmi;
        bad += pmis[a] != 1 || !(status[a] >> PMU_STATUS_OVF_BUF & 1) || index[a] < base + 3 * size;
    }
    irq_register_local(VECTOR_PMI, NULL);
    char obs[160];
    /* Of GLOBAL_STATUS only OvfBuf is judged: a PEBS counter's own bit may or may not be set with it (Linux
     * intel_pmu_handle_irq ignores the bits of PEBS counters, "status &= ~cpuc->pebs_enabled"), so the rest is shown. */
    k_snprintf(obs, sizeof(obs), "%u PMI(s), GLOBAL_STATUS 0x%llx (OvfBuf judged), index at the PMI base + %lld records "
               "(threshold 3)",
               pmis[ATTEMPTS - 1], (unsigned long long)status[ATTEMPTS - 1],
               (long long)((s64)(index[ATTEMPTS - 1] - base) / (s64)size));
    if (bad && bad < ATTEMPTS)
        return check_inconclusive(c, "buffer PMI", "%s; in %u of %u attempts: not repeated", obs, bad, ATTEMPTS);
    expect_true(c, "buffer PMI", !bad, "one PMI, OvfBuffer set, the index at the threshold", "%s", obs);
}

static const struct check_def pebs_checks[] = {
    {"records", records_check, SCOPE_PER_CPU, NO_FAULT},
    {"adaptive", adaptive_check, SCOPE_PER_CPU, NO_FAULT},
    {"threshold_pmi", threshold_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_pebs = {"pebs", "PEBS records exactly against the single-step oracle", true,
                                 SUITE_CHECKS(pebs_checks)};
