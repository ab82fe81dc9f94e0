/* The checklist stream: a TAP version 13 writer (testanything.org/tap-version-13-specification.html). It numbers
 * and counts the verdict lines it is given, prints comments, and ends with the plan and the plain summary line
 * `N passed, N failed, N skipped`. What a verdict line says is rendered by harness/tap_report.c. */
#include "harness/report.h"

#include <stdarg.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/fbcon.h"
#include "lib/format.h"
#include "kernel/x86.h"

static struct report_counts rep;
static u32 verbose;
static enum exit_mode exit_mode;

void report_begin(u32 verbosity, enum exit_mode exit)
{
    verbose = verbosity;
    exit_mode = exit;
    kprintf("TAP version 13\n");
}

u32 report_verbose(void)
{
    return verbose;
}

const struct report_counts *report_counts(void)
{
    return &rep;
}

void report_emit(u32 verdict, const char *text, u32 len)
{
    enum report_verdict v = (enum report_verdict)(verdict & ~REPORT_EMULATED);
    console_lock();
    if (verdict & REPORT_EMULATED) {
        rep.emul_passed += v == VERDICT_PASS || v == VERDICT_TODO_FAIL || v == VERDICT_TODO_PASS;
        rep.emul_failed += v == VERDICT_FAIL;
        rep.emul_skipped += v == VERDICT_SKIP;
    }
    u32 n = ++rep.number;
    switch (v) {
    case VERDICT_PASS:
        rep.passed++;
        break;
    case VERDICT_FAIL:
        rep.failed++;
        break;
    case VERDICT_SKIP:
        rep.skipped++;
        break;
    case VERDICT_TODO_FAIL: /* a known deviation: an expected failure, reported, not counted as failed */
    case VERDICT_TODO_PASS:
        rep.todo++;
        rep.passed++;
        break;
    }
    kprintf_locked("%s %u", v == VERDICT_FAIL || v == VERDICT_TODO_FAIL ? "not ok" : "ok", n);
    console_write_locked(text, len);
    /* The screen's status line names the check just reported: the rendered text is " - NAME[ ...]\n". */
    fbcon_progress(rep.passed, rep.failed, rep.skipped, len > 3 ? text + 3 : "", len > 3 ? len - 3 : 0, false);
    console_unlock();
}

void report_emit_text(const char *text, u32 len)
{
    console_lock();
    console_write_locked(text, len);
    console_unlock();
}

static bool (*comment_hook)(const char *text);

void report_set_comment_hook(bool (*hook)(const char *text))
{
    comment_hook = hook;
}

static void vcomment(const char *fmt, va_list ap)
{
    char buf[CONSOLE_COMMENT_MAX];
    k_vsnprintf(buf, sizeof(buf), fmt, ap);
    if (comment_hook && comment_hook(buf))
        return;
    console_comment_line(buf);
}

void report_comment(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vcomment(fmt, ap);
    va_end(ap);
}

void report_debug(const char *fmt, ...)
{
    if (verbose < 2)
        return;
    va_list ap;
    va_start(ap, fmt);
    vcomment(fmt, ap);
    va_end(ap);
}

void report_finish(void)
{
    if (rep.todo)
        kprintf("# %u expected failure(s) or known deviation(s) marked TODO above\n", rep.todo);
    fbcon_report_end();
    kprintf("1..%u\n", rep.number);
    kprintf("%u passed, %u failed, %u skipped\n", rep.passed, rep.failed, rep.skipped);
    fbcon_progress(rep.passed, rep.failed, rep.skipped, "", 0, true);
    kernel_exit(rep.failed == 0, exit_mode);
}

void report_bail_out(const char *why)
{
    console_recover();
    kprintf("Bail out! %s\n", why);
    kprintf("%u passed, %u failed, %u skipped\n", rep.passed, rep.failed + 1, rep.skipped);
    fbcon_progress(rep.passed, rep.failed + 1, rep.skipped, "", 0, true);
    kernel_exit(false, exit_mode);
}
