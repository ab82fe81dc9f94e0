/* pmuboot's CPUID-only checks predicted from a whole machine's CPUID dump (checks_predict.h). Every decision is
 * made by the code the kernel's checks call; this file feeds it the dump's threads, in the order the kernel's
 * stream has them, and renders the verdicts the way harness/tap_report.c and harness/framework.c do. */
#include "tests/host/support/checks_predict.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/yaml_lines.h"
#include "lib/cpu_ident.h"
#include "lib/format.h"
#include "tests/smp/portable/topology.h"
#include "pmu/access.h"
#include "pmu/cpuid_dump.h"
#include "pmu/pmu.h"
#include "pmu/pmu_caps.h"
#include "tests/smp/portable/features_compare.h"
#include "tests/pmu_enum/portable/pmu_enum_judge.h"

/* tests/smp/suite_smp.c MAX_CORE_KINDS: smp/features keeps one reference per CPUID.1AH:EAX value, at most this many. */
#define FEATURES_KINDS 8

struct thread {
    struct cpuid_dump dump; /* this thread's leaves; the source below answers from it */
    struct cpuid_source src;
    struct cpu_ident id;
    struct pmu_caps caps;
    struct pmu pmu;
    int init_rc;    /* pmu_init(), as pmu/kernel/pmu_cpu.c calls it */
    bool k7_probe;  /* pmu/kernel/pmu_cpu.c would probe the K7 counters here: MSR writes, not predictable */
    struct features_snapshot feat;
    struct topology topo;
};

/* One check's record, as harness/framework.h keeps it: expectations, failures, SKIP/TODO reason, the YAML block. */
struct pcheck {
    char name[96];
    u32 expectations, failures;
    bool skipped, todo;
    char reason[400];
    char evidence[400]; /* a FAIL's evidence, also on its TAP line */
    struct strbuf diag;
    char diag_buf[16384];
};

static void pc_begin(struct pcheck *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void pc_begin(struct pcheck *c, const char *fmt, ...)
{
    memset(c, 0, sizeof(*c));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->name, sizeof(c->name), fmt, ap);
    va_end(ap);
    sb_init(&c->diag, c->diag_buf, sizeof(c->diag_buf));
}

static void note(struct pcheck *c, const char *key, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void note(struct pcheck *c, const char *key, const char *fmt, ...)
{
    char val[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(val, sizeof(val), fmt, ap);
    va_end(ap);
    yaml_note(&c->diag, key, val);
}

/* The first failure's evidence, for the TAP line. */
static void evidence(struct pcheck *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void evidence(struct pcheck *c, const char *fmt, ...)
{
    if (c->evidence[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->evidence, sizeof(c->evidence), fmt, ap);
    va_end(ap);
}

/* expect_eq (hex) / expect_eq_dec (harness/framework.c), the same YAML. */
static bool expect_equal(struct pcheck *c, const char *what, bool hex, u64 expected, u64 observed)
{
    yaml_equal(&c->diag, what, hex, expected, observed);
    c->expectations++;
    c->failures += expected != observed;
    return expected == observed;
}

/* expect_true (harness/framework.c), the same YAML. */
static bool expect_holds(struct pcheck *c, const char *what, bool ok, const char *expected, const char *observed)
{
    yaml_exact(&c->diag, what, expected, observed);
    c->expectations++;
    c->failures += !ok;
    return ok;
}

/* check_skip / check_todo: a TAP directive ends at the line and '#' would start another (clean_reason). */
static void set_reason(struct pcheck *c, const char *fmt, va_list ap)
{
    char raw[sizeof(c->reason)];
    vsnprintf(raw, sizeof(raw), fmt, ap);
    char *o = c->reason;
    for (const char *p = raw; *p; p++)
        if (*p != '#')
            *o++ = *p == '\n' ? ' ' : *p;
    *o = '\0';
}

static void skip(struct pcheck *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void skip(struct pcheck *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_reason(c, fmt, ap);
    va_end(ap);
    c->skipped = true;
}

static void todo(struct pcheck *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void todo(struct pcheck *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_reason(c, fmt, ap);
    va_end(ap);
    c->todo = true;
}

/* The verdict (check_verdict) and its TAP line and block (report_render, verbose=1: every check's block). A FAIL
 * line carries its evidence after the name, in parentheses. */
static void emit(FILE *out, struct checks_summary *sum, struct pcheck *c)
{
    bool failed = c->failures > 0 || (c->expectations == 0 && !c->skipped && !c->todo);
    if (failed && !c->evidence[0])
        snprintf(c->evidence, sizeof(c->evidence), "%s", c->expectations ? "an expectation failed"
                                                                         : "no expectation recorded");
    u32 n = ++sum->tests;
    if (c->todo) {
        sum->passed++;
        sum->todo++;
        fprintf(out, "%s %u - %s # TODO %s\n", failed ? "not ok" : "ok", n, c->name, c->reason);
    } else if (failed) {
        sum->failed++;
        fprintf(out, "not ok %u - %s (%s)\n", n, c->name, c->evidence);
    } else if (c->skipped) {
        sum->skipped++;
        fprintf(out, "ok %u - %s # SKIP %s\n", n, c->name, c->reason);
    } else {
        sum->passed++;
        fprintf(out, "ok %u - %s\n", n, c->name);
    }
    if (!c->diag.len)
        return;
    fprintf(out, "  ---\n");
    for (const char *p = c->diag_buf; *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        fprintf(out, "  %.*s\n", len, p);
        p += len + (nl ? 1 : 0);
    }
    if (c->diag.truncated)
        fprintf(out, "  \"diagnostics truncated\": \"the block outgrew its buffer\"\n");
    fprintf(out, "  ...\n");
}

/* An access layer that answers every MSR read with #GP and notes that it was asked: pmu_probe_amd_legacy() reads
 * PerfEvtSel0 first exactly when the kernel would probe, so its own conditions decide, not a copy of them. */
struct asked {
    bool msr;
};
static int no_rdmsr(void *ctx, u32 msr, u64 *val)
{
    (void)msr;
    ((struct asked *)ctx)->msr = true;
    *val = 0;
    return HW_GP;
}
static int no_wrmsr(void *ctx, u32 msr, u64 val)
{
    (void)msr, (void)val;
    ((struct asked *)ctx)->msr = true;
    return HW_GP;
}
static int no_rdpmc(void *ctx, u32 ecx, u64 *val)
{
    (void)ctx, (void)ecx;
    *val = 0;
    return HW_GP;
}
static u32 no_apic_read(void *ctx, u32 reg)
{
    (void)ctx, (void)reg;
    return 0;
}
static void no_apic_write(void *ctx, u32 reg, u32 val)
{
    (void)ctx, (void)reg, (void)val;
}
static const struct hw_ops no_hw_ops = {no_rdmsr, no_wrmsr, no_rdpmc, no_apic_read, no_apic_write};

/* What pmu/kernel/pmu_cpu.c pmu_cpu_discover() does on each CPU, from the dump, up to the MSR reads. */
static void discover_thread(struct thread *t)
{
    cpuid_dump_source(&t->dump, &t->src);
    cpu_ident_decode(&t->id, &t->src);
    pmu_discover(&t->caps, &t->id, &t->src);
    struct asked asked = {false};
    struct hw_access hw = {.ops = &no_hw_ops, .ctx = &asked};
    struct pmu_caps probed = t->caps;
    pmu_probe_amd_legacy(&probed, &hw);
    t->k7_probe = asked.msr;
    t->init_rc = pmu_init(&t->pmu, &t->caps, &hw);
    t->pmu.hw = NULL; /* hw is gone after this function; nothing here programs the PMU */
    features_read(&t->src, &t->feat);
    topology_decode(&t->topo, &t->src);
}

/* pmu_cpu_usable() (pmu/kernel/pmu_cpu.c) with the K7 probe, which a dump cannot answer, said so. */
static bool usable(const struct thread *t, struct pcheck *c)
{
    if (t->k7_probe) {
        skip(c, "not predictable from CPUID: %s; the kernel probes the K7 counters here (pmu_probe_amd_legacy: "
                "PerfEvtSel0/PerfCtr0 written and read back, then a count), which a dump cannot",
             t->caps.evidence);
        return false;
    }
    if (!pmu_kind_present(t->caps.kind)) {
        skip(c, "no PMU: %s", t->caps.evidence);
        return false;
    }
    if (t->init_rc) {
        skip(c, "no PMU: %s", t->pmu.error ? t->pmu.error : "pmu_init failed");
        return false;
    }
    return true;
}

/* smp/topology (tests/smp/suite_smp.c topology_check): every thread's decoding, topology_judge(). */
static void topology_predict(FILE *out, struct checks_summary *sum, struct thread *th, u32 n)
{
    static struct pcheck c;
    pc_begin(&c, "smp/topology");
    struct topology *all = calloc(n, sizeof(*all));
    if (!all)
        abort();
    for (u32 i = 0; i < n; i++)
        all[i] = th[i].topo;
    fprintf(out, "# topology (%s): cpu apic_id package die tile module core smt core_type\n", all[0].source);
    for (u32 i = 0; i < n; i++) {
        const struct topology *t = &all[i];
        fprintf(out, "#   cpu%-3u 0x%-6x %7u %3u %4u %6u %4u %3u 0x%02x\n", i, t->apic_id, t->id[TOPO_PACKAGE],
                t->id[TOPO_DIE], t->id[TOPO_TILE], t->id[TOPO_MODULE], t->id[TOPO_CORE], t->id[TOPO_SMT],
                t->core_type);
    }
    u32 dup, mixed;
    topology_judge(all, NULL, n, &dup, &mixed);
    note(&c, "source", "%s", all[0].source);
    note(&c, "shifts", "smt %u, core %u, package %u", all[0].shift[TOPO_SMT], all[0].shift[TOPO_CORE],
         all[0].shift[TOPO_PACKAGE]);
    /* The evidence behind the counts: which threads. */
    for (u32 i = 0, shown = 0; i < n; i++)
        for (u32 k = 0; k < i; k++)
            if (all[k].apic_id == all[i].apic_id) {
                char key[48];
                snprintf(key, sizeof(key), "same APIC ID %u", ++shown);
                note(&c, key, "cpu%u and cpu%u: 0x%x", k, i, all[i].apic_id);
                evidence(&c, "cpu%u and cpu%u share APIC ID 0x%x (%s)", k, i, all[i].apic_id, all[i].source);
            }
    for (u32 i = 0, shown = 0; i < n; i++)
        if (strcmp(all[i].source, all[0].source)) {
            char key[48];
            snprintf(key, sizeof(key), "other source %u", ++shown);
            note(&c, key, "cpu%u from %s, cpu0 from %s", i, all[i].source, all[0].source);
            evidence(&c, "cpu%u decoded from %s, cpu0 from %s", i, all[i].source, all[0].source);
        }
    expect_equal(&c, "threads decoded", false, n, n);
    expect_equal(&c, "threads sharing one topology ID", false, 0, dup);
    expect_equal(&c, "threads decoded from another source", false, 0, mixed);
    free(all);
    emit(out, sum, &c);
}

/* cpu<i>/smp/features (tests/smp/suite_smp.c features_check): one reference per kind, the first thread of it. */
static void features_predict(FILE *out, struct checks_summary *sum, struct thread *th, u32 n)
{
    static const char regs[4][4] = {"EAX", "EBX", "ECX", "EDX"};
    struct {
        bool valid;
        u32 cpu;
    } ref[FEATURES_KINDS] = {{false, 0}};
    static struct pcheck c;
    for (u32 i = 0; i < n; i++) {
        pc_begin(&c, "cpu%u/smp/features", i);
        const struct features_snapshot *now = &th[i].feat;
        u32 slot = 0;
        while (slot < FEATURES_KINDS && ref[slot].valid && th[ref[slot].cpu].feat.kind != now->kind)
            slot++;
        if (slot == FEATURES_KINDS) {
            expect_holds(&c, "core kinds", false, "at most 8 CPUID.1AH:EAX values", "more");
            evidence(&c, "more than %u core kinds (CPUID.1AH:EAX values)", FEATURES_KINDS);
            emit(out, sum, &c);
            continue;
        }
        if (!ref[slot].valid)
            ref[slot].valid = true, ref[slot].cpu = i;
        u32 r = ref[slot].cpu;
        note(&c, "reference", "cpu%u (CPUID.1AH:EAX 0x%08x%s)", r, now->kind,
             now->kind ? ": core type and native model" : ": not hybrid");
        struct features_diff diffs[4 * FEATURES_PROBES_MAX];
        u32 differing = features_compare(&th[r].feat, now, diffs, ARRAY_SIZE(diffs));
        for (u32 k = 0; k < differing && k < ARRAY_SIZE(diffs); k++) {
            const struct features_probe *p = &features_probes[diffs[k].probe];
            char what[32];
            snprintf(what, sizeof(what), "CPUID.%s:%s", p->name, regs[diffs[k].reg]);
            note(&c, what, "reference 0x%08x, this CPU 0x%08x (compared bits 0x%08x)", diffs[k].reference,
                 diffs[k].value, p->mask[diffs[k].reg]);
            evidence(&c, "%s reference 0x%08x on cpu%u, this thread 0x%08x, compared bits 0x%08x; %u register%s "
                         "differ%s",
                     what, diffs[k].reference, r, diffs[k].value, p->mask[diffs[k].reg], differing,
                     differing == 1 ? "" : "s", differing == 1 ? "s" : "");
        }
        expect_equal(&c, "registers differing from the reference", false, 0, differing);
        emit(out, sum, &c);
    }
}

/* cpu<i>/pmu_enum/discover and cpu<i>/pmu_enum/consistent (tests/pmu_enum/suite_pmu_enum.c), thread by thread as the
 * kernel's stream has them. */
static void pmu_enum_predict(FILE *out, struct checks_summary *sum, struct thread *th, u32 n)
{
    static struct pcheck c;
    static char buf[8192];
    for (u32 i = 0; i < n; i++) {
        const struct thread *t = &th[i];
        const struct pmu_caps *k = &t->caps;
        /* discover */
        pc_begin(&c, "cpu%u/pmu_enum/discover", i);
        struct strbuf sb;
        sb_init(&sb, buf, sizeof(buf));
        pmu_caps_describe(k, &sb);
        u32 line = 0;
        for (const char *p = buf; *p; line++) {
            const char *nl = strchr(p, '\n');
            int len = nl ? (int)(nl - p) : (int)strlen(p);
            char key[24];
            snprintf(key, sizeof(key), "caps %u", line + 1);
            note(&c, key, "%.*s", len, p);
            p += len + (nl ? 1 : 0);
        }
        for (u32 q = 0; q < k->num_quirks; q++) {
            char key[24];
            snprintf(key, sizeof(key), "quirk %u", q + 1);
            note(&c, key, "%s", k->quirks[q]);
        }
        if (usable(t, &c)) {
            struct pmu_caps_bound b[PMU_CAPS_BOUNDS];
            for (u32 j = 0, nb = pmu_caps_bounds(k, b); j < nb; j++) {
                char v[16];
                snprintf(v, sizeof(v), "%u", b[j].value);
                if (!expect_holds(&c, b[j].what, b[j].ok, b[j].expected, v))
                    evidence(&c, "%s %u, expected %s", b[j].what, b[j].value, b[j].expected);
            }
            if (k->pdcm)
                note(&c, "IA32_PERF_CAPABILITIES readable (PDCM=1)",
                     "not predicted: the kernel reads MSR 0x345 and requires the read not to fault");
            if (k->version_beyond_known)
                todo(&c, "architectural perfmon v%u is newer than the newest known (v%u): decoded with v%u rules",
                     k->version, PMU_INTEL_NEWEST_KNOWN_VERSION, PMU_INTEL_NEWEST_KNOWN_VERSION);
        }
        emit(out, sum, &c);

        /* consistent: the reference is the first thread of the same kind (the whole CPUID.1AH:EAX) */
        pc_begin(&c, "cpu%u/pmu_enum/consistent", i);
        if (usable(t, &c)) {
            u32 kind = cpu_ident_kind(&t->id), r = 0;
            while (cpu_ident_kind(&th[r].id) != kind)
                r++;
            note(&c, "reference", "cpu%u (CPUID.1AH:EAX 0x%08x: %s core, native model 0x%06x)", r, kind,
                 cpu_core_type_name(t->id.core_type), t->id.native_model_id);
            struct pmu_caps_field f[PMU_CAPS_COMPARED];
            pmu_caps_compare(&th[r].caps, k, f);
            for (u32 j = 0; j < PMU_CAPS_COMPARED; j++)
                if (!expect_equal(&c, f[j].what, f[j].hex, f[j].reference, f[j].value))
                    evidence(&c, f[j].hex ? "%s reference 0x%llx on cpu%u, this thread 0x%llx"
                                          : "%s reference %llu on cpu%u, this thread %llu",
                             f[j].what, (unsigned long long)f[j].reference, r, (unsigned long long)f[j].value);
            if (k->pdcm)
                note(&c, "IA32_PERF_CAPABILITIES",
                     "not in a CPUID dump: 0 on every thread here; the kernel compares each thread's MSR 0x345");
        }
        emit(out, sum, &c);
    }
}

bool checks_predict(const char *name, const char *text, size_t len, FILE *out, struct checks_summary *sum, char *err,
                    size_t err_size)
{
    memset(sum, 0, sizeof(*sum));
    struct cpuid_dump *first = malloc(sizeof(*first));
    if (!first)
        abort();
    if (!cpuid_dump_parse(first, text, len, 0)) {
        if (first->err_line)
            snprintf(err, err_size, "line %u: %s", first->err_line, first->err);
        else
            snprintf(err, err_size, "%s", first->err);
        free(first);
        return false;
    }
    u32 n = first->cpus_seen;
    struct thread *th = calloc(n, sizeof(*th));
    if (!th)
        abort();
    th[0].dump = *first;
    free(first);
    for (u32 i = 1; i < n; i++)
        if (!cpuid_dump_parse(&th[i].dump, text, len, i)) { /* cannot happen: the whole text parsed once */
            snprintf(err, err_size, "logical CPU %u: %s", i, th[i].dump.err);
            free(th);
            return false;
        }
    for (u32 i = 0; i < n; i++)
        discover_thread(&th[i]);
    sum->cpus = n;

    fprintf(out, "TAP version 13\n");
    fprintf(out, "# pmu-decode --checks: %s, %u logical CPUs: the verdicts of pmuboot's CPUID-only checks there, "
                 "predicted by the kernel's own decision code\n", name, n);
    static char buf[4096];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    cpu_ident_describe(&th[0].id, &sb);
    for (const char *p = buf; *p;) {
        const char *nl = strchr(p, '\n');
        int l = nl ? (int)(nl - p) : (int)strlen(p);
        fprintf(out, "# %.*s\n", l, p);
        p += l + (nl ? 1 : 0);
    }
    /* boot/entry.asm: without long mode (CPUID 0x80000001 EDX[29], SDM Vol.2A CPUID) the kernel prints "this CPU
     * has no long mode" on COM1 and halts before the first check: no verdict at all. */
    struct cpuid_regs r8, r81;
    bool lm = cpuid_query(&th[0].src, 0x80000000, 0, &r8) && r8.eax >= 0x80000001 && r8.eax < 0x8000FFFF &&
              cpuid_query(&th[0].src, 0x80000001, 0, &r81) && (r81.edx & BIT(29));
    if (!lm) {
        fprintf(out, "1..0 # SKIP pmuboot does not run here: no long mode (CPUID 0x80000001 EDX[29]=0), "
                     "boot/entry.asm halts before the first check\n");
        fprintf(out, "0 passed, 0 failed, 0 skipped\n");
        free(th);
        return true;
    }
    fprintf(out, "# threads in dump order (the kernel's order is the boot CPU, then the ACPI MADT's); the first "
                 "thread of each kind is its reference\n");
    fprintf(out, "# not predicted (no CPUID input): smp/identity (the APIC ID register), pmu_enum/firmware_state "
                 "(MSRs), IA32_PERF_CAPABILITIES (MSR 0x345)\n");
    topology_predict(out, sum, th, n);
    features_predict(out, sum, th, n);
    pmu_enum_predict(out, sum, th, n);
    fprintf(out, "1..%u\n", sum->tests);
    fprintf(out, "%u passed, %u failed, %u skipped\n", sum->passed, sum->failed, sum->skipped);
    free(th);
    return true;
}
