/* The client uncore, Sandy Bridge to Arrow Lake: one descriptor per generation whose register map differs. Facts from
 * Linux arch/x86/events/intel/uncore_snb.c (the MSRs, counters, widths and enables of each generation; the global
 * control Linux writes), intel/uncore.c (intel_uncore_match: which models use which generation), the SDM Vol.3B uncore
 * section of the 2nd generation Core processors (MSR_UNC_PERF_GLOBAL_CTRL: PMI_SEL_Core bits 3:0, EN bit 29, WakePMI
 * bit 30, FREEZE bit 31, which clears EN on an overflow; the C-Box/ARB select bits: OVF_EN 20, EN 22), and the SDM MSR
 * tables (Vol.3C tables 35-20 and 35-28 in the 2016 edition, Vol.4 since: the uncore PMU MSRs of the 2nd and 4th
 * generation Core processors): 391H as above (the 2nd generation's table names five "slice select" bits 4:0, the 4th
 * generation's four "core select" bits 3:0; Linux writes four), 392H MSR_UNC_PERF_GLOBAL_STATUS (bit 0 the fixed
 * counter, bit 1 an ARB counter, bit 3 a C-Box counter overflowed), 394H MSR_UNC_PERF_FIXED_CTRL (overflow
 * propagation 20, enable 22), 395H the fixed counter (47:0), 396H MSR_UNC_CBO_CONFIG. From Skylake the global control
 * is E01H (Linux SKL_UNC_PERF_GLOBAL_CTL) and the status E02H (not verified against the manual here; Linux does not
 * use the status). Where Linux writes the global control without core-select bits (Tiger Lake on) and no routing field
 * is documented to us, the descriptor routes no PMI. */
#include "pmu/uncore_kind.h"

#define SNB_SEL_EVENT_MASK (0xffull | 0xff00ull | BIT(18) | BIT(23) | 0x1f000000ull) /* cmask 28:24 */
#define ADL_SEL_EVENT_MASK (0xffull | 0xff00ull | BIT(18) | BIT(23) | 0x3f000000ull) /* threshold 29:24 */
#define UNC_SEL_EN BIT(22)
#define UNC_SEL_OVF_EN BIT(20)

/* Sandy Bridge, Ivy Bridge, Haswell, Broadwell (client). */
static const u8 snb_models[] = {0x2a, 0x3a, 0x3c, 0x45, 0x46, 0x3d, 0x47};
/* Skylake, Kaby Lake, Coffee Lake, Comet Lake. */
static const u8 skl_models[] = {0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6};
/* Ice Lake client. */
static const u8 icl_models[] = {0x7d, 0x7e, 0x9d};
/* Tiger Lake, Rocket Lake. */
static const u8 tgl_models[] = {0x8c, 0x8d, 0xa7};
/* Alder Lake, Raptor Lake, Alder Lake-N (Gracemont). */
static const u8 adl_models[] = {0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xbe};
/* Meteor Lake, Arrow Lake. */
static const u8 mtl_models[] = {0xac, 0xaa, 0xc6, 0xc5, 0xb5};

#define SNB_ARB {.name = "arb", .boxes = 1, .counters = 2, .width = 44, .ctl0 = 0x3b2, .ctr0 = 0x3b0, \
                 .counter_stride = 1, .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN, \
                 .sel_event_mask = SNB_SEL_EVENT_MASK, .status_shift = 1}

static const struct uncore_box_desc snb_boxes[] = {
    {.name = "cbox", .boxes = 4, .boxes_capped_by_cores = true, .counters = 2, .width = 44, .ctl0 = 0x700,
     .ctr0 = 0x706, .counter_stride = 1, .box_stride = 0x10, .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN,
     .sel_event_mask = SNB_SEL_EVENT_MASK, .status_shift = 3},
    SNB_ARB,
};

/* The eighth C-Box of the 8-core Coffee Lake sits at another MSR offset (Linux UNCORE_BOX_FLAG_CFL8_CBOX_MSR_OFFS):
 * left out, so at most 7 here. */
static const struct uncore_box_desc skl_boxes[] = {
    {.name = "cbox", .boxes = 7, .boxes_capped_by_cores = true, .counters = 4, .width = 44, .ctl0 = 0x700,
     .ctr0 = 0x706, .counter_stride = 1, .box_stride = 0x10, .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN,
     .sel_event_mask = SNB_SEL_EVENT_MASK, .status_shift = 3},
    SNB_ARB,
};

/* The C-Box count from MSR_UNC_CBO_CONFIG (396H) bits 3:0 (Linux icl_get_cbox_num). */
#define ICL_CBOX {.name = "cbox", .boxes = 15, .boxes_msr = 0x396, .boxes_mask = 0xf, .counters = 2, .width = 44, \
                  .ctl0 = 0x700, .ctr0 = 0x702, .counter_stride = 1, .box_stride = 0x8, .sel_enable = UNC_SEL_EN, \
                  .sel_pmi = UNC_SEL_OVF_EN, .sel_event_mask = SNB_SEL_EVENT_MASK, .status_shift = 3}

static const struct uncore_box_desc icl_boxes[] = {
    ICL_CBOX,
    {.name = "arb", .boxes = 1, .counters = 1, .width = 44, .ctl0 = 0x3b3, .ctr0 = 0x3b1, .counter_stride = 1,
     .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN, .sel_event_mask = SNB_SEL_EVENT_MASK, .status_shift = 1},
};

static const struct uncore_box_desc tgl_boxes[] = {ICL_CBOX, SNB_ARB};

static const struct uncore_box_desc adl_boxes[] = {
    {.name = "cbox", .boxes = 15, .boxes_msr = 0x396, .boxes_mask = 0xf, .counters = 2, .width = 44, .ctl0 = 0x2000,
     .ctr0 = 0x2002, .counter_stride = 1, .box_stride = 0x8, .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN,
     .sel_event_mask = ADL_SEL_EVENT_MASK, .status_shift = 3},
    {.name = "arb", .boxes = 2, .counters = 2, .width = 44, .ctl0 = 0x2fd0, .ctr0 = 0x2fd2, .counter_stride = 1,
     .box_stride = 0x8, .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN, .sel_event_mask = SNB_SEL_EVENT_MASK,
     .status_shift = 1},
};

static const struct uncore_box_desc mtl_boxes[] = {
    {.name = "cbox", .boxes = 15, .boxes_msr = 0x396, .boxes_mask = 0xf, .counters = 2, .width = 48, .ctl0 = 0x2442,
     .ctr0 = 0x2448, .counter_stride = 1, .box_stride = 0x10, .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN,
     .sel_event_mask = ADL_SEL_EVENT_MASK, .status_shift = 3},
    {.name = "arb", .boxes = 2, .counters = 2, .width = 48, .ctl0 = 0x2412, .ctr0 = 0x2418, .counter_stride = 1,
     .box_stride = 0x10, .sel_enable = UNC_SEL_EN, .sel_pmi = UNC_SEL_OVF_EN, .sel_event_mask = ADL_SEL_EVENT_MASK,
     .status_shift = 1},
};

/* Linux snb_uncore_events / icl_uncore_events: the uncore clock on the fixed counter (event 0xff). And the C-Box's
 * LLC lookups of any request in any state, M, E, S or I (UNC_CBO_CACHE_LOOKUP.ANY_MESI, event 34H umask 8FH: Linux
 * tools/perf/pmu-events/arch/x86/sandybridge, ivybridge, haswell and skylake uncore-cache.json): a load of a line
 * CLFLUSHed before it misses the core's caches and looks the LLC up (finding it I), so N such loads make at least N
 * lookups, summed over the C-Boxes (the line's slice is a hash of its address). Taken to be the same on Ice Lake
 * and later, whose tables were not checked here. */
static const struct uncore_event_desc client_events[] = {
    {"clockticks", "fixed", 0xff, 0x00, UNCORE_BOUND_CLOCK},
    {"cbo_cache_lookup_any_mesi", "cbox", 0x34, 0x8f, UNCORE_BOUND_AT_LEAST_LINES},
};

/* The fixed counter UNC_CLOCK: MSR_UNC_PERF_FIXED_CTRL 394H (EN bit 22, overflow bit 20), MSR_UNC_PERF_FIXED_CTR 395H,
 * 48 bits; note the order is the reverse of Nehalem's (Linux SNB_UNC_FIXED_CTR_CTRL / SNB_UNC_FIXED_CTR). */
#define SNB_FIXED {.ctl = 0x394, .ctr = 0x395, .width = 48, .ctl_enable = UNC_SEL_EN, .ctl_pmi = UNC_SEL_OVF_EN, \
                   .status_bit = BIT(0), .counts = "uncore clock cycles (UNC_CLOCK)"}

/* The global control of Sandy Bridge to Broadwell (391H) and of Skylake to Comet Lake (E01H): PMI_SEL_Core in the low
 * bits (4 on Sandy Bridge, 5 from Skylake: Linux SNB/SKL_UNC_GLOBAL_CTL_CORE_ALL), EN 29, WakePMI 30, FREEZE 31. */
#define CLIENT_GLOBAL(ctrl_msr, status_msr, route_bits)                                                         \
    {.ctrl = (ctrl_msr), .ctrl_enable = BIT(29), .ctrl_route_mask = (1ull << (route_bits)) - 1,                 \
     .ctrl_route_shift = 0, .ctrl_freeze = BIT(31), .ctrl_wake = BIT(30), .freeze = UNCORE_FREEZE_CLEARS_EN,    \
     .status = (status_msr), .clear = UNCORE_CLEAR_STATUS_W0, .debugctl_pmi = BIT(13)}

/* Linux writes EN alone (rkl/adl_uncore_msr_init_box): no routing field or status register known to us. */
#define CLIENT_GLOBAL_EN_ONLY(ctrl_msr) {.ctrl = (ctrl_msr), .ctrl_enable = BIT(29), .freeze = UNCORE_FREEZE_NONE, \
                                         .clear = UNCORE_CLEAR_NONE}

/* A one-package quad-core Sandy Bridge. */
static const struct uncore_emul_face snb_face = {
    .name = "snb-client",
    .vendor = "GenuineIntel",
    .family = 6,
    .model = 0x2a,
    .stepping = 7,
    .packages = 1,
    .scopes_per_package = 1,
    .cores_per_scope = 4,
    .threads_per_core = 2,
    .tsc_hz = 3400000000ull,
    .uncore_clock_hz = 3000000000ull,
};

#define CLIENT_SOURCE "Linux intel/uncore_snb.c; SDM Vol.3B uncore of the 2nd generation Core processors"

const struct uncore_kind_desc uncore_kind_snb = {
    .name = "snb",
    .title = "client uncore, Sandy Bridge to Broadwell (C-Box, ARB, fixed UNC_CLOCK, PMI_SEL_Core routing)",
    .source = CLIENT_SOURCE,
    .enumeration = UNCORE_ENUM_MODEL_LIST,
    .scope = UNCORE_SCOPE_PACKAGE,
    .models = snb_models,
    .models_len = ARRAY_SIZE(snb_models),
    .boxes = snb_boxes,
    .boxes_len = ARRAY_SIZE(snb_boxes),
    .fixed = SNB_FIXED,
    .global = CLIENT_GLOBAL(0x391, 0x392, 4),
    .events = client_events,
    .events_len = ARRAY_SIZE(client_events),
    .emul = &snb_face,
};

const struct uncore_kind_desc uncore_kind_skl = {
    .name = "skl",
    .title = "client uncore, Skylake to Comet Lake (C-Box, ARB, fixed UNC_CLOCK, PMI_SEL_Core routing)",
    .source = CLIENT_SOURCE,
    .enumeration = UNCORE_ENUM_MODEL_LIST,
    .scope = UNCORE_SCOPE_PACKAGE,
    .models = skl_models,
    .models_len = ARRAY_SIZE(skl_models),
    .boxes = skl_boxes,
    .boxes_len = ARRAY_SIZE(skl_boxes),
    .fixed = SNB_FIXED,
    .global = CLIENT_GLOBAL(0xe01, 0xe02, 5),
    .events = client_events,
    .events_len = ARRAY_SIZE(client_events),
};

/* Linux icl_uncore_msr_ops writes no global control. */
const struct uncore_kind_desc uncore_kind_icl = {
    .name = "icl",
    .title = "client uncore, Ice Lake (C-Box, ARB, fixed UNC_CLOCK; no global control)",
    .source = CLIENT_SOURCE,
    .enumeration = UNCORE_ENUM_MODEL_LIST,
    .scope = UNCORE_SCOPE_PACKAGE,
    .models = icl_models,
    .models_len = ARRAY_SIZE(icl_models),
    .boxes = icl_boxes,
    .boxes_len = ARRAY_SIZE(icl_boxes),
    .fixed = SNB_FIXED,
    .global = {.freeze = UNCORE_FREEZE_NONE, .clear = UNCORE_CLEAR_NONE},
    .events = client_events,
    .events_len = ARRAY_SIZE(client_events),
};

const struct uncore_kind_desc uncore_kind_tgl = {
    .name = "tgl",
    .title = "client uncore, Tiger Lake and Rocket Lake (C-Box, ARB, fixed UNC_CLOCK)",
    .source = CLIENT_SOURCE,
    .enumeration = UNCORE_ENUM_MODEL_LIST,
    .scope = UNCORE_SCOPE_PACKAGE,
    .models = tgl_models,
    .models_len = ARRAY_SIZE(tgl_models),
    .boxes = tgl_boxes,
    .boxes_len = ARRAY_SIZE(tgl_boxes),
    .fixed = SNB_FIXED,
    .global = CLIENT_GLOBAL_EN_ONLY(0xe01),
    .events = client_events,
    .events_len = ARRAY_SIZE(client_events),
};

const struct uncore_kind_desc uncore_kind_adl = {
    .name = "adl",
    .title = "client uncore, Alder Lake and Raptor Lake (C-Box, ARB, fixed UNC_CLOCK)",
    .source = CLIENT_SOURCE,
    .enumeration = UNCORE_ENUM_MODEL_LIST,
    .scope = UNCORE_SCOPE_PACKAGE,
    .models = adl_models,
    .models_len = ARRAY_SIZE(adl_models),
    .boxes = adl_boxes,
    .boxes_len = ARRAY_SIZE(adl_boxes),
    /* MSR_UNC_PERF_FIXED_CTRL 2FDEH, CTR 2FDFH (Linux ADL_UNC_FIXED_CTR_CTRL / ADL_UNC_FIXED_CTR). */
    .fixed = {.ctl = 0x2fde, .ctr = 0x2fdf, .width = 48, .ctl_enable = UNC_SEL_EN, .ctl_pmi = UNC_SEL_OVF_EN,
              .counts = "uncore clock cycles (UNC_CLOCK)"},
    .global = CLIENT_GLOBAL_EN_ONLY(0x2ff0),
    .events = client_events,
    .events_len = ARRAY_SIZE(client_events),
};

/* Meteor Lake's clock is in the cNCU box (fixed 2402H/2408H) and its EN in the cNCU box control 240EH (Linux
 * mtl_uncore_msr_init_box; Lunar Lake's LNL_UNC_MSR_GLOBAL_CTL is the same register). */
const struct uncore_kind_desc uncore_kind_mtl = {
    .name = "mtl",
    .title = "client uncore, Meteor Lake and Arrow Lake (C-Box, ARB, cNCU clock)",
    .source = CLIENT_SOURCE,
    .enumeration = UNCORE_ENUM_MODEL_LIST,
    .scope = UNCORE_SCOPE_PACKAGE,
    .models = mtl_models,
    .models_len = ARRAY_SIZE(mtl_models),
    .boxes = mtl_boxes,
    .boxes_len = ARRAY_SIZE(mtl_boxes),
    .fixed = {.ctl = 0x2402, .ctr = 0x2408, .width = 48, .ctl_enable = UNC_SEL_EN, .ctl_pmi = UNC_SEL_OVF_EN,
              .counts = "uncore clock cycles (cNCU clockticks)"},
    .global = CLIENT_GLOBAL_EN_ONLY(0x240e),
    .events = client_events,
    .events_len = ARRAY_SIZE(client_events),
};
