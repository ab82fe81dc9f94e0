/* Intel architectural performance monitoring v1-v6 (SDM Vol.3B 21.2 "Architectural Performance Monitoring";
 * MSR numbers SDM Vol.4 Table 2-2, taken from caps->msrs). Linux arch/x86/events/intel/core.c is the
 * reference for the order of operations. */
#include "pmu/deviations.h"
#include "pmu/event_catalog.h"
#include "pmu/pmu_internal.h"

#include "pmu/discover_internal.h"
#include "pmu/emul_face.h"
#include "pmu/kind.h"
#include "pmu/pmu_msr.h"

/* IA32_PERFEVTSELx bits 63:32 (SDM Vol.3B Figure 21-6 and the v6 additions; Linux perf_event.h):
 * 32 IN_TX, 33 IN_TXCP (TSX parts: CPUID.(7,0):EBX HLE[4]/RTM[11], pmu_caps.tsx), 34 adaptive PEBS, 35 BR_CNTR
 * (CPUID.1CH), 36 EQ (CPUID.23H.0:EBX[1]), 37 RDPMC_USER_DISABLE (CPUID.23H.0:EBX[2]), 47:40 UMASK2
 * (CPUID.23H.0:EBX[0]). */
#define EVSEL_IN_TX (1ull << 32)
#define EVSEL_IN_TXCP (1ull << 33)
#define EVSEL_ADAPTIVE (1ull << 34)
#define EVSEL_BR_CNTR (1ull << 35)
#define EVSEL_EQ (1ull << 36)
#define EVSEL_RDPMC_USER_DISABLE (1ull << 37)
#define EVSEL_UMASK2 (0xffull << 40)

#define RDPMC_FIXED (1u << 30) /* SDM Vol.2B RDPMC: ECX[30] selects the fixed-function counters */

/* SDM Vol.3B Table 21-1 "UMask and Event Select Encodings for Pre-Defined Architectural Performance Events"
 * (bits 0-6 since v1; topdown slots (7) with v5/Ice Lake; 8-12 with v6, enumerated by CPUID.23H.3).
 * Cross-checked against Linux tools/testing/selftests/kvm/include/x86/pmu.h INTEL_ARCH_* and
 * arch/x86/events/intel/core.c intel_perfmon_event_map. */
#define SDM_T21_1 "SDM Vol.3B Table 21-1"
const struct pmu_event pmu_intel_arch_events[PMU_AE_COUNT] = {
    [PMU_AE_CORE_CYCLES] = {"core_cycles", 0x3c, 0x00, 0, 0, 0, SDM_T21_1 " UnHalted Core Cycles"},
    [PMU_AE_INSTRUCTIONS] = {"instructions", 0xc0, 0x00, 0, 0, 0, SDM_T21_1 " Instruction Retired"},
    [PMU_AE_REF_CYCLES] = {"ref_cycles", 0x3c, 0x01, 0, 0, 0, SDM_T21_1 " UnHalted Reference Cycles"},
    [PMU_AE_LLC_REFERENCES] = {"llc_references", 0x2e, 0x4f, 0, 0, 0, SDM_T21_1 " LLC Reference"},
    [PMU_AE_LLC_MISSES] = {"llc_misses", 0x2e, 0x41, 0, 0, 0, SDM_T21_1 " LLC Misses"},
    [PMU_AE_BRANCHES] = {"branches", 0xc4, 0x00, 0, 0, 0, SDM_T21_1 " Branch Instruction Retired"},
    [PMU_AE_BRANCH_MISSES] = {"branch_misses", 0xc5, 0x00, 0, 0, 0, SDM_T21_1 " Branch Misses Retired"},
    [PMU_AE_TOPDOWN_SLOTS] = {"topdown_slots", 0xa4, 0x01, 0, 0, 0, SDM_T21_1 " Topdown Slots"},
    [PMU_AE_TOPDOWN_BACKEND] = {"topdown_backend", 0xa4, 0x02, 0, 0, 0, SDM_T21_1 " Topdown Backend Bound"},
    [PMU_AE_TOPDOWN_BAD_SPEC] = {"topdown_bad_spec", 0x73, 0x00, 0, 0, 0, SDM_T21_1 " Topdown Bad Speculation"},
    [PMU_AE_TOPDOWN_FRONTEND] = {"topdown_frontend", 0x9c, 0x01, 0, 0, 0, SDM_T21_1 " Topdown Frontend Bound"},
    [PMU_AE_TOPDOWN_RETIRING] = {"topdown_retiring", 0xc2, 0x02, 0, 0, 0, SDM_T21_1 " Topdown Retiring"},
    [PMU_AE_LBR_INSERTS] = {"lbr_inserts", 0xe4, 0x01, 0, 0, 0, SDM_T21_1 " LBR Inserts"},
};

/* SDM Vol.3B Table 21-2 "Association of Fixed-Function Performance Counters with Architectural Performance
 * Events" (0-2 since v2, 3 with v5, 4-6 with v6); Linux KVM intel_get_fixed_pmc_eventsel() uses the same
 * mapping. */
enum pmu_arch_event pmu_intel_fixed_event(u32 fixed)
{
    static const enum pmu_arch_event map[] = {
        PMU_AE_INSTRUCTIONS,    PMU_AE_CORE_CYCLES,      PMU_AE_REF_CYCLES,       PMU_AE_TOPDOWN_SLOTS,
        PMU_AE_TOPDOWN_BAD_SPEC, PMU_AE_TOPDOWN_FRONTEND, PMU_AE_TOPDOWN_RETIRING,
    };
    return fixed < ARRAY_SIZE(map) ? map[fixed] : PMU_AE_COUNT;
}

static bool intel_anythread_legal(const struct pmu *p)
{
    return p->caps->version >= 3 && !p->caps->anythread_deprecated;
}

/* Only bits certain to be reserved: a bit whose existence depends on something pmu_caps does not record is
 * left out (the mask is used to expect #GP). */
static u64 intel_evsel_reserved(const struct pmu *p)
{
    const struct pmu_caps *c = p->caps;
    u64 r = 0xffffffff00000000ull;
    /* IN_TX/IN_TXCP exist with TSX, whatever the version: KVM reports version 2 and allows them when the guest
     * has HLE or RTM (vmx/pmu_intel.c intel_pmu_refresh). Without TSX they are certain to be reserved only
     * below v3 (before Haswell); a v3+ part whose TSX was disabled by microcode is not claimed either way. */
    if (c->tsx || c->version >= 3)
        r &= ~(EVSEL_IN_TX | EVSEL_IN_TXCP);
    if (c->pdcm && (!c->has_perf_capabilities || c->perf_caps.pebs_baseline))
        r &= ~EVSEL_ADAPTIVE;
    if (c->version >= 6)
        r &= ~EVSEL_BR_CNTR; /* enumerated by CPUID.1CH, not in pmu_caps */
    if (c->eq_bit)
        r &= ~EVSEL_EQ;
    if (c->rdpmc_user_disable)
        r &= ~EVSEL_RDPMC_USER_DISABLE;
    if (c->umask2)
        r &= ~EVSEL_UMASK2;
    /* SDM Vol.3B Figure 21-1 (v1/v2 layout): bit 21 reserved; AnyThread arrives with v3 (21.2.3). When
     * deprecated (CPUID.0AH:EDX[15]) the encoder refuses it, but it is not claimed to fault. */
    if (c->version < 3)
        r |= EVSEL_ANY;
    return r;
}

/* GLOBAL_STATUS bits other than counters that OVF_CTRL / STATUS_RESET / STATUS_SET accept (SDM Vol.3B
 * 21.2.2 Figure 21-4 (v2), 21.2.3 Figure 21-7 (v3, Ovf_Uncore), 21.2.4 Figure 21-9 (v4: TraceToPAPMI,
 * LBR_Frz, CTR_Frz, ASCI); PERF_METRICS overflow bit 48 with PERF_CAPABILITIES[15]). */
static u64 intel_status_extra(const struct pmu_caps *c)
{
    u64 x = (1ull << PMU_STATUS_OVF_BUF) | (1ull << PMU_STATUS_COND_CHGD);
    if (c->version >= 3)
        x |= 1ull << PMU_STATUS_OVF_UNCORE;
    if (c->version >= 4)
        x |= (1ull << PMU_STATUS_TRACE_TOPA_PMI) | (1ull << PMU_STATUS_LBR_FRZ) | (1ull << PMU_STATUS_CTR_FRZ) |
             (1ull << PMU_STATUS_ASCI);
    if (c->has_perf_capabilities && c->perf_caps.perf_metrics)
        x |= 1ull << PMU_STATUS_PERF_METRICS;
    return x;
}

static bool v2plus(const struct pmu *p)
{
    return p->caps->version >= 2 && p->caps->msrs.global_ctrl;
}

/* MSR of GP select / counter `gp`; 0 if the counter has no MSR this code can reach. GP i < msrs.legacy_gp:
 * IA32_PERFEVTSELi = 0x186 + i, IA32_PMCi = 0xC1 + i, i up to 9 below v6 (pmu_msr.h MSR_IA32_ARCH_GP_MAX; Linux
 * x86_pmu_config_addr/x86_pmu_event_addr = base + i there, so GP 8 and 9 of a v5 Lion Cove P-core are 0x18E/0x18F
 * and 0xC9/0xCA); from legacy_gp on the v6 aliases (Linux "Support V6+ MSR Aliasing", intel_pmu_v6_addr_offset:
 * MSR_IA32_PMC_V6_STEP * i). */
static u32 select_msr(const struct pmu *p, u32 gp)
{
    const struct pmu_msrs *m = &p->caps->msrs;
    if (gp < m->legacy_gp)
        return m->evtsel0 + gp;
    return m->v6_gp_cfg_a0 ? m->v6_gp_cfg_a0 + gp * m->v6_stride : 0;
}

static u32 counter_msr(const struct pmu *p, u32 gp)
{
    const struct pmu_msrs *m = &p->caps->msrs;
    if (gp < m->legacy_gp)
        return m->ctr0 + gp;
    return m->v6_gp_ctr0 ? m->v6_gp_ctr0 + gp * m->v6_stride : 0;
}

/* Where a write of the full value lands: IA32_A_PMCi = 0x4C1 + i with FW_WRITE (SDM Vol.3B 21.2.6; Linux
 * perfctr = MSR_IA32_PMC0 "full width counters using alternative MSR range", + i for GP 8 and 9 too), the v6
 * alias from legacy_gp on, else 0 (the legacy IA32_PMCi takes bits 31:0 sign-extended). */
static u32 counter_full_width_msr(const struct pmu *p, u32 gp)
{
    const struct pmu_msrs *m = &p->caps->msrs;
    if (gp >= m->legacy_gp)
        return counter_msr(p, gp);
    return m->ctr0_full_width ? m->ctr0_full_width + gp : 0;
}

static int intel_global_set(struct pmu *p, u64 bits)
{
    if (!v2plus(p)) /* v1: no IA32_PERF_GLOBAL_CTRL (SDM Vol.3B 21.2.1): the EN bits are the only switch */
        return pmu_set_select_enables(p, bits);
    if (bits & ~p->counters)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_ctrl, bits);
}

static int intel_global_get(struct pmu *p, u64 *bits)
{
    if (!v2plus(p))
        return pmu_get_select_enables(p, bits);
    return hw_rdmsr(p->hw, p->caps->msrs.global_ctrl, bits);
}

static int intel_status_read(struct pmu *p, u64 *status)
{
    *status = 0;
    if (!v2plus(p) || !p->caps->msrs.global_status)
        return PMU_ENOTSUP; /* v1 has no IA32_PERF_GLOBAL_STATUS */
    return hw_rdmsr(p->hw, p->caps->msrs.global_status, status);
}

/* v2/v3 IA32_PERF_GLOBAL_OVF_CTRL and v4+ IA32_PERF_GLOBAL_STATUS_RESET are the same MSR 0x390: write 1 to
 * clear (SDM Vol.3B 21.2.2, 21.2.4.2). */
static int intel_status_clear(struct pmu *p, u64 bits)
{
    if (!v2plus(p) || !p->caps->msrs.global_status_reset)
        return PMU_ENOTSUP;
    if (bits & ~p->status_bits)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_status_reset, bits);
}

/* v4+ IA32_PERF_GLOBAL_STATUS_SET 0x391: write 1 to set (SDM Vol.3B 21.2.4.2). */
static int intel_status_set(struct pmu *p, u64 bits)
{
    if (p->caps->version < 4 || !p->caps->msrs.global_status_set)
        return PMU_ENOTSUP;
    if (bits & ~p->status_bits)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_status_set, bits);
}

static int intel_select_write(struct pmu *p, u32 gp, u64 raw)
{
    u32 msr = pmu_gp_exists(p, gp) ? select_msr(p, gp) : 0;
    if (!msr || (raw & intel_evsel_reserved(p)))
        return PMU_EINVAL;
    if ((raw & EVSEL_ANY) && !intel_anythread_legal(p))
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, msr, raw);
}

static int intel_select_read(struct pmu *p, u32 gp, u64 *raw)
{
    *raw = 0;
    u32 msr = pmu_gp_exists(p, gp) ? select_msr(p, gp) : 0;
    if (!msr)
        return PMU_EINVAL;
    return hw_rdmsr(p->hw, msr, raw);
}

/* IA32_FIXED_CTR_CTRL: 4 bits per counter (SDM Vol.3B 21.2.2 Figure 21-2): read, replace this field, write. */
static int intel_fixed_ctrl_write(struct pmu *p, u32 fixed, u32 field4)
{
    u32 msr = p->caps->msrs.fixed_ctr_ctrl;
    if (!msr || !p->caps->num_fixed)
        return PMU_ENOTSUP;
    if (!pmu_fixed_exists(p, fixed) || fixed >= 16 || field4 > 0xf)
        return PMU_EINVAL;
    if ((field4 & PMU_FIXED_ANY) && !intel_anythread_legal(p))
        return PMU_EINVAL;
    u64 v = 0;
    int r = hw_rdmsr(p->hw, msr, &v);
    if (r)
        return r;
    u32 shift = 4 * fixed;
    v = (v & ~((u64)0xf << shift)) | ((u64)field4 << shift);
    return hw_wrmsr(p->hw, msr, v);
}

static int intel_counter_write(struct pmu *p, u32 bit, u64 value)
{
    if (!pmu_counter_exists(p, bit))
        return PMU_EINVAL;
    u64 mask = pmu_counter_mask(p, bit);
    if (value & ~mask)
        return PMU_EINVAL;
    if (PMU_IS_FIXED(bit)) /* fixed counters are written at full width (SDM Vol.3B 21.2.6 is about PMCx) */
        return hw_wrmsr(p->hw, p->caps->msrs.fixed_ctr0 + (bit - PMU_FIXED_BIT), value);
    u32 fw = counter_full_width_msr(p, bit);
    if (fw)
        return hw_wrmsr(p->hw, fw, value);
    /* Legacy IA32_PMCx: the counter becomes EAX (bits 31:0) sign-extended to its width. Refuse values that
     * write cannot produce rather than silently store something else; EDX is written 0. */
    u64 lo = value & 0xffffffffull;
    u64 produced = (lo & 0x80000000ull) ? (lo | ~0xffffffffull) & mask : lo;
    if (produced != value)
        return PMU_EINVAL;
    u32 msr = counter_msr(p, bit);
    return msr ? hw_wrmsr(p->hw, msr, lo) : PMU_EINVAL;
}

static int intel_counter_read(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_counter_exists(p, bit))
        return PMU_EINVAL;
    u32 msr = PMU_IS_FIXED(bit) ? p->caps->msrs.fixed_ctr0 + (bit - PMU_FIXED_BIT) : counter_msr(p, bit);
    return msr ? hw_rdmsr(p->hw, msr, value) : PMU_EINVAL;
}

/* SDM Vol.2B RDPMC: ECX[30] = 1 selects fixed counter ECX[29:0]; otherwise GP counter ECX. */
static u32 intel_rdpmc_index(const struct pmu *p, u32 bit)
{
    (void)p;
    return PMU_IS_FIXED(bit) ? RDPMC_FIXED | (bit - PMU_FIXED_BIT) : bit;
}

static int intel_counter_rdpmc(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_counter_exists(p, bit))
        return PMU_EINVAL;
    return hw_rdpmc(p->hw, intel_rdpmc_index(p, bit), value);
}

const struct pmu_backend pmu_backend_intel = {
    .name = "intel_arch",
    .global_set = intel_global_set,
    .global_get = intel_global_get,
    .status_read = intel_status_read,
    .status_clear = intel_status_clear,
    .status_set = intel_status_set,
    .select_write = intel_select_write,
    .select_read = intel_select_read,
    .fixed_ctrl_write = intel_fixed_ctrl_write,
    .counter_write = intel_counter_write,
    .counter_read = intel_counter_read,
    .counter_rdpmc = intel_counter_rdpmc,
    .rdpmc_index = intel_rdpmc_index,
};

/* Overflow status from v2 (SDM Vol.3B 21.2.2): the counters and the documented extra bits. */
static u64 intel_status_bits(const struct pmu *p)
{
    return p->caps->version >= 2 ? p->counters | intel_status_extra(p->caps) : 0;
}

/* Family 0x0B is Knights Corner, its own kind (pmu_kind_knc). */
static bool intel_claims(const struct cpu_ident *id)
{
    return id->vendor == VENDOR_INTEL && id->family != 0x0b;
}

static bool intel_event_available(const struct pmu_caps *caps, const struct pmu_event *e, const char **why)
{
    if (event_catalog_owns(e)) /* the catalog gave it for this very part (pmu_event_find "catalog:") */
        return true;
    size_t bit = (size_t)(e - pmu_intel_arch_events);
    if (bit < PMU_AE_COUNT && (caps->arch_events & BIT(bit)))
        return true;
    *why = "architectural event marked unavailable by CPUID (0AH.EBX / 23H.3.EAX)";
    return false;
}

/* --- Emulated face (pmu/emul_face.h, docs/emulated-pmu.md) --- */

/* The architectural events (SDM Vol.3B Table 21-1) a retired instruction makes; fixed counters 0-3 count the same
 * encodings (SDM 21.2.2; KVM pmu_intel.c fixed_pmc_events; topdown slots: arch event 7, Linux INTEL_FIXED_SLOTS). */
static const struct pmu_emul_event intel_emul_events[] = {
    {"instructions", 1u << PMU_EMUL_INSNS},   {"branches", 1u << PMU_EMUL_BRANCHES},
    {"branch_misses", 1u << PMU_EMUL_MISPREDICTS}, {"core_cycles", 1u << PMU_EMUL_CYCLES},
    {"ref_cycles", 1u << PMU_EMUL_CYCLES},    {"topdown_slots", 1u << PMU_EMUL_SLOTS},
    {NULL, 0},
};
/* SDM Vol.4 Table 2-2: IA32_PMCx 0C1H-, IA32_PERFEVTSELx 186H- (up to MSR_IA32_ARCH_GP_MAX), IA32_FIXED_CTRx 309H-,
 * 38DH-392H (FIXED_CTR_CTRL, GLOBAL_STATUS, _CTRL, _OVF_CTRL/STATUS_RESET, STATUS_SET, INUSE), 345H
 * PERF_CAPABILITIES, IA32_A_PMCx 4C1H-, the v6 aliases from 1900H. */
static const struct pmu_emul_msr_block intel_emul_msrs[] = {
    {MSR_IA32_PMC0, MSR_IA32_ARCH_GP_MAX},   {MSR_IA32_PERFEVTSEL0, MSR_IA32_ARCH_GP_MAX},
    {MSR_IA32_FIXED_CTR0, 16},               {MSR_IA32_FIXED_CTR_CTRL, 6},
    {MSR_IA32_PERF_CAPABILITIES, 1},         {MSR_IA32_A_PMC0, MSR_IA32_ARCH_GP_MAX},
    {MSR_IA32_PMC_V6_GP0_CTR, 0x100},
};
/* Every kind of Intel LBR (pmu/lbr.c): LBR_SELECT and TOS 1C8H-1C9H, FROM/TO 40H-5FH and 60H-7FH (Core 2, Atom),
 * 680H-6BFH, 6C0H-6FFH, LBR_INFO DC0H-DDFH, Arch LBR 14CEH-14CFH, 1200H-, 1500H-, 1600H- (64 entries). */
static const struct pmu_emul_msr_block intel_emul_lbr_msrs[] = {
    {0x1c8, 2}, {0x40, 0x40}, {0x680, 0x80}, {0xdc0, 0x20}, {0x14ce, 2}, {0x1200, 0x40}, {0x1500, 0x40}, {0x1600, 0x40},
};
/* IA32_MISC_ENABLE (read for PEBS_UNAVAIL[12]), IA32_PEBS_ENABLE 3F1H, MSR_PEBS_DATA_CFG 3F2H, IA32_DS_AREA 600H. */
static const struct pmu_emul_msr_block intel_emul_pebs_msrs[] = {{0x1a0, 1}, {0x3f1, 2}, {0x600, 1}};

static const struct pmu_emul_face intel_emul_face = {
    .vendor = "GenuineIntel",
    .arch_perfmon_leaf = true,
    .pdcm = true,
    .pebs = true,
    .ext_leaf = true,
    .arch_lbr = true,
    .catalog_vendor = VENDOR_INTEL,
    .events = intel_emul_events,
    .instructions = {0xc0, 0x00},
    .fixed = {{0xc0, 0x00}, {0x3c, 0x00}, {0x3c, 0x01}, {0xa4, 0x01}},
    .msrs = intel_emul_msrs,
    .msrs_len = ARRAY_SIZE(intel_emul_msrs),
    .lbr_msrs = intel_emul_lbr_msrs,
    .lbr_msrs_len = ARRAY_SIZE(intel_emul_lbr_msrs),
    .route_lbr = true,
    .debugctl = true,
    .pebs_msrs = intel_emul_pebs_msrs,
    .pebs_msrs_len = ARRAY_SIZE(intel_emul_pebs_msrs),
    .regs = PMU_EMUL_REGS_ARCH_PERFMON,
};

/* Who has the deviations of pmu/deviations.c: family 6 model numbers, as the sources give them. */
static bool intel6(const struct cpu_ident *id)
{
    return id->vendor == VENDOR_INTEL && id->family == 6;
}

/* Avaton/Rangely 0x4D, Denverton 0x5F, Jacobsville 0x86, Sierra Forest 0xAF (kvm-unit-tests lib/x86/pmu.c). */
static bool intel_atom_br(const struct cpu_ident *id)
{
    return intel6(id) && (id->model == 0x4d || id->model == 0x5f || id->model == 0x86 || id->model == 0xaf);
}

/* ... and Clearwater Forest 0xDD, which overcounts instructions only. */
static bool intel_atom_inst(const struct cpu_ident *id)
{
    return intel_atom_br(id) || (intel6(id) && id->model == 0xdd);
}

/* Before Merom E: model < 0x0F, or 0x0F with stepping < 9 (open-vm-tools CPUID_CountsCPUIDAsBranch). */
static bool intel_pre_merom_e(const struct cpu_ident *id)
{
    return intel6(id) && (id->model < 0x0f || (id->model == 0x0f && id->stepping < 9));
}

static const struct pmu_kind_deviation intel_deviations[] = {
    {&pmu_deviation_table[PMU_DEV_INTEL_ATOM_INST_RETIRED_OVERCOUNT], intel_atom_inst},
    {&pmu_deviation_table[PMU_DEV_INTEL_ATOM_BR_RETIRED_OVERCOUNT], intel_atom_br},
    {&pmu_deviation_table[PMU_DEV_INTEL_CORE2_CPUID_COUNTS_AS_BRANCH], intel_pre_merom_e},
    {&pmu_deviation_table[PMU_DEV_INTERRUPT_COUNTS_ONE_INSTRUCTION], NULL},
    {NULL, NULL},
};

const struct pmu_kind_desc pmu_kind_intel_arch = {
    .name = "intel_arch",
    .title = "Intel architectural performance monitoring",
    .claims = intel_claims,
    .discover = pmu_discover_intel,
    .backend = &pmu_backend_intel,
    .evsel_reserved = intel_evsel_reserved,
    .status_bits = intel_status_bits,
    .reserved_faults = true,
    .reserved_faults_documented = true,
    .arch_perfmon = true,
    .describe = pmu_describe_intel,
    .events = pmu_intel_arch_events,
    .events_len = PMU_AE_COUNT,
    /* Linux intel/core.c intel_perfmon_event_map */
    .generic = {"core_cycles", "instructions", "branches", "branch_misses"},
    .event_available = intel_event_available,
    .reset_expect = pmu_reset_expect_intel,
    .emul = &intel_emul_face,
    .freeze_on_pmi_version = 2, /* SDM Vol.3B 18.4.7: the freeze bits with architectural perfmon v2 */
    .freeze_in_status_version = 4, /* SDM Vol.3B 21.2.4.2; Linux intel/lbr.c "v4 can do that as part of ... ack" */
    .legacy_write_sign_extends = true,
    .full_width_alias0 = MSR_IA32_A_PMC0,
    .pebs = true,
    .vendor_catalog = true, /* Intel perfmon event files */
    .deviations = intel_deviations,
};
