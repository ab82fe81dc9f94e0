/* TAP version 13 writer (testanything.org/tap-version-13-specification.html): test lines, directives,
 * YAML diagnostics, the plan at the end, then the plain summary line `N passed, N failed, N skipped`. */
#include "kernel/report.h"

#include <stdarg.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/fbcon.h"
#include "kernel/lib/format.h"
#include "kernel/pmu_emul.h"
#include "pmu/model/pmu_model.h"
#include "tests/framework.h"

static struct {
    u32 number, passed, failed, skipped, todo;
    u32 emul_passed, emul_failed, emul_skipped; /* of those, verdicts on the emulated PMU */
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
    kprintf("# options: suite=%s exclude=%s verbose=%u exit=%s console=%s\n",
            o->suites[0] ? o->suites : "(default)", o->exclude[0] ? o->exclude : "(none)", o->verbose,
            o->exit == EXIT_QEMU ? "qemu" : o->exit == EXIT_REBOOT ? "reboot" : "halt", o->console);
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
    if (g_pmu_emulated) {
        kprintf("# pmu: emulated (%s) \xe2\x80\x94 not hardware: every PMU verdict below is about a software reference "
                "PMU and is marked [emulated PMU]\n", g_pmu_emul_kind->name);
        char faults[200];
        struct strbuf fb;
        sb_init(&fb, faults, sizeof(faults));
        for (u32 i = 0; i < PMU_MODEL_FAULT_COUNT; i++)
            if (o->pmu_faults & (1u << i))
                sb_printf(&fb, "%s%s", fb.len ? "," : "", pmu_model_fault_name(1u << i));
        if (o->pmu_faults)
            kprintf("# pmu_fault: %s (deliberate misbehaviour: the checks that catch it must fail)\n", faults);
    }
}

/* YAML-safe verdict reason: TAP directives end at the line; keep reasons on one line. */
static void put_block(const struct check *c)
{
    const char *p = c->diag_buf;
    if (!*p)
        return;
    kprintf_locked("  ---\n");
    while (*p) {
        const char *nl = strchr(p, '\n');
        if (!nl && c->diag.truncated)
            break; /* the line the buffer cut (it ends in "..."): an unclosed YAML string would break the stream */
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        kprintf_locked("  %.*s\n", n, p);
        p += n + (nl ? 1 : 0);
    }
    if (c->diag.truncated)
        kprintf_locked("  \"diagnostics truncated\": \"the block outgrew its %u-byte buffer; later lines dropped (the "
                       "verdict counts every expectation)\"\n", (unsigned)sizeof(c->diag_buf));
    kprintf_locked("  ...\n");
}

void report_check(const struct check *c)
{
    enum check_verdict v = check_verdict(c);
    const char *mark = c->emulated_pmu ? " [emulated PMU]" : "";
    if (c->emulated_pmu) {
        rep.emul_passed += v == VERDICT_PASS || v == VERDICT_TODO_FAIL || v == VERDICT_TODO_PASS;
        rep.emul_failed += v == VERDICT_FAIL;
        rep.emul_skipped += v == VERDICT_SKIP;
    }
    console_lock();
    u32 n = ++rep.number;
    switch (v) {
    case VERDICT_PASS:
        rep.passed++;
        kprintf_locked("ok %u - %s%s\n", n, c->name, mark);
        break;
    case VERDICT_FAIL:
        rep.failed++;
        kprintf_locked("not ok %u - %s%s\n", n, c->name, mark);
        break;
    case VERDICT_SKIP:
        rep.skipped++;
        kprintf_locked("ok %u - %s%s # SKIP %s\n", n, c->name, mark, c->reason);
        break;
    case VERDICT_TODO_FAIL: /* a known deviation: an expected failure, reported, not counted as failed */
        rep.todo++;
        rep.passed++;
        kprintf_locked("not ok %u - %s%s # TODO %s\n", n, c->name, mark, c->reason);
        break;
    case VERDICT_TODO_PASS:
        rep.todo++;
        rep.passed++;
        kprintf_locked("ok %u - %s%s # TODO %s\n", n, c->name, mark, c->reason);
        break;
    }
    if (rep.verbose >= 1 || v != VERDICT_PASS)
        put_block(c);
    fbcon_progress(rep.passed, rep.failed, rep.skipped, c->name, false);
    console_unlock();
}

static void vcomment(const char *fmt, va_list ap)
{
    char buf[400];
    k_vsnprintf(buf, sizeof(buf), fmt, ap);
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
    for (u32 i = 0; g_pmu_emulated && i < MAX_CPUS; i++) {
        const struct pmu_emul_stats *st = pmu_emul_stats(i);
        if (st->msr_routed || st->retired || st->rdpmc_emulated)
            kprintf("# emulated PMU cpu%u: %llu instructions stepped into it, %llu PMIs sent through the local APIC "
                    "(%llu duplicated by a fault), %llu edges lost to a masked LVT, %llu MSR and %llu RDPMC accesses\n",
                    i, (unsigned long long)st->retired, (unsigned long long)st->pmis_sent,
                    (unsigned long long)st->duplicates, (unsigned long long)st->dropped_masked,
                    (unsigned long long)st->msr_routed, (unsigned long long)st->rdpmc_emulated);
    }
    if (g_pmu_emulated)
        kprintf("# emulated-PMU verdicts (pmu=emulated:%s, not hardware): %u passed, %u failed, %u skipped; "
                "hardware verdicts: %u passed, %u failed, %u skipped\n",
                g_pmu_emul_kind->name, rep.emul_passed, rep.emul_failed, rep.emul_skipped,
                rep.passed - rep.emul_passed, rep.failed - rep.emul_failed, rep.skipped - rep.emul_skipped);
    fbcon_report_end();
    kprintf("1..%u\n", rep.number);
    kprintf("%u passed, %u failed, %u skipped\n", rep.passed, rep.failed, rep.skipped);
    fbcon_progress(rep.passed, rep.failed, rep.skipped, "", true);
    kernel_exit(rep.failed == 0, rep.exit);
}

void report_bail_out(const char *why)
{
    console_recover();
    kprintf("Bail out! %s\n", why);
    kprintf("%u passed, %u failed, %u skipped\n", rep.passed, rep.failed + 1, rep.skipped);
    fbcon_progress(rep.passed, rep.failed + 1, rep.skipped, "", true);
    kernel_exit(false, rep.exit);
}
