/* The suite runner. A suite's global checks run on the boot CPU, alone. Its per-CPU checks run, with run=parallel
 * (the default), on every online CPU at once (the CPU-local ones), then on each CPU in turn (CPUS_OTHERS); with
 * run=serial all of them on each CPU in turn. Every per-CPU verdict goes into its CPU's buffer (cpu_report.c) and
 * is printed CPU by CPU in table order, so both modes give the same stream.
 * The boot CPU supervises the others: a check still running after check_timeout_ms is stopped with an NMI and
 * charged to its CPU and check (catch.c); a CPU that does not answer that NMI, or never starts its work, is
 * reported as stopped answering and left out from then on. The boot CPU's own checks are watched the same way by
 * an idle AP (kernel/bsp_watch.h): so in a phase where APs run checks too, the boot CPU starts its own once an AP
 * is idle to watch it. Where none can, the hardware reset watchdog (hang_guard.h) is the last resort. */
#include <string.h>

#include "apic/apic.h"
#include "lib/bsp_watch_plan.h"
#include "lib/cmdline.h"
#include "kernel/bsp_watch.h"
#include "kernel/console.h"
#include "kernel/boot_state.h"
#include "kernel/memory.h"
#include "emul/kernel/pmu_emul.h"
#include "harness/report.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/traps.h"
#include "kernel/watchdog.h"
#include "kernel/x86.h"
#include "harness/catch.h"
#include "harness/concurrency.h"
#include "harness/cpu_report.h"
#include "harness/framework.h"
#include "harness/hang_guard.h"
#include "harness/tap_report.h"
#include "kernel/percpu_array.h"
#include "harness/portable/harness_options.h"

#define PROGRESS_EVERY_MS 5000
#define NMI_ANSWER_MS 2000 /* after the stopping NMI, how long a CPU has to come back to the runner */

enum job_kind { JOB_LOCAL, JOB_OTHERS, JOB_ALL };

struct job {
    const struct suite *suite;
    enum job_kind kind;
};

/* What each CPU is doing in the current phase; written by that CPU, read by the boot CPU. */
struct cpu_state_run {
    volatile u32 slot;    /* the check running (index in the suite's table) */
    volatile u32 seq;     /* its number on this CPU (struct check_catch seq); 0 = none running */
    volatile u64 since;   /* TSC at its start, or at the last change */
    u32 ticket;           /* of the posted job; 0 = runs on the boot CPU or not posted */
    bool finished, lost, lost_reported;
    u32 stopped_seq;      /* the check the NMI was sent to stop */
    u64 stopped_at;
    u32 lost_slot;
};
PER_CPU_ARRAY(struct cpu_state_run, st);
PER_CPU_ARRAY(bool, in_suite);  /* online when the suite began: runs and gets a line for every per-CPU check */
PER_CPU_ARRAY(bool, no_memory); /* online, but no memory for its check record or report buffer: a FAIL per check */
static u64 last_progress_tsc, suite_start_tsc;
static const struct suite *current_suite;

bool check_alone(void)
{
    return !smp_concurrent(); /* no other CPU may be running a check now */
}

void cpu_unblock_nmi(void);

PER_CPU_ARRAY(bool, buffered_slot_valid);
PER_CPU_ARRAY(u32, buffered_slot);

/* report_comment() from inside a buffered check goes into its CPU's buffer, before its verdict. */
static bool comment_into_buffer(const char *text)
{
    u32 me = this_cpu()->index;
    return buffered_slot_valid[me] && cpu_report_comment(buffered_slot[me], text);
}

/* The exception report required for any exception inside a check: vector, error code, RIP, RSP, CR2,
 * the CPU and the check's name. */
static void describe_fault(struct check *c)
{
    const struct fault_record *f = &c->fault;
    sb_printf(&c->diag,
              "exception: {vector: %u, name: \"%s\", error: 0x%llx, rip: 0x%llx, rsp: 0x%llx, cr2: 0x%llx, "
              "cpu: %u, check: \"%s\"}\n",
              f->vector, exception_name(f->vector), (unsigned long long)f->error, (unsigned long long)f->rip,
              (unsigned long long)f->rsp, (unsigned long long)f->cr2, c->cpu->index, c->name);
}

static void check_name(char *buf, size_t n, const struct suite *s, const struct check_def *d, u32 cpu)
{
    if (d->scope == SCOPE_PER_CPU)
        k_snprintf(buf, n, "cpu%u/%s/%s", cpu, s->name, d->name);
    else
        k_snprintf(buf, n, "%s/%s", s->name, d->name);
}

/* The verdict of a check that ended: deliberate and unexpected exceptions, the time limit, no expectation. */
static void conclude(struct check *c, const struct check_def *d)
{
    if (c->hung)
        return; /* reported as it is: it hung an earlier boot */
    if (d->expect_vector == EXPECT_TIME_LIMIT && c->skipped && !c->timed_out && !c->faulted)
        return; /* a self-test that cannot run here */
    u32 limit = check_limit_ms(harness_options()->check_timeout_ms, d->limit_ms);
    if (d->expect_vector == EXPECT_TIME_LIMIT && !(c->timed_out && c->cpu->index == 0)) {
        if (c->timed_out) {
            check_note(c, "stopped at", "rip 0x%llx after %u ms", (unsigned long long)c->fault.rip, limit);
            check_note(c, "stopped by", "cpu%u's NMI (the runner)", c->stopped_by);
            check_todo(c, "self-test: a check that never returns was stopped at its time limit, run continues");
            c->failures++;
        } else {
            check_fail(c, "expected to be stopped at the time limit; %s",
                       c->faulted ? "an exception was taken" : "it returned");
        }
    } else if (c->timed_out) {
        /* The boot CPU's time_limit (timeout_hang=bsp) is a hang as any check's, reported as one. */
        char after[48];
        if (d->limit_ms > harness_options()->check_timeout_ms)
            k_snprintf(after, sizeof(after), "its own limit of %u ms", limit);
        else
            k_snprintf(after, sizeof(after), "check_timeout_ms=%u", limit);
        check_note(c, "stopped at", "rip 0x%llx", (unsigned long long)c->fault.rip);
        if (c->cpu->index == 0) {
            check_note(c, "stopped by", "cpu%u (APIC ID 0x%x), an idle AP watching the boot CPU: its NMI was answered, "
                       "no reset", c->stopped_by, smp.cpu[c->stopped_by].apic_id);
            check_fail(c, "still running after %s: stopped by cpu%u's NMI (the boot CPU's watcher)", after,
                       c->stopped_by);
        } else {
            check_note(c, "stopped by", "cpu%u's NMI (the runner)", c->stopped_by);
            check_fail(c, "still running after %s: stopped by the runner's NMI", after);
        }
    } else if (d->expect_vector != NO_FAULT) {
        if (c->faulted)
            describe_fault(c);
        if (c->faulted && c->fault.vector == d->expect_vector) {
            check_todo(c, "self-test: deliberate %s caught and reported, run continues",
                       exception_name((u32)d->expect_vector));
            c->failures++;
        } else {
            check_fail(c, "expected the deliberate %s; %s", exception_name((u32)d->expect_vector),
                       c->faulted ? "a different exception was taken" : "no exception was taken");
        }
    } else if (c->faulted) {
        describe_fault(c);
        check_fail(c, "unexpected %s inside the check", exception_name(c->fault.vector));
    } else if (c->expectations == 0 && !c->skipped) {
        c->no_verdict = true;
        sb_printf(&c->diag, "failure: \"check recorded no expectation and no skip reason\"\n");
    }
}

/* Each CPU's check record (4.6 KiB: too big for a stack), allocated by the boot CPU for the CPUs in a suite, so
 * the image does not grow by MAX_CPUS of them: under UEFI (OVMF) a 7.5 MiB image no longer fit the available
 * region it was loaded into. */
static struct check boot_cpu_check;
PER_CPU_ARRAY(struct check *, checks);

static bool check_record_ready(u32 cpu)
{
    if (!checks[cpu])
        checks[cpu] = cpu == 0 ? &boot_cpu_check : early_alloc(sizeof(struct check), 8);
    return checks[cpu] != NULL;
}

/* The boot CPU's checks from suites_run on (the APs are up; the boot suites before them run alone): an idle AP
 * watches each, and a line says when none can, and when one can again. */
static bool watch_on;
static int watched_before = -1; /* whether the previous check was watched; -1: none yet */
static struct {
    u64 tsc;
    u32 limit_ms;
    char name[96];
} longest; /* the boot CPU's longest check: how close a run came to a false stop (said at the end) */

static void watch_begin(u32 seq, const struct check_def *d, const char *name)
{
    if (!watch_on)
        return;
    u32 n = bsp_watch_begin(seq, check_limit_ms(harness_options()->check_timeout_ms, d->limit_ms), name);
    if (!n && watched_before != 0) {
        const char *why = smp_online_count() > 1 ? "every online AP is busy with a call"
                          : smp.count > 1        ? "no AP online: each one lost or never started"
                                                 : "no other CPU";
        kprintf("# runner: no AP can watch the boot CPU's checks from %s on (%s): a hang of the boot CPU there is "
                "%s\n", name, why,
                g_watchdog.present ? "left to the reset watchdog" : "not ended, and no reset watchdog either: the run "
                                                                      "would stop there");
    } else if (n && watched_before == 0) {
        kprintf("# runner: an idle AP watches the boot CPU's checks again from %s on\n", name);
    }
    watched_before = n > 0;
}

/* Run check `slot` of s on this CPU; a per-CPU check's verdict goes into this CPU's buffer. */
static void run_one(const struct suite *s, u32 slot)
{
    const struct check_def *d = &s->checks[slot];
    struct cpu *cpu = this_cpu();
    struct check *c = checks[cpu->index];
    struct cpu_state_run *me = &st[cpu->index];
    struct check_catch *k = catch_here();
    memset(c, 0, sizeof(*c));
    c->def = d;
    c->cpu = cpu;
    sb_init(&c->diag, c->diag_buf, sizeof(c->diag_buf));
    check_name(c->name, sizeof(c->name), s, d, cpu->index);
    bool buffered = d->scope == SCOPE_PER_CPU;
    buffered_slot[cpu->index] = slot;
    buffered_slot_valid[cpu->index] = buffered;

    u64 flags = read_flags();
    u64 emul_uses = pmu_emul_uses(cpu->index);
    me->slot = slot;
    me->since = rdtsc();
    u32 seq = k->seq + 1;
    k->seq = seq;
    __atomic_store_n(&me->seq, seq, __ATOMIC_RELEASE);
    catch_enter(k, c);
    /* The boot CPU under the watchdog: a check that hung it on an earlier boot is reported, not run again. */
    bool bsp = cpu->index == 0, hung = bsp && hang_guard_hung(s, slot, c);
    if (hung) {
        /* reported by hang_guard_hung; why an AP's NMI did not end it first */
        check_note(c, "NMI watch", "no AP's NMI ended it: the NMI went unanswered (NMIs blocked, SMM), no AP could "
                   "watch, or the reset came before the time limit (that boot's '# runner:' lines tell the first two)");
    } else if (k_setjmp(k->resume) == 0) {
        if (bsp) { /* after the setjmp: a fault while arming (a WDAT register) lands here, not in a stale frame */
            hang_guard_enter(s, slot);
            watch_begin(seq, d, c->name);
        }
        k->in_body = true;
        d->run(c);
        k->in_body = false; /* a stop NMI that comes later finds nothing to stop (catch.c) */
    } else {
        /* Resumed from the trap handler: leave no trace of the abandoned context. */
        k->in_body = false;
        cpu->trap_depth = 0;
        console_recover();
        cpu_unblock_nmi();
        if (c->timed_out)
            c->stopped_by = k->abort_from;
    }
    if (bsp) {
        bsp_watch_end();
        hang_guard_leave();
    }
    catch_leave(k);
    /* The time between checks starts now, before seq says "between checks": the supervisor reads seq, then
     * since, and a stale since (the start of a check stopped at its limit) with seq 0 reads as a CPU that
     * stopped answering between checks (seen once in 8 runs of suite=timeout). */
    u64 took = rdtsc() - me->since;
    __atomic_store_n(&me->since, rdtsc(), __ATOMIC_RELEASE);
    __atomic_store_n(&me->seq, 0, __ATOMIC_RELEASE);
    k->abort_seq = 0;
    irq_clear_local(); /* handlers borrowed for the length of the check */
    if (flags & RFLAGS_IF)
        sti();
    else
        cli();

    if (bsp && watch_on && !hung && took > longest.tsc) {
        longest.tsc = took;
        longest.limit_ms = check_limit_ms(harness_options()->check_timeout_ms, d->limit_ms);
        k_snprintf(longest.name, sizeof(longest.name), "%s", c->name);
    }
    conclude(c, d);
    /* pmu=emulated: a verdict of a PMU suite, or of any check that touched the emulated PMU, is evidence about
     * the emulated PMU only, and says so (docs/emulated-pmu.md). */
    c->emulated_pmu = g_pmu_emulated && (pmu_emul_uses(cpu->index) != emul_uses || s->uses_pmu || d->uses_pmu);
    report_debug("%s: %llu us", c->name, (unsigned long long)tsc_to_us(took));
    buffered_slot_valid[cpu->index] = false;
    if (!buffered)
        report_check(c);
    else
        cpu_report_check(slot, c); /* no room: reported as lost when printed */
}

static bool job_wants(const struct job *j, const struct check_def *d)
{
    if (d->scope != SCOPE_PER_CPU)
        return false;
    return j->kind == JOB_ALL || (j->kind == JOB_OTHERS) == (d->cpus == CPUS_OTHERS);
}

static void progress(bool force);

static void run_job_here(void *arg)
{
    const struct job *j = arg;
    for (u32 i = 0; i < j->suite->count; i++) {
        if (job_wants(j, &j->suite->checks[i]))
            run_one(j->suite, i);
        if (this_cpu()->index == 0)
            progress(false);
    }
}

static u32 cpus_finished(void)
{
    u32 n = 0;
    for (u32 i = 0; i < smp.count; i++)
        n += in_suite[i] && st[i].finished;
    return n;
}

static void progress(bool force)
{
    u64 now = rdtsc();
    if (!force && now - last_progress_tsc < us_to_tsc(PROGRESS_EVERY_MS * 1000ull))
        return;
    last_progress_tsc = now;
    u32 in = 0;
    for (u32 i = 0; i < smp.count; i++)
        in += in_suite[i];
    report_comment("progress: suite %s, %llu ms: %u of %u CPUs idle", current_suite->name,
                   (unsigned long long)tsc_to_us(now - suite_start_tsc) / 1000, cpus_finished(), in);
}

static void mark_lost(u32 i, const char *why)
{
    struct cpu_state_run *r = &st[i];
    r->lost = r->finished = true;
    cpu_report_freeze(i);
    smp.cpu[i].state = CPU_UNRESPONSIVE;
    kprintf("# runner: cpu%u (APIC ID %u) stopped answering in suite %s (%s); it is left out from now on\n", i,
            smp.cpu[i].apic_id, current_suite->name, why);
}

/* One look at an AP's work: finished, over its time limit (stop the check), or not answering. */
static void supervise(u32 i)
{
    struct cpu_state_run *r = &st[i];
    if (r->finished || !r->ticket)
        return;
    if (smp_call_done(i, r->ticket)) {
        r->finished = true;
        return;
    }
    u32 seq = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);
    u32 own = current_suite->checks[r->slot < current_suite->count ? r->slot : 0].limit_ms;
    u64 now = rdtsc(), limit = us_to_tsc(check_limit_ms(harness_options()->check_timeout_ms, own) * 1000ull);
    u64 since = __atomic_load_n(&r->since, __ATOMIC_ACQUIRE);
    if (r->stopped_seq && r->stopped_seq == seq) {
        if (now - r->stopped_at > us_to_tsc(NMI_ANSWER_MS * 1000ull))
            mark_lost(i, "no answer to the NMI that stops a check past its time limit");
        return;
    }
    if (now - since <= limit || now < since)
        return;
    if (!seq) { /* between checks, or never started: the runner itself does not answer */
        mark_lost(i, "no progress between checks");
        return;
    }
    r->stopped_seq = seq;
    r->stopped_at = now;
    catch_request_stop(i, seq, 0);
}

static void start_on(u32 i, struct job *j)
{
    st[i].stopped_seq = 0;
    st[i].slot = 0;
    st[i].since = rdtsc();
    st[i].ticket = smp_call_post(i, run_job_here, j);
    if (!st[i].ticket && !st[i].lost)
        mark_lost(i, "not online at the start of the phase");
}

/* Run job on the CPUs in `which` (the boot CPU among them or not) and wait for them. */
static void run_phase(const bool *which, enum job_kind kind)
{
    struct job j = {current_suite, kind};
    u32 n = 0;
    for (u32 i = 0; i < smp.count; i++)
        n += which[i];
    u32 cap = MIN(suites_concurrency(), n), running = which[0], next = 1, busy = 0;
    smp_set_concurrent(cap > 1);
    for (u32 i = 0; i < smp.count || i == 0; i++)
        if (which[i])
            st[i].finished = false;
    /* At most `cap` CPUs run at once (run_cpus=); the next one starts when one finishes. The boot CPU runs its own
     * checks once an AP is idle to watch them (or none can ever be), and supervises the others until then. */
    for (;;) {
        for (; next < smp.count && running < cap; next++) {
            if (!which[next])
                continue;
            start_on(next, &j);
            running += !st[next].finished;
            busy += !st[next].finished;
        }
        u32 idle_ap;
        if (which[0] && !st[0].finished && bsp_watch_may_start(bsp_watch_idle_aps(&idle_ap, 1), busy)) {
            run_job_here(&j);
            st[0].finished = true;
        }
        bool all = next >= smp.count && (!which[0] || st[0].finished);
        busy = 0;
        for (u32 i = 1; i < next; i++) {
            if (!which[i])
                continue;
            supervise(i);
            all = all && st[i].finished;
            busy += !st[i].finished;
        }
        running = busy + (which[0] && !st[0].finished);
        if (all)
            break;
        if (running >= cap || next >= smp.count) {
            progress(false);
            smp_pause();
        }
    }
    smp_set_concurrent(false);
}

/* A blank record for check `slot` of cpu, for a verdict the runner gives itself. */
static struct check *runner_record(const struct suite *s, u32 slot, u32 cpu)
{
    static struct check c; /* the boot CPU prints alone */
    memset(&c, 0, sizeof(c));
    c.def = &s->checks[slot];
    c.cpu = &cpus[cpu];
    sb_init(&c.diag, c.diag_buf, sizeof(c.diag_buf));
    check_name(c.name, sizeof(c.name), s, c.def, cpu);
    return &c;
}

/* A line for a check whose verdict is not in the buffer: its CPU stopped answering in it or before it, or the
 * buffer was full. */
static void report_missing(const struct suite *s, u32 slot, u32 cpu)
{
    struct check *c = runner_record(s, slot, cpu);
    struct cpu_state_run *r = &st[cpu];
    if (r->lost && !r->lost_reported) { /* the first check without a verdict: where it stopped */
        r->lost_reported = true;
        r->lost_slot = slot;
        check_fail(c, "cpu%u stopped answering %s (no verdict, and no answer to the runner)", cpu,
                   r->seq && r->slot == slot ? "in this check" : "before this check");
    } else if (r->lost)
        check_skip(c, "cpu%u stopped answering in or before %s/%s", cpu, s->name, s->checks[r->lost_slot].name);
    else
        check_fail(c, "verdict lost: the report buffer of cpu%u was full", cpu);
    report_check(c);
}

/* Check `slot` of a CPU that had no memory to run its checks. */
static void print_no_memory(const struct suite *s, u32 slot, u32 cpu)
{
    struct check *c = runner_record(s, slot, cpu);
    check_fail(c, "not run: no memory below 4 GiB for cpu%u's check record (%u bytes) and report buffer "
               "(%u bytes); %llu KiB were taken from the memory map", cpu, (u32)sizeof(struct check),
               CPU_REPORT_BYTES, (unsigned long long)(memory_allocated() / 1024));
    report_check(c);
}

static void print_cpu(const struct suite *s, u32 cpu)
{
    for (u32 k = 0; k < s->count; k++) {
        if (s->checks[k].scope != SCOPE_PER_CPU)
            continue;
        if (no_memory[cpu])
            print_no_memory(s, k, cpu);
        else if (!cpu_report_print_slot(cpu, k))
            report_missing(s, k, cpu);
    }
}

/* fold=on: check by check, the agreeing threads' verdicts as one line each (cpu_report_print_folded), then
 * those of the threads that had none. in_suite is false for a CPU without memory (no_memory). */
static void print_folded(const struct suite *s, const bool *in_suite)
{
    PER_CPU_ARRAY(bool, found);
    for (u32 k = 0; k < s->count; k++) {
        if (s->checks[k].scope != SCOPE_PER_CPU)
            continue;
        cpu_report_print_folded(k, in_suite, found);
        for (u32 i = 0; i < smp.count || i == 0; i++) {
            if (no_memory[i]) {
                print_no_memory(s, k, i);
            } else if (in_suite[i] && !found[i]) {
                cpu_report_print_comments(i, k); /* what it said before it stopped, or before its buffer filled */
                report_missing(s, k, i);
            }
        }
    }
}

void suites_run_one(const struct suite *s)
{
    u32 global = 0, per_cpu = 0, others = 0, n = 0;
    for (u32 k = 0; k < s->count; k++) {
        global += s->checks[k].scope == SCOPE_GLOBAL;
        per_cpu += s->checks[k].scope == SCOPE_PER_CPU;
        others += s->checks[k].scope == SCOPE_PER_CPU && s->checks[k].cpus == CPUS_OTHERS;
    }
    current_suite = s;
    suite_start_tsc = last_progress_tsc = rdtsc();
    report_set_comment_hook(comment_into_buffer);
    PER_CPU_CLEAR(st);
    check_record_ready(0); /* global checks run on the boot CPU */
    u32 unfunded = 0;
    for (u32 i = 0; i < smp.count || i == 0; i++) {
        in_suite[i] = per_cpu && (i == 0 || smp.cpu[i].state == CPU_ONLINE);
        /* A CPU is never left out in silence: without memory its checks are not run, and each one FAILs. */
        no_memory[i] = in_suite[i] && !(check_record_ready(i) && cpu_report_reset(i));
        if (no_memory[i]) {
            in_suite[i] = false;
            unfunded++;
        }
        n += in_suite[i];
    }
    if (unfunded)
        report_comment("runner: no memory for the check record or report buffer of %u CPUs: their checks are not "
                       "run and each FAILs (memory taken so far: %llu KiB)", unfunded,
                       (unsigned long long)(memory_allocated() / 1024));
    bool serial = harness_options()->run_serial || n == 1;
    report_comment("suite %s: %s", s->name, s->about);
    if (per_cpu)
        report_comment("suite %s: %u global, %u per-CPU checks (%u involving other CPUs) on %u CPUs", s->name,
                       global, per_cpu, others, n);
    for (u32 k = 0; k < s->count; k++)
        if (s->checks[k].scope == SCOPE_GLOBAL)
            run_one(s, k);
    if (!per_cpu)
        return;
    PER_CPU_ARRAY(bool, which);
    /* Printed as each CPU finishes (serial, unfolded) or once all have (folding needs every thread's verdict). */
    bool streaming = serial && !harness_options()->fold;
    if (!serial)
        run_phase(in_suite, JOB_LOCAL);
    for (u32 i = 0; i < smp.count || i == 0; i++) {
        if (!in_suite[i]) {
            if (streaming && no_memory[i])
                print_cpu(s, i);
            continue;
        }
        if (!st[i].lost && (serial || others)) {
            PER_CPU_CLEAR(which);
            which[i] = true;
            run_phase(which, serial ? JOB_ALL : JOB_OTHERS);
        }
        if (streaming)
            print_cpu(s, i);
    }
    if (harness_options()->fold)
        print_folded(s, in_suite);
    else if (!serial)
        for (u32 i = 0; i < smp.count || i == 0; i++)
            if (in_suite[i] || no_memory[i])
                print_cpu(s, i);
    report_comment("progress: suite %s done in %llu ms", s->name,
                   (unsigned long long)tsc_to_us(rdtsc() - suite_start_tsc) / 1000);
}

static const struct suite *find_suite(const char *name)
{
    for (u32 i = 0; i < suites_count(); i++)
        if (!strcmp(suites_at(i)->name, name))
            return suites_at(i);
    return NULL;
}

static bool validate_list(const char *list, const char *opt, char *err, size_t err_size)
{
    char item[64];
    const char *cur = list;
    while (list_next(&cur, item, sizeof(item))) {
        if (!find_suite(item)) {
            struct strbuf sb;
            sb_init(&sb, err, err_size);
            sb_printf(&sb, "unknown suite '%s' in %s= (suites:", item, opt);
            for (u32 i = 0; i < suites_count(); i++)
                sb_printf(&sb, " %s", suites_at(i)->name);
            sb_printf(&sb, ")");
            return false;
        }
    }
    return true;
}

bool suites_validate(const char *suites, const char *exclude, char *err, size_t err_size)
{
    return validate_list(suites, "suite", err, err_size) && validate_list(exclude, "exclude", err, err_size);
}

void suites_run(const char *suites, const char *exclude)
{
    watch_on = true; /* the APs are up: from now on an idle one watches the boot CPU's checks */
    /* The command line keeps the reset watchdog WATCHDOG_MARGIN_MS longer than check_timeout_ms
     * (harness/portable/harness_options.c): the idle AP's NMI, and the boot CPU's answer to it, come first. */
    _Static_assert(WATCHDOG_MARGIN_MS > BSP_WATCH_ANSWER_MS, "the reset watchdog would come before the NMI's answer");
    for (u32 i = 0; i < suites_count(); i++) {
        const struct suite *s = suites_at(i);
        bool selected = suites[0] ? list_contains(suites, s->name) : s->in_default;
        if (!selected || list_contains(exclude, s->name))
            continue;
        suites_run_one(s);
    }
    if (longest.tsc)
        report_comment("runner: the boot CPU's longest check: %s, %llu ms (its time limit %u ms)", longest.name,
                       (unsigned long long)tsc_to_us(longest.tsc) / 1000, longest.limit_ms);
}

void suites_after_run(void)
{
    for (u32 i = 0; i < suites_count(); i++)
        if (suites_at(i)->after_run)
            suites_at(i)->after_run();
}

void suites_list(void)
{
    for (u32 i = 0; i < suites_count(); i++)
        report_comment("  suite %-10s %s%s", suites_at(i)->name, suites_at(i)->about,
                       suites_at(i)->in_default ? "" : " (not in the default set)");
}
