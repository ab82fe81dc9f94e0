/* Suite uncore's register checks (uncore_checks.h), each scope's part on its leader: enumeration, register widths and
 * the shared view, enable through the global control, the fixed clock's rate against the TSC. */
#include <string.h>

#include "emul/kernel/uncore_emul.h"
#include "kernel/safe.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "tests/uncore/uncore_checks.h"
#include "tests/uncore/portable/uncore_regs.h"

#define WINDOW_US 50    /* a counter that counts the uncore clock moves by ~10^5 over this */
#define RATE_US 2000    /* the clock-rate window */

struct regs_job {
    const struct uncore_kind_desc *k;
    struct uncore_regs regs;
    u32 readable, total;
    u32 width_ok, width_bad_msr;
    u64 width_bad_value;
    u64 pattern, seen;
    u64 off, on1, on2, stop1, stop2;
    u64 t0a, t0b, t1a, t1b, f0, f1;
    u32 scope, cores;
    u64 boxes_value[4];  /* what each group's box-count register read (hardware) */
    int boxes_fault[4];
};
static struct regs_job jobs[UNCORE_SCOPE_MAX];

static void find_regs(struct regs_job *j)
{
    uncore_regs_find(&j->regs, uncore_access(), j->k, j->cores);
}

static void enumerate_on_leader(void *arg)
{
    struct regs_job *j = arg;
    const struct uncore_kind_desc *k = j->k;
    find_regs(j);
    u64 v;
    for (size_t i = 0; i < k->boxes_len && i < 4; i++)
        if (k->boxes[i].boxes_msr)
            j->boxes_fault[i] = rdmsr_safe(k->boxes[i].boxes_msr, &j->boxes_value[i]);
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

/* The counters the descriptor gives this scope: the box counts capped by its cores and by the box-count register
 * (the emulated face's value, or what the part's own read on hardware; a read that faults caps by the cores alone). */
static u32 expected_counters(struct check *c, const struct regs_job *j)
{
    const struct uncore_kind_desc *k = j->k;
    u32 n = k->fixed.ctl ? 1 : 0;
    for (size_t i = 0; i < k->boxes_len; i++) {
        const struct uncore_box_desc *b = &k->boxes[i];
        u32 boxes = b->boxes;
        if (b->boxes_capped_by_cores && boxes > j->cores)
            boxes = j->cores;
        if (b->boxes_msr) {
            bool hw = uncore_on_hw;
            u64 v = hw ? j->boxes_value[i < 4 ? i : 0] : k->emul->boxes_msr_value;
            int fault = hw ? j->boxes_fault[i < 4 ? i : 0] : 0;
            if (hw)
                check_note(c, "box_count", "%s: MSR 0x%x %s", b->name, b->boxes_msr,
                           fault ? "faults: boxes capped by the cores" : "read");
            if (hw && !fault)
                check_note(c, "box_count_value", "0x%llx, mask 0x%llx: %llu box(es)", (unsigned long long)v,
                           (unsigned long long)b->boxes_mask, (unsigned long long)(v & b->boxes_mask));
            if (fault && boxes > j->cores)
                boxes = j->cores;
            else if (!fault && (v & b->boxes_mask) < boxes)
                boxes = (u32)(v & b->boxes_mask);
        }
        n += boxes * b->counters;
    }
    return n;
}

void uncore_enumeration(struct check *c)
{
    const struct uncore_kind_desc *k = uncore_check_begin_fail_on_fault(c, UNCORE_PLAN_ANY);
    if (!k)
        return;
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        memset(j, 0, sizeof(*j));
        j->k = k;
        j->cores = uncore_scope_cores(k, s);
        check_key_prefix(c, uncore_scope_prefix[s % 8]);
        check_note(c, "leader", "cpu%u of %u thread(s), %u core(s)", uncore_plan.leader[s], uncore_plan.threads[s],
                   uncore_plan.cores[s]);
        if (!smp_run_on(uncore_plan.leader[s], enumerate_on_leader, j, UNCORE_RUN_ON_MS)) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, uncore_plan.leader[s]);
            continue;
        }
        expect_eq_dec(c, "counters found (general and fixed, from the descriptor)", expected_counters(c, j),
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
    for (u32 i = 0; i < uncore_ncpu; i++)
        if (uncore_cpu_scope[i] == s && i != uncore_plan.leader[s])
            return i;
    return UINT32_MAX;
}

void uncore_register_widths(struct check *c)
{
    const struct uncore_kind_desc *k = uncore_check_begin(c, UNCORE_PLAN_ANY);
    if (!k)
        return;
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        jobs[s].k = k;
        jobs[s].scope = s;
        jobs[s].cores = uncore_scope_cores(k, s);
        if (!smp_run_on(uncore_plan.leader[s], widths_on_leader, &jobs[s], UNCORE_RUN_ON_MS))
            check_fail(c, "scope %u's leader cpu%u did not answer", s, uncore_plan.leader[s]);
    }
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        check_key_prefix(c, uncore_scope_prefix[s % 8]);
        expect_eq_dec(c, "counters that keep exactly their width of an all-ones write", j->regs.ncounters,
                      j->width_ok);
        if (j->width_bad_msr)
            check_note(c, "first_wrong_width", "MSR 0x%x read 0x%llx", j->width_bad_msr,
                       (unsigned long long)j->width_bad_value);
        u32 sib = sibling_of(s);
        if (sib != UINT32_MAX) {
            struct regs_job view = *j;
            smp_run_on(sib, read_first_counter, &view, UNCORE_RUN_ON_MS);
            check_note(c, "shared_view", "cpu%u reads what leader cpu%u wrote to MSR 0x%x", sib, uncore_plan.leader[s],
                       j->regs.c[0].ctr);
            expect_eq(c, "the leader's write, read by another thread of the scope", j->pattern, view.seen);
        } else {
            check_note(c, "shared_view", "no other thread in this scope to compare");
        }
        for (u32 o = 0; o < uncore_plan.nscopes; o++) {
            if (o == s)
                continue;
            struct regs_job view = *j;
            smp_run_on(uncore_plan.leader[o], read_first_counter, &view, UNCORE_RUN_ON_MS);
            expect_true(c, "another scope's counter is its own", view.seen != j->pattern, "not the pattern",
                        "cpu%u read 0x%llx", uncore_plan.leader[o], (unsigned long long)view.seen);
        }
    }
    for (u32 s = 0; s < uncore_plan.nscopes; s++)
        smp_run_on(uncore_plan.leader[s], restore_on_leader, &jobs[s], UNCORE_RUN_ON_MS);
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

void uncore_global_enable(struct check *c)
{
    const struct uncore_kind_desc *k = uncore_check_begin(c, UNCORE_PLAN_FIXED);
    if (!k)
        return;
    if (!k->global.ctrl) {
        check_skip(c, "%s: no global control", k->name);
        return;
    }
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        j->k = k;
        j->cores = uncore_scope_cores(k, s);
        check_key_prefix(c, uncore_scope_prefix[s % 8]);
        bool answered = true, bad = true;
        u32 ran = 0;
        while (bad && ran < uncore_attempts()) {
            ran++;
            if (!(answered = smp_run_on(uncore_plan.leader[s], enable_on_leader, j, UNCORE_RUN_ON_MS)))
                break;
            bad = j->off || j->on2 <= j->on1 || j->stop1 != j->stop2;
        }
        if (!answered) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, uncore_plan.leader[s]);
            continue;
        }
        uncore_note_attempts(c, ran, bad);
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

void uncore_fixed_clock_rate(struct check *c)
{
    const struct uncore_kind_desc *k = uncore_check_begin(c, UNCORE_PLAN_FIXED);
    if (!k)
        return;
    if (!timing.tsc_hz) {
        check_skip(c, "the TSC's rate is not known (timing found no clock to measure it)");
        return;
    }
    for (u32 s = 0; s < uncore_plan.nscopes; s++) {
        struct regs_job *j = &jobs[s];
        j->k = k;
        j->cores = uncore_scope_cores(k, s);
        check_key_prefix(c, uncore_scope_prefix[s % 8]);
        struct uncore_clock_judgement cj;
        enum uncore_outcome o = UNCORE_FAIL;
        bool answered = true;
        u32 ran = 0;
        while (o == UNCORE_FAIL && ran < uncore_attempts()) {
            ran++;
            if (!(answered = smp_run_on(uncore_plan.leader[s], rate_on_leader, j, UNCORE_RUN_ON_MS)))
                break;
            u64 tsc_delta = (j->t1a + j->t1b) / 2 - (j->t0a + j->t0b) / 2;
            u64 gap = j->t0b - j->t0a > j->t1b - j->t1a ? j->t0b - j->t0a : j->t1b - j->t1a;
            o = uncore_on_hw ? uncore_clock_sanity_judge(j->f1 - j->f0, tsc_delta, timing.tsc_hz, &cj)
                             : uncore_clock_judge(j->f1 - j->f0, tsc_delta, timing.tsc_hz, uncore_emul_clock_hz(),
                                                  uncore_clock_tolerance_ppm(tsc_delta, gap), &cj);
        }
        if (!answered) {
            check_fail(c, "scope %u's leader cpu%u did not answer", s, uncore_plan.leader[s]);
            continue;
        }
        uncore_note_attempts(c, ran, o == UNCORE_FAIL);
        char buf[512];
        struct strbuf sb;
        sb_init(&sb, buf, sizeof(buf));
        uncore_clock_describe(&cj, &sb);
        if (uncore_on_hw)
            check_note(c, "tsc_hz", "%llu (the TSC's measured rate; the fixed counter's rate beside it, observed_hz)",
                       (unsigned long long)timing.tsc_hz);
        else
            check_note(c, "expected_rate_from", "the emulated face %s", k->emul->name);
        uncore_check_verdict(c, "the fixed counter's rate against the TSC", o, buf);
    }
    check_key_prefix(c, NULL);
}

