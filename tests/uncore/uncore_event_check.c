/* Suite uncore's bounded-event check (uncore_checks.h): an event whose count is at least N for a workload of N
 * distinct lines, each CLFLUSHed, fenced and loaded once (tests/uncore/uncore_lines.asm), run by each scope's
 * leader with every scope's counters counting the kind's at-least-lines event (pmu/uncore_kind_*.c: Nehalem's
 * memory controller normal reads, the client's C-Box LLC lookups of any request, AMD's L3 requests). The count is
 * every scope's counters summed: a Nehalem package's memory controller counts the reads of its own memory, so a
 * line homed on another package is counted there; the scope's own share is in the evidence. Other agents' traffic
 * only adds, so the bound holds; a FAIL repeats (3 attempts on hardware). Under uncore=emulated the workload is
 * single-stepped and the emulated uncore counts what it observes: each first load of a line after a CLFLUSH of it
 * (emul/kernel/uncore_emul.h). */
#include <string.h>

#include "emul/kernel/uncore_emul.h"
#include "kernel/safe.h"
#include "kernel/smp.h"
#include "kernel/x86.h"
#include "lib/format.h"
#include "tests/uncore/uncore_checks.h"
#include "tests/uncore/uncore_lines.h"
#include "tests/uncore/portable/uncore_regs.h"

/* The workload's lines. Single-stepping costs about 7 traps a line under QEMU TCG: 4096 lines keep each scope's part
 * under a second there (docs/uncore.md gives the measured time). */
#define BOUNDED_LINES UNCORE_LINES_MAX

struct event_job {
    const struct uncore_kind_desc *k;
    const struct uncore_event_desc *ev;
    const struct uncore_box_desc *box;
    struct uncore_regs regs;
    u32 cores, boxes;
    u64 count;          /* this scope's counters' sum after the workload (they start at 0) */
    u64 lines_observed; /* emulated: the line fetches the emulated uncore saw */
    int fault;          /* an access that faulted */
};
static struct event_job ejobs[UNCORE_SCOPE_MAX];

/* The first event of the kind bounded by a workload's lines, and the group that counts it. */
static const struct uncore_event_desc *lines_event(const struct uncore_kind_desc *k, const struct uncore_box_desc **b)
{
    for (size_t i = 0; i < k->events_len; i++) {
        const struct uncore_event_desc *e = &k->events[i];
        if (e->bound != UNCORE_BOUND_AT_LEAST_LINES)
            continue;
        for (size_t j = 0; j < k->boxes_len; j++)
            if (!strcmp(k->boxes[j].name, e->box)) {
                *b = &k->boxes[j];
                return e;
            }
    }
    return NULL;
}

/* Counter 0 of every box of the event's group, found by uncore_regs_find (box counts as the part gives them). */
static bool is_event_counter(const struct event_job *j, const struct uncore_counter_ref *r)
{
    return r->box == j->box && r->index == 0;
}

/* The leader of a scope: save, stop, program counter 0 of each box of the group with the event, zero it, start. */
static void arm_on_leader(void *arg)
{
    struct event_job *j = arg;
    const struct uncore_kind_desc *k = j->k;
    uncore_regs_find(&j->regs, uncore_access(), k, j->cores);
    uncore_regs_save(&j->regs);
    j->fault = 0;
    j->boxes = 0;
    if (k->global.ctrl)
        j->fault |= wrmsr_safe(k->global.ctrl, 0);
    u64 enables = 0;
    for (u32 i = 0; i < j->regs.ncounters; i++) {
        const struct uncore_counter_ref *r = &j->regs.c[i];
        if (!is_event_counter(j, r))
            continue;
        j->boxes++;
        u64 sel = (u64)j->ev->umask << 8 | j->ev->event | j->box->sel_enable | j->box->sel_count_all;
        j->fault |= wrmsr_safe(r->ctl, 0);
        j->fault |= wrmsr_safe(r->ctr, 0);
        j->fault |= wrmsr_safe(r->ctl, sel);
        enables |= j->box->global_enable_per_counter ? uncore_box_status_bit(j->box, r->index) : k->global.ctrl_enable;
    }
    if (k->global.ctrl)
        j->fault |= wrmsr_safe(k->global.ctrl, enables);
}

static void read_on_leader(void *arg)
{
    struct event_job *j = arg;
    j->count = 0;
    for (u32 i = 0; i < j->regs.ncounters; i++) {
        const struct uncore_counter_ref *r = &j->regs.c[i];
        u64 v = 0;
        if (!is_event_counter(j, r))
            continue;
        j->fault |= rdmsr_safe(r->ctr, &v);
        j->count += v & uncore_width_mask(r->width);
    }
}

static void restore_event_on_leader(void *arg)
{
    struct event_job *j = arg;
    uncore_regs_restore(&j->regs);
}

/* The workload on the scope's leader, interrupts off, at CPL 0: on a part's own uncore run as it is; with the emulated
 * uncore behind the registers (uncore=emulated, through the hardware path too) single-stepped, the emulated uncore
 * observing it. */
static void workload_on_leader(void *arg)
{
    struct event_job *j = arg;
    u64 f = irq_save();
    if (uncore_emul_kind())
        uncore_emul_run_observed(uncore_lines_touch, BOUNDED_LINES, &j->lines_observed);
    else
        uncore_lines_touch(BOUNDED_LINES);
    irq_restore(f);
}

/* CLFLUSH is there: CPUID.01H:EDX[19] (SDM Vol.2A CPUID, CLFSH). */
static bool has_clflush(void)
{
    u32 a, b, c, d;
    cpuid_count(1, 0, &a, &b, &c, &d);
    return d >> 19 & 1;
}

/* One attempt for scope s: every scope armed, the workload on s's leader, every scope read and put back. Returns
 * the sum; false when a leader did not answer. */
static bool attempt(u32 s, u64 *sum, struct check *c)
{
    u32 n = uncore_plan.nscopes;
    for (u32 o = 0; o < n; o++)
        if (!smp_run_on(uncore_plan.leader[o], arm_on_leader, &ejobs[o], UNCORE_RUN_ON_MS)) {
            check_fail(c, "scope %u's leader cpu%u did not answer", o, uncore_plan.leader[o]);
            return false;
        }
    bool ok = smp_run_on(uncore_plan.leader[s], workload_on_leader, &ejobs[s], UNCORE_RUN_ON_MS * 5);
    *sum = 0;
    for (u32 o = 0; o < n; o++) {
        smp_run_on(uncore_plan.leader[o], read_on_leader, &ejobs[o], UNCORE_RUN_ON_MS);
        smp_run_on(uncore_plan.leader[o], restore_event_on_leader, &ejobs[o], UNCORE_RUN_ON_MS);
        *sum += ejobs[o].count;
    }
    if (!ok)
        check_fail(c, "scope %u's leader cpu%u did not finish the workload", s, uncore_plan.leader[s]);
    return ok;
}

void uncore_bounded_event(struct check *c)
{
    const struct uncore_kind_desc *k = uncore_check_begin(c, UNCORE_PLAN_ANY);
    if (!k)
        return;
    const struct uncore_box_desc *box = NULL;
    const struct uncore_event_desc *ev = lines_event(k, &box);
    if (!ev) {
        check_skip(c, "%s: the kind offers no event bounded by a workload's lines", k->name);
        return;
    }
    if (!has_clflush()) {
        check_skip(c, "no CLFLUSH (CPUID.01H:EDX[19] clear): the workload cannot put its lines out of the caches");
        return;
    }
    u32 n = uncore_plan.nscopes;
    for (u32 o = 0; o < n; o++)
        ejobs[o] = (struct event_job){.k = k, .ev = ev, .box = box, .cores = uncore_scope_cores(k, o)};
    check_note(c, "event", "%s (event 0x%02x umask 0x%02x) on counter 0 of every %s box of each scope, summed over "
               "the scopes", ev->name, ev->event, ev->umask, box->name);
    check_note(c, "workload", "%u distinct lines %u bytes apart in the kernel's memory, each CLFLUSHed, fenced "
               "(MFENCE) and loaded once, by the scope's leader%s", BOUNDED_LINES, UNCORE_LINE_STRIDE,
               uncore_emul_kind() ? " single-stepped, the emulated uncore counting each first load of a line it saw CLFLUSHed" : "");
    for (u32 s = 0; s < n; s++) {
        check_key_prefix(c, uncore_scope_prefix[s % 8]);
        struct uncore_at_least_judgement aj;
        enum uncore_outcome o = UNCORE_FAIL;
        u64 sum = 0;
        u32 ran = 0;
        bool answered = true;
        while (o == UNCORE_FAIL && ran < uncore_attempts()) {
            ran++;
            if (!(answered = attempt(s, &sum, c)))
                break;
            o = uncore_at_least_judge(sum, BOUNDED_LINES, &aj);
        }
        if (!answered)
            continue;
        uncore_note_attempts(c, ran, o == UNCORE_FAIL);
        char share[160];
        struct strbuf sb;
        sb_init(&sb, share, sizeof(share));
        sb_printf(&sb, "%llu on this scope's %u box(es)", (unsigned long long)ejobs[s].count, ejobs[s].boxes);
        if (n > 1)
            sb_printf(&sb, ", %llu on the others'", (unsigned long long)(sum - ejobs[s].count));
        check_note(c, "counts", "%s", share);
        if (uncore_emul_kind())
            check_note(c, "observed_by_the_emulated_uncore", "%llu first load(s) of a line after its CLFLUSH",
                       (unsigned long long)ejobs[s].lines_observed);
        if (ejobs[s].fault)
            check_note(c, "access_fault", "an uncore register access faulted on the leader");
        char buf[256];
        sb_init(&sb, buf, sizeof(buf));
        uncore_at_least_describe(&aj, &sb);
        uncore_check_verdict(c, "the event's count over the workload, at least its lines", o, buf);
    }
    check_key_prefix(c, NULL);
}
