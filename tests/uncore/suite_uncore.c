/* Suite "uncore" (not in the default set): the uncore PMU shared by a package's threads (docs/uncore.md). With
 * uncore=emulated:FACE every check runs on the emulated uncore (emul/kernel/uncore_emul.h), once per scope (package;
 * L3 complex on AMD) by its leader thread, the verdicts from pmu/uncore_verdict.h, each marked [emulated PMU]; every
 * register written is put back as found. Without it the uncore is recognised from the boot CPU's CPUID and every check
 * SKIPs with what was found (tests/uncore/portable/uncore_plan.c): the per-package checks on hardware are not built. */
#include <string.h>

#include "emul/kernel/pmu_emul.h"
#include "emul/kernel/uncore_emul.h"
#include "harness/framework.h"
#include "kernel/cpuid_hw.h"
#include "kernel/safe.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "tests/uncore/portable/uncore_plan.h"
#include "tests/uncore/portable/uncore_scope.h"
#include "tests/uncore/uncore_protocol.h"
#include "tests/uncore/uncore_regs.h"

#define RUN_ON_MS 2000
#define WINDOW_US 50    /* a counter that counts the uncore clock moves by ~10^5 over this */
#define RATE_US 2000    /* the clock-rate window */

static void skip_with_plan(struct check *c, enum uncore_plan_need need)
{
    struct uncore_recognition r;
    char reason[400];
    uncore_recognise(&cpuid_hw, &r);
    if (r.kind)
        check_note(c, "uncore", "%s", r.kind->title);
    check_skip(c, "%s", uncore_plan_skip_reason(&r, need, reason, sizeof(reason)));
}

/* The emulated machine's scopes: which CPU leads each, and each CPU's scope and core rank. */
static struct uncore_scope_plan plan;
static u32 cpu_scope[UNCORE_PROTO_MAX_CPUS], cpu_core[UNCORE_PROTO_MAX_CPUS];
static u32 ncpu;

static const char *const scope_prefix[] = {"scope0: ", "scope1: ", "scope2: ", "scope3: ",
                                           "scope4: ", "scope5: ", "scope6: ", "scope7: "};

/* The emulated uncore's kind with the plan made, or NULL after a SKIP (no emulated uncore: the recognition's). */
static const struct uncore_kind_desc *begin(struct check *c, enum uncore_plan_need need)
{
    const struct uncore_kind_desc *k = uncore_emul_kind();
    if (!k) {
        skip_with_plan(c, need);
        return NULL;
    }
    pmu_emul_mark_use(); /* the verdict is the emulated uncore's */
    check_note(c, "uncore", "emulated %s: %s, %u scope(s) over %u CPU(s) (docs/uncore.md)", k->emul->name, k->name,
               uncore_emul_scopes(), smp.count ? smp.count : 1);
    static const enum uncore_need needs[] = {
        [UNCORE_PLAN_ROUTING] = UNCORE_NEED_ROUTING,
        [UNCORE_PLAN_FREEZE] = UNCORE_NEED_FREEZE,
        [UNCORE_PLAN_STATUS] = UNCORE_NEED_STATUS,
        [UNCORE_PLAN_FIXED] = UNCORE_NEED_FIXED,
    };
    const char *why;
    if (need != UNCORE_PLAN_ANY && !uncore_kind_can(k, needs[need], &why)) {
        check_skip(c, "%s (emulated %s): %s", k->name, k->emul->name, why);
        return NULL;
    }
    ncpu = smp.count ? smp.count : 1;
    if (ncpu > UNCORE_PROTO_MAX_CPUS)
        ncpu = UNCORE_PROTO_MAX_CPUS;
    u32 skey[UNCORE_PROTO_MAX_CPUS], ckey[UNCORE_PROTO_MAX_CPUS];
    bool present[UNCORE_PROTO_MAX_CPUS];
    for (u32 i = 0; i < ncpu; i++) {
        u32 s = 0, core = 0;
        present[i] = uncore_emul_place(i, &s, &core);
        skey[i] = s;
        ckey[i] = core;
    }
    const char *bad = NULL;
    if (!uncore_scope_plan(skey, ckey, present, ncpu, cpu_scope, cpu_core, &plan, &bad)) {
        check_fail(c, "the scope plan failed: %s", bad);
        return NULL;
    }
    return k;
}

/* A describe function's "key: value" lines as notes. */
static void note_lines(struct check *c, char *buf)
{
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *colon = strstr(line, ": ");
        if (colon) {
            *colon = '\0';
            check_note(c, line, "%s", colon + 2);
        }
        line = nl ? nl + 1 : NULL;
    }
}

static void verdict(struct check *c, const char *what, enum uncore_outcome o, char *evidence)
{
    note_lines(c, evidence);
    expect_true(c, what, o == UNCORE_PASS, "pass", "%s", uncore_outcome_name(o));
}

/* ---- register checks, on each scope's leader ---- */

struct regs_job {
    const struct uncore_kind_desc *k;
    struct uncore_regs regs;
    u32 readable, total;
    u32 width_ok, width_bad_msr;
    u64 width_bad_value;
    u64 pattern, seen;
    u64 off, on1, on2, stop1, stop2;
    u64 t0a, t0b, t1a, t1b, f0, f1;
    u32 scope;
};
static struct regs_job jobs[UNCORE_SCOPE_MAX];

static void find_regs(struct regs_job *j)
{
    uncore_regs_find(&j->regs, j->k, j->k->emul ? j->k->emul->cores_per_scope : 1);
}

static void enumerate_on_leader(void *arg)
{
    struct regs_job *j = arg;
    const struct uncore_kind_desc *k = j->k;
    find_regs(j);
    u64 v;
    j->readable = j->total = 0;
    for (u32 i = 0; i < j->regs.ncounters; i++) {
        j->total += 2;
        j->readable += !rdmsr_safe(j->regs.c[i].ctl, &v) + !rdmsr_safe(j->regs.c[i].ctr, &v);
    }
    if (k->global.ctrl) {
        j->total++;
        j->readable += !rdmsr_safe(k->global.ctrl, &v);
    }
    if (k->global.status) {
        j->total++;
        j->readable += !rdmsr_safe(k->global.status, &v);
    }
}

static u32 expected_counters(const struct uncore_kind_desc *k)
{
    u32 n = k->fixed.ctl ? 1 : 0;
    for (size_t i = 0; i < k->boxes_len; i++) {
        u32 boxes = k->boxes[i].boxes;
        if (k->boxes[i].boxes_capped_by_cores && boxes > k->emul->cores_per_scope)
            boxes = k->emul->cores_per_scope;
        if (k->boxes[i].boxes_msr && (k->emul->boxes_msr_value & k->boxes[i].boxes_mask) < boxes)
            boxes = (u32)(k->emul->boxes_msr_value & k->boxes[i].boxes_mask);
        n += boxes * k->boxes[i].counters;
    }
    return n;
}

static void enumeration(struct check *c)
{
    const struct uncore_kind_desc *k = begin(c, UNCORE_PLAN_ANY);
    if (!k)
        return;
    for (u32 s = 0; s < plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        j->k = k;
        check_key_prefix(c, scope_prefix[s % 8]);
        check_note(c, "leader", "cpu%u of %u thread(s), %u core(s)", plan.leader[s], plan.threads[s], plan.cores[s]);
        if (!smp_run_on(plan.leader[s], enumerate_on_leader, j, RUN_ON_MS)) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, plan.leader[s]);
            continue;
        }
        expect_eq_dec(c, "counters found (general and fixed, from the descriptor)", expected_counters(k),
                      j->regs.ncounters);
        expect_eq_dec(c, "registers that read (selects, counters, global control and status)", j->total, j->readable);
    }
    check_key_prefix(c, NULL);
}

static void widths_on_leader(void *arg)
{
    struct regs_job *j = arg;
    find_regs(j);
    uncore_regs_save(&j->regs);
    if (j->k->global.ctrl)
        wrmsr_safe(j->k->global.ctrl, 0);
    j->width_ok = 0;
    j->width_bad_msr = 0;
    for (u32 i = 0; i < j->regs.ncounters; i++) {
        const struct uncore_counter_ref *r = &j->regs.c[i];
        u64 v = 0;
        wrmsr_safe(r->ctl, 0);
        wrmsr_safe(r->ctr, ~0ull);
        rdmsr_safe(r->ctr, &v);
        if (v == uncore_width_mask(r->width))
            j->width_ok++;
        else if (!j->width_bad_msr) {
            j->width_bad_msr = r->ctr;
            j->width_bad_value = v;
        }
    }
    /* A value the other threads of the scope must read, and the other scopes must not. */
    j->pattern = 0x5a5a5a5a500ull + j->scope;
    wrmsr_safe(j->regs.c[0].ctr, j->pattern);
}

static void read_first_counter(void *arg)
{
    struct regs_job *j = arg;
    j->seen = 0;
    rdmsr_safe(j->regs.c[0].ctr, &j->seen);
}

static void restore_on_leader(void *arg)
{
    struct regs_job *j = arg;
    uncore_regs_restore(&j->regs);
}

/* Another present thread of scope s than its leader, or UINT32_MAX. */
static u32 sibling_of(u32 s)
{
    for (u32 i = 0; i < ncpu; i++)
        if (cpu_scope[i] == s && i != plan.leader[s])
            return i;
    return UINT32_MAX;
}

static void register_widths(struct check *c)
{
    const struct uncore_kind_desc *k = begin(c, UNCORE_PLAN_ANY);
    if (!k)
        return;
    for (u32 s = 0; s < plan.nscopes; s++) {
        jobs[s].k = k;
        jobs[s].scope = s;
        if (!smp_run_on(plan.leader[s], widths_on_leader, &jobs[s], RUN_ON_MS))
            check_fail(c, "scope %u's leader cpu%u did not answer", s, plan.leader[s]);
    }
    for (u32 s = 0; s < plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        check_key_prefix(c, scope_prefix[s % 8]);
        expect_eq_dec(c, "counters that keep exactly their width of an all-ones write", j->regs.ncounters,
                      j->width_ok);
        if (j->width_bad_msr)
            check_note(c, "first_wrong_width", "MSR 0x%x read 0x%llx", j->width_bad_msr,
                       (unsigned long long)j->width_bad_value);
        u32 sib = sibling_of(s);
        if (sib != UINT32_MAX) {
            struct regs_job view = *j;
            smp_run_on(sib, read_first_counter, &view, RUN_ON_MS);
            check_note(c, "shared_view", "cpu%u reads what leader cpu%u wrote to MSR 0x%x", sib, plan.leader[s],
                       j->regs.c[0].ctr);
            expect_eq(c, "the leader's write, read by another thread of the scope", j->pattern, view.seen);
        } else {
            check_note(c, "shared_view", "no other thread in this scope to compare");
        }
        for (u32 o = 0; o < plan.nscopes; o++) {
            if (o == s)
                continue;
            struct regs_job view = *j;
            smp_run_on(plan.leader[o], read_first_counter, &view, RUN_ON_MS);
            expect_true(c, "another scope's counter is its own", view.seen != j->pattern, "not the pattern",
                        "cpu%u read 0x%llx", plan.leader[o], (unsigned long long)view.seen);
        }
    }
    for (u32 s = 0; s < plan.nscopes; s++)
        smp_run_on(plan.leader[s], restore_on_leader, &jobs[s], RUN_ON_MS);
    check_key_prefix(c, NULL);
}

static u64 fixed_global_enable(const struct uncore_kind_desc *k)
{
    return k->fixed.enable_bit ? k->fixed.enable_bit : k->global.ctrl_enable;
}

static void enable_on_leader(void *arg)
{
    struct regs_job *j = arg;
    const struct uncore_kind_desc *k = j->k;
    find_regs(j);
    uncore_regs_save(&j->regs);
    wrmsr_safe(k->global.ctrl, 0);
    wrmsr_safe(k->fixed.ctl, k->fixed.ctl_enable);
    wrmsr_safe(k->fixed.ctr, 0);
    udelay(WINDOW_US);
    rdmsr_safe(k->fixed.ctr, &j->off);
    wrmsr_safe(k->global.ctrl, fixed_global_enable(k));
    rdmsr_safe(k->fixed.ctr, &j->on1);
    udelay(WINDOW_US);
    rdmsr_safe(k->fixed.ctr, &j->on2);
    wrmsr_safe(k->global.ctrl, 0);
    rdmsr_safe(k->fixed.ctr, &j->stop1);
    udelay(WINDOW_US);
    rdmsr_safe(k->fixed.ctr, &j->stop2);
    uncore_regs_restore(&j->regs);
}

static void global_enable(struct check *c)
{
    const struct uncore_kind_desc *k = begin(c, UNCORE_PLAN_FIXED);
    if (!k)
        return;
    if (!k->global.ctrl) {
        check_skip(c, "%s: no global control", k->name);
        return;
    }
    for (u32 s = 0; s < plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        j->k = k;
        check_key_prefix(c, scope_prefix[s % 8]);
        if (!smp_run_on(plan.leader[s], enable_on_leader, j, RUN_ON_MS)) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, plan.leader[s]);
            continue;
        }
        check_note(c, "enable", "fixed counter enabled locally; global control 0x%llx sets it going",
                   (unsigned long long)fixed_global_enable(k));
        expect_eq_dec(c, "fixed counter with the global enable clear (counts nothing)", 0, j->off);
        expect_true(c, "fixed counter with the global enable set", j->on2 > j->on1, "moves",
                    "%llu then %llu", (unsigned long long)j->on1, (unsigned long long)j->on2);
        expect_eq_dec(c, "fixed counter after the global enable is cleared again (stopped)", j->stop1, j->stop2);
    }
    check_key_prefix(c, NULL);
}

static void rate_on_leader(void *arg)
{
    struct regs_job *j = arg;
    const struct uncore_kind_desc *k = j->k;
    find_regs(j);
    uncore_regs_save(&j->regs);
    wrmsr_safe(k->global.ctrl, 0);
    wrmsr_safe(k->fixed.ctr, 0);
    wrmsr_safe(k->fixed.ctl, k->fixed.ctl_enable);
    wrmsr_safe(k->global.ctrl, fixed_global_enable(k));
    u64 f = irq_save(); /* the reads at each end as close together as they go */
    j->t0a = rdtsc();
    rdmsr_safe(k->fixed.ctr, &j->f0);
    j->t0b = rdtsc();
    udelay(RATE_US);
    j->t1a = rdtsc();
    rdmsr_safe(k->fixed.ctr, &j->f1);
    j->t1b = rdtsc();
    irq_restore(f);
    uncore_regs_restore(&j->regs);
}

static void fixed_clock_rate(struct check *c)
{
    const struct uncore_kind_desc *k = begin(c, UNCORE_PLAN_FIXED);
    if (!k)
        return;
    if (!timing.tsc_hz) {
        check_skip(c, "the TSC's rate is not known (timing found no clock to measure it)");
        return;
    }
    for (u32 s = 0; s < plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        j->k = k;
        check_key_prefix(c, scope_prefix[s % 8]);
        if (!smp_run_on(plan.leader[s], rate_on_leader, j, RUN_ON_MS)) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, plan.leader[s]);
            continue;
        }
        u64 tsc_delta = (j->t1a + j->t1b) / 2 - (j->t0a + j->t0b) / 2;
        u64 gap = j->t0b - j->t0a > j->t1b - j->t1a ? j->t0b - j->t0a : j->t1b - j->t1a;
        struct uncore_clock_judgement cj;
        enum uncore_outcome o = uncore_clock_judge(j->f1 - j->f0, tsc_delta, timing.tsc_hz, uncore_emul_clock_hz(),
                                                   uncore_clock_tolerance_ppm(tsc_delta, gap), &cj);
        char buf[512];
        struct strbuf sb;
        sb_init(&sb, buf, sizeof(buf));
        uncore_clock_describe(&cj, &sb);
        check_note(c, "expected_rate_from", "the emulated face %s", k->emul->name);
        verdict(c, "the fixed counter's rate against the TSC", o, buf);
    }
    check_key_prefix(c, NULL);
}

/* ---- the PMI protocol ---- */

struct proto_job {
    const struct uncore_kind_desc *k;
    struct uncore_regs regs;
    u32 selected, ncounters;
    struct uncore_proto_result res;
};
static struct proto_job pjob;

static void proto_on_leader(void *arg)
{
    struct proto_job *j = arg;
    uncore_regs_find(&j->regs, j->k, j->k->emul->cores_per_scope);
    uncore_proto_run(j->k, &j->regs, j->selected, j->ncounters, &j->res);
}

/* The cores selected in scope s: every other core present (ranks 0, 2, ...), so that unselected ones can show a
 * stray PMI; core 0 alone when one is present. Within the routing field's width. */
static u32 selection(const struct uncore_kind_desc *k, u32 s)
{
    u32 m = 0, width = uncore_route_width(k);
    for (u32 r = 0; r < plan.cores[s] && r < width && r < 32; r += 2)
        m |= 1u << r;
    return m;
}

enum judge { JUDGE_ROUTING, JUDGE_FREEZE, JUDGE_STATUS };

/* The YAML key prefixes of a check that runs the protocol in both delivery modes. */
static const char *const fixed_prefix[] = {"fixed scope0: ", "fixed scope1: ", "fixed scope2: ", "fixed scope3: ",
                                           "fixed scope4: ", "fixed scope5: ", "fixed scope6: ", "fixed scope7: "};
static const char *const nmi_prefix[] = {"nmi scope0: ", "nmi scope1: ", "nmi scope2: ", "nmi scope3: ",
                                         "nmi scope4: ", "nmi scope5: ", "nmi scope6: ", "nmi scope7: "};

/* One pass of the protocol on every scope; prefixes: NULL for scope_prefix. */
static void protocol_pass(struct check *c, const struct uncore_kind_desc *k, u32 ncounters, enum judge what, bool nmi,
                          const char *const *prefixes)
{
    for (u32 s = 0; s < plan.nscopes; s++) {
        check_key_prefix(c, (prefixes ? prefixes : scope_prefix)[s % 8]);
        memset(&pjob.res, 0, sizeof(pjob.res));
        pjob.k = k;
        pjob.selected = selection(k, s);
        pjob.ncounters = ncounters;
        uncore_proto_arm_cpus(nmi);
        bool ran = smp_run_on(plan.leader[s], proto_on_leader, &pjob, RUN_ON_MS);
        uncore_proto_disarm_cpus(&pjob.res);
        const struct uncore_proto_result *r = &pjob.res;
        if (!ran) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, plan.leader[s]);
            continue;
        }
        if (!r->armed) {
            check_skip(c, "%s: %s", k->name, r->why_not);
            break;
        }
        check_note(c, "armed", "%u counter(s), status bits 0x%llx, by cpu%u; global control 0x%llx (routing, freeze, "
                   "enables)", r->narmed, (unsigned long long)r->armed_bits, plan.leader[s],
                   (unsigned long long)r->ctrl_before);
        char buf[1024];
        struct strbuf sb;
        sb_init(&sb, buf, sizeof(buf));
        if (what == JUDGE_ROUTING) {
            u32 pmis[UNCORE_SCOPE_MAX_CORES] = {0}, others = 0;
            u64 latency[UNCORE_SCOPE_MAX_CORES] = {0};
            for (u32 i = 0; i < ncpu; i++) {
                if (cpu_scope[i] != s) {
                    others += r->cpu_pmis[i];
                    continue;
                }
                u32 core = cpu_core[i];
                if (core >= UNCORE_SCOPE_MAX_CORES)
                    continue;
                if (r->cpu_pmis[i] && !pmis[core])
                    latency[core] = r->cpu_first_tsc[i] > r->overflow_tsc ? r->cpu_first_tsc[i] - r->overflow_tsc : 0;
                pmis[core] += r->cpu_pmis[i];
            }
            u32 cores = plan.cores[s] < 32 ? plan.cores[s] : 32;
            struct uncore_route_judgement rj;
            enum uncore_outcome o = uncore_route_judge(pjob.selected, pmis, cores, &rj);
            uncore_route_describe(&rj, pmis, cores, &sb);
            uncore_route_latency_describe(latency, pmis, cores, timing.tsc_hz, &sb);
            verdict(c, "one PMI on each selected core, none on the others", o, buf);
            if (plan.nscopes > 1)
                expect_eq_dec(c, "uncore PMIs taken by the other scopes' CPUs", 0, others);
            expect_eq_dec(c, nmi ? "interrupts on the PMI vector while the LVT entries deliver NMIs"
                                 : "NMIs while the LVT entries deliver the PMI vector", 0, r->wrong_mode);
        } else if (!r->handled) {
            check_fail(c, "the release never ran in scope %u (selected 0x%x)", s, pjob.selected);
        } else if (what == JUDGE_FREEZE) {
            if (r->released_by_leader)
                check_note(c, "released_by", "the leader: no PMI reached a core of the scope (pmi_routing judges it)");
            check_note(c, "counters", "at the PMI [0x%llx, 0x%llx], after %u us frozen [0x%llx, 0x%llx], after the "
                       "release [0x%llx, 0x%llx] (second only with two armed)", (unsigned long long)r->at_pmi[0],
                       (unsigned long long)r->at_pmi[1], UNCORE_PROTO_FROZEN_WAIT_US, (unsigned long long)r->later[0],
                       (unsigned long long)r->later[1], (unsigned long long)r->released[0],
                       (unsigned long long)r->released[1]);
            struct uncore_freeze_judgement fj;
            enum uncore_outcome o = uncore_freeze_judge(k, r->width[0], r->at_pmi, r->later, r->released, r->narmed,
                                                        r->ctrl_before, r->ctrl_at_pmi, &fj);
            uncore_freeze_describe(&fj, &sb);
            verdict(c, "frozen at the PMI, counting again after the handler's release", o, buf);
        } else {
            if (r->released_by_leader)
                check_note(c, "released_by", "the leader: no PMI reached a core of the scope (pmi_routing judges it)");
            struct uncore_status_judgement sj;
            enum uncore_outcome o = uncore_status_judge(k, r->armed_bits, true, r->status_at_pmi,
                                                        r->status_after_clear, &sj);
            uncore_status_describe(&sj, &sb);
            verdict(c, "overflow status set at the PMI and cleared by the kind's clear write", o, buf);
        }
    }
    check_key_prefix(c, NULL);
}

static void protocol(struct check *c, enum uncore_plan_need need, u32 ncounters, enum judge what)
{
    const struct uncore_kind_desc *k = begin(c, need);
    if (k)
        protocol_pass(c, k, ncounters, what, false, NULL);
}

/* The routing in both delivery modes of the cores' LVT entries: the PMI vector, then NMI. */
static void pmi_routing(struct check *c)
{
    const struct uncore_kind_desc *k = begin(c, UNCORE_PLAN_ROUTING);
    if (!k)
        return;
    protocol_pass(c, k, 1, JUDGE_ROUTING, false, fixed_prefix);
    protocol_pass(c, k, 1, JUDGE_ROUTING, true, nmi_prefix);
}

static void pmi_routing_simultaneous(struct check *c)
{
    protocol(c, UNCORE_PLAN_ROUTING, 2, JUDGE_ROUTING);
}

static void freeze_on_pmi(struct check *c)
{
    protocol(c, UNCORE_PLAN_FREEZE, 1, JUDGE_FREEZE);
}

static void overflow_status(struct check *c)
{
    protocol(c, UNCORE_PLAN_STATUS, 1, JUDGE_STATUS);
}

static void bounded_event(struct check *c)
{
    const struct uncore_kind_desc *k = begin(c, UNCORE_PLAN_ANY);
    if (k)
        check_skip(c, "the emulated uncore models no cache: its events other than the clock count nothing, so no "
                      "count is bounded by a workload's lines (docs/uncore.md)");
}

static const struct check_def uncore_checks[] = {
    {"enumeration", enumeration, SCOPE_GLOBAL, NO_FAULT},
    {"register_widths", register_widths, SCOPE_GLOBAL, NO_FAULT},
    {"global_enable", global_enable, SCOPE_GLOBAL, NO_FAULT},
    {"pmi_routing", pmi_routing, SCOPE_GLOBAL, NO_FAULT},
    {"pmi_routing_simultaneous", pmi_routing_simultaneous, SCOPE_GLOBAL, NO_FAULT},
    {"freeze_on_pmi", freeze_on_pmi, SCOPE_GLOBAL, NO_FAULT},
    {"overflow_status", overflow_status, SCOPE_GLOBAL, NO_FAULT},
    {"fixed_clock_rate", fixed_clock_rate, SCOPE_GLOBAL, NO_FAULT},
    {"bounded_event", bounded_event, SCOPE_GLOBAL, NO_FAULT},
};

const struct suite suite_uncore = {
    .name = "uncore",
    .about = "the uncore PMU: with uncore=emulated:FACE every check on each package (L3 complex) of the emulated "
             "uncore; otherwise recognition, SKIP with the evidence",
    .in_default = false,
    .checks = uncore_checks,
    .count = ARRAY_SIZE(uncore_checks),
};
