/* Which events the emulated PMU produces, per kind, and how many of each one retired instruction makes
 * (emul/emul.h). Events are named as in pmu/events.c, so the encodings come from one table; the instruction
 * classes come from the single-step oracle's classifier (lib/insn_class.c). Everything not listed here
 * counts nothing under emulation (docs/emulated-pmu.md). */
#include "emul/emul.h"

#include "pmu/event_catalog.h"
#include "pmu/events.h"

#define C(x) (1u << PMU_EMUL_##x)
/* SDM Vol.3B Table 21-1 architectural events (fixed counters 0-3 count the same encodings). */
static const struct pmu_emul_event intel_events[] = {
    {"instructions", C(INSNS)},   {"branches", C(BRANCHES)}, {"branch_misses", C(MISPREDICTS)},
    {"core_cycles", C(CYCLES)},   {"ref_cycles", C(CYCLES)}, {"topdown_slots", C(SLOTS)},
    {NULL, 0},
};
/* AMD PPR PMCx0C0, 0C2, 0C3, 0C4, 076 (Linux events/amd/core.c). */
static const struct pmu_emul_event amd_events[] = {
    {"retired_instructions", C(INSNS)},
    {"retired_branch_instructions", C(BRANCHES)},
    {"retired_taken_branch_instructions", C(TAKEN)},
    {"retired_mispredicted_branch_instructions", C(MISPREDICTS)},
    {"cpu_clocks_not_halted", C(CYCLES)},
    {NULL, 0},
};
/* KNC PMU Table 1-6: 0x16, 0x12 (taken and not taken), 0x2B, 0x00 reads, 0x01 writes, 0x28 both, 0x2A. */
static const struct pmu_emul_event knc_events[] = {
    {"INSTRUCTIONS_EXECUTED", C(INSNS)},   {"BRANCHES", C(BRANCHES)},
    {"BRANCHES_MISPREDICTED", C(MISPREDICTS)}, {"DATA_READ", C(LOADS)},
    {"DATA_WRITE", C(STORES)},             {"DATA_READ_OR_WRITE", C(LOADS) | C(STORES)},
    {"CPU_CLK_UNHALTED", C(CYCLES)},       {NULL, 0},
};

const struct pmu_emul_event *pmu_emul_events(const struct pmu_emul_kind *k)
{
    switch (k->kind) {
    case PMU_KIND_INTEL_ARCH:
        return intel_events;
    case PMU_KIND_KNC:
        return knc_events;
    default:
        return amd_events;
    }
}

/* The catalog classes an emulated class stands for: AMD's taken branches count far ones too (EVC_TAKEN). */
static u32 as_evc(u32 classes)
{
    return ((classes & C(INSNS)) ? BIT(EVC_INSTRUCTIONS) : 0) | ((classes & C(BRANCHES)) ? BIT(EVC_BRANCHES) : 0) |
           ((classes & C(TAKEN)) ? BIT(EVC_TAKEN) : 0) | ((classes & C(LOADS)) ? BIT(EVC_LOADS) : 0) |
           ((classes & C(STORES)) ? BIT(EVC_STORES) : 0);
}

u32 pmu_emul_event_count(u32 classes, u32 evc, const struct pmu_emul_step *s)
{
    return ((classes & C(MISPREDICTS)) && s->mispredicted) + popcount64((as_evc(classes) | evc) & s->evc);
}
