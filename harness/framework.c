/* Check bookkeeping and verdicts (the runner is harness/runner.c). */
#include "harness/framework.h"

#include <stdarg.h>
#include <string.h>

#include "lib/yaml_lines.h"
#include "kernel/traps.h"
#include "kernel/percpu_array.h"

PER_CPU_ARRAY_GLOBAL(struct check_fault_log, check_fault_logs);

static bool tally(struct check *c, bool ok)
{
    c->expectations++;
    if (!ok)
        c->failures++;
    return ok;
}

void check_key_prefix(struct check *c, const char *prefix)
{
    c->key_prefix = prefix;
}

/* The key as written: the pass's prefix, then what. */
#define KEY(c, what, buf) (c->key_prefix ? (k_snprintf(buf, sizeof(buf), "%s%s", c->key_prefix, what), buf) : what)

bool expect_eq(struct check *c, const char *what, u64 expected, u64 observed)
{
    char k[192];
    yaml_equal(&c->diag, KEY(c, what, k), true, expected, observed);
    return tally(c, expected == observed);
}

bool expect_eq_dec(struct check *c, const char *what, u64 expected, u64 observed)
{
    char k[192];
    yaml_equal(&c->diag, KEY(c, what, k), false, expected, observed);
    return tally(c, expected == observed);
}

bool expect_within(struct check *c, const char *what, s64 expected, s64 observed, u64 tolerance,
                   const char *unit)
{
    u64 diff = observed > expected ? (u64)(observed - expected) : (u64)(expected - observed);
    char k[192];
    yaml_key(&c->diag, KEY(c, what, k));
    sb_printf(&c->diag, "{expected: %lld, observed: %lld, tolerance: %llu, unit: %s}\n", (long long)expected,
              (long long)observed, (unsigned long long)tolerance, unit);
    if (unit && !c->has_figure) {
        c->has_figure = true;
        c->figure = observed;
        k_snprintf(c->figure_unit, sizeof(c->figure_unit), "%s", unit);
    }
    return tally(c, diff <= tolerance);
}

/* The observed text and a note are formatted straight into the check's YAML (lib/yaml_lines.h): no smaller buffer
 * on the way cuts them. */
bool expect_true(struct check *c, const char *what, bool ok, const char *expected, const char *observed_fmt, ...)
{
    va_list ap;
    char k[192];
    va_start(ap, observed_fmt);
    yaml_exact_v(&c->diag, KEY(c, what, k), expected, observed_fmt, ap);
    va_end(ap);
    return tally(c, ok);
}

void check_note(struct check *c, const char *key, const char *fmt, ...)
{
    va_list ap;
    char k[192];
    va_start(ap, fmt);
    yaml_note_v(&c->diag, KEY(c, key, k), fmt, ap);
    va_end(ap);
}

/* A TAP directive ends at the line, and '#' would start another: drop '#', fold newlines. */
static void clean_reason(struct check *c)
{
    char *out = c->reason;
    for (const char *p = c->reason; *p; p++)
        if (*p != '#')
            *out++ = *p == '\n' ? ' ' : *p;
    *out = '\0';
}

static void set_reason(struct check *c, const char *fmt, va_list ap)
{
    k_vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
    clean_reason(c);
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

bool check_deviations_strict;

/* A failure recorded as a YAML line `label: "msg"`. */
static void failure_line(struct check *c, const char *label, const char *msg)
{
    yaml_note(&c->diag, label, msg);
    tally(c, false);
}

void check_deviation(struct check *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* A deviation seen is a departure from the manual: an expected failure (not ok # TODO), or with
     * deviations=strict a failure, whether or not an expectation of the check recorded it. */
    failure_line(c, check_deviations_strict ? "known deviation (deviations=strict: a FAIL)" : "known deviation", msg);
    if (!check_deviations_strict) {
        k_snprintf(c->reason, sizeof(c->reason), "%s", msg);
        clean_reason(c);
        c->todo = true;
    }
}

void check_fail(struct check *c, const char *fmt, ...)
{
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    failure_line(c, "failure", msg);
}

void check_inconclusive(struct check *c, const char *what, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    char k[192];
    yaml_key(&c->diag, KEY(c, what, k));
    sb_printf(&c->diag, "{verdict: inconclusive, why: ");
    yaml_str(&c->diag, msg);
    sb_printf(&c->diag, "}\n");
    c->expectations++;
    if (!c->inconclusive++ && !c->todo && !c->skipped) {
        k_snprintf(c->reason, sizeof(c->reason), "inconclusive: %s: %s", what, msg);
        clean_reason(c);
    }
}

enum report_verdict check_verdict(const struct check *c)
{
    bool failed = c->failures > 0 || c->no_verdict;
    if (c->todo)
        return failed || c->inconclusive ? VERDICT_TODO_FAIL : VERDICT_TODO_PASS;
    if (failed)
        return VERDICT_FAIL;
    if (c->inconclusive)
        return VERDICT_TODO_FAIL;
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

void check_time_limit(struct check *c, const struct fault_record *f)
{
    c->timed_out = true;
    c->fault = *f;
}

