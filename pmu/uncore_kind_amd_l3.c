/* AMD's L3 PMU (Zen 1-5), shared by the threads of one L3 complex (CCX). Facts from Linux
 * arch/x86/events/amd/uncore.c: present when CPUID 0x80000001 ECX[28] (PerfCtrExtLLC, X86_FEATURE_PERFCTR_LLC) and
 * TOPOEXT (ECX[22]) are set on an AMD or Hygon CPU; six counters from family 17h (NUM_COUNTERS_L3), select/counter
 * pairs from MSR_F16H_L2I_PERF_CTL C0010230H (select at +2i, counter at +2i+1), 48 bits (COUNTER_SHIFT 16); no
 * overflow interrupt (PERF_PMU_CAP_NO_INTERRUPT: the counters are read, never sampled), so no routing, freeze or
 * status; the slice and thread masks of l3_thread_slice_mask. CPUID 0x80000022 EBX (PerfMonV2, Zen 4 on) enumerates
 * the Data Fabric counters (bits 15:10) and the memory controller counters (21:16), not the L3's: recognition reports
 * it as evidence. Events from libpfm4 lib/events/amd64_events_fam19h_zen4_l3.h (UNC_L3_REQUESTS 04H: ALL FFH,
 * MISS 01H). */
#include "pmu/uncore_kind.h"

#include "lib/format.h"

static bool amd_l3_features(const struct cpu_ident *id, const struct cpuid_source *src, struct strbuf *why)
{
    struct cpuid_regs r;
    bool have = id->max_ext_leaf >= 0x80000001 && cpuid_query(src, 0x80000001, 0, &r);
    bool llc = have && (r.ecx >> 28 & 1), topoext = have && (r.ecx >> 22 & 1);
    if (llc && topoext)
        return true;
    if (why)
        sb_printf(why, "; CPUID 0x80000001 ECX[28] PerfCtrExtLLC=%u ECX[22] TOPOEXT=%u%s", llc, topoext,
                  have ? "" : " (leaf absent)");
    return false;
}

static void perfmon_v2_evidence(const struct cpu_ident *id, const struct cpuid_source *src, struct strbuf *why)
{
    struct cpuid_regs r;
    if (!why || id->max_ext_leaf < 0x80000022 || !cpuid_query(src, 0x80000022, 0, &r) || !(r.eax & 1))
        return;
    sb_printf(why, "; CPUID 0x80000022 PerfMonV2: %u DF and %u UMC counters (EBX)", r.ebx >> 10 & 0x3f,
              r.ebx >> 16 & 0x3f);
}

static bool amd_or_hygon(const struct cpu_ident *id)
{
    return id->vendor == VENDOR_AMD || id->vendor == VENDOR_HYGON;
}

/* Families 17h (Zen 1, Zen 2) and Hygon's 18h: slice mask 51:48, thread mask 63:56. */
static bool claims_zen12(const struct cpu_ident *id, const struct cpuid_source *src, struct strbuf *why)
{
    if (!amd_or_hygon(id) || id->family > 0x18)
        return false;
    if (!amd_l3_features(id, src, why))
        return false;
    if (id->family < 0x17) {
        if (why)
            sb_printf(why, "; family 0x%x: PerfCtrExtLLC is the L2 PMU there (Linux amd_l2), not built", id->family);
        return false;
    }
    perfmon_v2_evidence(id, src, why);
    return true;
}

/* From family 19h (Zen 3 on): core ID 44:42, all slices 46, all cores 47, slice ID 50:48, thread mask 57:56. */
static bool claims_zen3(const struct cpu_ident *id, const struct cpuid_source *src, struct strbuf *why)
{
    if (!amd_or_hygon(id) || id->family < 0x19)
        return false;
    if (!amd_l3_features(id, src, why))
        return false;
    perfmon_v2_evidence(id, src, why);
    return true;
}

#define AMD_L3_BOX(count_all)                                                                                  \
    {.name = "l3", .boxes = 1, .counters = 6, .width = 48, .ctl0 = 0xc0010230, .ctr0 = 0xc0010231,            \
     .counter_stride = 2, .sel_enable = BIT(22), .sel_pmi = 0, .sel_event_mask = 0xffull | 0xff00ull,       \
     .sel_count_all = (count_all)}

static const struct uncore_box_desc zen12_boxes[] = {AMD_L3_BOX(0xfull << 48 | 0xffull << 56)};
static const struct uncore_box_desc zen3_boxes[] = {AMD_L3_BOX(0x3ull << 56 | BIT(46) | BIT(47))};

static const struct uncore_event_desc amd_l3_events[] = {
    {"l3_requests_all", "l3", 0x04, 0xff, UNCORE_BOUND_AT_LEAST_LINES},
    {"l3_requests_miss", "l3", 0x04, 0x01, UNCORE_BOUND_NONE},
};

/* One package of two 8-core CCXs (a 16-core Zen 3 desktop part, family 19h model 21h). */
static const struct uncore_emul_face zen3_face = {
    .name = "zen3-ccx",
    .vendor = "AuthenticAMD",
    .family = 0x19,
    .model = 0x21,
    .stepping = 0,
    .packages = 1,
    .scopes_per_package = 2,
    .cores_per_scope = 8,
    .threads_per_core = 2,
    .tsc_hz = 3400000000ull,
};

#define AMD_L3_SOURCE "Linux amd/uncore.c; libpfm4 amd64_events_fam19h_zen4_l3.h"
#define AMD_L3_GLOBAL {.freeze = UNCORE_FREEZE_NONE, .clear = UNCORE_CLEAR_NONE}

const struct uncore_kind_desc uncore_kind_amd_l3_zen12 = {
    .name = "amd_l3_zen12",
    .title = "AMD L3 PMU, Zen 1/Zen 2 (6 x 48-bit counters per CCX, slice and thread masks, no interrupt)",
    .source = AMD_L3_SOURCE,
    .enumeration = UNCORE_ENUM_CPUID,
    .scope = UNCORE_SCOPE_L3,
    .claims = claims_zen12,
    .boxes = zen12_boxes,
    .boxes_len = ARRAY_SIZE(zen12_boxes),
    .global = AMD_L3_GLOBAL,
    .events = amd_l3_events,
    .events_len = ARRAY_SIZE(amd_l3_events),
};

const struct uncore_kind_desc uncore_kind_amd_l3_zen3 = {
    .name = "amd_l3_zen3",
    .title = "AMD L3 PMU, Zen 3 to Zen 5 (6 x 48-bit counters per CCX, core/slice selects, no interrupt)",
    .source = AMD_L3_SOURCE,
    .enumeration = UNCORE_ENUM_CPUID,
    .scope = UNCORE_SCOPE_L3,
    .claims = claims_zen3,
    .boxes = zen3_boxes,
    .boxes_len = ARRAY_SIZE(zen3_boxes),
    .global = AMD_L3_GLOBAL,
    .events = amd_l3_events,
    .events_len = ARRAY_SIZE(amd_l3_events),
    .emul = &zen3_face,
};
