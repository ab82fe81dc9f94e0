/* Check bookkeeping, verdicts and the suite runner. */
#include "tests/framework.h"

#include <stdarg.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/pmu_emul.h"
#include "kernel/report.h"
#include "kernel/smp.h"
#include "kernel/traps.h"
#include "kernel/x86.h"

struct check_fault_log check_fault_logs[MAX_CPUS];

static void yaml_str(struct strbuf *sb, const char *s)
{
    sb_printf(sb, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_printf(sb, "\\%c", *s);
        else if (*s == '\n')
            sb_printf(sb, "\\n");
        else
            sb_printf(sb, "%c", *s);
    }
    sb_printf(sb, "\"");
}

/* Keys are quoted: check labels such as "#PF CR2" would otherwise start a YAML comment. */
static void yaml_key(struct strbuf *sb, const char *key)
{
    yaml_str(sb, key);
    sb_printf(sb, ": ");
}

static bool tally(struct check *c, bool ok)
{
    c->expectations++;
    if (!ok)
        c->failures++;
    return ok;
}

bool expect_eq(struct check *c, const char *what, u64 expected, u64 observed)
{
    yaml_key(&c->diag, what);
    sb_printf(&c->diag, "{expected: 0x%llx, observed: 0x%llx, tolerance: 0}\n", (unsigned long long)expected,
              (unsigned long long)observed);
    return tally(c, expected == observed);
}

bool expect_eq_dec(struct check *c, const char *what, u64 expected, u64 observed)
{
    yaml_key(&c->diag, what);
    sb_printf(&c->diag, "{expected: %llu, observed: %llu, tolerance: 0}\n", (unsigned long long)expected,
              (unsigned long long)observed);
    return tally(c, expected == observed);
}

bool expect_within(struct check *c, const char *what, s64 expected, s64 observed, u64 tolerance,
                   const char *unit)
{
    u64 diff = observed > expected ? (u64)(observed - expected) : (u64)(expected - observed);
    yaml_key(&c->diag, what);
    sb_printf(&c->diag, "{expected: %lld, observed: %lld, tolerance: %llu, unit: %s}\n", (long long)expected,
              (long long)observed, (unsigned long long)tolerance, unit);
    return tally(c, diff <= tolerance);
}

bool expect_true(struct check *c, const char *what, bool ok, const char *expected, const char *observed_fmt, ...)
{
    char obs[160];
    va_list ap;
    va_start(ap, observed_fmt);
    k_vsnprintf(obs, sizeof(obs), observed_fmt, ap);
    va_end(ap);
    yaml_key(&c->diag, what);
    sb_printf(&c->diag, "{expected: ");
    yaml_str(&c->diag, expected);
    sb_printf(&c->diag, ", observed: ");
    yaml_str(&c->diag, obs);
    sb_printf(&c->diag, ", tolerance: exact}\n");
    return tally(c, ok);
}

void check_note(struct check *c, const char *key, const char *fmt, ...)
{
    char val[240];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(val, sizeof(val), fmt, ap);
    va_end(ap);
    yaml_key(&c->diag, key);
    yaml_str(&c->diag, val);
    sb_printf(&c->diag, "\n");
}

static void set_reason(struct check *c, const char *fmt, va_list ap)
{
    k_vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
    /* A TAP directive ends at the line, and '#' would start another: drop '#', fold newlines. */
    char *out = c->reason;
    for (const char *p = c->reason; *p; p++)
        if (*p != '#')
            *out++ = *p == '\n' ? ' ' : *p;
    *out = '\0';
}

void check_skip(struct check *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_reason(c, fmt, ap);
    va_end(ap);
    c->skipped = true;
}

void check_todo(struct check *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_reason(c, fmt, ap);
    va_end(ap);
    c->todo = true;
}

void check_fail(struct check *c, const char *fmt, ...)
{
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    sb_printf(&c->diag, "failure: ");
    yaml_str(&c->diag, msg);
    sb_printf(&c->diag, "\n");
    tally(c, false);
}

enum check_verdict check_verdict(const struct check *c)
{
    bool failed = c->failures > 0 || c->no_verdict;
    if (c->todo)
        return failed ? VERDICT_TODO_FAIL : VERDICT_TODO_PASS;
    if (failed)
        return VERDICT_FAIL;
    if (c->skipped)
        return VERDICT_SKIP;
    return VERDICT_PASS;
}

void check_exception(struct check *c, const struct fault_record *f)
{
    c->faulted = true;
    c->fault = *f;
    struct check_fault_log *log = &check_fault_logs[this_cpu()->index];
    if (log->count == CHECK_FAULT_LOG) {
        memmove(&log->entries[0], &log->entries[1], sizeof(log->entries[0]) * (CHECK_FAULT_LOG - 1));
        log->count--;
    }
    log->entries[log->count++] = *f;
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

void cpu_unblock_nmi(void);

/* Suites whose every verdict concerns the PMU (or its interrupt); in other suites the checks named pmu_* (init,
 * reset) and those that touch the emulated PMU are marked. */
static bool pmu_suite(const char *name)
{
    return !strncmp(name, "pmu", 3) || !strcmp(name, "pmi");
}

static void run_one(const struct suite *s, const struct check_def *d, struct cpu *cpu)
{
    static struct check checks[MAX_CPUS]; /* too big for the stack; one per CPU */
    struct check *c = &checks[cpu->index];
    memset(c, 0, sizeof(*c));
    c->def = d;
    c->cpu = cpu;
    sb_init(&c->diag, c->diag_buf, sizeof(c->diag_buf));
    if (d->scope == SCOPE_PER_CPU)
        k_snprintf(c->name, sizeof(c->name), "cpu%u/%s/%s", cpu->index, s->name, d->name);
    else
        k_snprintf(c->name, sizeof(c->name), "%s/%s", s->name, d->name);

    u64 flags = read_flags();
    u64 emul_uses = pmu_emul_uses(cpu->index);
    cpu->current_check = c;
    if (k_setjmp(cpu->check_jmp) == 0) {
        d->run(c);
    } else {
        /* Resumed from the trap handler: leave no trace of the abandoned context. */
        cpu->trap_depth = 0;
        console_recover();
        cpu_unblock_nmi();
    }
    cpu->current_check = NULL;
    if (flags & RFLAGS_IF)
        sti();
    else
        cli();

    if (d->expect_vector != NO_FAULT) {
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
    /* pmu=emulated: a verdict of a PMU suite, or of any check that touched the emulated PMU, is evidence about
     * the emulated PMU only, and says so (docs/emulated-pmu.md). */
    c->emulated_pmu = g_pmu_emulated && (pmu_emul_uses(cpu->index) != emul_uses || pmu_suite(s->name) ||
                                         !strncmp(d->name, "pmu", 3));
    report_check(c);
}

struct per_cpu_job {
    const struct suite *suite;
};

static void run_suite_here(void *arg)
{
    const struct per_cpu_job *job = arg;
    for (u32 i = 0; i < job->suite->count; i++)
        if (job->suite->checks[i].scope == SCOPE_PER_CPU)
            run_one(job->suite, &job->suite->checks[i], this_cpu());
}

static const struct suite *find_suite(const char *name)
{
    for (u32 i = 0; i < all_suites_count; i++)
        if (!strcmp(all_suites[i]->name, name))
            return all_suites[i];
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
            for (u32 i = 0; i < all_suites_count; i++)
                sb_printf(&sb, " %s", all_suites[i]->name);
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
    for (u32 i = 0; i < all_suites_count; i++) {
        const struct suite *s = all_suites[i];
        bool selected = suites[0] ? list_contains(suites, s->name) : s->in_default;
        if (!selected || list_contains(exclude, s->name))
            continue;
        suites_run_one(s);
    }
}

void suites_run_one(const struct suite *s)
{
    report_debug("suite %s: %s", s->name, s->about);
    struct per_cpu_job job = {s};
    bool per_cpu = false;
    for (u32 k = 0; k < s->count; k++) {
        if (s->checks[k].scope == SCOPE_GLOBAL)
            run_one(s, &s->checks[k], this_cpu());
        else
            per_cpu = true;
    }
    if (per_cpu)
        smp_run_on_each(run_suite_here, &job);
}

void suites_list(void)
{
    for (u32 i = 0; i < all_suites_count; i++)
        report_comment("  suite %-10s %s%s", all_suites[i]->name, all_suites[i]->about,
                       all_suites[i]->in_default ? "" : " (not in the default set)");
}
