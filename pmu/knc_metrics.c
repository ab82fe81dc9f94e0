/* The derived metrics of Intel's "Optimization and Performance Tuning for Intel Xeon Phi Coprocessors, Part 2:
 * Understanding and Using Hardware Events" (§4-§5) in integer arithmetic. Each formula and threshold names where
 * the guide gives it (pmu/knc_metrics.h). */
#include "pmu/knc_metrics.h"

#include "lib/format.h"
#include "pmu/events.h"
#include "pmu/kind.h"

#include <string.h>

#define BITI(i) (1u << (i))
#define MILLI 1000u
#define MILLI_PERCENT 100000u /* value x 100 (percent) x 1000 (milli) */

static const char *const input_names[PMU_MI_COUNT] = {
    [PMU_MI_CPU_CLK_UNHALTED] = "CPU_CLK_UNHALTED",
    [PMU_MI_INSTRUCTIONS_EXECUTED] = "INSTRUCTIONS_EXECUTED",
    [PMU_MI_VPU_ELEMENTS_ACTIVE] = "VPU_ELEMENTS_ACTIVE",
    [PMU_MI_VPU_INSTRUCTIONS_EXECUTED] = "VPU_INSTRUCTIONS_EXECUTED",
    [PMU_MI_DATA_READ_OR_WRITE] = "DATA_READ_OR_WRITE",
    [PMU_MI_DATA_READ_MISS_OR_WRITE_MISS] = "DATA_READ_MISS_OR_WRITE_MISS",
    [PMU_MI_L1_DATA_HIT_INFLIGHT_PF1] = "L1_DATA_HIT_INFLIGHT_PF1",
    [PMU_MI_EXEC_STAGE_CYCLES] = "EXEC_STAGE_CYCLES",
    [PMU_MI_DATA_PAGE_WALK] = "DATA_PAGE_WALK",
    [PMU_MI_LONG_DATA_PAGE_WALK] = "LONG_DATA_PAGE_WALK",
    [PMU_MI_L2_DATA_READ_MISS_MEM_FILL] = "L2_DATA_READ_MISS_MEM_FILL",
    [PMU_MI_L2_DATA_WRITE_MISS_MEM_FILL] = "L2_DATA_WRITE_MISS_MEM_FILL",
    [PMU_MI_HWP_L2MISS] = "HWP_L2MISS",
    [PMU_MI_L2_VICTIM_REQ_WITH_DATA] = "L2_VICTIM_REQ_WITH_DATA",
    [PMU_MI_SNP_HITM_L2] = "SNP_HITM_L2",
};

const char *pmu_metric_input_name(enum pmu_metric_input in)
{
    return (unsigned)in < PMU_MI_COUNT ? input_names[in] : "?";
}

#define IN(x) BITI(PMU_MI_##x)
#define TH(k, lim, sp, r, f, w, t) {PMU_TH_##k, lim, sp, r, f, w, t}
#define NO_TH {PMU_TH_NONE, 0, 0, PMU_M_COUNT, 0, NULL, "none given"}

static const struct pmu_metric_desc descs[PMU_M_COUNT] = {
    [PMU_M_CPI_THREAD] = {"cpi_thread", "Average CPI per thread", "CPU_CLK_UNHALTED / INSTRUCTIONS_EXECUTED",
                          "cycles/instruction", "§4.1 formula table",
                          IN(CPU_CLK_UNHALTED) | IN(INSTRUCTIONS_EXECUTED),
                          TH(ABOVE, 4000, 0, PMU_M_COUNT, 0, "§4.1 threshold table", "> 4.0, or generally increasing"),
                          "§4.1's prose says per-thread CPI 'dropped' from 2.0 to 3.0 (it rose); 'generally "
                          "increasing' needs a history and is not judged"},
    [PMU_M_CPI_CORE] = {"cpi_core", "Average CPI per core",
                        "CPU_CLK_UNHALTED(core) / sum of the threads' INSTRUCTIONS_EXECUTED (§4.1 prose)",
                        "cycles/instruction", "§4.1 prose", IN(CPU_CLK_UNHALTED) | IN(INSTRUCTIONS_EXECUTED),
                        TH(ABOVE, 1000, 0, PMU_M_COUNT, 0, "§4.1 threshold table", "> 1.0, or generally increasing"),
                        "§4.1's formula table gives (CPI per thread) / (hardware threads used) and its prose calls "
                        "that the easiest way; it equals the prose definition only when the threads retired equal "
                        "counts. CPU_CLK_UNHALTED is a core-level count on KNC (§4.1 prose); on other PMUs cycles "
                        "are per thread"},
    [PMU_M_L1_COMPUTE_TO_DATA] = {"l1_compute_to_data", "L1 compute to data access ratio",
                                  "VPU_ELEMENTS_ACTIVE / DATA_READ_OR_WRITE", "operations/access",
                                  "§4.2 formula table", IN(VPU_ELEMENTS_ACTIVE) | IN(DATA_READ_OR_WRITE),
                                  TH(BELOW_METRIC, 0, 0, PMU_M_VECTORIZATION_INTENSITY, 1, "§4.2 threshold table",
                                     "< vectorization intensity (section 5.3)"),
                                  "§4.2's event table and §6.2 Table 5 call VPU_ELEMENTS_ACTIVE 'VPU instructions "
                                  "executed by the thread'; §5.3's event table defines it as active vector "
                                  "elements"},
    [PMU_M_L2_COMPUTE_TO_DATA] = {"l2_compute_to_data", "L2 compute to data access ratio",
                                  "VPU_ELEMENTS_ACTIVE / DATA_READ_MISS_OR_WRITE_MISS", "operations/access",
                                  "§4.2 formula table", IN(VPU_ELEMENTS_ACTIVE) | IN(DATA_READ_MISS_OR_WRITE_MISS),
                                  TH(BELOW_METRIC, 0, 0, PMU_M_L1_COMPUTE_TO_DATA, 100, "§4.2 threshold table",
                                     "< 100x L1 compute to data access ratio"),
                                  "§4.2's prose says the denominator is closely related to the L1 hit rate "
                                  "'described in section 5.2'; the L1 hit rate is in section 5.1"},
    [PMU_M_L1_MISSES] = {"l1_misses", "L1 misses", "DATA_READ_MISS_OR_WRITE_MISS + L1_DATA_HIT_INFLIGHT_PF1",
                         "accesses", "§5.1 formula table",
                         IN(DATA_READ_MISS_OR_WRITE_MISS) | IN(L1_DATA_HIT_INFLIGHT_PF1), NO_TH, NULL},
    [PMU_M_L1_HIT_RATE] = {"l1_hit_rate", "L1 hit rate", "(DATA_READ_OR_WRITE - L1 misses) / DATA_READ_OR_WRITE",
                           "%", "§5.1 formula table",
                           IN(DATA_READ_OR_WRITE) | IN(DATA_READ_MISS_OR_WRITE_MISS) | IN(L1_DATA_HIT_INFLIGHT_PF1),
                           TH(BELOW, 95000, 0, PMU_M_COUNT, 0, "§5.1 threshold table", "< 95%"), NULL},
    [PMU_M_LATENCY_IMPACT] = {"latency_impact", "Estimated latency impact",
                              "(CPU_CLK_UNHALTED - EXEC_STAGE_CYCLES - DATA_READ_OR_WRITE) / "
                              "DATA_READ_OR_WRITE_MISS",
                              "cycles/miss", "§5.1 formula table",
                              IN(CPU_CLK_UNHALTED) | IN(EXEC_STAGE_CYCLES) | IN(DATA_READ_OR_WRITE) |
                                  IN(DATA_READ_MISS_OR_WRITE_MISS),
                              TH(ABOVE, 145000, 0, PMU_M_COUNT, 0, "§5.1 threshold table", "> 145"),
                              "the denominator DATA_READ_OR_WRITE_MISS is no event (not in Table 5 nor KNC PMU "
                              "Table 1-6); computed with DATA_READ_MISS_OR_WRITE_MISS, the only §5.1 event it can "
                              "name. §5.1's prose divides by the L1 misses (the formula table's first row) and "
                              "subtracts 1 per L1 hit, not per access: see latency_impact_prose"},
    [PMU_M_LATENCY_IMPACT_PROSE] = {"latency_impact_prose", "Estimated latency impact, as §5.1's prose reads",
                                    "(CPU_CLK_UNHALTED - EXEC_STAGE_CYCLES - (DATA_READ_OR_WRITE - L1 misses)) / "
                                    "L1 misses",
                                    "cycles/miss", "§5.1 prose",
                                    IN(CPU_CLK_UNHALTED) | IN(EXEC_STAGE_CYCLES) | IN(DATA_READ_OR_WRITE) |
                                        IN(DATA_READ_MISS_OR_WRITE_MISS) | IN(L1_DATA_HIT_INFLIGHT_PF1),
                                    TH(ABOVE, 145000, 0, PMU_M_COUNT, 0, "§5.1 threshold table", "> 145"),
                                    "not a formula of the guide: pmuboot's reading of §5.1's prose, reported "
                                    "beside the printed one so the difference is visible"},
    [PMU_M_L1_TLB_MISS_RATIO] = {"l1_tlb_miss_ratio", "L1 TLB miss ratio", "DATA_PAGE_WALK / DATA_READ_OR_WRITE",
                                 "%", "§5.2 formula table", IN(DATA_PAGE_WALK) | IN(DATA_READ_OR_WRITE),
                                 TH(ABOVE, 1000, 0, PMU_M_COUNT, 0, "§5.2 threshold table", "> 1%"), NULL},
    [PMU_M_L2_TLB_MISS_RATIO] = {"l2_tlb_miss_ratio", "L2 TLB miss ratio",
                                 "LONG_DATA_PAGE_WALK / DATA_READ_OR_WRITE", "%", "§5.2 formula table",
                                 IN(LONG_DATA_PAGE_WALK) | IN(DATA_READ_OR_WRITE),
                                 TH(ABOVE, 100, 0, PMU_M_COUNT, 0, "§5.2 threshold table", "> .1%"), NULL},
    [PMU_M_L1_TLB_PER_L2_TLB_MISS] = {"l1_tlb_misses_per_l2_tlb_miss", "L1 TLB misses per L2 TLB miss",
                                      "DATA_PAGE_WALK / LONG_DATA_PAGE_WALK", "misses/miss", "§5.2 formula table",
                                      IN(DATA_PAGE_WALK) | IN(LONG_DATA_PAGE_WALK),
                                      TH(NEAR, 1000, 0, PMU_M_COUNT, 0, "§5.2 threshold table", "about 1"),
                                      "'about 1' comes with no tolerance, so pmuboot does not judge it"},
    [PMU_M_VECTORIZATION_INTENSITY] = {"vectorization_intensity", "Vectorization intensity",
                                       "VPU_ELEMENTS_ACTIVE / VPU_INSTRUCTIONS_EXECUTED", "elements/instruction",
                                       "§5.3 formula table", IN(VPU_ELEMENTS_ACTIVE) | IN(VPU_INSTRUCTIONS_EXECUTED),
                                       TH(BELOW, 8000, 16000, PMU_M_COUNT, 0, "§5.3 threshold table",
                                          "< 8 (double precision), < 16 (single precision)"),
                                       "§4.2's threshold table names it 'vector intensity'"},
    [PMU_M_READ_BANDWIDTH] = {"read_bandwidth", "Read bandwidth",
                              "(L2_DATA_READ_MISS_MEM_FILL + L2_DATA_WRITE_MISS_MEM_FILL + HWP_L2MISS) * 64 / "
                              "CPU_CLK_UNHALTED",
                              "bytes/clock", "§5.4 formula table",
                              IN(L2_DATA_READ_MISS_MEM_FILL) | IN(L2_DATA_WRITE_MISS_MEM_FILL) | IN(HWP_L2MISS) |
                                  IN(CPU_CLK_UNHALTED),
                              NO_TH,
                              "HWP_L2MISS is not in KNC PMU Table 1-6, so no KNC event code is known for it"},
    [PMU_M_WRITE_BANDWIDTH] = {"write_bandwidth", "Write bandwidth",
                               "(L2_VICTIM_REQ_WITH_DATA + SNP_HITM_L2) * 64 / CPU_CLK_UNHALTED", "bytes/clock",
                               "§5.4 formula table",
                               IN(L2_VICTIM_REQ_WITH_DATA) | IN(SNP_HITM_L2) | IN(CPU_CLK_UNHALTED), NO_TH,
                               "SNP_HITM_L2 may over-estimate it with clevict + streaming stores (§5.4 prose)"},
    [PMU_M_BANDWIDTH] = {"bandwidth", "Bandwidth", "(read bandwidth + write bandwidth) * frequency (GHz)", "GB/s",
                         "§5.4 formula table",
                         IN(L2_DATA_READ_MISS_MEM_FILL) | IN(L2_DATA_WRITE_MISS_MEM_FILL) | IN(HWP_L2MISS) |
                             IN(L2_VICTIM_REQ_WITH_DATA) | IN(SNP_HITM_L2) | IN(CPU_CLK_UNHALTED),
                         TH(BELOW, 80000, 0, PMU_M_COUNT, 0, "§5.4 threshold table", "< 80GB/s"),
                         "GB = 10^9 bytes (bytes/clock x GHz); computed from the exact sums, not from the two "
                         "rounded bandwidths. §5.4's tuning suggestions add > 140 GB/s as near the practical "
                         "maximum"},
};

const struct pmu_metric_desc *pmu_metric_describe(enum pmu_metric m)
{
    return (unsigned)m < PMU_M_COUNT ? &descs[m] : NULL;
}

/* ---- availability ---- */

const struct pmu_metric_guide pmu_knc_metric_guide = {
    .title = "Intel, Optimization and Performance Tuning for Intel Xeon Phi Coprocessors, Part 2",
};

bool pmu_metric_input_available(enum pmu_kind kind, enum pmu_metric_input in)
{
    const struct pmu_kind_desc *d = pmu_kind_get(kind);
    if (!pmu_kind_present(kind) || (unsigned)in >= PMU_MI_COUNT)
        return false;
    if (!d->metrics) /* the generic cycles / instructions events (pmu/events.h) */
        return in == PMU_MI_CPU_CLK_UNHALTED || in == PMU_MI_INSTRUCTIONS_EXECUTED;
    for (size_t i = 0; i < d->events_len; i++)
        if (strcmp(d->events[i].name, input_names[in]) == 0)
            return true;
    return false;
}

u32 pmu_metric_missing_inputs(enum pmu_metric m, enum pmu_kind kind)
{
    if ((unsigned)m >= PMU_M_COUNT)
        return 0;
    u32 missing = 0;
    for (unsigned i = 0; i < PMU_MI_COUNT; i++)
        if ((descs[m].inputs & BITI(i)) && !pmu_metric_input_available(kind, (enum pmu_metric_input)i))
            missing |= BITI(i);
    return missing;
}

/* ---- arithmetic ---- */

static struct pmu_metric_value undef(const char *why)
{
    return (struct pmu_metric_value){.defined = false, .milli = 0, .why = why};
}

static struct pmu_metric_value val(s64 milli)
{
    return (struct pmu_metric_value){.defined = true, .milli = milli, .why = NULL};
}

static bool add_ok(u64 a, u64 b, u64 *r)
{
    *r = a + b;
    return *r >= a;
}

/* (a * b + bias) / c for c != 0 with a 128-bit intermediate (no __int128 division: the kernel has no libgcc);
 * bias c/2 rounds to nearest (half up), c-1 rounds up. False if the quotient does not fit 63 bits. */
static bool muldiv(u64 a, u64 b, u64 c, u64 bias, u64 *q_out)
{
    u64 a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
    u64 ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
    u64 mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    u64 lo = (ll & 0xffffffffu) | (mid << 32);
    u64 hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    u64 nlo = lo + bias;
    hi += nlo < lo;
    lo = nlo;
    if (hi >= c)
        return false;
    u64 rem = hi, q = 0;
    for (int i = 0; i < 64; i++) {
        u64 carry = rem >> 63;
        rem = (rem << 1) | (lo >> 63);
        lo <<= 1;
        q <<= 1;
        if (carry || rem >= c) {
            rem -= c;
            q |= 1;
        }
    }
    if (q > (u64)INT64_MAX)
        return false;
    *q_out = q;
    return true;
}

/* num * scale / den as a metric value; negative when `negative` (magnitude in num). */
static struct pmu_metric_value ratio(u64 num, bool negative, u64 scale, u64 den)
{
    u64 q;
    if (den == 0)
        return undef("undefined: zero denominator");
    if (!muldiv(num, scale, den, den / 2, &q))
        return undef("overflow: result does not fit 64 bits");
    return val(negative ? -(s64)q : (s64)q);
}

struct pmu_metric_value pmu_metric_cpi_thread(u64 core_clocks, u64 thread_instructions)
{
    return ratio(core_clocks, false, MILLI, thread_instructions);
}

struct pmu_metric_value pmu_metric_cpi_core(u64 core_clocks, const u64 *thread_instructions, u32 threads)
{
    u64 sum = 0;
    if (threads == 0)
        return undef("undefined: no threads");
    for (u32 i = 0; i < threads; i++)
        if (!add_ok(sum, thread_instructions[i], &sum))
            return undef("overflow: instruction sum does not fit 64 bits");
    return ratio(core_clocks, false, MILLI, sum);
}

struct pmu_metric_value pmu_metric_cpi_core_formula(s64 cpi_thread_milli, u32 threads)
{
    if (threads == 0)
        return undef("undefined: zero denominator");
    bool neg = cpi_thread_milli < 0;
    u64 mag = neg ? (u64)0 - (u64)cpi_thread_milli : (u64)cpi_thread_milli;
    return ratio(mag, neg, 1, threads);
}

bool pmu_metric_min_cpi(u32 threads, s64 *core_milli, s64 *thread_milli)
{
    /* tuning guide §4.1 Table 3: at most 2 instructions/cycle, never the same context on consecutive cycles */
    static const s64 core[] = {1000, 500, 500, 500}, thread[] = {1000, 1000, 1500, 2000};
    if (threads < 1 || threads > 4)
        return false;
    *core_milli = core[threads - 1];
    *thread_milli = thread[threads - 1];
    return true;
}

/* ---- the generic entry ---- */

static u64 v(const struct pmu_metric_inputs *in, enum pmu_metric_input i)
{
    return in->v[i];
}

/* sum of up to three inputs, false on overflow */
static bool sum3(const struct pmu_metric_inputs *in, enum pmu_metric_input a, enum pmu_metric_input b,
                 enum pmu_metric_input c, u64 *r)
{
    u64 t;
    return add_ok(v(in, a), v(in, b), &t) && add_ok(t, (unsigned)c < PMU_MI_COUNT ? v(in, c) : 0, r);
}

static struct pmu_metric_value bandwidth(const struct pmu_metric_inputs *in, enum pmu_metric m)
{
    u64 rd, wr, bytes_units;
    if (!sum3(in, PMU_MI_L2_DATA_READ_MISS_MEM_FILL, PMU_MI_L2_DATA_WRITE_MISS_MEM_FILL, PMU_MI_HWP_L2MISS, &rd) ||
        !sum3(in, PMU_MI_L2_VICTIM_REQ_WITH_DATA, PMU_MI_SNP_HITM_L2, PMU_MI_COUNT, &wr))
        return undef("overflow: event sum does not fit 64 bits");
    u64 clk = v(in, PMU_MI_CPU_CLK_UNHALTED);
    if (m == PMU_M_READ_BANDWIDTH)
        return ratio(rd, false, 64u * MILLI, clk);
    if (m == PMU_M_WRITE_BANDWIDTH)
        return ratio(wr, false, 64u * MILLI, clk);
    if (in->freq_mhz == 0)
        return undef("undefined: core frequency unknown");
    /* (rd + wr) * 64 / clk bytes/clock * f GHz = (rd + wr) * 64 * f_MHz / clk milli-GB/s */
    if (!add_ok(rd, wr, &bytes_units))
        return undef("overflow: event sum does not fit 64 bits");
    return ratio(bytes_units, false, 64u * in->freq_mhz, clk);
}

/* (clk - exec - sub) / den with a possibly negative numerator (the guide does not say what then). */
static struct pmu_metric_value latency(const struct pmu_metric_inputs *in, u64 sub, u64 den)
{
    u64 clk = v(in, PMU_MI_CPU_CLK_UNHALTED), take;
    if (!add_ok(v(in, PMU_MI_EXEC_STAGE_CYCLES), sub, &take))
        return undef("overflow: event sum does not fit 64 bits");
    if (clk >= take)
        return ratio(clk - take, false, MILLI, den);
    return ratio(take - clk, true, MILLI, den);
}

struct pmu_metric_value pmu_metric_compute(enum pmu_metric m, const struct pmu_metric_inputs *in)
{
    if ((unsigned)m >= PMU_M_COUNT)
        return undef("no such metric");
    if ((descs[m].inputs & in->present) != descs[m].inputs)
        return undef("input missing");
    u64 l1miss, drw = v(in, PMU_MI_DATA_READ_OR_WRITE);
    bool l1miss_ok = add_ok(v(in, PMU_MI_DATA_READ_MISS_OR_WRITE_MISS), v(in, PMU_MI_L1_DATA_HIT_INFLIGHT_PF1),
                            &l1miss);
    switch (m) {
    case PMU_M_CPI_THREAD:
        return pmu_metric_cpi_thread(v(in, PMU_MI_CPU_CLK_UNHALTED), v(in, PMU_MI_INSTRUCTIONS_EXECUTED));
    case PMU_M_CPI_CORE:
        if (in->core_instructions == 0)
            return undef("undefined: sum of the core's threads' instructions unknown or zero");
        return ratio(v(in, PMU_MI_CPU_CLK_UNHALTED), false, MILLI, in->core_instructions);
    case PMU_M_L1_COMPUTE_TO_DATA:
        return ratio(v(in, PMU_MI_VPU_ELEMENTS_ACTIVE), false, MILLI, drw);
    case PMU_M_L2_COMPUTE_TO_DATA:
        return ratio(v(in, PMU_MI_VPU_ELEMENTS_ACTIVE), false, MILLI, v(in, PMU_MI_DATA_READ_MISS_OR_WRITE_MISS));
    case PMU_M_L1_MISSES:
        return l1miss_ok && l1miss <= (u64)INT64_MAX / MILLI ? val((s64)(l1miss * MILLI))
                                                              : undef("overflow: result does not fit 64 bits");
    case PMU_M_L1_HIT_RATE:
        if (!l1miss_ok)
            return undef("overflow: event sum does not fit 64 bits");
        if (drw >= l1miss)
            return ratio(drw - l1miss, false, MILLI_PERCENT, drw);
        return ratio(l1miss - drw, true, MILLI_PERCENT, drw); /* more misses than accesses: shown, not hidden */
    case PMU_M_LATENCY_IMPACT:
        return latency(in, drw, v(in, PMU_MI_DATA_READ_MISS_OR_WRITE_MISS));
    case PMU_M_LATENCY_IMPACT_PROSE:
        if (!l1miss_ok || drw < l1miss)
            return undef("undefined: L1 misses exceed accesses, so there are no L1 hits to subtract");
        return latency(in, drw - l1miss, l1miss);
    case PMU_M_L1_TLB_MISS_RATIO:
        return ratio(v(in, PMU_MI_DATA_PAGE_WALK), false, MILLI_PERCENT, drw);
    case PMU_M_L2_TLB_MISS_RATIO:
        return ratio(v(in, PMU_MI_LONG_DATA_PAGE_WALK), false, MILLI_PERCENT, drw);
    case PMU_M_L1_TLB_PER_L2_TLB_MISS:
        return ratio(v(in, PMU_MI_DATA_PAGE_WALK), false, MILLI, v(in, PMU_MI_LONG_DATA_PAGE_WALK));
    case PMU_M_VECTORIZATION_INTENSITY:
        return ratio(v(in, PMU_MI_VPU_ELEMENTS_ACTIVE), false, MILLI, v(in, PMU_MI_VPU_INSTRUCTIONS_EXECUTED));
    case PMU_M_READ_BANDWIDTH:
    case PMU_M_WRITE_BANDWIDTH:
    case PMU_M_BANDWIDTH:
        return bandwidth(in, m);
    case PMU_M_COUNT:
        break;
    }
    return undef("no such metric");
}

/* ---- thresholds ---- */

enum pmu_judgement pmu_metric_judge(enum pmu_metric m, const struct pmu_metric_value all[PMU_M_COUNT],
                                    bool single_precision)
{
    if ((unsigned)m >= PMU_M_COUNT)
        return PMU_J_UNDECIDABLE;
    const struct pmu_metric_threshold *t = &descs[m].threshold;
    const struct pmu_metric_value *x = &all[m];
    if (t->kind == PMU_TH_NONE)
        return PMU_J_NO_THRESHOLD;
    if (!x->defined || t->kind == PMU_TH_NEAR)
        return PMU_J_UNDECIDABLE;
    s64 limit = single_precision && t->limit_sp_milli ? t->limit_sp_milli : t->limit_milli;
    switch (t->kind) {
    case PMU_TH_ABOVE:
        return x->milli > limit ? PMU_J_INVESTIGATE : PMU_J_OK;
    case PMU_TH_BELOW:
        return x->milli < limit ? PMU_J_INVESTIGATE : PMU_J_OK;
    case PMU_TH_BELOW_METRIC: {
        const struct pmu_metric_value *r = &all[t->ref];
        if (!r->defined || r->milli < 0 || (u64)r->milli > (u64)INT64_MAX / t->factor)
            return PMU_J_UNDECIDABLE;
        return x->milli < r->milli * (s64)t->factor ? PMU_J_INVESTIGATE : PMU_J_OK;
    }
    default:
        return PMU_J_UNDECIDABLE;
    }
}

const char *pmu_judgement_name(enum pmu_judgement j)
{
    switch (j) {
    case PMU_J_NO_THRESHOLD:
        return "no_threshold";
    case PMU_J_UNDECIDABLE:
        return "undecidable";
    case PMU_J_OK:
        return "ok";
    case PMU_J_INVESTIGATE:
        return "investigate";
    }
    return "?";
}

int pmu_milli_format(char *buf, size_t size, s64 milli)
{
    u64 mag = milli < 0 ? (u64)0 - (u64)milli : (u64)milli;
    return k_snprintf(buf, size, "%s%llu.%03llu", milli < 0 ? "-" : "", (unsigned long long)(mag / 1000),
                      (unsigned long long)(mag % 1000));
}

int pmu_metric_format(char *buf, size_t size, enum pmu_metric m, const struct pmu_metric_value *v)
{
    const struct pmu_metric_desc *d = pmu_metric_describe(m);
    char num[32];
    if (!d)
        return k_snprintf(buf, size, "no such metric");
    if (!v->defined)
        return k_snprintf(buf, size, "%s (tuning guide %s)", v->why ? v->why : "undefined", d->where);
    pmu_milli_format(num, sizeof num, v->milli);
    return k_snprintf(buf, size, "%s %s (tuning guide %s)", num, d->unit, d->where);
}

/* ---- the sanity rule (§3) ---- */

struct pmu_stability pmu_stability_check(const u64 *samples, size_t n, u32 tolerance_ppm)
{
    struct pmu_stability s = {0};
    if (n < 2) {
        s.why = "fewer than 2 runs: stability needs repeated runs (tuning guide §3)";
        return s;
    }
    s.defined = true;
    s.min = s.max = samples[0];
    for (size_t i = 1; i < n; i++) {
        s.min = MIN(s.min, samples[i]);
        s.max = MAX(s.max, samples[i]);
    }
    u64 d = s.max - s.min;
    if (d == 0) {
        s.spread_ppm = 0;
    } else if (s.min == 0) {
        s.spread_ppm = UINT64_MAX; /* relative to nothing: unbounded */
    } else {
        u64 q;
        if (!muldiv(d, 1000000u, s.min, s.min - 1, &q))
            q = UINT64_MAX;
        s.spread_ppm = q;
    }
    s.stable = s.spread_ppm <= tolerance_ppm;
    if (s.max == 0)
        s.why = "every run counted 0: stable, but not within any expected value";
    else if (!s.stable)
        s.why = "runs differ by more than the tolerance";
    return s;
}
