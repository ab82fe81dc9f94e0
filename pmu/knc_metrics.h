/* Derived metrics of the Knights Corner optimisation guide (Intel, "Optimization and Performance Tuning for
 * Intel Xeon Phi Coprocessors, Part 2", §4-§5), reproduced as written - including the guide's inconsistencies,
 * which are flagged in pmu_metric_desc.flag, never silently fixed. They are measurements, not verdicts: the only
 * pass/fail rule is the guide's sanity rule (§3, pmu_stability_check below).
 *
 * Each formula and threshold is located in the public guide by section and by where in the section it sits:
 * "§4.1 formula table" / "§4.1 threshold table" (the unnumbered formula and threshold tables of each metric
 * section), "§4.1 prose" (its description and usage text) or a numbered table ("§4.1 Table 3"). The section
 * titles are listed in docs/metrics.md. Section numbers, titles and table numbers are those of a translated copy
 * and have not been verified against the English article (docs/metrics.md says what was checked).
 *
 * Integer arithmetic only (the kernel is built with -mgeneral-regs-only): every value is in milli-units of the
 * metric's unit (CPI 2.0 -> 2000; hit rate 95 % -> 95000 milli-%), rounded to nearest, half away from zero.
 * Products are formed in 128 bits, so any 48-bit counts are safe; a result that does not fit s64 is reported
 * undefined ("overflow"), as is a zero denominator. Portable: no hardware access. */
#pragma once
#include "lib/types.h"
#include "pmu/pmu_caps.h"

/* The events the guide's formulas name (its §6.2 Table 5; codes in KNC PMU 327357-001 Table 1-6, see
 * pmu_knc_events). Only CPU_CLK_UNHALTED and INSTRUCTIONS_EXECUTED exist outside KNC (as the generic cycles
 * and instructions events), so CPI is the only metric every PMU kind can give. */
enum pmu_metric_input {
    PMU_MI_CPU_CLK_UNHALTED,
    PMU_MI_INSTRUCTIONS_EXECUTED,
    PMU_MI_VPU_ELEMENTS_ACTIVE,
    PMU_MI_VPU_INSTRUCTIONS_EXECUTED,
    PMU_MI_DATA_READ_OR_WRITE,
    PMU_MI_DATA_READ_MISS_OR_WRITE_MISS,
    PMU_MI_L1_DATA_HIT_INFLIGHT_PF1,
    PMU_MI_EXEC_STAGE_CYCLES,
    PMU_MI_DATA_PAGE_WALK,
    PMU_MI_LONG_DATA_PAGE_WALK,
    PMU_MI_L2_DATA_READ_MISS_MEM_FILL,
    PMU_MI_L2_DATA_WRITE_MISS_MEM_FILL,
    PMU_MI_HWP_L2MISS, /* used by the guide (§5.4 formula table) but absent from KNC PMU Table 1-6: never available */
    PMU_MI_L2_VICTIM_REQ_WITH_DATA,
    PMU_MI_SNP_HITM_L2,
    PMU_MI_COUNT
};

enum pmu_metric {
    PMU_M_CPI_THREAD,              /* §4.1 formula table */
    PMU_M_CPI_CORE,                /* §4.1 prose (its definition; the table's shortcut: pmu_metric_cpi_core_formula) */
    PMU_M_L1_COMPUTE_TO_DATA,      /* §4.2 formula table */
    PMU_M_L2_COMPUTE_TO_DATA,      /* §4.2 formula table */
    PMU_M_L1_MISSES,               /* §5.1 formula table (a count, not a ratio) */
    PMU_M_L1_HIT_RATE,             /* §5.1 formula table */
    PMU_M_LATENCY_IMPACT,          /* §5.1 formula table, as printed (see its flag) */
    PMU_M_LATENCY_IMPACT_PROSE,    /* §5.1 prose: pmuboot's reading of it, beside the printed formula */
    PMU_M_L1_TLB_MISS_RATIO,       /* §5.2 formula table */
    PMU_M_L2_TLB_MISS_RATIO,       /* §5.2 formula table */
    PMU_M_L1_TLB_PER_L2_TLB_MISS,  /* §5.2 formula table */
    PMU_M_VECTORIZATION_INTENSITY, /* §5.3 formula table */
    PMU_M_READ_BANDWIDTH,          /* §5.4 formula table */
    PMU_M_WRITE_BANDWIDTH,         /* §5.4 formula table */
    PMU_M_BANDWIDTH,               /* §5.4 formula table, needs the core frequency */
    PMU_M_COUNT
};

/* How the guide's "investigate if" is worded (its §4-§5 threshold tables). */
enum pmu_threshold_kind {
    PMU_TH_NONE,         /* no threshold given */
    PMU_TH_ABOVE,        /* investigate if value > limit */
    PMU_TH_BELOW,        /* investigate if value < limit */
    PMU_TH_BELOW_METRIC, /* investigate if value < factor x another metric (the ref) */
    PMU_TH_NEAR,         /* investigate if value is "about" limit: the guide gives no tolerance */
};

struct pmu_metric_threshold {
    enum pmu_threshold_kind kind;
    s64 limit_milli;     /* ABOVE/BELOW/NEAR; for vectorization intensity the double-precision limit */
    s64 limit_sp_milli;  /* single-precision limit where the guide gives one (vectorization intensity), else 0 */
    enum pmu_metric ref; /* BELOW_METRIC */
    u32 factor;          /* BELOW_METRIC */
    const char *where;   /* where the guide gives it: "§4.1 threshold table"; NULL with PMU_TH_NONE */
    const char *text;    /* the threshold as the guide words it (English) */
};

struct pmu_metric_desc {
    const char *name;    /* YAML key, e.g. "cpi_thread" */
    const char *title;   /* the guide's name, English */
    const char *formula; /* verbatim, with the guide's event names */
    const char *unit;    /* of the value (the milli-units are of this unit) */
    const char *where;   /* where the guide gives the formula: "§4.1 formula table", "§4.1 prose" */
    u32 inputs;          /* BIT(enum pmu_metric_input) the formula needs */
    struct pmu_metric_threshold threshold;
    const char *flag;    /* the guide's inconsistency here, reproduced not fixed; NULL if none */
};

const struct pmu_metric_desc *pmu_metric_describe(enum pmu_metric m);
const char *pmu_metric_input_name(enum pmu_metric_input in); /* the guide's event name */

/* A guide whose metrics a kind serves in full (pmu_kind_desc.metrics): every input is an event of the kind's table
 * (pmu_kind_desc.events) of the same name. Knights Corner serves pmu_knc_metric_guide, the one above. */
struct pmu_metric_guide {
    const char *title;
};
extern const struct pmu_metric_guide pmu_knc_metric_guide;

/* Whether this PMU kind can count `in`: a kind with a metric guide (KNC) every input its event table names (KNC
 * PMU Table 1-6); any other kind with counters CPU_CLK_UNHALTED and INSTRUCTIONS_EXECUTED only (as the generic
 * cycles / instructions events). */
bool pmu_metric_input_available(enum pmu_kind kind, enum pmu_metric_input in);
/* The inputs of `m` this kind cannot count (bitmask of BIT(input)); 0 means the metric is available.
 * The suite reports a non-zero mask as "not available on this PMU kind", naming the inputs. */
u32 pmu_metric_missing_inputs(enum pmu_metric m, enum pmu_kind kind);

struct pmu_metric_value {
    bool defined;
    s64 milli;       /* valid when defined */
    const char *why; /* when !defined: "undefined: zero denominator", "overflow", "input missing", ... */
};

/* One thread's counts (or a function's sums over samples, as the guide aggregates them: §4 and §5 introductions)
 * plus what the per-core and bandwidth formulas need beyond events. */
struct pmu_metric_inputs {
    u64 v[PMU_MI_COUNT];
    u32 present;           /* BIT(input) for each v[] that was measured */
    u64 core_instructions; /* sum of INSTRUCTIONS_EXECUTED over the core's threads that ran the workload
                            * (per-core CPI, §4.1 prose); 0 = unknown */
    u32 freq_mhz;          /* core clock, for bandwidth in GB/s (§5.4 formula table); 0 = unknown */
};

struct pmu_metric_value pmu_metric_compute(enum pmu_metric m, const struct pmu_metric_inputs *in);

/* The CPI formulas on their own (the guide's §4.1), for callers without a pmu_metric_inputs. */
/* §4.1 formula table: CPU_CLK_UNHALTED / INSTRUCTIONS_EXECUTED. */
struct pmu_metric_value pmu_metric_cpi_thread(u64 core_clocks, u64 thread_instructions);
/* §4.1 prose: core CPU_CLK_UNHALTED / sum of the threads' INSTRUCTIONS_EXECUTED. */
struct pmu_metric_value pmu_metric_cpi_core(u64 core_clocks, const u64 *thread_instructions, u32 threads);
/* §4.1 formula table: (CPI per thread) / (hardware threads used). Equals pmu_metric_cpi_core only when every
 * thread retired the same count. */
struct pmu_metric_value pmu_metric_cpi_core_formula(s64 cpi_thread_milli, u32 threads);

/* Theoretical minimum CPI per core and per thread for 1..4 threads per core (the guide's §4.1 Table 3);
 * false for other thread counts. */
bool pmu_metric_min_cpi(u32 threads, s64 *core_milli, s64 *thread_milli);

enum pmu_judgement {
    PMU_J_NO_THRESHOLD, /* the guide gives none */
    PMU_J_UNDECIDABLE,  /* value or reference undefined, or "about" with no tolerance (PMU_TH_NEAR) */
    PMU_J_OK,
    PMU_J_INVESTIGATE,  /* the guide's "investigate further"; a hint, never a FAIL (§4.1 prose, §5 introduction) */
};
/* Judge a value against the guide's threshold. `all` holds every metric of the same run (for
 * PMU_TH_BELOW_METRIC); `single_precision` picks the vectorization-intensity limit (16 SP / 8 DP). */
enum pmu_judgement pmu_metric_judge(enum pmu_metric m, const struct pmu_metric_value all[PMU_M_COUNT],
                                    bool single_precision);
const char *pmu_judgement_name(enum pmu_judgement j); /* "ok", "investigate", ... */

/* "-1.234" style: integer part, '.', three decimals. Returns the length as k_snprintf does. */
int pmu_milli_format(char *buf, size_t size, s64 milli);
/* A YAML note value for metric m: "2.000 cycles/instruction (tuning guide §4.1 formula table)", or "undefined:
 * zero denominator (tuning guide §4.1 formula table)". Returns the length as k_snprintf does. A buffer of
 * PMU_METRIC_NOTE_SIZE holds every note (host-tested with the longest reason of every metric). */
#define PMU_METRIC_NOTE_SIZE 128
int pmu_metric_format(char *buf, size_t size, enum pmu_metric m, const struct pmu_metric_value *v);

/* The guide's sanity rule (§3): cycles and instructions of repeated runs of the same workload stay
 * constant. spread_ppm = (max - min) * 1e6 / min, rounded up (so a spread just over the tolerance never rounds
 * into it); stable when spread_ppm <= tolerance_ppm. Fewer than 2 samples: defined = false (no verdict).
 * min = 0 < max: spread_ppm = UINT64_MAX (unstable). All zero: stable, with a `why` saying so. */
struct pmu_stability {
    bool defined;
    bool stable;
    u64 min, max;
    u64 spread_ppm;
    const char *why; /* when !defined or !stable */
};
struct pmu_stability pmu_stability_check(const u64 *samples, size_t n, u32 tolerance_ppm);
/* pmuboot's stated tolerances (the guide gives none): instructions of a fixed workload are exact by
 * construction, so only a stray counted interrupt (pmu/deviations.h) may move them; cycles vary with
 * cache and frequency state. */
#define PMU_STABILITY_INSTRUCTIONS_PPM 100u /* 1 in 10^4 */
#define PMU_STABILITY_CYCLES_PPM 50000u     /* 5 % */
