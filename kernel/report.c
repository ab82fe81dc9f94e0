/* TAP version 13 writer (testanything.org/tap-version-13-specification.html): test lines, directives,
 * YAML diagnostics, the plan at the end, then the plain summary line `N passed, N failed, N skipped`. */
#include "kernel/report.h"

#include <stdarg.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/lib/format.h"
#include "kernel/x86.h"
#include "tests/framework.h"

static struct {
    u32 number, passed, failed, skipped, todo;
    u32 verbose;
    enum exit_mode exit;
} rep;

void report_begin(const struct options *o)
{
    rep.verbose = o->verbose;
    rep.exit = o->exit;
    kprintf("TAP version 13\n");
}

void report_header(const struct boot_info *bi, const struct options *o, const struct cpu_ident *id)
{
    kprintf("# pmuboot %s\n", PMUBOOT_VERSION);
    kprintf("# boot: %s via %s, info at 0x%llx (%u bytes)\n", bi->has_loader ? bi->loader : "(no loader name)",
            boot_protocol_name(bi->protocol), (unsigned long long)bi->info_phys, bi->info_size);
    kprintf("# cmdline: \"%s\"\n", bi->cmdline);
    kprintf("# options: suite=%s exclude=%s verbose=%u exit=%s console=ttyS%u,%u\n",
            o->suites[0] ? o->suites : "(default)", o->exclude[0] ? o->exclude : "(none)", o->verbose,
            o->exit == EXIT_QEMU ? "qemu" : o->exit == EXIT_REBOOT ? "reboot" : "halt", o->console_port,
            o->console_baud);
    u32 cap = suites_concurrency();
    if (o->run_serial)
        kprintf("# run: serial\n");
    else if (cap >= MAX_CPUS)
        kprintf("# run: parallel\n");
    else
        kprintf("# run: parallel, at most %u CPUs at once (%s)\n", cap, o->run_cpus ? "run_cpus=" : "QEMU TCG default");
    char buf[512];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    cpu_ident_describe(id, &sb);
    for (const char *p = buf; *p;) { /* one comment line per line of the description */
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        kprintf("# %.*s\n", n, p);
        p += n + (nl ? 1 : 0);
    }
}

/* The YAML block of a check, two spaces in. A block the buffer cut loses its cut line (it ends in "...": an
 * unclosed YAML string would break the stream) and says so. */
static void put_block(struct strbuf *sb, const struct check *c)
{
    const char *p = c->diag_buf;
    if (!*p)
        return;
    sb_printf(sb, "  ---\n");
    while (*p) {
        const char *nl = strchr(p, '\n');
        if (!nl && c->diag.truncated)
            break;
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        sb_printf(sb, "  %.*s\n", n, p);
        p += n + (nl ? 1 : 0);
    }
    if (c->diag.truncated)
        sb_printf(sb, "  \"diagnostics truncated\": \"the block outgrew its %u-byte buffer; later lines dropped (the "
                      "verdict counts every expectation)\"\n", (unsigned)sizeof(c->diag_buf));
    sb_printf(sb, "  ...\n");
}

u32 report_render(const struct check *c, char *buf, u32 size)
{
    static const char *const directive[] = {
        [VERDICT_PASS] = "", [VERDICT_FAIL] = "", [VERDICT_SKIP] = " # SKIP ", [VERDICT_TODO_FAIL] = " # TODO ",
        [VERDICT_TODO_PASS] = " # TODO "};
    enum check_verdict v = check_verdict(c);
    struct strbuf sb;
    sb_init(&sb, buf, size);
    sb_printf(&sb, " - %s%s%s\n", c->name, directive[v], directive[v][0] ? c->reason : "");
    size_t line = sb.len;
    if (rep.verbose >= 1 || v != VERDICT_PASS)
        put_block(&sb, c);
    if (sb.truncated) { /* no room for the block: keep the verdict, say what was dropped */
        sb.len = line;
        sb.truncated = false;
        buf[line] = '\0';
        sb_printf(&sb, "  ---\n  \"diagnostics dropped\": \"the report buffer of this CPU was full\"\n  ...\n");
    }
    return (u32)sb.len;
}

void report_emit(u32 verdict, const char *text, u32 len)
{
    enum check_verdict v = (enum check_verdict)verdict;
    console_lock();
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
    console_unlock();
}

void report_check(const struct check *c)
{
    static char buf[REPORT_RECORD_MAX]; /* under the lock below: one CPU reports directly at a time */
    static volatile u32 lock;
    while (__sync_lock_test_and_set(&lock, 1))
        cpu_relax();
    u32 len = report_render(c, buf, sizeof(buf));
    report_emit((u32)check_verdict(c), buf, len);
    __sync_lock_release(&lock);
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
    char buf[400];
    k_vsnprintf(buf, sizeof(buf), fmt, ap);
    if (comment_hook && comment_hook(buf))
        return;
    kprintf("# %s\n", buf);
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
    if (rep.verbose < 2)
        return;
    va_list ap;
    va_start(ap, fmt);
    vcomment(fmt, ap);
    va_end(ap);
}

u32 report_failed_count(void)
{
    return rep.failed;
}

void report_finish(void)
{
    if (rep.todo)
        kprintf("# %u expected failure(s) or known deviation(s) marked TODO above\n", rep.todo);
    kprintf("1..%u\n", rep.number);
    kprintf("%u passed, %u failed, %u skipped\n", rep.passed, rep.failed, rep.skipped);
    kernel_exit(rep.failed == 0, rep.exit);
}

void report_bail_out(const char *why)
{
    console_recover();
    kprintf("Bail out! %s\n", why);
    kprintf("%u passed, %u failed, %u skipped\n", rep.passed, rep.failed + 1, rep.skipped);
    kernel_exit(false, rep.exit);
}
