/* pmu/knc_metrics: the KNC optimisation guide's derived metrics (Intel, Xeon Phi tuning Part 2, §4-§5). Expected
 * values come from the guide's own worked examples and tables (cited by section and table, as in pmu/knc_metrics.h) or
 * from exact arithmetic done here in 128 bits, never from running the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/knc_metrics.h"

#define MI(x) (1u << PMU_MI_##x)

static void expect_milli(struct pmu_metric_value v, s64 milli)
{
    if (!v.defined)
        fail_msg("expected %lld milli, got undefined (%s)", (long long)milli, v.why);
    assert_int_equal(v.milli, milli);
}

static void expect_undefined(struct pmu_metric_value v, const char *why_part)
{
    if (v.defined)
        fail_msg("expected undefined (%s), got %lld milli", why_part, (long long)v.milli);
    assert_non_null(v.why);
    if (!strstr(v.why, why_part))
        fail_msg("why '%s' lacks '%s'", v.why, why_part);
}

/* §4.1 prose: 2 threads, 1200 clocks, 600 instructions each: per thread 2.0, per core 1.0; 3 x 400: 3.0, 1.0. */
static void test_cpi_worked_examples(void **state)
{
    (void)state;
    const u64 two[] = {600, 600}, three[] = {400, 400, 400};
    expect_milli(pmu_metric_cpi_thread(1200, 600), 2000);
    expect_milli(pmu_metric_cpi_core(1200, two, 2), 1000);
    expect_milli(pmu_metric_cpi_thread(1200, 400), 3000);
    expect_milli(pmu_metric_cpi_core(1200, three, 3), 1000);
    /* the formula table's shortcut gives the same when the threads retired equal counts */
    expect_milli(pmu_metric_cpi_core_formula(2000, 2), 1000);
    expect_milli(pmu_metric_cpi_core_formula(3000, 3), 1000);

    /* the same through the generic entry, as the events suite will call it */
    struct pmu_metric_inputs in = {.present = MI(CPU_CLK_UNHALTED) | MI(INSTRUCTIONS_EXECUTED),
                                   .core_instructions = 1200};
    in.v[PMU_MI_CPU_CLK_UNHALTED] = 1200;
    in.v[PMU_MI_INSTRUCTIONS_EXECUTED] = 600;
    expect_milli(pmu_metric_compute(PMU_M_CPI_THREAD, &in), 2000);
    expect_milli(pmu_metric_compute(PMU_M_CPI_CORE, &in), 1000);
}

/* §4.1 Table 4: per-core = per-thread / threads, the guide printing two decimals. */
static void test_cpi_table4(void **state)
{
    (void)state;
    static const struct { s64 thread, core; u32 n; } t4[] = {
        {5240, 5240, 1}, {8800, 4400, 2}, {11180, 3730, 3}, {13740, 3430, 4}};
    for (size_t i = 0; i < 4; i++) {
        struct pmu_metric_value v = pmu_metric_cpi_core_formula(t4[i].thread, t4[i].n);
        assert_true(v.defined);
        if (llabs(v.milli - t4[i].core) > 5)
            fail_msg("Table 4 row %zu: %lld vs printed %lld", i, (long long)v.milli, (long long)t4[i].core);
    }
}

/* The flagged inconsistency: §4.1's formula table and its prose part ways when the threads retire different
 * counts. */
static void test_cpi_formula_vs_prose(void **state)
{
    (void)state;
    const u64 instr[] = {400, 800};
    struct pmu_metric_value prose = pmu_metric_cpi_core(1200, instr, 2);
    s64 mean_thread = (pmu_metric_cpi_thread(1200, 400).milli + pmu_metric_cpi_thread(1200, 800).milli) / 2;
    struct pmu_metric_value table = pmu_metric_cpi_core_formula(mean_thread, 2);
    expect_milli(prose, 1000);
    expect_milli(table, 1125);
    /* the generic entry follows the prose (this thread 400 of the core's 1200), not the table (3.0 / 2 = 1.5) */
    struct pmu_metric_inputs in = {.present = MI(CPU_CLK_UNHALTED) | MI(INSTRUCTIONS_EXECUTED),
                                   .core_instructions = 1200};
    in.v[PMU_MI_CPU_CLK_UNHALTED] = 1200;
    in.v[PMU_MI_INSTRUCTIONS_EXECUTED] = 400;
    expect_milli(pmu_metric_compute(PMU_M_CPI_THREAD, &in), 3000);
    expect_milli(pmu_metric_compute(PMU_M_CPI_CORE, &in), 1000);
    assert_non_null(pmu_metric_describe(PMU_M_CPI_CORE)->flag);
    assert_non_null(strstr(pmu_metric_describe(PMU_M_CPI_CORE)->flag, "formula table"));
    assert_string_equal(pmu_metric_describe(PMU_M_CPI_CORE)->where, "§4.1 prose");
    assert_string_equal(pmu_metric_describe(PMU_M_CPI_THREAD)->where, "§4.1 formula table");
}

static void test_min_cpi_table3(void **state)
{
    (void)state;
    s64 c, t;
    static const s64 exp_core[] = {1000, 500, 500, 500}, exp_thread[] = {1000, 1000, 1500, 2000};
    for (u32 n = 1; n <= 4; n++) {
        assert_true(pmu_metric_min_cpi(n, &c, &t));
        assert_int_equal(c, exp_core[n - 1]);
        assert_int_equal(t, exp_thread[n - 1]);
    }
    assert_false(pmu_metric_min_cpi(0, &c, &t));
    assert_false(pmu_metric_min_cpi(5, &c, &t));
}

static struct pmu_metric_inputs knc_inputs(void)
{
    struct pmu_metric_inputs in = {.present = (1u << PMU_MI_COUNT) - 1, .core_instructions = 0, .freq_mhz = 1100};
    in.v[PMU_MI_CPU_CLK_UNHALTED] = 100000;
    in.v[PMU_MI_INSTRUCTIONS_EXECUTED] = 40000;
    in.v[PMU_MI_VPU_ELEMENTS_ACTIVE] = 64000;
    in.v[PMU_MI_VPU_INSTRUCTIONS_EXECUTED] = 8000;
    in.v[PMU_MI_DATA_READ_OR_WRITE] = 20000;
    in.v[PMU_MI_DATA_READ_MISS_OR_WRITE_MISS] = 900;
    in.v[PMU_MI_L1_DATA_HIT_INFLIGHT_PF1] = 100;
    in.v[PMU_MI_EXEC_STAGE_CYCLES] = 30000;
    in.v[PMU_MI_DATA_PAGE_WALK] = 20000 / 64; /* sequential over 4 KB pages: 1/64 (§5.2 prose) */
    in.v[PMU_MI_LONG_DATA_PAGE_WALK] = 10;
    in.v[PMU_MI_L2_DATA_READ_MISS_MEM_FILL] = 300;
    in.v[PMU_MI_L2_DATA_WRITE_MISS_MEM_FILL] = 100;
    in.v[PMU_MI_HWP_L2MISS] = 100;
    in.v[PMU_MI_L2_VICTIM_REQ_WITH_DATA] = 200;
    in.v[PMU_MI_SNP_HITM_L2] = 50;
    return in;
}

/* Every formula with hand-computed values (inputs above). */
static void test_formulas(void **state)
{
    (void)state;
    struct pmu_metric_inputs in = knc_inputs();
    expect_milli(pmu_metric_compute(PMU_M_CPI_THREAD, &in), 2500);             /* 100000/40000 */
    expect_milli(pmu_metric_compute(PMU_M_L1_COMPUTE_TO_DATA, &in), 3200);     /* 64000/20000 */
    expect_milli(pmu_metric_compute(PMU_M_L2_COMPUTE_TO_DATA, &in), 71111);    /* 64000/900 = 71.111 */
    expect_milli(pmu_metric_compute(PMU_M_L1_MISSES, &in), 1000000);           /* 900+100 accesses */
    expect_milli(pmu_metric_compute(PMU_M_L1_HIT_RATE, &in), 95000);           /* 19000/20000 = 95 % */
    /* printed: (100000-30000-20000)/900 = 55.556; prose: (100000-30000-19000)/1000 = 51.0 */
    expect_milli(pmu_metric_compute(PMU_M_LATENCY_IMPACT, &in), 55556);
    expect_milli(pmu_metric_compute(PMU_M_LATENCY_IMPACT_PROSE, &in), 51000);
    expect_milli(pmu_metric_compute(PMU_M_L1_TLB_MISS_RATIO, &in), 1560);      /* 312/20000 = 1.56 % */
    expect_milli(pmu_metric_compute(PMU_M_L2_TLB_MISS_RATIO, &in), 50);        /* 10/20000 = 0.05 % */
    expect_milli(pmu_metric_compute(PMU_M_L1_TLB_PER_L2_TLB_MISS, &in), 31200);
    expect_milli(pmu_metric_compute(PMU_M_VECTORIZATION_INTENSITY, &in), 8000);
    expect_milli(pmu_metric_compute(PMU_M_READ_BANDWIDTH, &in), 320);          /* 500*64/100000 = 0.32 B/clk */
    expect_milli(pmu_metric_compute(PMU_M_WRITE_BANDWIDTH, &in), 160);         /* 250*64/100000 */
    expect_milli(pmu_metric_compute(PMU_M_BANDWIDTH, &in), 528);               /* 0.48 B/clk x 1.1 GHz */
    in.freq_mhz = 0;
    expect_undefined(pmu_metric_compute(PMU_M_BANDWIDTH, &in), "frequency");
    in.present &= ~MI(HWP_L2MISS);
    expect_undefined(pmu_metric_compute(PMU_M_READ_BANDWIDTH, &in), "input missing");
}

static void test_rounding_and_sign(void **state)
{
    (void)state;
    expect_milli(pmu_metric_cpi_thread(2, 3), 667);  /* 0.6667 -> nearest */
    expect_milli(pmu_metric_cpi_thread(1, 2000), 1); /* 0.0005 -> half up */
    expect_milli(pmu_metric_cpi_thread(1, 2001), 0);
    /* latency numerator below zero: shown negative, the guide says nothing about it */
    struct pmu_metric_inputs in = knc_inputs();
    in.v[PMU_MI_EXEC_STAGE_CYCLES] = 95000; /* 100000 - 95000 - 20000 = -15000 */
    expect_milli(pmu_metric_compute(PMU_M_LATENCY_IMPACT, &in), -16667);
    expect_milli(pmu_metric_cpi_core_formula(-3001, 2), -1501); /* half away from zero */
}

static void test_zero_denominators(void **state)
{
    (void)state;
    const u64 none[] = {0, 0};
    expect_undefined(pmu_metric_cpi_thread(1200, 0), "zero denominator");
    expect_undefined(pmu_metric_cpi_core(1200, none, 2), "zero denominator");
    expect_undefined(pmu_metric_cpi_core(1200, none, 0), "no threads");
    expect_undefined(pmu_metric_cpi_core_formula(2000, 0), "zero denominator");
    struct pmu_metric_inputs zero = {.present = (1u << PMU_MI_COUNT) - 1, .freq_mhz = 1000};
    for (int m = 0; m < PMU_M_COUNT; m++) {
        struct pmu_metric_value v = pmu_metric_compute((enum pmu_metric)m, &zero);
        if (m == PMU_M_L1_MISSES) {
            expect_milli(v, 0); /* a sum, not a ratio */
            continue;
        }
        if (v.defined)
            fail_msg("%s defined on all-zero inputs", pmu_metric_describe((enum pmu_metric)m)->name);
        assert_non_null(v.why);
    }
    /* CPI per core without the core's instruction sum */
    struct pmu_metric_inputs in = knc_inputs();
    expect_undefined(pmu_metric_compute(PMU_M_CPI_CORE, &in), "sum");
}

/* Exact reference in 128 bits: round half up of num * scale / den. */
static unsigned __int128 ref(u64 num, u64 scale, u64 den)
{
    return ((unsigned __int128)num * scale + den / 2) / den;
}

/* 40-bit (KNC, PMU doc 327357-001 1.4) and 48-bit (most x86) counter values, including all-ones. */
static void test_wide_counts(void **state)
{
    (void)state;
    const u64 m40 = (1ull << 40) - 1, m48 = (1ull << 48) - 1;
    expect_milli(pmu_metric_cpi_thread(m40, 1), (s64)(m40 * 1000));
    expect_milli(pmu_metric_cpi_thread(m48, 1), (s64)(m48 * 1000));
    expect_milli(pmu_metric_cpi_thread(m48, m40), (s64)ref(m48, 1000, m40));
    expect_milli(pmu_metric_cpi_thread(m48, m48), 1000);
    /* hit rate with 48-bit accesses: the product (2^48)*100000 exceeds 64 bits */
    struct pmu_metric_inputs in = knc_inputs();
    in.v[PMU_MI_DATA_READ_OR_WRITE] = m48;
    in.v[PMU_MI_DATA_READ_MISS_OR_WRITE_MISS] = m40;
    in.v[PMU_MI_L1_DATA_HIT_INFLIGHT_PF1] = m40;
    expect_milli(pmu_metric_compute(PMU_M_L1_HIT_RATE, &in), (s64)ref(m48 - 2 * m40, 100000, m48));
    /* bandwidth: 3 x 48-bit events x 64 x 1000 per 1 clock does not fit: overflow, not a wrapped number */
    in.v[PMU_MI_L2_DATA_READ_MISS_MEM_FILL] = m48;
    in.v[PMU_MI_L2_DATA_WRITE_MISS_MEM_FILL] = m48;
    in.v[PMU_MI_HWP_L2MISS] = m48;
    in.v[PMU_MI_CPU_CLK_UNHALTED] = 1;
    expect_undefined(pmu_metric_compute(PMU_M_READ_BANDWIDTH, &in), "overflow");
    in.v[PMU_MI_CPU_CLK_UNHALTED] = m48;
    expect_milli(pmu_metric_compute(PMU_M_READ_BANDWIDTH, &in), (s64)ref(3 * m48, 64000, m48));
    /* u64 sums that wrap are reported, not wrapped */
    in.v[PMU_MI_L2_VICTIM_REQ_WITH_DATA] = UINT64_MAX;
    in.v[PMU_MI_SNP_HITM_L2] = 1;
    expect_undefined(pmu_metric_compute(PMU_M_WRITE_BANDWIDTH, &in), "overflow");

    /* pseudo-random 48-bit pairs against the 128-bit reference */
    u64 x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        u64 a = x & m48, b = (x >> 16) & m48;
        if (b == 0)
            continue;
        unsigned __int128 r = ref(a, 1000, b);
        struct pmu_metric_value v = pmu_metric_cpi_thread(a, b);
        if (r > INT64_MAX) {
            assert_false(v.defined);
        } else if (!v.defined || (unsigned __int128)v.milli != r) {
            fail_msg("%llu/%llu: got %lld", (unsigned long long)a, (unsigned long long)b, (long long)v.milli);
        }
    }
}

static enum pmu_judgement judge1(enum pmu_metric m, s64 milli, bool sp)
{
    struct pmu_metric_value all[PMU_M_COUNT] = {0};
    all[m] = (struct pmu_metric_value){.defined = true, .milli = milli};
    return pmu_metric_judge(m, all, sp);
}

/* The guide's "investigate if" thresholds: strict comparisons as printed. */
static void test_thresholds(void **state)
{
    (void)state;
    assert_int_equal(judge1(PMU_M_CPI_THREAD, 4000, false), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_CPI_THREAD, 4001, false), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_CPI_CORE, 1000, false), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_CPI_CORE, 1001, false), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_L1_HIT_RATE, 95000, false), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_L1_HIT_RATE, 94999, false), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_LATENCY_IMPACT, 145000, false), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_LATENCY_IMPACT, 145001, false), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_L1_TLB_MISS_RATIO, 1563, false), PMU_J_INVESTIGATE); /* 1/64 > 1 % */
    assert_int_equal(judge1(PMU_M_L2_TLB_MISS_RATIO, 100, false), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_L2_TLB_MISS_RATIO, 101, false), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_L1_TLB_PER_L2_TLB_MISS, 1000, false), PMU_J_UNDECIDABLE); /* no tolerance */
    assert_int_equal(judge1(PMU_M_VECTORIZATION_INTENSITY, 8000, false), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_VECTORIZATION_INTENSITY, 7999, false), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_VECTORIZATION_INTENSITY, 8000, true), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_VECTORIZATION_INTENSITY, 16000, true), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_BANDWIDTH, 79999, false), PMU_J_INVESTIGATE);
    assert_int_equal(judge1(PMU_M_BANDWIDTH, 80000, false), PMU_J_OK);
    assert_int_equal(judge1(PMU_M_READ_BANDWIDTH, 1, false), PMU_J_NO_THRESHOLD);
    assert_int_equal(judge1(PMU_M_L1_MISSES, 1, false), PMU_J_NO_THRESHOLD);

    /* relative thresholds: L1 ratio < vectorization intensity; L2 ratio < 100 x L1 ratio (§4.2 threshold table) */
    struct pmu_metric_value all[PMU_M_COUNT] = {0};
    all[PMU_M_L1_COMPUTE_TO_DATA] = (struct pmu_metric_value){.defined = true, .milli = 3200};
    assert_int_equal(pmu_metric_judge(PMU_M_L1_COMPUTE_TO_DATA, all, false), PMU_J_UNDECIDABLE);
    all[PMU_M_VECTORIZATION_INTENSITY] = (struct pmu_metric_value){.defined = true, .milli = 8000};
    assert_int_equal(pmu_metric_judge(PMU_M_L1_COMPUTE_TO_DATA, all, false), PMU_J_INVESTIGATE);
    all[PMU_M_VECTORIZATION_INTENSITY].milli = 3200;
    assert_int_equal(pmu_metric_judge(PMU_M_L1_COMPUTE_TO_DATA, all, false), PMU_J_OK);
    all[PMU_M_L2_COMPUTE_TO_DATA] = (struct pmu_metric_value){.defined = true, .milli = 320000};
    assert_int_equal(pmu_metric_judge(PMU_M_L2_COMPUTE_TO_DATA, all, false), PMU_J_OK);
    all[PMU_M_L2_COMPUTE_TO_DATA].milli = 319999;
    assert_int_equal(pmu_metric_judge(PMU_M_L2_COMPUTE_TO_DATA, all, false), PMU_J_INVESTIGATE);
    /* an undefined value is never judged */
    all[PMU_M_CPI_THREAD] = (struct pmu_metric_value){.defined = false, .milli = 99999};
    assert_int_equal(pmu_metric_judge(PMU_M_CPI_THREAD, all, false), PMU_J_UNDECIDABLE);
    assert_string_equal(pmu_judgement_name(PMU_J_INVESTIGATE), "investigate");
}

/* Which metric a PMU kind can give: KNC most of them, every other kind only CPI (the guide's KNC events). */
static void test_availability(void **state)
{
    (void)state;
    for (int m = 0; m < PMU_M_COUNT; m++) {
        u32 knc = pmu_metric_missing_inputs((enum pmu_metric)m, PMU_KIND_KNC);
        bool needs_hwp = pmu_metric_describe((enum pmu_metric)m)->inputs & MI(HWP_L2MISS);
        assert_int_equal(knc, needs_hwp ? MI(HWP_L2MISS) : 0u);
        bool cpi = m == PMU_M_CPI_THREAD || m == PMU_M_CPI_CORE;
        static const enum pmu_kind others[] = {PMU_KIND_INTEL_ARCH, PMU_KIND_AMD_LEGACY, PMU_KIND_AMD_CORE_EXT,
                                               PMU_KIND_AMD_PERFMON_V2};
        for (size_t k = 0; k < 4; k++)
            assert_int_equal(pmu_metric_missing_inputs((enum pmu_metric)m, others[k]) == 0, cpi);
        assert_int_equal(pmu_metric_missing_inputs((enum pmu_metric)m, PMU_KIND_NONE),
                         pmu_metric_describe((enum pmu_metric)m)->inputs);
    }
    assert_false(pmu_metric_input_available(PMU_KIND_KNC, PMU_MI_HWP_L2MISS));
    assert_true(pmu_metric_input_available(PMU_KIND_KNC, PMU_MI_SNP_HITM_L2));
    assert_string_equal(pmu_metric_input_name(PMU_MI_EXEC_STAGE_CYCLES), "EXEC_STAGE_CYCLES");
}

/* Where the guide gives a formula or threshold: "§<section> <place>", the section one of the metric sections
 * (§4.1-§4.2, §5.1-§5.4), the place one of `places`. Returns the section ("4.1") length, 0 if malformed. */
static size_t where_ok(const char *where, const char *const *places, size_t nplaces)
{
    static const char *const sections[] = {"4.1", "4.2", "5.1", "5.2", "5.3", "5.4"};
    if (!where || strncmp(where, "§", strlen("§")) != 0)
        return 0;
    const char *sec = where + strlen("§");
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        size_t n = strlen(sections[i]);
        if (strncmp(sec, sections[i], n) != 0 || sec[n] != ' ')
            continue;
        for (size_t p = 0; p < nplaces; p++)
            if (strcmp(sec + n + 1, places[p]) == 0)
                return n;
    }
    return 0;
}

/* Descriptor sanity: names unique, every formula and threshold located by section (never by a line of some
 * copy of the text), every printed threshold present. */
static void test_descriptors(void **state)
{
    (void)state;
    for (int m = 0; m < PMU_M_COUNT; m++) {
        const struct pmu_metric_desc *d = pmu_metric_describe((enum pmu_metric)m);
        assert_non_null(d);
        assert_non_null(d->name);
        assert_non_null(d->formula);
        assert_non_null(d->unit);
        static const char *const formula_places[] = {"formula table", "prose"};
        static const char *const threshold_places[] = {"threshold table"};
        size_t sec = where_ok(d->where, formula_places, 2);
        if (!sec)
            fail_msg("%s: formula location '%s'", d->name, d->where ? d->where : "(null)");
        assert_true(d->inputs != 0);
        if (d->threshold.kind != PMU_TH_NONE) {
            if (!where_ok(d->threshold.where, threshold_places, 1))
                fail_msg("%s: threshold location '%s'", d->name, d->threshold.where ? d->threshold.where : "(null)");
            /* the threshold sits in the same section as the formula */
            assert_memory_equal(d->threshold.where, d->where, strlen("§") + sec + 1);
        } else {
            assert_null(d->threshold.where);
        }
        for (int o = 0; o < m; o++)
            assert_string_not_equal(d->name, pmu_metric_describe((enum pmu_metric)o)->name);
    }
    assert_non_null(strstr(pmu_metric_describe(PMU_M_LATENCY_IMPACT)->formula, "DATA_READ_OR_WRITE_MISS"));
    assert_non_null(pmu_metric_describe(PMU_M_LATENCY_IMPACT)->flag);
    assert_null(pmu_metric_describe(PMU_M_COUNT));
}

static void test_format(void **state)
{
    (void)state;
    char b[32];
    pmu_milli_format(b, sizeof b, 2000);
    assert_string_equal(b, "2.000");
    pmu_milli_format(b, sizeof b, -1500);
    assert_string_equal(b, "-1.500");
    pmu_milli_format(b, sizeof b, 5);
    assert_string_equal(b, "0.005");
    pmu_milli_format(b, sizeof b, INT64_MIN);
    assert_string_equal(b, "-9223372036854775.808");
    assert_int_equal(pmu_milli_format(b, 4, 123456), 7);
    assert_string_equal(b, "123");
    struct pmu_metric_value two = {.defined = true, .milli = 2000}, none = {.defined = false, .why = "overflow"};
    char line[PMU_METRIC_NOTE_SIZE];
    pmu_metric_format(line, sizeof line, PMU_M_CPI_THREAD, &two);
    assert_string_equal(line, "2.000 cycles/instruction (tuning guide §4.1 formula table)");
    pmu_metric_format(line, sizeof line, PMU_M_L1_HIT_RATE, &none);
    assert_string_equal(line, "overflow (tuning guide §5.1 formula table)");
    pmu_metric_format(line, sizeof line, PMU_M_LATENCY_IMPACT_PROSE, &two);
    assert_string_equal(line, "2.000 cycles/miss (tuning guide §5.1 prose)");
}

/* Every note fits PMU_METRIC_NOTE_SIZE (the events suite's buffer): each metric with the widest value and with
 * every reason pmu/knc_metrics.c gives for an undefined one (the longest last). */
static void test_format_fits(void **state)
{
    (void)state;
    static const char *const whys[] = {
        "input missing",
        "no such metric",
        "undefined: no threads",
        "undefined: zero denominator",
        "undefined: core frequency unknown",
        "overflow: result does not fit 64 bits",
        "overflow: event sum does not fit 64 bits",
        "overflow: instruction sum does not fit 64 bits",
        "undefined: sum of the core's threads' instructions unknown or zero",
        "undefined: L1 misses exceed accesses, so there are no L1 hits to subtract",
    };
    char line[PMU_METRIC_NOTE_SIZE];
    int longest = 0;
    for (int m = 0; m < PMU_M_COUNT; m++) {
        struct pmu_metric_value widest = {.defined = true, .milli = INT64_MIN};
        int n = pmu_metric_format(line, sizeof line, (enum pmu_metric)m, &widest);
        longest = n > longest ? n : longest;
        for (size_t w = 0; w < sizeof whys / sizeof whys[0]; w++) {
            struct pmu_metric_value u = {.defined = false, .why = whys[w]};
            n = pmu_metric_format(line, sizeof line, (enum pmu_metric)m, &u);
            longest = n > longest ? n : longest;
        }
    }
    if (longest >= PMU_METRIC_NOTE_SIZE)
        fail_msg("a note needs %d bytes + NUL, PMU_METRIC_NOTE_SIZE is %d", longest, PMU_METRIC_NOTE_SIZE);
    print_message("# longest note %d of %d bytes\n", longest, PMU_METRIC_NOTE_SIZE - 1);
}

/* The sanity rule (§3). */
static void test_stability(void **state)
{
    (void)state;
    const u64 same[] = {1000, 1000, 1000}, near[] = {1000000, 1000100, 1000050}, third[] = {3, 4},
              zero_then[] = {0, 5}, zeros[] = {0, 0, 0};
    struct pmu_stability s = pmu_stability_check(same, 3, 0);
    assert_true(s.defined && s.stable);
    assert_int_equal(s.spread_ppm, 0);
    s = pmu_stability_check(near, 3, 100);
    assert_true(s.defined && s.stable);
    assert_int_equal(s.spread_ppm, 100);
    assert_int_equal(s.min, 1000000);
    assert_int_equal(s.max, 1000100);
    s = pmu_stability_check(near, 3, 99);
    assert_true(s.defined && !s.stable);
    assert_non_null(s.why);
    s = pmu_stability_check(third, 2, 333333); /* 1/3 = 333333.3 ppm, rounded up: never into the tolerance */
    assert_int_equal(s.spread_ppm, 333334);
    assert_false(s.stable);
    s = pmu_stability_check(zero_then, 2, UINT32_MAX);
    assert_true(s.defined && !s.stable);
    assert_int_equal(s.spread_ppm, UINT64_MAX);
    s = pmu_stability_check(zeros, 3, 0);
    assert_true(s.defined && s.stable);
    assert_non_null(s.why);
    s = pmu_stability_check(same, 1, 0);
    assert_false(s.defined);
    const u64 wide[] = {(1ull << 48) - 1, 1};
    s = pmu_stability_check(wide, 2, UINT32_MAX);
    assert_false(s.stable); /* spread far beyond 32 bits of ppm; no wrap */
    assert_true(s.spread_ppm > UINT32_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpi_worked_examples), cmocka_unit_test(test_cpi_table4),
        cmocka_unit_test(test_cpi_formula_vs_prose), cmocka_unit_test(test_min_cpi_table3),
        cmocka_unit_test(test_formulas),            cmocka_unit_test(test_rounding_and_sign),
        cmocka_unit_test(test_zero_denominators),   cmocka_unit_test(test_wide_counts),
        cmocka_unit_test(test_thresholds),          cmocka_unit_test(test_availability),
        cmocka_unit_test(test_descriptors),         cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_fits),
        cmocka_unit_test(test_stability),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
