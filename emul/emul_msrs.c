/* Which MSRs the emulated PMU answers (emul/emul.h): the registers of every kind's PMU as its face lists them
 * (pmu/emul_face.h, in pmu/kind_*.c), so an access to another vendor's register #GPs in the model as on such a CPU
 * instead of reaching the real one; the LBR, DEBUGCTL and PEBS registers where the kind's face routes them. */
#include "emul/emul.h"

#include "pmu/kind.h"
#include "pmu/pmu_msr.h"

static bool in_blocks(const struct pmu_emul_msr_block *b, u32 n, u32 msr)
{
    for (u32 i = 0; b && i < n; i++)
        if (msr >= b[i].first && msr - b[i].first < b[i].count)
            return true;
    return false;
}

bool pmu_emul_msr_is_pmu(const struct pmu_emul_kind *k, u32 msr)
{
    const struct pmu_emul_face *f = pmu_emul_face_of(k);
    if (msr == MSR_IA32_DEBUGCTL)
        return f->debugctl || k->lbr == EMUL_LBR_AMD; /* AMD: its LBR freeze, with LbrExtV2 */
    if (in_blocks(f->pebs_msrs, f->pebs_msrs_len, msr))
        return true;
    for (u32 i = 0; i < ARRAY_SIZE(pmu_kinds); i++) {
        const struct pmu_emul_face *any = pmu_kinds[i] ? pmu_kinds[i]->emul : NULL;
        if (any && f->route_lbr && in_blocks(any->lbr_msrs, any->lbr_msrs_len, msr))
            return true;
        if (any && in_blocks(any->msrs, any->msrs_len, msr))
            return true;
    }
    return false;
}
