/* The events suite's derived metrics (Xeon Phi tuning guide §4-§5, formulas in pmu/knc_metrics.c by the metrics
 * issue) and the guide's sanity rule (§3: cycles and instructions stay constant over repeated runs of the same
 * workload). Metrics are measurements: reported with their units, never a verdict; the sanity rule is a check.
 * Both SKIP without a PMU. */
#include "lib/format.h"
#include "pmu/kernel/pmu_cpu.h"
#include "emul/kernel/pmu_emul.h"
#include "kernel/x86.h"
#include "pmu/deviations.h"
#include "pmu/events.h"
#include "pmu/kind.h"
#include "pmu/knc_metrics.h"
#include "tests/events/events_pmu.h"
#include "tests/events/portable/events_workloads.h"

#define METRIC_N 2000 /* ew_mem iterations for the metrics: 18k instructions, 6k memory accesses */
#define STABLE_N 2000 /* ew_loop iterations for the sanity rule */
#define STABLE_RUNS 5

/* The event a metric input names on this PMU: a kind that serves the guide (KNC) by its name in the kind's table,
 * others only cycles and instructions through the generic events (pmu_metric_input_available). */
static const struct pmu_event *input_event(const struct pmu *p, enum pmu_metric_input in)
{
    if (pmu_kind_get(p->caps->kind)->metrics)
        return pmu_event_find(p->caps, pmu_metric_input_name(in));
    if (in == PMU_MI_CPU_CLK_UNHALTED)
        return pmu_event_generic(p->caps, PMU_EV_CYCLES, NULL);
    if (in == PMU_MI_INSTRUCTIONS_EXECUTED)
        return pmu_event_generic(p->caps, PMU_EV_INSTRUCTIONS, NULL);
    return NULL;
}

/* Count `events[0..n)` (n <= GP counters) over one USR run of fn(arg) at CPL 3. */
static int count_run(struct pmu *p, const struct pmu_event *const *events, u32 n, ew_fn fn, u64 arg, u64 *out)
{
    pmu_reset(p);
    struct pmu_evsel base = {.usr = true, .enable = true}, e;
    u64 bits = 0;
    for (u32 i = 0; i < n; i++) {
        pmu_event_to_evsel(events[i], &base, &e);
        int r = pmu_program_gp(p, i, &e);
        if (r)
            return r;
        bits |= 1ull << i;
    }
    struct ew_meas m;
    ew_measure(p, bits, 3, fn, arg, &m);
    pmu_reset(p);
    for (u32 i = 0; i < n; i++)
        out[i] = m.v[i];
    return m.rc;
}

static u32 gp_count(const struct pmu *p)
{
    u32 n = 0;
    while (n < 32 && pmu_counter_exists(p, PMU_GP(n)))
        n++;
    return n;
}

void events_metrics_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    u32 width = gp_count(p);
    if (!width)
        return check_skip(c, "no GP counter");
    /* Every input some available metric needs, measured width at a time over repeated runs (the guide collects
     * its events over several runs too, §3). */
    u32 wanted = 0;
    for (int m = 0; m < PMU_M_COUNT; m++)
        if (!pmu_metric_missing_inputs((enum pmu_metric)m, p->caps->kind))
            wanted |= pmu_metric_describe((enum pmu_metric)m)->inputs;
    struct pmu_metric_inputs in = {.present = 0};
    const struct pmu_event *group[32];
    enum pmu_metric_input ids[32];
    u32 k = 0;
    int rc = 0;
    for (int i = 0; i <= PMU_MI_COUNT && !rc; i++) {
        if (i < PMU_MI_COUNT && (wanted & BIT(i)) && input_event(p, (enum pmu_metric_input)i)) {
            ids[k] = (enum pmu_metric_input)i;
            group[k++] = input_event(p, (enum pmu_metric_input)i);
        }
        if (k && (k == width || i == PMU_MI_COUNT)) {
            u64 v[32] = {0};
            rc = count_run(p, group, k, ew_mem, METRIC_N, v);
            for (u32 j = 0; j < k; j++) {
                in.v[ids[j]] = v[j];
                in.present |= BIT(ids[j]);
            }
            k = 0;
        }
    }
    if (!expect_eq(c, "measurement access", 0, (u64)rc))
        return;
    /* One thread runs the workload at a time (the suite visits the CPUs in turn): the core's instructions are
     * this thread's, and per-core CPI (§4.1 prose) is taken with one active thread. */
    in.core_instructions = in.v[PMU_MI_INSTRUCTIONS_EXECUTED];
    check_note(c, "workload", "ew_mem n %u at CPL 3, USR; one active thread per core", METRIC_N);
    struct pmu_metric_value all[PMU_M_COUNT];
    u32 reported = 0;
    for (int m = 0; m < PMU_M_COUNT; m++) {
        all[m] = pmu_metric_compute((enum pmu_metric)m, &in);
        if (pmu_metric_missing_inputs((enum pmu_metric)m, p->caps->kind))
            continue;
        char val[PMU_METRIC_NOTE_SIZE];
        pmu_metric_format(val, sizeof(val), (enum pmu_metric)m, &all[m]);
        enum pmu_judgement j = pmu_metric_judge((enum pmu_metric)m, all, false);
        check_note(c, pmu_metric_describe((enum pmu_metric)m)->name, "%s; guide: %s", val, pmu_judgement_name(j));
        reported++;
    }
    expect_true(c, "metrics reported", reported > 0, "CPI at least", "%u", reported);
}

/* Tuning guide §3: before any analysis, cycles and instructions of repeated runs must be constant. Tolerances are
 * pmuboot's (pmu/knc_metrics.h): instructions 100 ppm, cycles 5 %. */
void events_stability_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    const struct pmu_event *ev[2] = {pmu_event_generic(p->caps, PMU_EV_INSTRUCTIONS, NULL),
                                     pmu_event_generic(p->caps, PMU_EV_CYCLES, NULL)};
    if (!ev[0] || !ev[1])
        return check_skip(c, "no generic instructions or cycles event on this PMU");
    u64 ins[STABLE_RUNS], cyc[STABLE_RUNS];
    for (int r = 0; r < STABLE_RUNS; r++) {
        u64 v[2] = {0};
        int rc = gp_count(p) >= 2 ? count_run(p, ev, 2, ew_loop, STABLE_N, v) : count_run(p, ev, 1, ew_loop, STABLE_N, v);
        if (!rc && gp_count(p) < 2)
            rc = count_run(p, &ev[1], 1, ew_loop, STABLE_N, &v[1]);
        if (!expect_eq(c, "measurement access", 0, (u64)rc))
            return;
        ins[r] = v[0];
        cyc[r] = v[1];
    }
    struct pmu_stability si = pmu_stability_check(ins, STABLE_RUNS, PMU_STABILITY_INSTRUCTIONS_PPM);
    struct pmu_stability sc = pmu_stability_check(cyc, STABLE_RUNS, PMU_STABILITY_CYCLES_PPM);
    expect_true(c, "instructions stable", si.defined && si.stable, "spread <= 100 ppm",
                "%llu..%llu, %llu ppm", (unsigned long long)si.min, (unsigned long long)si.max,
                (unsigned long long)si.spread_ppm);
    const char *gap = pmu_emul_gap(PMU_EMUL_GAP_CYCLE_NOISE);
    if (gap) /* noted, not judged: the instruction spread still is */
        check_note(c, "cycles not judged", "%llu..%llu, %llu ppm: %s", (unsigned long long)sc.min,
                   (unsigned long long)sc.max, (unsigned long long)sc.spread_ppm, gap);
    else
        expect_true(c, "cycles stable", sc.defined && sc.stable, "spread <= 5 %", "%llu..%llu, %llu ppm",
                    (unsigned long long)sc.min, (unsigned long long)sc.max, (unsigned long long)sc.spread_ppm);
    /* Deviations that add counts per trigger: each run has the same triggers (one IRET into CPL 3, one #UD
     * back), so they shift every run alike and cannot make the counts unstable. Named, with their source. */
    const struct pmu_deviation *devs[8];
    size_t nd = pmu_deviations_for(&pmc->id, p->caps->kind, devs, ARRAY_SIZE(devs));
    for (size_t i = 0; i < nd && i < ARRAY_SIZE(devs); i++)
        check_note(c, devs[i]->id, "%s (%s): same triggers in every run", devs[i]->title, devs[i]->source);
}
