/* AMD core performance counters: legacy K7 (4 counters at C001_0000/4), PerfCtrExtCore (6 counters,
 * select/counter interleaved at C001_0200), PerfMonV2 (core-ext counters + PerfCntrGlobalCtl/Status at
 * C000_0300..3). AMD APM Vol.2 13.2.1 "Performance Counter MSRs" and 13.2.2 "Performance Monitoring Version
 * 2"; Linux arch/x86/events/amd/core.c. All counters are 48 bits wide and written at full width. */
#include "pmu/pmu_internal.h"

#include "pmu/deviations.h"
#include "pmu/discover_internal.h"
#include "pmu/emul_face.h"
#include "pmu/kind.h"
#include "pmu/pmu_msr.h"

/* AMD: the events Linux maps its generic hardware events to (arch/x86/events/amd/core.c
 * amd_perfmon_event_map (K7-family 16h), amd_zen1/zen2/zen4_perfmon_event_map), names as in the AMD BKDGs /
 * PPRs. Families are a coarse filter: Zen 2 and Zen 4 share family numbers with Zen 1/Zen 3. */
#define LNX_AMD "Linux amd/core.c amd_perfmon_event_map"
#define LNX_ZEN1 "Linux amd/core.c amd_zen1_perfmon_event_map"
#define LNX_ZEN2 "Linux amd/core.c amd_zen2_perfmon_event_map"
#define LNX_ZEN4 "Linux amd/core.c amd_zen4_perfmon_event_map"
const struct pmu_event pmu_amd_events[] = {
    {"cpu_clocks_not_halted", 0x076, 0x00, 0, 0, 0, LNX_AMD " CPU_CYCLES; BKDG/PPR PMCx076 CPU Clocks not Halted"},
    {"retired_instructions", 0x0c0, 0x00, 0, 0, 0, LNX_AMD " INSTRUCTIONS; BKDG/PPR PMCx0C0 Retired Instructions"},
    {"retired_branch_instructions", 0x0c2, 0x00, 0, 0, 0,
     LNX_AMD " BRANCH_INSTRUCTIONS; BKDG/PPR PMCx0C2 Retired Branch Instructions"},
    {"retired_taken_branch_instructions", 0x0c4, 0x00, 0, 0, 0,
     "BKDG/PPR PMCx0C4 Retired Taken Branch Instructions (not in Linux's generic map; suite events)"},
    {"retired_mispredicted_branch_instructions", 0x0c3, 0x00, 0, 0, 0,
     LNX_AMD " BRANCH_MISSES; BKDG/PPR PMCx0C3 Retired Mispredicted Branch Instructions"},
    {"l2_requests", 0x07d, 0x07, 0, 0, 0x16, LNX_AMD " CACHE_REFERENCES (0x077d); BKDG PMCx07D Requests to L2"},
    {"l2_misses", 0x07e, 0x07, 0, 0, 0x16, LNX_AMD " CACHE_MISSES (0x077e); BKDG PMCx07E L2 Cache Misses"},
    {"decoder_empty", 0x0d0, 0x00, 0, 0, 0x16, LNX_AMD " STALLED_CYCLES_FRONTEND; BKDG PMCx0D0 Decoder Empty"},
    {"dispatch_stalls", 0x0d1, 0x00, 0, 0, 0x16, LNX_AMD " STALLED_CYCLES_BACKEND; BKDG PMCx0D1 Dispatch Stalls"},
    {"l2_cache_accesses", 0x060, 0xff, 0, 0x17, 0, LNX_ZEN1 " CACHE_REFERENCES (0xff60); PPR PMCx060"},
    {"l2_cache_misses", 0x064, 0x09, 0, 0x17, 0, LNX_ZEN1 " CACHE_MISSES (0x0964); PPR PMCx064"},
    {"ic_fetch_stall_backpressure", 0x087, 0x01, 0, 0x17, 0x17,
     LNX_ZEN1 " STALLED_CYCLES_BACKEND (0x0187); PPR 17h PMCx087"},
    {"ic_fetch_stall_dq_empty", 0x087, 0x02, 0, 0x17, 0x17,
     LNX_ZEN1 " STALLED_CYCLES_FRONTEND (0x0287); PPR 17h PMCx087"},
    {"de_dis_dispatch_token_stalls", 0x0a9, 0x00, 0, 0x17, 0,
     LNX_ZEN2 " STALLED_CYCLES_FRONTEND (0x00a9): Zen 2 (family 17h model 30h+) and later"},
    {"ls_not_halted_p0_cyc", 0x120, 0x01, 0, 0x19, 0,
     LNX_ZEN4 " REF_CPU_CYCLES (0x100000120): Zen 4 (family 19h model 10h+) and later, needs EventSelect[11:8]"},
};
const size_t pmu_amd_events_len = ARRAY_SIZE(pmu_amd_events);

/* Counter constraints, one table per family, first matching row wins. A row matches a 12-bit event code when
 * lo <= (code & mask) <= hi and the unit mask satisfies its rule.
 *
 * AMD family 15h: transcribed from Linux arch/x86/events/amd/core.c, amd_get_event_constraints_f15h() and the
 * "AMD family 15h event code/PMC mappings" comment above it, which follow the BKDG for Family 15h (each core
 * event's PERF_CTL[n:m]). The unit is the code's bits 7:4 (AMD_EVENT_TYPE_MASK 0xF0, bits 11:8 ignored);
 * exceptions name exact 12-bit codes (amd_get_event_code: EventSelect[11:8] from select bits 35:32). Counter
 * sets: PMC0 0x01, PMC20 0x07, PMC3 0x08, PMC30 0x09, PMC50 0x3F, PMC53 0x38. Northbridge events (0xE0-0xFF)
 * count on the NB counters, not on these (Linux: "moved to uncore.c"), and 0xA0-0xBF is unused: no counter.
 * Family 17h+ (Linux amd_get_event_constraints_f17h) only pairs counters for merged large-increment events
 * (0x003), which pmuboot does not program; families 10h, 16h and older have no table (amd_get_event_constraints). */
enum umask_rule {
    UM_ANY,
    UM_ONE_BIT,      /* at most one unit-mask bit set (Linux: hweight_long(umask) <= 1) */
    UM_MULTI_BIT,    /* more than one */
    UM_BOTH_NIBBLES, /* unit-mask bits in both 7:4 and 3:0 (Linux 0x000: config & 0xF000 and config & 0x0F00) */
};

struct gp_constraint_row {
    u16 lo, hi, mask;
    u8 rule;
    u8 counters;
    const char *what;
};

#define EXACT(lo, hi) lo, hi, 0xfff
#define UNIT(lo, hi) lo, hi, 0x0f0
#define F15H(what) "family 15h " what " (Linux amd/core.c amd_get_event_constraints_f15h; BKDG for Family 15h)"
static const struct gp_constraint_row f15h_rows[] = {
    {EXACT(0x000, 0x000), UM_BOTH_NIBBLES, 0x08, F15H("FP event 0x000 with both unit-mask nibbles: PERF_CTL[3]")},
    {EXACT(0x004, 0x004), UM_MULTI_BIT, 0x08, F15H("FP event 0x004 with several unit-mask bits: PERF_CTL[3]")},
    {EXACT(0x003, 0x003), UM_ANY, 0x08, F15H("FP event 0x003: PERF_CTL[3]")},
    {EXACT(0x00b, 0x00b), UM_ANY, 0x08, F15H("FP event 0x00B: PERF_CTL[3]")},
    {EXACT(0x00d, 0x00d), UM_ANY, 0x08, F15H("FP event 0x00D: PERF_CTL[3]")},
    {UNIT(0x000, 0x010), UM_ANY, 0x38, F15H("FP events 0x00-0x1F: PERF_CTL[5:3]")},
    {EXACT(0x023, 0x023), UM_ANY, 0x07, F15H("event 0x023: PERF_CTL[2:0]")},
    {EXACT(0x043, 0x043), UM_ANY, 0x07, F15H("event 0x043: PERF_CTL[2:0]")},
    {EXACT(0x045, 0x046), UM_ANY, 0x07, F15H("events 0x045-0x046: PERF_CTL[2:0]")},
    {EXACT(0x054, 0x055), UM_ANY, 0x07, F15H("events 0x054-0x055: PERF_CTL[2:0]")},
    {EXACT(0x02d, 0x02d), UM_ANY, 0x08, F15H("LS event 0x02D: PERF_CTL[3]")},
    {EXACT(0x02e, 0x02e), UM_ANY, 0x09, F15H("LS event 0x02E: PERF_CTL[3,0]")},
    {EXACT(0x031, 0x031), UM_ONE_BIT, 0x07, F15H("LS event 0x031 with one unit-mask bit: PERF_CTL[2:0]")},
    {EXACT(0x031, 0x031), UM_ANY, 0x00, F15H("LS event 0x031 with several unit-mask bits: no counter")},
    {EXACT(0x1c0, 0x1c0), UM_ANY, 0x38, F15H("EX event 0x1C0: PERF_CTL[5:3]")},
    {UNIT(0x020, 0x050), UM_ANY, 0x3f, F15H("LS and DC events 0x20-0x5F: PERF_CTL[5:0]")},
    {UNIT(0x0c0, 0x0c0), UM_ANY, 0x3f, F15H("EX/LS events 0xC0-0xCF: PERF_CTL[5:0]")},
    {EXACT(0x08f, 0x08f), UM_ANY, 0x01, F15H("IC event 0x08F: PERF_CTL[0]")},
    {EXACT(0x187, 0x188), UM_ANY, 0x01, F15H("DE events 0x187-0x188: PERF_CTL[0]")},
    {EXACT(0x0db, 0x0df), UM_ANY, 0x3f, F15H("events 0x0DB-0x0DF: PERF_CTL[5:0]")},
    {EXACT(0x1d6, 0x1d6), UM_ANY, 0x3f, F15H("EX event 0x1D6: PERF_CTL[5:0]")},
    {EXACT(0x1d8, 0x1d8), UM_ANY, 0x3f, F15H("EX event 0x1D8: PERF_CTL[5:0]")},
    {UNIT(0x060, 0x090), UM_ANY, 0x07, F15H("CU and IC/DE events 0x60-0x9F: PERF_CTL[2:0]")},
    {UNIT(0x0d0, 0x0d0), UM_ANY, 0x07, F15H("DE events 0xD0-0xDF: PERF_CTL[2:0]")},
    {UNIT(0x0a0, 0x0b0), UM_ANY, 0x00, F15H("events 0xA0-0xBF: no counter")},
    {UNIT(0x0e0, 0x0f0), UM_ANY, 0x00, F15H("northbridge events 0xE0-0xFF: NB counters only")},
};

static const struct {
    u32 family;
    const struct gp_constraint_row *rows;
    size_t n;
} amd_constraint_tables[] = {
    {0x15, f15h_rows, ARRAY_SIZE(f15h_rows)},
};

static bool umask_matches(enum umask_rule r, u8 umask)
{
    switch (r) {
    case UM_ONE_BIT:
        return popcount64(umask) <= 1;
    case UM_MULTI_BIT:
        return popcount64(umask) > 1;
    case UM_BOTH_NIBBLES:
        return (umask & 0xf0) && (umask & 0x0f);
    default:
        return true;
    }
}

static const struct gp_constraint_row *constraint_row(u32 family, u16 event, u8 umask)
{
    for (size_t t = 0; t < ARRAY_SIZE(amd_constraint_tables); t++) {
        if (amd_constraint_tables[t].family != family)
            continue;
        for (size_t i = 0; i < amd_constraint_tables[t].n; i++) {
            const struct gp_constraint_row *r = &amd_constraint_tables[t].rows[i];
            u16 code = event & r->mask;
            if (code >= r->lo && code <= r->hi && umask_matches((enum umask_rule)r->rule, umask))
                return r;
        }
    }
    return NULL;
}

/* By family, whatever the AMD kind (a hypervisor may offer a family-15h guest only the legacy range). */
static const char *amd_gp_constraint(const struct pmu_caps *caps, u16 event, u8 umask, u32 *counters)
{
    const struct gp_constraint_row *r = constraint_row(caps->family, event, umask);
    *counters = r ? r->counters : 0;
    return r ? r->what : NULL;
}

/* PerfEvtSeln (APM Vol.2 Figure 13-7): 63:42 reserved, 41:40 HostOnly/GuestOnly, 39:36 reserved,
 * 35:32 EventSelect[11:8] (family 10h+), 21 and 19 reserved - KVM's AMD reserved_bits (0xfffffff000280000)
 * without the HG bits, which KVM refuses only because it is a hypervisor. Before family 10h (K7/K8) the
 * event select is 8 bits and bit 19 is PC, pin control (AMD Athlon x86 Code Optimization Guide 22007
 * Figure 11 "PerfEvtSel[3:0] Registers"). AMD ignores writes to reserved bits rather than faulting
 * (pmu_reserved_faults). */
#define AMD_EVSEL_RESERVED_HI 0xfffffc0000000000ull /* 63:42 */
#define AMD_EVSEL_RESERVED_MID (0xfull << 36)        /* 39:36 */
#define AMD_EVSEL_EVENT_HI (0xfull << 32)            /* 35:32 */

static u64 amd_evsel_reserved(const struct pmu *p)
{
    u64 r = AMD_EVSEL_RESERVED_HI | AMD_EVSEL_RESERVED_MID | EVSEL_ANY;
    if (p->caps->family < 0x10)
        r |= AMD_EVSEL_EVENT_HI; /* K7/K8: EventSelect is 8 bits; bit 19 is PC */
    else
        r |= EVSEL_PC;
    return r;
}

/* PerfCntrGlobalStatus bit 58 = LbrFrozen with LbrExtV2 (Linux GLOBAL_STATUS_LBRS_FROZEN,
 * amd_pmu_cpu_reset clears it together with the counter bits). */
static u64 amd_status_extra(const struct pmu_caps *c)
{
    return c->amd_lbr_v2 ? 1ull << PMU_STATUS_LBR_FRZ : 0;
}

static bool v2(const struct pmu *p)
{
    return p->caps->kind == PMU_KIND_AMD_PERFMON_V2 && p->caps->msrs.global_ctrl;
}

static u32 select_msr(const struct pmu *p, u32 gp)
{
    return p->caps->msrs.evtsel0 + gp * p->caps->msrs.stride;
}

static u32 counter_msr(const struct pmu *p, u32 gp)
{
    return p->caps->msrs.ctr0 + gp * p->caps->msrs.stride;
}

static int amd_global_set(struct pmu *p, u64 bits)
{
    if (!v2(p)) /* legacy / PerfCtrExtCore: no global control, the EN bits are the only switch */
        return pmu_set_select_enables(p, bits);
    if (bits & ~p->counters)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_ctrl, bits);
}

static int amd_global_get(struct pmu *p, u64 *bits)
{
    if (!v2(p))
        return pmu_get_select_enables(p, bits);
    return hw_rdmsr(p->hw, p->caps->msrs.global_ctrl, bits);
}

/* Legacy and PerfCtrExtCore have no overflow-status register (APM Vol.2 13.2.1): an overflow is visible only
 * as the counter wrapping, which pmu_sign_overflow() detects the way Linux amd_pmu_v1_handle_irq /
 * x86_pmu_handle_irq do (top bit of a counter preloaded with a negative value has cleared). */
static int amd_status_read(struct pmu *p, u64 *status)
{
    *status = 0;
    if (!v2(p))
        return PMU_ENOTSUP;
    return hw_rdmsr(p->hw, p->caps->msrs.global_status, status);
}

static int amd_status_clear(struct pmu *p, u64 bits)
{
    if (!v2(p))
        return PMU_ENOTSUP;
    if (bits & ~p->status_bits)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_status_reset, bits); /* PerfCntrGlobalStatusClr, W1C */
}

static int amd_status_set(struct pmu *p, u64 bits)
{
    if (!v2(p) || !p->caps->msrs.global_status_set)
        return PMU_ENOTSUP;
    if (bits & ~p->status_bits)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_status_set, bits); /* PerfCntrGlobalStatusSet */
}

static int amd_select_write(struct pmu *p, u32 gp, u64 raw)
{
    if (!pmu_gp_exists(p, gp) || (raw & amd_evsel_reserved(p)))
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, select_msr(p, gp), raw);
}

static int amd_select_read(struct pmu *p, u32 gp, u64 *raw)
{
    *raw = 0;
    if (!pmu_gp_exists(p, gp))
        return PMU_EINVAL;
    return hw_rdmsr(p->hw, select_msr(p, gp), raw);
}

static int amd_fixed_ctrl_write(struct pmu *p, u32 fixed, u32 field4)
{
    (void)p, (void)fixed, (void)field4;
    return PMU_ENOTSUP; /* AMD core PMUs have no fixed-function counters */
}

static int amd_counter_write(struct pmu *p, u32 bit, u64 value)
{
    if (!pmu_gp_exists(p, bit) || (value & ~p->gp_mask_val))
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, counter_msr(p, bit), value);
}

static int amd_counter_read(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_gp_exists(p, bit))
        return PMU_EINVAL;
    return hw_rdmsr(p->hw, counter_msr(p, bit), value);
}

/* APM Vol.3 RDPMC: ECX 0-5 read core counters PerfCtr0-5 (0-3 without PerfCtrExtCore). */
static u32 amd_rdpmc_index(const struct pmu *p, u32 bit)
{
    (void)p;
    return bit;
}

static int amd_counter_rdpmc(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_gp_exists(p, bit))
        return PMU_EINVAL;
    return hw_rdpmc(p->hw, amd_rdpmc_index(p, bit), value);
}

const struct pmu_backend pmu_backend_amd = {
    .name = "amd",
    .global_set = amd_global_set,
    .global_get = amd_global_get,
    .status_read = amd_status_read,
    .status_clear = amd_status_clear,
    .status_set = amd_status_set,
    .select_write = amd_select_write,
    .select_read = amd_select_read,
    .fixed_ctrl_write = amd_fixed_ctrl_write,
    .counter_write = amd_counter_write,
    .counter_read = amd_counter_read,
    .counter_rdpmc = amd_counter_rdpmc,
    .rdpmc_index = amd_rdpmc_index,
};

/* PerfMonV2's PerfCntrGlobalStatus (APM Vol.2 13.2.2): the counters and LbrFrozen. The other two kinds have no
 * status register. */
static u64 amd_v2_status_bits(const struct pmu *p)
{
    return p->counters | amd_status_extra(p->caps);
}

/* Hygon family 18h is Zen: the same PMU (Linux amd_pmu_init serves both). */
static bool amd_claims(const struct cpu_ident *id)
{
    return id->vendor == VENDOR_AMD || id->vendor == VENDOR_HYGON;
}

/* Who has the deviations of pmu/deviations.c: every AMD CPU, a guest (CPUID.1:ECX[31]), Zen (family 17h on). */
static bool amd_guest(const struct cpu_ident *id)
{
    return id->hypervisor_bit;
}

static bool amd_zen(const struct cpu_ident *id)
{
    return id->vendor == VENDOR_AMD && id->family >= 0x17;
}

static const struct pmu_kind_deviation amd_deviations[] = {
    {&pmu_deviation_table[PMU_DEV_AMD_BRANCHES_COUNT_EXCEPTIONS_INTERRUPTS], NULL},
    {&pmu_deviation_table[PMU_DEV_AMD_BRANCHES_COUNT_VMRUN_IN_GUEST], amd_guest},
    {&pmu_deviation_table[PMU_DEV_AMD_ZEN_SPECLOCKMAP_ROLLBACK], amd_zen},
    {&pmu_deviation_table[PMU_DEV_INTERRUPT_COUNTS_ONE_INSTRUCTION], NULL},
    {NULL, NULL},
};

/* What the three AMD kinds share; they differ in their MSR blocks (caps->msrs), the status register and the
 * reset value of PerfCntrGlobalCtl. */
#define AMD_KIND_COMMON                                                                                             \
    .claims = amd_claims, .discover = pmu_discover_amd, .backend = &pmu_backend_amd,                                \
    .evsel_reserved = amd_evsel_reserved, .reserved_faults = false, .reserved_faults_documented = true,             \
    .amd_core = true, .vendor_catalog = true /* Linux pmu-events amdzen */, .deviations = amd_deviations,          \
    .gp_constraint = amd_gp_constraint,                                                                             \
    .events = pmu_amd_events, .events_len = ARRAY_SIZE(pmu_amd_events),                                             \
    /* Linux amd/core.c amd_perfmon_event_map */                                                                    \
    .generic = {"cpu_clocks_not_halted", "retired_instructions", "retired_branch_instructions",                     \
                "retired_mispredicted_branch_instructions"}

/* --- Emulated faces (pmu/emul_face.h, docs/emulated-pmu.md) --- */

/* AMD PPR PMCx0C0, 0C2, 0C4, 0C3, 076 (Linux events/amd/core.c). */
static const struct pmu_emul_event amd_emul_events[] = {
    {"retired_instructions", 1u << PMU_EMUL_INSNS},
    {"retired_branch_instructions", 1u << PMU_EMUL_BRANCHES},
    {"retired_taken_branch_instructions", 1u << PMU_EMUL_TAKEN},
    {"retired_mispredicted_branch_instructions", 1u << PMU_EMUL_MISPREDICTS},
    {"cpu_clocks_not_halted", 1u << PMU_EMUL_CYCLES},
    {NULL, 0},
};
/* APM Vol.2 13.2.1: PerfEvtSel0-3 / PerfCtr0-3 at C001_0000-7; with PerfCtrExtCore six select/counter pairs at
 * C001_0200-B, the K7 ones aliasing the first four; 13.2.2: PerfCntrGlobalStatus, _Ctl, _StatusClr, _StatusSet at
 * C000_0300-3. */
static const struct pmu_emul_msr_block amd_legacy_emul_msrs[] = {{MSR_K7_EVNTSEL0, 8}};
static const struct pmu_emul_msr_block amd_core_ext_emul_msrs[] = {{MSR_K7_EVNTSEL0, 8}, {MSR_F15H_PERF_CTL0, 12}};
static const struct pmu_emul_msr_block amd_v2_emul_msrs[] = {
    {MSR_K7_EVNTSEL0, 8}, {MSR_F15H_PERF_CTL0, 12}, {MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, 4},
};
/* LbrExtV2 (Linux amd/lbr.c): LBR_SELECT and DBG_EXTN_CFG C000_010EH-FH, FROM/TO C001_0300H- (32 pairs). */
static const struct pmu_emul_msr_block amd_v2_emul_lbr_msrs[] = {{0xc000010e, 2}, {0xc0010300, 0x40}};

/* What the three faces share: the vendor, events, register model; every kind's LBR registers go to the model (one
 * without an LBR #GPs them, as a hypervisor that does not virtualize it). */
#define AMD_EMUL_FACE_COMMON                                                                                            .vendor = "AuthenticAMD", .catalog_vendor = VENDOR_AMD, .events = amd_emul_events,                                  .instructions = {0xc0, 0x00}, .route_lbr = true, .regs = PMU_EMUL_REGS_AMD_CORE

/* Family 10h: no PerfCtrExtCore, maximum extended leaf 8000_0001H. */
static const struct pmu_emul_face amd_legacy_emul_face = {
    AMD_EMUL_FACE_COMMON,
    .max_ext_leaf = 0x80000001u,
    .msrs = amd_legacy_emul_msrs,
    .msrs_len = ARRAY_SIZE(amd_legacy_emul_msrs),
};

/* CPUID 8000_0001H ECX[23] PerfCtrExtCore. */
static const struct pmu_emul_face amd_core_ext_emul_face = {
    AMD_EMUL_FACE_COMMON,
    .max_ext_leaf = 0x80000001u,
    .perfctr_core = true,
    .msrs = amd_core_ext_emul_msrs,
    .msrs_len = ARRAY_SIZE(amd_core_ext_emul_msrs),
    .k7_aliases = true,
};

/* CPUID 8000_0022H PerfMonV2 (and LbrExtV2 where the part has it). */
static const struct pmu_emul_face amd_v2_emul_face = {
    AMD_EMUL_FACE_COMMON,
    .max_ext_leaf = 0x80000022u,
    .perfctr_core = true,
    .perfmon_v2 = true,
    .msrs = amd_v2_emul_msrs,
    .msrs_len = ARRAY_SIZE(amd_v2_emul_msrs),
    .lbr_msrs = amd_v2_emul_lbr_msrs,
    .lbr_msrs_len = ARRAY_SIZE(amd_v2_emul_lbr_msrs),
    .k7_aliases = true,
};

const struct pmu_kind_desc pmu_kind_amd_legacy = {
    .name = "amd_legacy",
    .title = "AMD legacy (K7) performance counters",
    AMD_KIND_COMMON,
    .reset_expect = pmu_reset_expect_amd,
    .emul = &amd_legacy_emul_face,
};

const struct pmu_kind_desc pmu_kind_amd_core_ext = {
    .name = "amd_core_ext",
    .title = "AMD core performance counter extensions (PerfCtrExtCore)",
    AMD_KIND_COMMON,
    .describe = pmu_describe_amd,
    .reset_expect = pmu_reset_expect_amd,
    .emul = &amd_core_ext_emul_face,
};

const struct pmu_kind_desc pmu_kind_amd_perfmon_v2 = {
    .name = "amd_perfmon_v2",
    .title = "AMD PerfMonV2",
    AMD_KIND_COMMON,
    .status_bits = amd_v2_status_bits,
    .describe = pmu_describe_amd_v2,
    .reset_expect = pmu_reset_expect_amd_v2,
    .emul = &amd_v2_emul_face,
};
