/* Which events the emulated PMU produces, per kind, and how many of each one retired instruction makes
 * (emul/emul.h). Events are named as in pmu/events.c, so the encodings come from one table; the instruction
 * classes come from the single-step oracle's classifier (lib/insn_class.c). Everything not listed here
 * counts nothing under emulation (docs/emulated-pmu.md). */
#include "emul/emul.h"

#include "pmu/event_catalog.h"
#include "pmu/events.h"

#define C(x) (1u << PMU_EMUL_##x)
/* The part's event of each oracle class in the vendor's catalog (pmu/event_catalog.h): the same table the events
 * suite programs them from, so the emulated part counts what its catalog says each event counts. */
#define CATALOG_EVENTS                                                                                               \
    {"catalog:instructions", 0, 1u << EVC_INSTRUCTIONS}, {"catalog:branches", 0, 1u << EVC_BRANCHES},               \
        {"catalog:taken", 0, 1u << EVC_TAKEN},                                                                       \
    {"catalog:conditional", 0, 1u << EVC_COND}, {"catalog:conditional_taken", 0, 1u << EVC_COND_TAKEN},             \
        {"catalog:conditional_not_taken", 0, 1u << EVC_COND_NTAKEN}, {"catalog:near_taken", 0, 1u << EVC_NEAR_TAKEN}, \
        {"catalog:near_call", 0, 1u << EVC_NEAR_CALL}, {"catalog:near_return", 0, 1u << EVC_NEAR_RETURN},            \
        {"catalog:far", 0, 1u << EVC_FAR}, {"catalog:indirect", 0, 1u << EVC_INDIRECT},                              \
        {"catalog:indirect_call", 0, 1u << EVC_INDIRECT_CALL}, {"catalog:indirect_jump", 0, 1u << EVC_INDIRECT_JMP}, \
        {"catalog:relative_call", 0, 1u << EVC_REL_CALL}, {"catalog:relative_jump", 0, 1u << EVC_REL_JMP},           \
        {"catalog:loads", 0, 1u << EVC_LOADS}, {"catalog:stores", 0, 1u << EVC_STORES}

/* SDM Vol.3B Table 21-1 architectural events (fixed counters 0-3 count the same encodings). */
static const struct pmu_emul_event intel_events[] = {
    {"instructions", C(INSNS), 0},   {"branches", C(BRANCHES), 0}, {"branch_misses", C(MISPREDICTS), 0},
    {"core_cycles", C(CYCLES), 0},   {"ref_cycles", C(CYCLES), 0}, {"topdown_slots", C(SLOTS), 0},
    CATALOG_EVENTS,
    {NULL, 0, 0},
};
/* AMD PPR PMCx0C0, 0C2, 0C3, 0C4, 076 (Linux events/amd/core.c). */
static const struct pmu_emul_event amd_events[] = {
    {"retired_instructions", C(INSNS), 0},
    {"retired_branch_instructions", C(BRANCHES), 0},
    {"retired_taken_branch_instructions", C(TAKEN), 0},
    {"retired_mispredicted_branch_instructions", C(MISPREDICTS), 0},
    {"cpu_clocks_not_halted", C(CYCLES), 0},
    CATALOG_EVENTS,
    {NULL, 0, 0},
};
/* KNC PMU Table 1-6: 0x16, 0x12 (taken and not taken), 0x2B, 0x00 reads, 0x01 writes, 0x28 both, 0x2A. */
static const struct pmu_emul_event knc_events[] = {
    {"INSTRUCTIONS_EXECUTED", C(INSNS), 0},   {"BRANCHES", C(BRANCHES), 0},
    {"BRANCHES_MISPREDICTED", C(MISPREDICTS), 0}, {"DATA_READ", C(LOADS), 0},
    {"DATA_WRITE", C(STORES), 0},             {"DATA_READ_OR_WRITE", C(LOADS) | C(STORES), 0},
    {"CPU_CLK_UNHALTED", C(CYCLES), 0},       {NULL, 0, 0},
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

u32 pmu_emul_event_count(u32 classes, u32 evc, const struct pmu_emul_step *s)
{
    return ((classes & C(INSNS)) ? 1u : 0u) + ((classes & C(BRANCHES)) && s->branch) +
           ((classes & C(TAKEN)) && s->taken) + ((classes & C(MISPREDICTS)) && s->mispredicted) +
           ((classes & C(LOADS)) && s->load) + ((classes & C(STORES)) && s->store) + (u32)popcount64(evc & s->evc);
}
