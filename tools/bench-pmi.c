/* bench-pmi: the cost of the PMI handler (pmu/pmi.c) per PMI, run against the register-level PMU/APIC model
 * (tests/host/support/): PMU/APIC register accesses, counted by the hw_access layer, for one overflow and for
 * every counter of the PMU overflowing at once, per variant. tools/benchmarks/pmi.sh adds instruction counts by
 * running `--loop` under callgrind with --toggle-collect=pmi_handle. Built without sanitizers at -O2 (Makefile).
 *
 *   bench-pmi                          one `name: value unit` line per figure
 *   bench-pmi --loop VARIANT single|all N [PMU]
 *                                      take and handle N PMIs (for callgrind); VARIANT unmask_stopped|late|early|nostop
 *                                      or unmask_stopped_exact (exact reload); PMU default intel_v4 */
#include "tests/host/support/pmi_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAIN_PMU "intel_v4" /* 4 GP + 3 fixed, global control and status: the common case */
#define RUNS 1000

static struct pmi_rig_pmu pmus[16];
static size_t npmus;
static struct pmi_rig rig;

struct variant_opt {
    const char *name; /* as printed: no '-' */
    enum pmi_variant v;
    bool exact;
};

static const struct variant_opt variants[] = {
    {"unmask_stopped", PMI_UNMASK_STOPPED, false}, {"late", PMI_LATE, false},        {"early", PMI_EARLY, false},
    {"nostop", PMI_NO_STOP, false}, {"unmask_stopped_exact", PMI_UNMASK_STOPPED, true},
};

static const struct pmi_rig_pmu *find_pmu(const char *name)
{
    for (size_t i = 0; i < npmus; i++)
        if (!strcmp(pmus[i].name, name))
            return &pmus[i];
    return NULL;
}

static const struct variant_opt *find_variant(const char *name)
{
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        if (!strcmp(variants[i].name, name))
            return &variants[i];
    return NULL;
}

/* Arm the PMU (all its counters for `all`, else its usual set) and return the bits each PMI overflows. */
static u64 setup(const struct pmi_rig_pmu *p, const struct variant_opt *vo, bool all)
{
    struct pmi_rig_opts o = {.variant = vo->v, .apic = MODEL_APIC_STRICT_EDGE, .exact_reload = vo->exact};
    if (all) {
        /* every counter the PMU has */
        struct pmu tmp;
        struct hw_access hw = {0};
        if (pmu_init(&tmp, &p->caps, &hw)) {
            fprintf(stderr, "bench-pmi: %s: pmu_init failed\n", p->name);
            exit(2);
        }
        o.used = tmp.counters;
    }
    const char *err = pmi_rig_setup(&rig, p, &o);
    if (err) {
        fprintf(stderr, "bench-pmi: %s: %s\n", p->name, err);
        exit(2);
    }
    return all ? rig.used : rig.used & (~rig.used + 1);
}

/* N PMIs, each from `bits` overflowing at once; every one must be serviced. Returns accesses per PMI. */
static double run(u64 bits, u32 n)
{
    hw_access_reset_counts(&rig.hw);
    u64 pmis = 0;
    for (u32 i = 0; i < n; i++) {
        if (pmi_rig_overflow(&rig, bits) != bits) {
            fprintf(stderr, "bench-pmi: %s: counters not counting after PMI %u\n", rig.pmu_name, i);
            exit(1);
        }
        pmis += pmi_rig_drain(&rig);
    }
    char why[512];
    if (pmi_rig_check(&rig, why, sizeof(why))) {
        fprintf(stderr, "bench-pmi: %s %s: %s\n", rig.pmu_name, pmi_variant_name(rig.s.variant), why);
        exit(1);
    }
    return pmis ? (double)hw_access_total(&rig.hw) / (double)pmis : 0;
}

static int loop_mode(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: bench-pmi --loop VARIANT single|all N [PMU]\n");
        return 2;
    }
    const struct variant_opt *vo = find_variant(argv[2]);
    bool all = !strcmp(argv[3], "all");
    long n = strtol(argv[4], NULL, 10);
    const struct pmi_rig_pmu *p = find_pmu(argc > 5 ? argv[5] : MAIN_PMU);
    if (!vo || (!all && strcmp(argv[3], "single")) || n <= 0 || !p) {
        fprintf(stderr, "bench-pmi: bad arguments (variant unmask_stopped|late|early|nostop|unmask_stopped_exact, single|all, N > 0, "
                        "PMU as in tests/host/support/pmi_harness.c)\n");
        return 2;
    }
    u64 bits = setup(p, vo, all);
    run(bits, (u32)n);
    printf("%ld PMIs\n", n);
    return 0;
}

static void line(const char *name, double v, const char *unit)
{
    if (v == (double)(u64)v)
        printf("%s: %llu %s\n", name, (unsigned long long)v, unit);
    else
        printf("%s: %.2f %s\n", name, v, unit);
}

int main(int argc, char **argv)
{
    npmus = pmi_rig_pmus(pmus, sizeof(pmus) / sizeof(pmus[0]));
    if (argc > 1 && !strcmp(argv[1], "--loop"))
        return loop_mode(argc, argv);
    if (argc > 1) {
        fprintf(stderr, "usage: bench-pmi [--loop VARIANT single|all N [PMU]]\n");
        return 2;
    }
    const struct pmi_rig_pmu *main_pmu = find_pmu(MAIN_PMU);
    char name[96];
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
        const struct variant_opt *vo = &variants[i];
        for (int all = 0; all <= 1; all++) {
            u64 bits = setup(main_pmu, vo, all);
            snprintf(name, sizeof(name), "pmi_%s_%s_accesses", vo->name, all ? "all" : "single");
            line(name, run(bits, RUNS), "accesses");
            if (all && i == 0)
                line("pmi_all_counters", (double)popcount64(bits), "counters");
        }
    }
    /* The default handler, one overflow, on every PMU of the tests. */
    for (size_t i = 0; i < npmus; i++) {
        u64 bits = setup(&pmus[i], &variants[0], false);
        snprintf(name, sizeof(name), "pmi_unmask_stopped_single_accesses_%s", pmus[i].name);
        line(name, run(bits, RUNS), "accesses");
    }
    return 0;
}
