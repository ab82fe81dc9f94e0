/* Intel Xeon Phi Knights Corner core PMU: 2 x 40-bit counters per thread, P6-style selects, global
 * control/status at KNC-specific MSRs (Intel Xeon Phi Coprocessor (Knights Corner) PMU, doc 327357-001, 1.2
 * and 1.4, Tables 1-1, 1-2, 1-5; Linux arch/x86/events/intel/knc.c). */
#include "pmu/pmu_internal.h"

#include "pmu/discover_internal.h"
#include "pmu/emul_face.h"
#include "pmu/kind.h"
#include "pmu/pmu_msr.h"
#include "pmu/knc_metrics.h"

/* Knights Corner: KNC PMU doc 327357-001 Table 1-6 (by event code), the UMASK column is the unit
 * mask; FUB (unit) P54C/CRI/VPU. Cross-checked: Linux arch/x86/events/intel/knc.c knc_perfmon_event_map
 * (cycles 0x002a, instructions 0x0016, branches 0x0012, branch misses 0x002b). The Xeon Phi tuning guide
 * (Intel, "Optimization and Performance Tuning for Intel Xeon Phi Coprocessors, Part 2") Table 5 lists the
 * ones its metrics use. */
#define KNC(name, ev, um, unit, line) {name, ev, um, 0, 0, 0, "KNC PMU 327357-001 Table 1-6 (" unit ")"}
const struct pmu_event pmu_knc_events[] = {
    KNC("DATA_READ", 0x00, 0x00, "P54C", 232),
    KNC("DATA_WRITE", 0x01, 0x00, "P54C", 233),
    KNC("DATA_PAGE_WALK", 0x02, 0x00, "P54C", 234),
    KNC("DATA_READ_MISS", 0x03, 0x00, "P54C", 235),
    KNC("DATA_WRITE_MISS", 0x04, 0x00, "P54C", 236),
    KNC("DATA_CACHE_LINES_WRITTEN_BACK", 0x06, 0x00, "P54C", 237),
    KNC("MEMORY_ACCESSES_IN_BOTH_PIPES", 0x09, 0x00, "P54C", 238),
    KNC("BANK_CONFLICTS", 0x0a, 0x00, "P54C", 239),
    KNC("CODE_READ", 0x0c, 0x00, "unit column blank", 240),
    KNC("CODE_PAGE_WALK", 0x0d, 0x00, "P54C", 241),
    KNC("CODE_CACHE_MISS", 0x0e, 0x00, "P54C", 243),
    KNC("L1_DATA_PF1", 0x11, 0x00, "P54C", 244),
    KNC("BRANCHES", 0x12, 0x00, "P54C", 245),
    KNC("PIPELINE_FLUSHES", 0x15, 0x00, "P54C", 246),
    KNC("INSTRUCTIONS_EXECUTED", 0x16, 0x00, "P54C", 247),
    KNC("INSTRUCTIONS_EXECUTED_V_PIPE", 0x17, 0x00, "P54C", 248),
    KNC("L1_DATA_PF1_MISS", 0x1c, 0x00, "P54C", 249),
    KNC("L1_DATA_PF1_DROP", 0x1e, 0x00, "P54C", 250),
    KNC("PIPELINE_AGI_STALLS", 0x1f, 0x00, "P54C", 251),
    KNC("L1_DATA_HIT_INFLIGHT_PF1", 0x20, 0x00, "P54C", 253),
    KNC("PIPELINE_SG_AGI_STALLS", 0x21, 0x00, "P54C", 254),
    KNC("DATA_READ_OR_WRITE", 0x28, 0x00, "P54C", 255),
    KNC("DATA_READ_MISS_OR_WRITE_MISS", 0x29, 0x00, "P54C", 256),
    KNC("CPU_CLK_UNHALTED", 0x2a, 0x00, "P54C", 257),
    KNC("BRANCHES_MISPREDICTED", 0x2b, 0x00, "P54C", 258),
    KNC("MICROCODE_CYCLES", 0x2c, 0x00, "P54C", 259),
    KNC("FE_STALLED", 0x2d, 0x00, "P54C", 260),
    KNC("EXEC_STAGE_CYCLES", 0x2e, 0x00, "P54C", 262),
    KNC("L1_DATA_PF2", 0x37, 0x00, "P54C", 263),
    KNC("L2_DATA_PF1_MISS", 0x38, 0x00, "P54C", 264),
    KNC("LONG_DATA_PAGE_WALK", 0x3a, 0x00, "P54C", 265),
    KNC("LONG_CODE_PAGE_WALK", 0x3b, 0x00, "P54C", 266),
    KNC("L2_READ_HIT_E", 0xc8, 0x10, "CRI", 267),
    KNC("L2_READ_HIT_M", 0xc9, 0x10, "CRI", 268),
    KNC("L2_READ_HIT_S", 0xca, 0x10, "CRI", 269),
    KNC("L2_READ_MISS", 0xcb, 0x10, "CRI", 270),
    KNC("L2_WRITE_HIT", 0xcc, 0x10, "CRI; description says 'L2 read hit' [!]", 272),
    KNC("L2_VICTIM_REQ_WITH_DATA", 0xd7, 0x10, "CRI", 273),
    KNC("SNP_HITM_BUNIT", 0xe3, 0x10, "CRI; description shifted by a row [!]", 274),
    KNC("SNP_HIT_L2", 0xe6, 0x10, "CRI; description shifted by a row [!]", 275),
    KNC("SNP_HITM_L2", 0xe7, 0x10, "CRI; description shifted by a row [!]", 276),
    KNC("L2_CODE_READ_MISS_CACHE_FILL", 0xf0, 0x10, "CRI; description shifted by a row [!]", 277),
    KNC("L2_DATA_READ_MISS_CACHE_FILL", 0xf1, 0x10, "CRI", 278),
    KNC("L2_DATA_WRITE_MISS_CACHE_FILL", 0xf2, 0x10, "CRI", 279),
    KNC("L2_CODE_READ_MISS_MEM_FILL", 0xf5, 0x10, "CRI", 280),
    KNC("L2_DATA_READ_MISS_MEM_FILL", 0xf6, 0x10, "CRI", 281),
    KNC("L2_DATA_WRITE_MISS_MEM_FILL", 0xf7, 0x10, "CRI", 285),
    KNC("L2_DATA_PF2", 0xfc, 0x10, "CRI", 286),
    KNC("L2_DATA_PF2_DROP", 0xfd, 0x10, "CRI", 287),
    KNC("L2_DATA_PF2_MISS", 0xfe, 0x10, "CRI", 288),
    KNC("L2_DATA_HIT_INFLIGHT_PF2", 0xff, 0x10, "CRI", 289),
    KNC("VPU_DATA_READ", 0x00, 0x20, "VPU", 290),
    KNC("VPU_DATA_WRITE", 0x01, 0x20, "VPU", 291),
    KNC("VPU_DATA_READ_MISS", 0x03, 0x20, "VPU", 293),
    KNC("VPU_DATA_WRITE_MISS", 0x04, 0x20, "VPU", 294),
    KNC("VPU_STALL_REG", 0x05, 0x20, "VPU", 295),
    KNC("VPU_INSTRUCTIONS_EXECUTED", 0x16, 0x20, "VPU", 296),
    KNC("VPU_INSTRUCTIONS_EXECUTED_V_PIPE", 0x17, 0x20, "VPU", 297),
    KNC("VPU_ELEMENTS_ACTIVE", 0x18, 0x20, "VPU", 298),
};
const size_t pmu_knc_events_len = ARRAY_SIZE(pmu_knc_events);

/* Table 1-5: the select is 32 bits (63:32 reserved), bit 19 reserved; bit 21 is the thread-count mode
 * (count all threads of the core), legal on every KNC. */
static u64 knc_evsel_reserved(const struct pmu *p)
{
    (void)p;
    return 0xffffffff00000000ull | EVSEL_PC;
}

static int knc_global_set(struct pmu *p, u64 bits)
{
    if (bits & ~p->counters)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_ctrl, bits); /* 0x2F, bit n enables PerfCnt n */
}

static int knc_global_get(struct pmu *p, u64 *bits)
{
    return hw_rdmsr(p->hw, p->caps->msrs.global_ctrl, bits);
}

static int knc_status_read(struct pmu *p, u64 *status)
{
    return hw_rdmsr(p->hw, p->caps->msrs.global_status, status); /* 0x2D, read-only, sticky */
}

static int knc_status_clear(struct pmu *p, u64 bits)
{
    if (bits & ~p->status_bits)
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.global_status_reset, bits); /* 0x2E, write-only, 1 clears */
}

static int knc_status_set(struct pmu *p, u64 bits)
{
    (void)p, (void)bits;
    return PMU_ENOTSUP; /* Table 1-2 has no status-set register */
}

static int knc_select_write(struct pmu *p, u32 gp, u64 raw)
{
    if (!pmu_gp_exists(p, gp) || (raw & knc_evsel_reserved(p)))
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.evtsel0 + gp, raw);
}

static int knc_select_read(struct pmu *p, u32 gp, u64 *raw)
{
    *raw = 0;
    if (!pmu_gp_exists(p, gp))
        return PMU_EINVAL;
    return hw_rdmsr(p->hw, p->caps->msrs.evtsel0 + gp, raw);
}

static int knc_fixed_ctrl_write(struct pmu *p, u32 fixed, u32 field4)
{
    (void)p, (void)fixed, (void)field4;
    return PMU_ENOTSUP;
}

/* PerfCnt writes set all 40 bits, unlike IA-32 parts that sign-extend bit 31; bits 63:40 are reserved (KNC PMU
 * 327357-001 §1.4.3.2 IA32_PerfCnt0/1 and its Table 1-4). */
static int knc_counter_write(struct pmu *p, u32 bit, u64 value)
{
    if (!pmu_gp_exists(p, bit) || (value & ~p->gp_mask_val))
        return PMU_EINVAL;
    return hw_wrmsr(p->hw, p->caps->msrs.ctr0 + bit, value);
}

static int knc_counter_read(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_gp_exists(p, bit))
        return PMU_EINVAL;
    return hw_rdmsr(p->hw, p->caps->msrs.ctr0 + bit, value);
}

/* Table 1-1: RDPMC ECX = 0/1, zero-extended 40-bit value. */
static u32 knc_rdpmc_index(const struct pmu *p, u32 bit)
{
    (void)p;
    return bit;
}

static int knc_counter_rdpmc(struct pmu *p, u32 bit, u64 *value)
{
    *value = 0;
    if (!pmu_gp_exists(p, bit))
        return PMU_EINVAL;
    return hw_rdpmc(p->hw, knc_rdpmc_index(p, bit), value);
}

const struct pmu_backend pmu_backend_knc = {
    .name = "knc",
    .global_set = knc_global_set,
    .global_get = knc_global_get,
    .status_read = knc_status_read,
    .status_clear = knc_status_clear,
    .status_set = knc_status_set,
    .select_write = knc_select_write,
    .select_read = knc_select_read,
    .fixed_ctrl_write = knc_fixed_ctrl_write,
    .counter_write = knc_counter_write,
    .counter_read = knc_counter_read,
    .counter_rdpmc = knc_counter_rdpmc,
    .rdpmc_index = knc_rdpmc_index,
};

/* GLOBAL_OVF_CTRL: bits 1:0, 63:2 reserved (Table 1-2, 1.4.3). */
static u64 knc_status_bits(const struct pmu *p)
{
    return p->counters;
}

/* Linux selects knc_pmu_init() for Intel family 0x0B (events/intel/core.c); pmu_discover_knc checks it. */
static bool knc_claims(const struct cpu_ident *id)
{
    return id->vendor == VENDOR_INTEL && id->family == 0x0b;
}

/* --- Emulated face (pmu/emul_face.h, docs/emulated-pmu.md) --- */

/* KNC PMU Table 1-6: 0x16, 0x12 (taken and not taken), 0x2B, 0x00 reads, 0x01 writes, 0x28 both, 0x2A. */
static const struct pmu_emul_event knc_emul_events[] = {
    {"INSTRUCTIONS_EXECUTED", 1u << PMU_EMUL_INSNS},
    {"BRANCHES", 1u << PMU_EMUL_BRANCHES},
    {"BRANCHES_MISPREDICTED", 1u << PMU_EMUL_MISPREDICTS},
    {"DATA_READ", 1u << PMU_EMUL_LOADS},
    {"DATA_WRITE", 1u << PMU_EMUL_STORES},
    {"DATA_READ_OR_WRITE", 1u << PMU_EMUL_LOADS | 1u << PMU_EMUL_STORES},
    {"CPU_CLK_UNHALTED", 1u << PMU_EMUL_CYCLES},
    {NULL, 0},
};
/* KNC PMU Table 1-2: PerfCnt0/1 20H-21H, PerfEvtSel0/1 28H-29H, SPFLT_CONTROL and the global registers 2CH-2FH. */
static const struct pmu_emul_msr_block knc_emul_msrs[] = {
    {MSR_KNC_PERFCTR0, 2}, {MSR_KNC_EVNTSEL0, 2}, {MSR_KNC_SPFLT_CONTROL, 4},
};

/* GenuineIntel family 0BH (knc_claims); no CPUID leaf enumerates the PMU, no LBR, no DEBUGCTL freeze. */
static const struct pmu_emul_face knc_emul_face = {
    .vendor = "GenuineIntel",
    .catalog_vendor = VENDOR_UNKNOWN,
    .events = knc_emul_events,
    .instructions = {0x16, 0x00},
    .msrs = knc_emul_msrs,
    .msrs_len = ARRAY_SIZE(knc_emul_msrs),
    .regs = PMU_EMUL_REGS_KNC,
};

const struct pmu_kind_desc pmu_kind_knc = {
    .name = "knc",
    .title = "Knights Corner PMU",
    .claims = knc_claims,
    .discover = pmu_discover_knc,
    .backend = &pmu_backend_knc,
    .evsel_reserved = knc_evsel_reserved,
    .status_bits = knc_status_bits,
    /* Linux knc.c: writing a reserved select bit faults as on Intel; the KNC PMU document does not say so. */
    .reserved_faults = true,
    .reserved_faults_documented = false,
    .status_reset_label = "overflow control (write-only)",
    .events = pmu_knc_events,
    .events_len = ARRAY_SIZE(pmu_knc_events),
    /* Linux intel/knc.c knc_perfmon_event_map */
    .generic = {"CPU_CLK_UNHALTED", "INSTRUCTIONS_EXECUTED", "BRANCHES", "BRANCHES_MISPREDICTED"},
    .reset_expect = pmu_reset_expect_knc,
    .emul = &knc_emul_face,
    /* The Xeon Phi tuning guide's metrics name this table's events. */
    .metrics = &pmu_knc_metric_guide,
};
