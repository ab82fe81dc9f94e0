/* Which events the emulated PMU produces, per kind, and how many of each one retired instruction makes
 * (emul/emul.h). The kind's face lists them (pmu/emul_face.h), named as in its event table, so the encodings come
 * from one table; the instruction classes come from the single-step oracle's classifier (lib/insn_class.c).
 * Everything not listed counts nothing under emulation (docs/emulated-pmu.md). */
#include "emul/emul.h"

#include "pmu/event_catalog.h"

#define C(x) (1u << PMU_EMUL_##x)

/* The face's list (pmu/emul_face.h, in the kind's file beside its event table). */
const struct pmu_emul_event *pmu_emul_events(const struct pmu_emul_kind *k)
{
    return pmu_emul_face_of(k)->events;
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
