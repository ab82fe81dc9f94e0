/* Which MSRs the emulated PMU answers (emul/emul.h). Address blocks: SDM Vol.4 Table 2-2 (IA32_PMCx 0C1H-0CAH,
 * IA32_PERFEVTSELx 186H-18FH, IA32_A_PMCx 4C1H-4CAH: pmu_msr.h MSR_IA32_ARCH_GP_MAX; IA32_FIXED_CTRx 309H-,
 * 38DH-392H globals, 345H PERF_CAPABILITIES, v6 aliases from 1900H, DEBUGCTL 1D9H); AMD APM Vol.2 13.2
 * (C001_0000-7, C001_0200-B, C000_0300-3); KNC PMU Table 1-2 (20H-21H, 28H-29H, 2CH-2FH). */
#include "emul/emul.h"

#include "pmu/pmu_msr.h"

struct block {
    u32 first, count;
};

static const struct block pmu_blocks[] = {
    {MSR_IA32_PMC0, MSR_IA32_ARCH_GP_MAX},
    {MSR_IA32_PERFEVTSEL0, MSR_IA32_ARCH_GP_MAX},
    {MSR_IA32_FIXED_CTR0, 16},
    {MSR_IA32_FIXED_CTR_CTRL, 6}, /* 38DH..392H */
    {MSR_IA32_PERF_CAPABILITIES, 1},
    {MSR_IA32_A_PMC0, MSR_IA32_ARCH_GP_MAX},
    {MSR_IA32_PMC_V6_GP0_CTR, 0x100},
    {MSR_K7_EVNTSEL0, 8},
    {MSR_F15H_PERF_CTL0, 12},
    {MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, 4},
    {MSR_KNC_PERFCTR0, 2},
    {MSR_KNC_EVNTSEL0, 2},
    {MSR_KNC_SPFLT_CONTROL, 4},
};

/* The LBR MSRs of every kind of LBR (pmu/lbr.c): LBR_SELECT and TOS 1C8H-1C9H, FROM/TO 40H-5FH and 60H-7FH (Core 2,
 * Atom), 680H-6BFH, 6C0H-6FFH, LBR_INFO DC0H-DDFH, Arch LBR 14CEH-14CFH, 1200H-, 1500H-, 1600H- (64 entries), AMD
 * LBR_SELECT and DBG_EXTN_CFG C000_010EH-FH, FROM/TO C001_0300H- (32 pairs). */
static const struct block lbr_blocks[] = {
    {0x1c8, 2},     {0x40, 0x40},    {0x680, 0x80},    {0xdc0, 0x20},      {0x14ce, 2},
    {0x1200, 0x40}, {0x1500, 0x40},  {0x1600, 0x40},   {0xc000010e, 2},    {0xc0010300, 0x40},
};

bool pmu_emul_msr_is_pmu(const struct pmu_emul_kind *k, u32 msr)
{
    if (msr == MSR_IA32_DEBUGCTL)
        return k->kind == PMU_KIND_INTEL_ARCH || k->lbr == EMUL_LBR_AMD;
    /* IA32_MISC_ENABLE (read for PEBS_UNAVAIL), IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG, IA32_DS_AREA: Intel kinds. */
    if (k->kind == PMU_KIND_INTEL_ARCH && (msr == 0x1a0 || msr == 0x3f1 || msr == 0x3f2 || msr == 0x600))
        return true;
    /* Every Intel and AMD kind answers them: one without an LBR #GPs, as a hypervisor that does not virtualize it. */
    for (u32 i = 0; i < ARRAY_SIZE(lbr_blocks) && k->kind != PMU_KIND_KNC; i++)
        if (msr >= lbr_blocks[i].first && msr - lbr_blocks[i].first < lbr_blocks[i].count)
            return true;
    for (u32 i = 0; i < ARRAY_SIZE(pmu_blocks); i++)
        if (msr >= pmu_blocks[i].first && msr - pmu_blocks[i].first < pmu_blocks[i].count)
            return true;
    return false;
}
