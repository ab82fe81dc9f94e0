/* pmu-decode: decode a CPUID dump into the CPU identification and PMU enumeration the kernel prints, or (--checks)
 * predict from a dump of every logical CPU the verdicts of pmuboot's CPUID-only checks on that machine.
 * Host tool; all decoding and deciding is the portable code the kernel runs (pmu/, with the uncore's recognition in
 * pmu/uncore_kinds.c, lib/cpu_ident.c,
 * tests/smp/portable/topology.c, tests/smp/portable/features_compare.c, tests/pmu_enum/portable/pmu_enum_judge.c; tests/host/support/checks_predict.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpu_ident.h"
#include "lib/format.h"
#include "pmu/cpuid_dump.h"
#include "pmu/pmu_caps.h"
#include "pmu/uncore_kind.h"
#include "tests/host/support/checks_predict.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pmu-decode [--cpu N | --all] [--perf-capabilities VALUE] DUMP\n"
            "       pmu-decode --checks DUMP\n"
            "\n"
            "Decode a CPUID dump (file name, or - for standard input) and print the CPU identification and\n"
            "PMU enumeration exactly as pmuboot prints them at boot, and which uncore PMU it recognises and why.\n"
            "\n"
            "--checks: the dump holds every logical CPU of one machine; print, as a TAP 13 stream with the kernel's\n"
            "check names, the verdicts pmuboot's CPUID-only checks would give there (smp/topology once, then per\n"
            "thread cpu<i>/smp/features, cpu<i>/pmu_enum/discover, cpu<i>/pmu_enum/consistent), decided by the\n"
            "kernel's own code. A FAIL line names the register or field that differs, reference vs this thread.\n"
            "\n"
            "Dump formats: Debian `cpuid -r` (lines \"   0x0000000a 0x00: eax=0x... ebx=0x... ecx=0x... edx=0x...\",\n"
            "several CPUs allowed), AIDA64/InstLatx64 (\"CPUID 0000000A: 07300404-00000000-00000000-00000603\",\n"
            "subleaves tagged \"[SL 01]\"), and \"CPUID 0000000a:00 = 07300404 00000000 00000000 00000603\".\n"
            "Each logical CPU starts at its leaf 0. Leaves absent from the dump are treated as absent.\n"
            "\n"
            "  --cpu N                    decode logical CPU N of the dump (0-based; default 0)\n"
            "  --all                      decode every logical CPU in the dump\n"
            "  --perf-capabilities VALUE  also decode this IA32_PERF_CAPABILITIES (MSR 0x345) value\n"
            "  --checks                   predict the CPUID-only checks on every logical CPU of the dump\n"
            "  --help                     this text\n"
            "\n"
            "Exit status: 0 decoded (--checks: and no FAIL predicted), 1 the dump could not be read or parsed,\n"
            "2 bad usage, 3 (--checks) a FAIL is predicted.\n");
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "pmu-decode: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    int err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf || err) {
        fprintf(stderr, "pmu-decode: %s: %s\n", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static bool parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    *out = strtoull(s, &end, 0);
    return *s && !*end && errno == 0;
}

/* Wraps the dump's source to note every leaf the decoders asked for that the dump does not hold. */
struct missing_log {
    struct cpuid_source inner;
    unsigned n;
    struct {
        u32 leaf, subleaf;
    } q[32];
};

static bool logging_query(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    struct missing_log *log = ctx;
    if (log->inner.query(log->inner.ctx, leaf, subleaf, r))
        return true;
    for (unsigned i = 0; i < log->n; i++)
        if (log->q[i].leaf == leaf && log->q[i].subleaf == subleaf)
            return false;
    if (log->n < sizeof(log->q) / sizeof(log->q[0])) {
        log->q[log->n].leaf = leaf;
        log->q[log->n].subleaf = subleaf;
        log->n++;
    }
    return false;
}

/* Decode one CPU; false (after printing file:line: what) when the dump is bad. */
static bool decode(const char *path, const char *text, size_t len, unsigned cpu, bool have_pc,
                   unsigned long long pc, unsigned *cpus_seen)
{
    static struct cpuid_dump dump; /* large: keep it off the stack */
    if (!cpuid_dump_parse(&dump, text, len, cpu)) {
        if (dump.err_line)
            fprintf(stderr, "%s:%u: %s\n", path, dump.err_line, dump.err);
        else
            fprintf(stderr, "%s: %s\n", path, dump.err);
        return false;
    }
    *cpus_seen = dump.cpus_seen;
    struct missing_log log = {.n = 0};
    cpuid_dump_source(&dump, &log.inner);
    struct cpuid_source src = {logging_query, &log};
    struct cpu_ident id;
    struct pmu_caps caps;
    cpu_ident_decode(&id, &src);
    pmu_discover(&caps, &id, &src);
    if (have_pc)
        pmu_caps_apply_perf_capabilities(&caps, pc);

    static char buf[8192];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    sb_printf(&sb, "dump: %s, logical CPU %u of %u (%u CPUID leaves)\n", path, cpu, dump.cpus_seen, dump.count);
    for (unsigned i = 0; i < log.n; i++)
        sb_printf(&sb, "dump: CPUID 0x%08x subleaf 0x%x was asked for but is not in the dump: treated as absent\n",
                  log.q[i].leaf, log.q[i].subleaf);
    cpu_ident_describe(&id, &sb);
    pmu_caps_describe(&caps, &sb);
    struct uncore_recognition uncore;
    uncore_recognise(&src, &uncore);
    uncore_recognition_describe(&uncore, &sb);
    fputs(buf, stdout);
    return true;
}

int main(int argc, char **argv)
{
    unsigned long long cpu = 0, pc = 0;
    bool all = false, have_pc = false, have_cpu = false, checks = false;
    const char *path = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--cpu") && i + 1 < argc) {
            if (!parse_u64(argv[++i], &cpu) || cpu > 0xffffffffull) {
                fprintf(stderr, "pmu-decode: --cpu needs a CPU number, got \"%s\"\n", argv[i]);
                return 2;
            }
            have_cpu = true;
        } else if (!strcmp(a, "--all")) {
            all = true;
        } else if (!strcmp(a, "--checks")) {
            checks = true;
        } else if (!strcmp(a, "--perf-capabilities") && i + 1 < argc) {
            if (!parse_u64(argv[++i], &pc)) {
                fprintf(stderr, "pmu-decode: --perf-capabilities needs a number, got \"%s\"\n", argv[i]);
                return 2;
            }
            have_pc = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pmu-decode: unknown or incomplete option \"%s\" (try --help)\n", a);
            return 2;
        } else if (path) {
            fprintf(stderr, "pmu-decode: one dump at a time (got \"%s\" and \"%s\")\n", path, a);
            return 2;
        } else {
            path = a;
        }
    }
    if (!path) {
        usage(stderr);
        return 2;
    }
    if (all && have_cpu) {
        fprintf(stderr, "pmu-decode: --cpu and --all exclude each other\n");
        return 2;
    }
    if (checks && (all || have_cpu || have_pc)) {
        fprintf(stderr, "pmu-decode: --checks predicts every thread from CPUID alone: no --cpu, --all or "
                        "--perf-capabilities with it\n");
        return 2;
    }
    size_t len;
    char *text = read_all(path, &len);
    if (!text)
        return 1;
    if (checks) {
        struct checks_summary sum;
        char err[256];
        bool ok = checks_predict(path, text, len, stdout, &sum, err, sizeof(err));
        free(text);
        if (!ok) {
            fprintf(stderr, "%s: %s\n", path, err);
            return 1;
        }
        return sum.failed ? 3 : 0;
    }
    unsigned cpus = 0;
    bool ok = decode(path, text, len, (unsigned)cpu, have_pc, pc, &cpus);
    for (unsigned c = 1; ok && all && c < cpus; c++) {
        fputs("\n", stdout);
        ok = decode(path, text, len, c, have_pc, pc, &cpus);
    }
    free(text);
    return ok ? 0 : 1;
}
