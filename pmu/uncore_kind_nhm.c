/* The Nehalem/Westmere uncore: the one pmuboot's founding coursework describes. Facts from the SDM Vol.3B
 * "Performance Monitoring Facility in the Uncore" (18.8.2 in the 2016 edition; its figures "Layout of
 * MSR_UNCORE_PERF_GLOBAL_CTRL", "... GLOBAL_STATUS", "... GLOBAL_OVF_CTRL", "... PERFEVTSELx", "... FIXED_CTR_CTRL")
 * and Linux arch/x86/events/intel/uncore_snb.c (nhm_uncore: its MSRs, widths and events) with intel/uncore.c
 * (intel_uncore_match: the models). Nehalem-EX and Westmere-EX have another uncore (Linux uncore_nhmex.c), not this. */
#include "pmu/uncore_kind.h"

/* Linux intel/uncore.c intel_uncore_match: INTEL_NEHALEM_EP, INTEL_NEHALEM, INTEL_WESTMERE, INTEL_WESTMERE_EP. The
 * SDM's MSR table for these registers also lists 06_1FH, which Linux does not drive: recognition follows Linux. */
static const u8 nhm_models[] = {0x1a, 0x1e, 0x25, 0x2c};

static const struct uncore_box_desc nhm_boxes[] = {
    {
        .name = "pc",
        .boxes = 1,
        .counters = 8,          /* MSR_UNCORE_PerfCntr0-7 */
        .width = 48,
        .ctl0 = 0x3c0,          /* MSR_UNCORE_PerfEvtSel0 */
        .ctr0 = 0x3b0,          /* MSR_UNCORE_PerfCntr0 */
        .counter_stride = 1,
        .sel_enable = BIT(22),  /* EN: counts once EN_PCx is set in the global control too */
        .sel_pmi = BIT(20),     /* PMI: the overflow raises the uncore PMI, routed by EN_PMI_COREx */
        /* Event select, unit mask, edge, invert, counter mask 31:24 (Linux NHM_UNC_RAW_EVENT_MASK). */
        .sel_event_mask = 0xffull | 0xff00ull | BIT(18) | BIT(23) | 0xff000000ull,
        .status_shift = 0,      /* OVF_PCn: bit n */
        .status_per_counter = true,
        .global_enable_per_counter = true, /* EN_PCn: bit n */
    },
};

/* Linux uncore_snb.c nhm_uncore_events: the uncore clock and the memory controller / home logic requests. */
static const struct uncore_event_desc nhm_events[] = {
    {"clockticks", "pc", 0xff, 0x00, UNCORE_BOUND_CLOCK},
    {"qmc_normal_reads_any", "pc", 0x2c, 0x0f, UNCORE_BOUND_AT_LEAST_LINES},
    {"qmc_writes_full_any", "pc", 0x2f, 0x0f, UNCORE_BOUND_NONE},
    {"qhl_request_local_reads", "pc", 0x20, 0x10, UNCORE_BOUND_AT_LEAST_LINES},
    {"qhl_request_local_writes", "pc", 0x20, 0x20, UNCORE_BOUND_NONE},
    {"qhl_request_remote_reads", "pc", 0x20, 0x04, UNCORE_BOUND_NONE},
    {"qhl_request_ioh_reads", "pc", 0x20, 0x01, UNCORE_BOUND_NONE},
};

/* A two-package Westmere-EP of four cores a package (the quad-core Westmere-EP parts: the routing field has four
 * bits, EN_PMI_CORE0-3). The uncore clock differs from the TSC on purpose, so that a check taking one for the other
 * fails. */
static const struct uncore_emul_face nhm_face = {
    .name = "wsm-ep",
    .vendor = "GenuineIntel",
    .family = 6,
    .model = 0x2c,
    .stepping = 2,
    .packages = 2,
    .scopes_per_package = 1,
    .cores_per_scope = 4,
    .threads_per_core = 2,
    .tsc_hz = 2400000000ull,
    .uncore_clock_hz = 2133000000ull,
};

const struct uncore_kind_desc uncore_kind_nhm = {
    .name = "nhm",
    .title = "Nehalem/Westmere uncore (8 x 48-bit counters, fixed uncore clock, PMI routed by EN_PMI_COREx)",
    .source = "SDM Vol.3B Performance Monitoring Facility in the Uncore; Linux intel/uncore_snb.c nhm_uncore",
    .enumeration = UNCORE_ENUM_MODEL_LIST,
    .scope = UNCORE_SCOPE_PACKAGE,
    .models = nhm_models,
    .models_len = ARRAY_SIZE(nhm_models),
    .boxes = nhm_boxes,
    .boxes_len = ARRAY_SIZE(nhm_boxes),
    .fixed = {
        .ctl = 0x395,            /* MSR_UNCORE_FIXED_CTR_CTRL */
        .ctr = 0x394,            /* MSR_UNCORE_FIXED_CTR0 */
        .width = 48,
        .ctl_enable = BIT(0),    /* EN */
        .ctl_pmi = BIT(2),       /* PMI */
        .status_bit = BIT(32),   /* OVF_FC0 */
        .enable_bit = BIT(32),   /* EN_FC0 */
        .counts = "uncore clock (U-clock) cycles",
    },
    .global = {
        .ctrl = 0x391,                        /* MSR_UNCORE_PERF_GLOBAL_CTRL */
        .ctrl_enable = 0xffull | BIT(32),     /* EN_PC0-7, EN_FC0 */
        .ctrl_route_mask = 0xfull << 48,      /* EN_PMI_CORE0-3 */
        .ctrl_route_shift = 48,
        .ctrl_freeze = BIT(63),               /* PMI_FRZ */
        .freeze = UNCORE_FREEZE_CLEARS_ENABLES,
        .status = 0x392,                      /* MSR_UNCORE_PERF_GLOBAL_STATUS: "a read-only register" (the text;
                                               * its figure marks OVF_PMI and CHG R/W) */
        .status_ovf_pmi = BIT(61),            /* OVF_PMI */
        .status_chg = BIT(63),                /* CHG */
        .ovf_ctrl = 0x393,                    /* MSR_UNCORE_PERF_GLOBAL_OVF_CTRL, write-only, 1 clears */
        .clear = UNCORE_CLEAR_OVF_CTRL_W1,
        .debugctl_pmi = BIT(13),              /* IA32_DEBUGCTL.Offcore_PMI_EN (Uncore_PMI_EN) */
    },
    .events = nhm_events,
    .events_len = ARRAY_SIZE(nhm_events),
    .emul = &nhm_face,
};
