#include "tests/pmu_enum/portable/pmu_enum_judge.h"

u32 pmu_caps_bounds(const struct pmu_caps *k, struct pmu_caps_bound out[PMU_CAPS_BOUNDS])
{
    u32 n = 0;
    out[n++] = (struct pmu_caps_bound){"GP counters", "1..64", k->num_gp, k->num_gp >= 1 && k->num_gp <= 64};
    /* Counter widths: KNC 40 bits (KNC PMU 1.4), AMD 48 (APM Vol.2 13.2.1), Intel as CPUID says, at least
     * 32 (the legacy write width, SDM Vol.3B 21.2.6) and at most 64. */
    out[n++] = (struct pmu_caps_bound){"GP width", "32..64 bits", k->gp_width, k->gp_width >= 32 && k->gp_width <= 64};
    if (k->num_fixed)
        out[n++] = (struct pmu_caps_bound){"fixed width", "32..64 bits", k->fixed_width,
                                           k->fixed_width >= 32 && k->fixed_width <= 64};
    return n;
}

u32 pmu_caps_compare(const struct pmu_caps *a, const struct pmu_caps *b, struct pmu_caps_field out[PMU_CAPS_COMPARED])
{
    const struct pmu_caps_field f[PMU_CAPS_COMPARED] = {
        {"kind", false, a->kind, b->kind},
        {"version", false, a->version, b->version},
        {"GP counter mask", true, a->gp_mask, b->gp_mask},
        {"GP width", false, a->gp_width, b->gp_width},
        {"fixed counter mask", true, a->fixed_mask, b->fixed_mask},
        {"fixed width", false, a->fixed_width, b->fixed_width},
        {"architectural events", true, a->arch_events, b->arch_events},
        {"TSX (CPUID.(7,0):EBX HLE/RTM)", false, a->tsx, b->tsx},
        {"IA32_PERF_CAPABILITIES", true, a->perf_caps.raw, b->perf_caps.raw},
    };
    u32 differ = 0;
    for (u32 i = 0; i < PMU_CAPS_COMPARED; i++) {
        out[i] = f[i];
        differ += f[i].reference != f[i].value;
    }
    return differ;
}
