/* What each verdict line of the checklist says: a check's name, directive and YAML block (rendered here, emitted
 * by harness/report.c, which numbers and counts them), and the header and closing lines that describe the run. */
#include "harness/tap_report.h"

#include <string.h>

#include "kernel/console.h"
#include "kernel/percpu.h"
#include "emul/kernel/pmu_emul.h"
#include "harness/report.h"
#include "kernel/smp.h"
#include "kernel/x86.h"
#include "lib/format.h"
#include "emul/model/pmu_model.h"
#include "harness/concurrency.h"
#include "harness/framework.h"
#include "emul/options.h"
#include "emul/kernel/uncore_emul.h"
#include "harness/portable/harness_options.h"
#include "kernel/portable/kernel_options.h"

void tap_report_header(const struct boot_info *bi, const struct options *o, const struct cpu_ident *id)
{
    kprintf("# pmuboot %s\n", PMUBOOT_VERSION);
    kprintf("# boot: %s via %s, info at 0x%llx (%u bytes)\n", bi->has_loader ? bi->loader : "(no loader name)",
            boot_protocol_name(bi->protocol), (unsigned long long)bi->info_phys, bi->info_size);
    kprintf("# cmdline: \"%s\"\n", bi->cmdline);
    kprintf("# options: suite=%s exclude=%s verbose=%u fold=%s exit=%s console=%s\n",
            harness_options()->suites[0] ? harness_options()->suites : "(default)", harness_options()->exclude[0] ? harness_options()->exclude : "(none)", harness_options()->verbose,
            harness_options()->fold ? "on" : "off",
            kernel_options()->exit == EXIT_QEMU ? "qemu" : kernel_options()->exit == EXIT_REBOOT ? "reboot" : "halt", o->console);
    u32 cap = suites_concurrency();
    if (harness_options()->run_serial)
        kprintf("# run: serial\n");
    else if (cap >= MAX_CPUS)
        kprintf("# run: parallel\n");
    else
        kprintf("# run: parallel, at most %u CPUs at once (%s)\n", cap, harness_options()->run_cpus ? "run_cpus=" : "QEMU TCG default");
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
        if (emul_options()->pmu_part[0])
            kprintf("# pmu: emulated as the part %s of the event catalog (pmu_part=): its signature 0x%08x, %u GP "
                    "counters, %u fixed, and its catalog events\n", emul_options()->pmu_part, g_pmu_emul_kind->signature,
                    g_pmu_emul_kind->num_gp, g_pmu_emul_kind->num_fixed);
        if (emul_options()->pmu_emulated_kvm)
            kprintf("# pmu: emulated as a KVM guest's vPMU (@kvm): CPUID.01H:ECX[31] set, signature KVMKVMKVM; "
                    "verdicts that depend on a hypervisor take that path\n");
        char faults[200];
        struct strbuf fb;
        sb_init(&fb, faults, sizeof(faults));
        for (u32 i = 0; i < PMU_MODEL_FAULT_COUNT; i++)
            if (emul_options()->pmu_faults & (1u << i))
                sb_printf(&fb, "%s%s", fb.len ? "," : "", pmu_model_fault_name(1u << i));
        if (emul_options()->pmu_faults)
            kprintf("# pmu_fault: %s (deliberate misbehaviour: the checks that catch it must fail)\n", faults);
    }
    uncore_emul_report(); /* the emulated uncore, or the one the CPU's recognition found and why */
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

/* monitor=lava: "pmuboot-result: ID RESULT[ VALUE UNIT]", ID the check's name with '/' as '.' (cpu3.apic.tpr), and
 * ".emulated_pmu" after it where the TAP line says [emulated PMU] (a lab must never take it for silicon's result),
 * RESULT pass, fail, skip or todo (a TODO: a known deviation or an inconclusive measurement; the LAVA jobs' fixupdict
 * makes it "unknown"), VALUE UNIT the check's first figure with a unit. One line, so that a monitor's pattern takes
 * it whole (docs/running.md "In a lab"). */
static void put_monitor_line(struct strbuf *sb, const struct check *c, enum report_verdict v)
{
    static const char *const result[] = {[VERDICT_PASS] = "pass", [VERDICT_FAIL] = "fail", [VERDICT_SKIP] = "skip",
                                         [VERDICT_TODO_FAIL] = "todo", [VERDICT_TODO_PASS] = "todo"};
    char id[sizeof(c->name)];
    k_snprintf(id, sizeof(id), "%s", c->name);
    for (char *p = id; *p; p++)
        if (*p == '/')
            *p = '.';
    sb_printf(sb, "pmuboot-result: %s%s %s", id, c->emulated_pmu ? ".emulated_pmu" : "", result[v]);
    if (c->has_figure && v != VERDICT_SKIP)
        sb_printf(sb, " %lld %s", (long long)c->figure, c->figure_unit);
    sb_printf(sb, "\n");
}

u32 report_render(const struct check *c, char *buf, u32 size)
{
    static const char *const directive[] = {
        [VERDICT_PASS] = "", [VERDICT_FAIL] = "", [VERDICT_SKIP] = " # SKIP ", [VERDICT_TODO_FAIL] = " # TODO ",
        [VERDICT_TODO_PASS] = " # TODO "};
    enum report_verdict v = check_verdict(c);
    struct strbuf sb;
    sb_init(&sb, buf, size);
    sb_printf(&sb, " - %s%s%s%s\n", c->name, c->emulated_pmu ? " [emulated PMU]" : "", directive[v],
              directive[v][0] ? c->reason : "");
    size_t line = sb.len;
    if (report_verbose() >= 1 || v != VERDICT_PASS)
        put_block(&sb, c);
    if (harness_options()->monitor)
        put_monitor_line(&sb, c, v);
    if (sb.truncated) { /* no room for the block: keep the verdict, say what was dropped */
        sb.len = line;
        sb.truncated = false;
        buf[line] = '\0';
        sb_printf(&sb, "  ---\n  \"diagnostics dropped\": \"the report buffer of this CPU was full\"\n  ...\n");
    }
    return (u32)sb.len;
}

u32 report_verdict_kind(const struct check *c)
{
    return (u32)check_verdict(c) | (c->emulated_pmu ? REPORT_EMULATED : 0);
}

void report_check(const struct check *c)
{
    static char buf[REPORT_RECORD_MAX]; /* under the lock below: one CPU reports directly at a time */
    static volatile u32 lock;
    while (__sync_lock_test_and_set(&lock, 1))
        cpu_relax();
    u32 len = report_render(c, buf, sizeof(buf));
    report_emit(report_verdict_kind(c), buf, len);
    __sync_lock_release(&lock);
}

void tap_report_finish(void)
{
    const struct report_counts *rep = report_counts();
    for (u32 i = 0; g_pmu_emulated && i < smp.count; i++) {
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
                g_pmu_emul_kind->name, rep->emul_passed, rep->emul_failed, rep->emul_skipped,
                rep->passed - rep->emul_passed, rep->failed - rep->emul_failed, rep->skipped - rep->emul_skipped);
    report_finish();
}
