/* Suite "lbr": Last Branch Records held exactly against the single-step oracle (docs/lbr.md). The oracle steps the
 * workload ew_calls(70) once and keeps every branch instruction: source, target, kind, CPL at the target. The same
 * workload then runs unstepped with the LBR recording, and the records read back must be the oracle's last taken
 * branches that the filter keeps, youngest first, each source and target exact (and the branch type where Arch LBR
 * carries it). kvm-unit-tests x86/pmu_lbr.c checks only that FROM and TO are non-zero after a loop. The kinds of LBR,
 * their MSRs and formats: pmu/lbr.c; the comparison: tests/lbr/portable/lbr_judge.c. */
#include <string.h>

#include "apic/apic.h"
#include "emul/kernel/pmu_emul.h"
#include "harness/framework.h"
#include "harness/workload.h"
#include "kernel/percpu.h"
#include "kernel/percpu_array.h"
#include "kernel/safe.h"
#include "kernel/singlestep.h"
#include "kernel/x86.h"
#include "pmu/event_catalog.h"
#include "pmu/events.h"
#include "pmu/kernel/pmu_cpu.h"
#include "pmu/lbr.h"
#include "pmu/pmu_msr.h"
#include "tests/events/portable/events_workloads.h"
#include "tests/lbr/portable/lbr_judge.h"

#define ITERATIONS 70  /* ew_calls: each kind of branch at least 69 times, more than the deepest LBR (64) */
#define STREAM_MAX 640 /* its branch instructions: 8 per iteration, the entry JZ and the final RET */
#define ATTEMPTS 2     /* a mismatch is a FAIL when both attempts show it (an SMI's return may add a record) */

extern const u8 user_return_point[];

struct lbr_cpu {
    struct lbr_ref stream[STREAM_MAX];
    u32 n;
    u64 last_rip; /* the instruction the oracle saw retire last */
    bool overflow;
    struct lbr_ref exp[LBR_MAX_DEPTH];
    struct lbr_record obs[LBR_MAX_DEPTH];
    struct lbr_record obs2[LBR_MAX_DEPTH]; /* freeze_on_pmi: the stack after a workload while frozen, after release */
};
PER_CPU_ARRAY(struct lbr_cpu, lbr_cpus);

static void note_branch(const struct step_record *r, void *arg)
{
    struct lbr_cpu *lc = arg;
    u64 before = lc->last_rip;
    lc->last_rip = r->rip;
    if (!r->classified || !r->cls.branch)
        return;
    if (lc->n >= STREAM_MAX) {
        lc->overflow = true;
        return;
    }
    /* Under the emulated PMU its predictor says which branches were mispredicted (emul/emul_predict.c: a conditional
     * branch that went against static backward-taken, forward-not-taken); on silicon nobody knows. */
    s8 mispred = !g_pmu_emulated ? -1
                 : r->cls.cond ? (s8)pmu_emul_mispredicted((const u8 *)r->rip, r->cls.len, r->taken)
                               : 0;
    lc->stream[lc->n++] = (struct lbr_ref){r->rip, r->next_rip, lbr_branch_of_evc(evc_classes(&r->cls, r->taken)),
                                           r->cpl, mispred, before};
}

/* The oracle's stream of ew_calls(ITERATIONS) at `cpl`. */
static bool oracle(struct check *c, struct lbr_cpu *lc, u8 cpl)
{
    lc->n = 0;
    lc->last_rip = 0;
    lc->overflow = false;
    struct step_stats st = {0};
    step_run(cpl, ew_calls, ITERATIONS, note_branch, lc, &st);
    return expect_true(c, cpl ? "oracle (CPL 3)" : "oracle (CPL 0)", st.ended && !lc->overflow && lc->n == 8 * ITERATIONS + 2,
                       "562 branch instructions", "%u%s", lc->n, st.ended ? "" : ", did not end");
}

static u32 msr_of(const struct lbr_caps *l, u32 base, u32 slot)
{
    return base + slot * l->stride;
}

/* Every entry zeroed, so that a record can only come from this run. */
static int lbr_clear(const struct lbr_caps *l)
{
    int rc = 0;
    if (l->kind == LBR_ARCH)
        rc |= wrmsr_safe(l->depth_msr, l->depth); /* also clears every entry */
    for (u32 i = 0; i < l->depth; i++) {
        rc |= wrmsr_safe(msr_of(l, l->from, i), 0);
        if (l->to)
            rc |= wrmsr_safe(msr_of(l, l->to, i), 0);
        if (l->info)
            rc |= wrmsr_safe(l->info + i, 0);
    }
    return rc;
}

/* A freeze left by an earlier PMI (GLOBAL_STATUS.LBR_Frz, Intel v4+ and AMD) is cleared through the status reset
 * register (SDM Vol.3B 21.2.4.2; AMD PerfCntrGlobalStatusClr): a frozen LBR records nothing. */
static int lbr_unfreeze(const struct lbr_caps *l)
{
    const struct pmu_caps *caps = &this_pmu_cpu()->caps;
    bool frz = l->kind == LBR_AMD_V2 ? l->freeze : pmu_freeze_in_status(caps);
    if (!frz || !caps->msrs.global_status_reset)
        return 0;
    return wrmsr_safe(caps->msrs.global_status_reset, BIT(PMU_STATUS_LBR_FRZ));
}

/* The documented end of a freeze on PMI: LBR_Frz written to the status reset register where the freeze is reported
 * there (v4+, AMD: lbr_unfreeze; Linux intel/lbr.c __intel_pmu_lbr_enable: "v4 can do that as part of the GLOBAL_STATUS
 * ack"); before v4 the PMI cleared the enable, IA32_DEBUGCTL.LBR, which software sets again (SDM Vol.3B 18.4.7, Linux
 * below v4). */
static int lbr_release(const struct lbr_caps *l)
{
    const struct pmu_caps *caps = &this_pmu_cpu()->caps;
    int rc = 0;
    if (l->kind == LBR_AMD_V2 || pmu_freeze_in_status(caps))
        rc = lbr_unfreeze(l);
    if (rc || l->kind != LBR_LEGACY)
        return rc;
    /* The enable set again: needed before v4; on v4 a no-op, except under KVM, which freezes a guest's LBR the legacy
     * way whatever its version (Linux kvm/vmx/vmx.c intel_pmu_legacy_freezing_lbrs_on_pmi clears DEBUGCTL.LBR). */
    u64 v = 0;
    rc = rdmsr_safe(l->enable_msr, &v);
    return rc || (v & l->enable_bit) ? rc : wrmsr_safe(l->enable_msr, v | l->enable_bit);
}

/* Filter, then the enable (with FREEZE_LBRS_ON_PMI when freeze). */
static int lbr_arm(const struct lbr_caps *l, const struct lbr_filter *f, bool freeze)
{
    int rc = lbr_unfreeze(l);
    u64 dbg = 0;
    if (l->kind != LBR_ARCH && l->select)
        rc |= wrmsr_safe(l->select, lbr_filter_value(l, f));
    if (freeze || l->kind == LBR_LEGACY) {
        rc |= rdmsr_safe(MSR_IA32_DEBUGCTL, &dbg);
        dbg = (dbg & ~DEBUGCTL_FREEZE_LBRS_ON_PMI) | (freeze ? DEBUGCTL_FREEZE_LBRS_ON_PMI : 0);
        rc |= wrmsr_safe(MSR_IA32_DEBUGCTL, dbg);
    }
    if (l->kind == LBR_ARCH) {
        rc |= wrmsr_safe(l->select, lbr_filter_value(l, f)); /* IA32_LBR_CTL, LBREn included */
    } else {
        u64 v = 0;
        rc |= rdmsr_safe(l->enable_msr, &v);
        rc |= wrmsr_safe(l->enable_msr, v | l->enable_bit);
    }
    return rc;
}

static void lbr_disarm(const struct lbr_caps *l)
{
    u64 v = 0;
    if (!rdmsr_safe(l->enable_msr, &v))
        wrmsr_safe(l->enable_msr, v & ~l->enable_bit);
    if (!rdmsr_safe(MSR_IA32_DEBUGCTL, &v) && (v & DEBUGCTL_FREEZE_LBRS_ON_PMI))
        wrmsr_safe(MSR_IA32_DEBUGCTL, v & ~DEBUGCTL_FREEZE_LBRS_ON_PMI);
}

/* Every entry, youngest first. */
static int lbr_read(const struct lbr_caps *l, struct lbr_record *out)
{
    u64 tos = 0;
    int rc = l->kind == LBR_LEGACY ? rdmsr_safe(l->tos, &tos) : 0;
    for (u32 i = 0; i < l->depth && !rc; i++) {
        u32 s = lbr_slot(l, tos, i);
        u64 from = 0, to = 0, info = 0;
        rc |= rdmsr_safe(msr_of(l, l->from, s), &from);
        if (l->to)
            rc |= rdmsr_safe(msr_of(l, l->to, s), &to);
        if (l->info)
            rc |= rdmsr_safe(l->info + s, &info);
        lbr_decode(l, from, to, info, &out[i]);
    }
    return rc;
}

/* One run of the workload with the LBR recording under `f`, its records read into lc->obs. */
static int recorded_run(const struct lbr_caps *l, const struct lbr_filter *f, u8 cpl, struct lbr_cpu *lc)
{
    u64 flags = irq_save();
    int rc = lbr_clear(l);
    rc = rc ? rc : lbr_arm(l, f, false);
    if (!rc)
        workload_run(cpl, false, ew_calls, ITERATIONS);
    lbr_disarm(l);
    rc = rc ? rc : lbr_read(l, lc->obs);
    irq_restore(flags);
    return rc;
}

/* The evidence every check starts with: which LBR, or the SKIP that says why there is none. */
static const struct lbr_caps *lbr_or_skip(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    const char *why;
    if (!pmu_cpu_usable(pmc, &why)) {
        check_skip(c, "no PMU: %s", why);
        return NULL;
    }
    const struct lbr_caps *l = &pmc->lbr;
    if (l->kind == LBR_NONE) {
        check_skip(c, "no LBR: %s", l->why_none);
        return NULL;
    }
    /* As Linux does (arch/x86/events/intel/core.c check_msr on the LBR MSRs): an LBR whose first FROM faults or does not
     * keep a value is not there (a hypervisor that does not virtualize it). */
    u64 saved = 0, back = 0, probe = (u64)ew_calls;
    int rc = rdmsr_safe(l->from, &saved);
    rc = rc ? rc : wrmsr_safe(l->from, probe);
    rc = rc ? rc : rdmsr_safe(l->from, &back);
    wrmsr_safe(l->from, saved);
    if (rc || back != probe) {
        check_skip(c, "the %s LBR its CPUID%s names is not usable: MSR 0x%x %s", lbr_kind_name(l->kind),
                   l->kind == LBR_LEGACY ? " and model" : "", l->from,
                   rc ? "faults" : "does not keep a written value");
        return NULL;
    }
    check_note(c, "lbr", "%s, %u entries%s (%s)", lbr_kind_name(l->kind), l->depth,
               l->kind == LBR_LEGACY ? ", format from IA32_PERF_CAPABILITIES[5:0]" : "", l->source);
    if (l->kind == LBR_LEGACY)
        check_note(c, "format", "%u (informational: IA32_PERF_CAPABILITIES[5:0] decides the decoding, which the records "
                   "judge)", l->format);
    return l;
}

/* Compare one filter's records with the oracle over ATTEMPTS runs; the verdict from all of them. */
static void compare_runs(struct check *c, const char *what, const struct lbr_caps *l, const struct lbr_filter *f,
                         u8 cpl, struct lbr_cpu *lc)
{
    u32 nexp = lbr_expect(lc->stream, lc->n, f, l->depth, lc->exp);
    u32 fails = 0, runs = 0;
    struct lbr_match m = {0}, bad = {0};
    for (u32 a = 0; a < ATTEMPTS; a++) {
        if (recorded_run(l, f, cpl, lc)) {
            check_fail(c, "%s: an LBR MSR faulted", what);
            return;
        }
        runs++;
        if (!lbr_match(lc->obs, l->depth, lc->exp, nexp, cpl ? (u64)user_return_point : 0, l->has_mispred,
                       l->kind == LBR_AMD_V2, &m)) {
            fails++;
            bad = m;
        }
    }
    /* A KVM guest whose LBR the host took back reads an empty stack (KVM intel_pmu_handle_lbr_msrs_access returns 0
     * while its vLBR event is not active): no record at all under a hypervisor says nothing about the records. */
    if (fails && !bad.matched && !lc->obs[0].valid && this_pmu_cpu()->caps.hypervisor)
        return check_inconclusive(c, what, "an empty stack under a hypervisor: its host may have taken the LBR back "
                                           "(KVM's vLBR event inactive)");
    if (!fails) {
        expect_true(c, what, true, "the oracle's last taken branches, in order", "%u of %u records%s%s%s", m.matched,
                    m.expected, m.type_checked ? ", types right" : "", m.mispred_checked ? ", mispredict flags right" : "",
                    m.exit_on_top ? "; the exit to ring 0 on top" : "");
        return;
    }
    char obs[200];
    if (bad.mismatch >= 0)
        k_snprintf(obs, sizeof(obs), "record %d: 0x%llx -> 0x%llx, expected 0x%llx -> 0x%llx (%u before it right)",
                   bad.mismatch, (unsigned long long)bad.got_from, (unsigned long long)bad.got_to,
                   (unsigned long long)bad.exp_from, (unsigned long long)bad.exp_to, bad.matched);
    else
        k_snprintf(obs, sizeof(obs), "%u records right, %u more records, %u of %u types and %u of %u mispredict flags "
                   "wrong", bad.matched, bad.extra, bad.type_wrong, bad.type_checked, bad.mispred_wrong,
                   bad.mispred_checked);
    if (fails < runs)
        check_inconclusive(c, what, "%s in %u of %u attempts: not repeated", obs, fails, runs);
    else
        expect_true(c, what, false, "the oracle's last taken branches, in order", "%s (every attempt)", obs);
}

static const struct lbr_filter all_user = {false, true, LBR_BR_ALL};

/* The LBR and the oracle's stream for a check that keeps the kernel's own branches out by the CPL filter (NULL after
 * its SKIP or FAIL). */
static const struct lbr_caps *lbr_with_cpl_filter(struct check *c, struct lbr_cpu **lc)
{
    const struct lbr_caps *l = lbr_or_skip(c);
    if (!l)
        return NULL;
    *lc = &lbr_cpus[this_cpu()->index];
    if (!l->cpl_filter) {
        check_skip(c, "this LBR cannot filter by CPL (%s: no LBR_SELECT on Core 2 and the first Atoms): the kernel's "
                      "own branches cannot be kept out", l->source);
        return NULL;
    }
    return oracle(c, *lc, 3) ? l : NULL;
}

/* lbr/records: the workload at CPL 3, the LBR keeping every kind of branch that ends at CPL > 0. */
static void records_check(struct check *c)
{
    struct lbr_cpu *lc;
    const struct lbr_caps *l = lbr_with_cpl_filter(c, &lc);
    if (l)
        compare_runs(c, "records", l, &all_user, 3, lc);
}

/* lbr/filter_cpl: a CPL-0 run filtered to CPL > 0 and a CPL-3 run filtered to CPL 0 leave no record of the workload. */
static void filter_cpl_check(struct check *c)
{
    struct lbr_cpu *lc;
    const struct lbr_caps *l = lbr_with_cpl_filter(c, &lc);
    if (!l)
        return;
    static const struct { u8 cpl; struct lbr_filter f; const char *what; } runs[] = {
        {0, {false, true, LBR_BR_ALL}, "CPL-0 run, user-only filter"},
        {3, {true, false, LBR_BR_ALL}, "CPL-3 run, kernel-only filter"},
    };
    for (u32 r = 0; r < ARRAY_SIZE(runs); r++) {
        u32 seen = 0, first = 0;
        u32 repeat = 0;
        for (u32 a = 0; a < ATTEMPTS; a++) {
            if (recorded_run(l, &runs[r].f, runs[r].cpl, lc))
                return check_fail(c, "%s: an LBR MSR faulted", runs[r].what);
            u32 here = 0;
            for (u32 i = 0; i < l->depth; i++)
                for (u32 j = 0; j < lc->n && lc->obs[i].valid; j++)
                    if (lc->obs[i].from == lc->stream[j].from && lc->obs[i].to == lc->stream[j].to) {
                        if (!here++)
                            first = i;
                        break;
                    }
            repeat += here != 0;
            seen = here > seen ? here : seen;
        }
        if (seen && repeat < ATTEMPTS)
            check_inconclusive(c, runs[r].what, "%u records of the workload in one attempt of %u", seen, ATTEMPTS);
        else
            expect_true(c, runs[r].what, !seen, "no record of the workload", seen ? "%u records of it (first at %u)" : "none",
                        seen, first);
    }
}

/* lbr/filter_type: each kind of branch alone (CPL > 0): exactly the oracle's last branches of that kind. */
static void filter_type_check(struct check *c)
{
    const struct lbr_caps *l = lbr_or_skip(c);
    if (!l)
        return;
    struct lbr_cpu *lc = &lbr_cpus[this_cpu()->index];
    struct pmu_cpu *pmc = this_pmu_cpu();
    if (!l->type_filter)
        return check_skip(c, "this LBR cannot filter by kind of branch (%s)", l->source);
    /* Nehalem, Westmere, Silvermont and Airmont: LBR_SELECT must keep near relative and indirect jumps for calls to be
     * captured (Linux arch/x86/events/intel/lbr.c nhm_lbr_sel_map, which intel_pmu_lbr_init_nhm and _slm use: "must
     * include REL_JMP+IND_JMP to get CALL branches", "must include IND_JMP to capture IND_CALL"): calls alone are not
     * filtered there. */
    static const u8 nhm_map[] = {0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f, 0x37, 0x4a, 0x4c, 0x4d, 0x5a, 0x5d};
    bool calls_errata = false;
    for (u32 i = 0; l->kind == LBR_LEGACY && pmc->caps.family == 6 && i < ARRAY_SIZE(nhm_map); i++)
        calls_errata |= pmc->caps.model == nhm_map[i];
    if (calls_errata)
        check_note(c, "calls", "not filtered alone on model 0x%x (Linux nhm_lbr_sel_map, errata)", pmc->caps.model);
    if (!oracle(c, lc, 3))
        return;
    for (u32 b = 0; b < LBR_BR_COUNT; b++) {
        if (calls_errata && (b == LBR_BR_REL_CALL || b == LBR_BR_IND_CALL))
            continue;
        struct lbr_filter f = {false, true, 1u << b};
        char what[40];
        k_snprintf(what, sizeof(what), "%s only", lbr_branch_name((enum lbr_branch)b));
        compare_runs(c, what, l, &f, 3, lc);
    }
}

/* lbr/freeze_on_pmi: with IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI, a counter of branch instructions (USR) overflowing on the
 * k-th branch of the workload freezes the LBR: its youngest record is the last taken branch at or before it. LVT
 * masked: the freeze is on the PMI request (SDM Vol.3B 18.4.7), no handler runs. */
static void freeze_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    struct pmu *p = &pmc->pmu;
    const struct lbr_caps *l = &pmc->lbr;
    if (pmu_cpu_usable(pmc, &(const char *){NULL}) && l->kind != LBR_NONE && !l->freeze)
        return check_skip(c, "this LBR is not frozen on a PMI (%s)",
                          l->kind == LBR_AMD_V2 ? "Fn8000_0022 EAX[2] clear" : "Intel perfmon v1");
    struct lbr_cpu *lc;
    l = lbr_with_cpl_filter(c, &lc);
    if (!l)
        return;
    const char *why = NULL;
    const struct pmu_event *ev = pmu_event_generic(p->caps, PMU_EV_BRANCHES, &why);
    if (!ev)
        return check_skip(c, "no branch-instructions event: %s", why ? why : "?");
    u32 k = 250; /* overflow on the 250th branch instruction: mid-workload */
    s32 top = lbr_freeze_top(lc->stream, lc->n, &all_user, k);
    /* Exactly that record under the emulated PMU (it freezes at the overflow). On silicon the freeze comes with the
     * PMI request, some skid later (suite skid measures it; no manual bounds it), and a KVM host emulates it at the
     * PMI's injection: any later branch is accepted and how far is reported, one earlier too (a return to ring 3
     * counted as a branch); never the workload's last taken branch, where an LBR that did not freeze stops. */
    s32 last = lbr_freeze_top(lc->stream, lc->n, &all_user, lc->n);
    s32 lo = g_pmu_emulated ? top : top - 1, hi = g_pmu_emulated ? top : last - 1;
    struct pmu_evsel base = {.usr = true, .intr = true, .enable = true}, e;
    pmu_event_to_evsel(ev, &base, &e);
    u32 fails = 0, found_at = 0, moved = 0, not_resumed = 0;
    s32 got = -1;
    u64 st = 0;
    struct lbr_match resumed = {0};
    u32 nall = lbr_expect(lc->stream, lc->n, &all_user, l->depth, lc->exp);
    for (u32 a = 0; a < ATTEMPTS; a++) {
        pmu_reset(p);
        u64 flags = irq_save();
        apic_write(APIC_LVT_PMC, LVT_MASKED | 0xe8);
        int rc = pmu_program_gp(p, 0, &e);
        rc = rc ? rc : pmu_preload(p, 0, k);
        rc = rc ? rc : lbr_clear(l);
        rc = rc ? rc : lbr_arm(l, &all_user, true);
        if (!rc) {
            p->be->global_set(p, 1);
            workload_run(3, false, ew_calls, ITERATIONS);
            p->be->global_set(p, 0);
            /* The effect: frozen, the workload again leaves the stack as it was; after the release the stack records
             * that workload exactly as lbr/records does. */
            rc = lbr_read(l, lc->obs);
            p->be->status_read(p, &st);
            workload_run(3, false, ew_calls, ITERATIONS);
            rc = rc ? rc : lbr_read(l, lc->obs2);
            moved += !rc && !lbr_stack_same(lc->obs, lc->obs2, l->depth);
            rc = rc ? rc : lbr_release(l);
            if (!rc)
                workload_run(3, false, ew_calls, ITERATIONS);
            rc = rc ? rc : lbr_read(l, lc->obs2);
            lbr_expect(lc->stream, lc->n, &all_user, l->depth, lc->exp);
            struct lbr_match m2;
            if (!rc && !lbr_match(lc->obs2, l->depth, lc->exp, nall, (u64)user_return_point, l->has_mispred,
                                  l->kind == LBR_AMD_V2, &m2)) {
                not_resumed++;
                resumed = m2;
            }
        }
        lbr_disarm(l);
        lbr_unfreeze(l);
        irq_restore(flags);
        pmu_reset(p);
        if (rc)
            return check_fail(c, "a PMU or LBR MSR faulted (%d)", rc);
        got = -1;
        for (s32 t = lo; t <= hi && got < 0; t++) {
            struct lbr_match m;
            u32 nexp = t >= 0 ? lbr_expect_at(lc->stream, lc->n, &all_user, (u32)t, l->depth, lc->exp) : 0;
            if (nexp && lbr_match(lc->obs, l->depth, lc->exp, nexp, 0, l->has_mispred, l->kind == LBR_AMD_V2, &m))
                got = t;
        }
        fails += got < 0;
        found_at = got >= 0 ? (u32)got : found_at;
    }
    /* LBR_Frz where the freeze is reported in the status (v4+ and AMD with the freeze; SDM Vol.4 Table 2-2 bit 58; Linux
     * amd/core.c GLOBAL_STATUS_LBRS_FROZEN); the rest of GLOBAL_STATUS is pmi's to judge (the counter programmed here
     * overflows; the check reads it only to show the LBR bit). */
    bool reported = l->kind == LBR_AMD_V2 || pmc->caps.version >= 4;
    if (reported && !(st >> PMU_STATUS_LBR_FRZ & 1) && pmc->caps.hypervisor && l->kind == LBR_LEGACY)
        check_deviation(c, "GLOBAL_STATUS.LBR_Frz not set while frozen: KVM freezes a guest's LBR the legacy way, "
                           "clearing IA32_DEBUGCTL.LBR (kvm/vmx/vmx.c intel_pmu_legacy_freezing_lbrs_on_pmi)");
    else if (reported)
        expect_eq(c, "GLOBAL_STATUS.LBR_Frz while frozen", 1, st >> PMU_STATUS_LBR_FRZ & 1);
    check_note(c, "GLOBAL_STATUS (informational)", "0x%llx: the counter bits and CTR_Frz are judged by pmi", (unsigned long long)st);
    /* As the frozen stack: wrong in every attempt is a FAIL, in some only inconclusive (an SMI's return may add a
     * record); judged before it, so that a FAIL here is not hidden by an inconclusive frozen stack. */
    if (moved && moved < ATTEMPTS)
        check_inconclusive(c, "stack while frozen", "moved in %u of %u attempts", moved, ATTEMPTS);
    else
        expect_eq_dec(c, "attempts whose stack moved while frozen", 0, moved);
    if (not_resumed && not_resumed < ATTEMPTS)
        check_inconclusive(c, "stack after the release", "wrong in %u of %u attempts", not_resumed, ATTEMPTS);
    else
        expect_true(c, "stack after the release", !not_resumed, "the workload's last taken branches, as lbr/records",
                    "%u of %u attempts wrong%s", not_resumed, ATTEMPTS,
                    not_resumed ? (resumed.matched ? " (some records right)" : " (no record right)") : "");
    check_note(c, "expected top", "taken branch %d of the workload (the last at or before branch instruction %u)", top,
               k);
    if (fails && fails < ATTEMPTS)
        return check_inconclusive(c, "frozen stack", "in %u of %u attempts the stack was no run of the oracle's "
                                  "branches ending at taken branch %d..%d", fails, ATTEMPTS, lo, hi);
    if (fails)
        expect_true(c, "frozen stack", false, "the oracle's branches ending at the overflow or after it",
                    "no run of them ending at taken branch %d..%d (youngest record 0x%llx -> 0x%llx)", lo, hi,
                    (unsigned long long)lc->obs[0].from, (unsigned long long)lc->obs[0].to);
    else
        expect_true(c, "frozen stack", true, "the oracle's branches ending at the overflow or after it",
                    "ending at taken branch %u, %d after the overflowing one", found_at, (s32)found_at - top);
}

static const struct check_def lbr_checks[] = {
    {"records", records_check, SCOPE_PER_CPU, NO_FAULT},
    {"filter_cpl", filter_cpl_check, SCOPE_PER_CPU, NO_FAULT},
    {"filter_type", filter_type_check, SCOPE_PER_CPU, NO_FAULT},
    {"freeze_on_pmi", freeze_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_lbr = {"lbr", "Last Branch Records exactly against the single-step oracle", true,
                                SUITE_CHECKS(lbr_checks)};
