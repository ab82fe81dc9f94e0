/* Event tables per PMU kind, each entry with its source. Where a code is also in Linux, the Linux symbol is
 * named so that it can be cross-checked. */
#include "pmu/events.h"

#include <string.h>

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

struct pmu_gp_constraint pmu_event_gp_constraint(const struct pmu_caps *caps, u16 event, u8 umask)
{
    struct pmu_gp_constraint c = {caps->gp_mask, NULL};
    /* By family, whatever the kind (a hypervisor may offer a family-15h guest only the legacy range). Skipping a
     * counter a host would have backed with an allowed one loses coverage only, never a verdict. */
    const struct gp_constraint_row *r = pmu_kind_is_amd(caps->kind) ? constraint_row(caps->family, event, umask) : NULL;
    if (r && (caps->gp_mask & r->counters) != caps->gp_mask)
        c = (struct pmu_gp_constraint){caps->gp_mask & r->counters, r->what};
    return c;
}

const char *pmu_generic_event_name(enum pmu_generic_event ev)
{
    static const char *const names[PMU_EV_COUNT] = {"cycles", "instructions", "branches", "branch_misses"};
    return (unsigned)ev < PMU_EV_COUNT ? names[ev] : "unknown";
}

static const struct pmu_event *find_in(const struct pmu_event *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, name))
            return &t[i];
    return NULL;
}

const struct pmu_event *pmu_event_generic(const struct pmu_caps *caps, enum pmu_generic_event ev, const char **why)
{
    static const enum pmu_arch_event intel[PMU_EV_COUNT] = {PMU_AE_CORE_CYCLES, PMU_AE_INSTRUCTIONS,
                                                            PMU_AE_BRANCHES, PMU_AE_BRANCH_MISSES};
    static const char *const amd[PMU_EV_COUNT] = {"cpu_clocks_not_halted", "retired_instructions",
                                                  "retired_branch_instructions",
                                                  "retired_mispredicted_branch_instructions"};
    static const char *const knc[PMU_EV_COUNT] = {"CPU_CLK_UNHALTED", "INSTRUCTIONS_EXECUTED", "BRANCHES",
                                                  "BRANCHES_MISPREDICTED"};
    const char *reason = NULL;
    const struct pmu_event *e = NULL;
    if ((unsigned)ev >= PMU_EV_COUNT) {
        reason = "unknown generic event";
    } else if (caps->kind == PMU_KIND_INTEL_ARCH) {
        if (caps->arch_events & BIT(intel[ev]))
            e = &pmu_intel_arch_events[intel[ev]];
        else
            reason = "architectural event marked unavailable by CPUID (0AH.EBX / 23H.3.EAX)";
    } else if (pmu_kind_is_amd(caps->kind)) {
        e = find_in(pmu_amd_events, pmu_amd_events_len, amd[ev]);
    } else if (caps->kind == PMU_KIND_KNC) {
        e = find_in(pmu_knc_events, pmu_knc_events_len, knc[ev]);
    } else {
        reason = "no PMU";
    }
    if (why)
        *why = e ? NULL : (reason ? reason : "event missing from the table");
    return e;
}

const struct pmu_event *pmu_event_find(const struct pmu_caps *caps, const char *name)
{
    if (caps->kind == PMU_KIND_INTEL_ARCH)
        return find_in(pmu_intel_arch_events, PMU_AE_COUNT, name);
    if (pmu_kind_is_amd(caps->kind)) {
        const struct pmu_event *e = find_in(pmu_amd_events, pmu_amd_events_len, name);
        if (e && e->min_family && caps->family < e->min_family)
            return NULL;
        if (e && e->max_family && caps->family > e->max_family)
            return NULL;
        return e;
    }
    if (caps->kind == PMU_KIND_KNC)
        return find_in(pmu_knc_events, pmu_knc_events_len, name);
    return NULL;
}

void pmu_event_to_evsel(const struct pmu_event *ev, const struct pmu_evsel *base, struct pmu_evsel *out)
{
    *out = *base;
    out->event = ev->event;
    out->umask = ev->umask;
    out->cmask = ev->cmask;
}
