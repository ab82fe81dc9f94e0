/* The kinds of pmu=emulated:KIND and the capabilities each one's model implements (see pmu/emul.h). Counter
 * counts and widths are those of a representative part of each generation (SDM Vol.3B 21.2.1-21.2.6; AMD APM
 * Vol.2 13.2; KNC PMU 1.4), kept small where the manuals allow so single-stepped runs stay cheap. */
#include "pmu/emul.h"

#include <string.h>

#include "pmu/model/pmu_model.h"

/* CPUID.01H:EAX signatures (SDM Vol.2A CPUID Table 3-8 encoding; APM Vol.3 CPUID Fn0000_0001 EAX):
 * Intel family 6 model 55H (Skylake-SP), KNC family 0BH model 01H, AMD family 10h (K10), 15h, 19h. */
#define SIG_INTEL_SKX 0x00050654u
#define SIG_KNC 0x00000b10u
#define SIG_AMD_10H 0x00100f42u
#define SIG_AMD_15H 0x00600f12u
#define SIG_AMD_19H 0x00a00f10u

static const struct pmu_emul_kind kinds[] = {
    /* v1: 2 GP counters of 40 bits, no fixed counters (SDM 21.2.1; Core Solo/Duo) */
    {"intel-v1", PMU_KIND_INTEL_ARCH, 1, 2, 40, 0, 0, false, SIG_INTEL_SKX},
    /* v2: 2 GP + 3 fixed, 40 bits (SDM 21.2.2; Core 2) */
    {"intel-v2", PMU_KIND_INTEL_ARCH, 2, 2, 40, 3, 40, false, SIG_INTEL_SKX},
    /* v3: 4 GP + 3 fixed, 48 bits (SDM 21.2.3; Nehalem) */
    {"intel-v3", PMU_KIND_INTEL_ARCH, 3, 4, 48, 3, 48, false, SIG_INTEL_SKX},
    /* v4: 4 GP + 3 fixed, 48 bits, full-width writes (SDM 21.2.4; Skylake) */
    {"intel-v4", PMU_KIND_INTEL_ARCH, 4, 4, 48, 3, 48, true, SIG_INTEL_SKX},
    /* v5: 4 GP + 4 fixed (topdown slots), 48 bits (SDM 21.2.5; Ice Lake) */
    {"intel-v5", PMU_KIND_INTEL_ARCH, 5, 4, 48, 4, 48, true, SIG_INTEL_SKX},
    /* v6: counters enumerated through leaf 23H, v6 MSR aliases (SDM 21.2.6 / leaf 23H) */
    {"intel-v6", PMU_KIND_INTEL_ARCH, 6, 4, 48, 4, 48, true, SIG_INTEL_SKX},
    /* K7-style PerfEvtSel0-3 / PerfCtr0-3, 48 bits (APM 13.2.1) */
    {"amd-legacy", PMU_KIND_AMD_LEGACY, 0, 4, 48, 0, 0, false, SIG_AMD_10H},
    /* PerfCtrExtCore: 6 counters at C001_0200 (APM 13.2.1, CPUID 8000_0001 ECX[23]) */
    {"amd-core-ext", PMU_KIND_AMD_CORE_EXT, 0, 6, 48, 0, 0, false, SIG_AMD_15H},
    /* PerfMonV2: global control/status (APM 13.2.2, CPUID 8000_0022) */
    {"amd-v2", PMU_KIND_AMD_PERFMON_V2, 0, 6, 48, 0, 0, false, SIG_AMD_19H},
    /* Knights Corner: 2 counters of 40 bits (KNC PMU 1.4) */
    {"knc", PMU_KIND_KNC, 0, 2, 40, 0, 0, false, SIG_KNC},
};

const struct pmu_emul_kind *pmu_emul_kind_find(const char *name)
{
    for (u32 i = 0; i < ARRAY_SIZE(kinds); i++)
        if (!strcmp(kinds[i].name, name))
            return &kinds[i];
    return NULL;
}

const char *pmu_emul_kind_list(void)
{
    return "intel-v1, intel-v2, intel-v3, intel-v4, intel-v5, intel-v6, amd-legacy, amd-core-ext, amd-v2, knc";
}

u32 pmu_emul_kind_count(void)
{
    return ARRAY_SIZE(kinds);
}

const struct pmu_emul_kind *pmu_emul_kind_at(u32 i)
{
    return i < ARRAY_SIZE(kinds) ? &kinds[i] : NULL;
}

/* APM Vol.3 CPUID Fn0000_0001 EAX: family = BaseFamily[11:8] + ExtFamily[27:20] when BaseFamily is 0xF. */
static u32 amd_family(u32 signature)
{
    u32 base = signature >> 8 & 0xf;
    return base == 0xf ? base + (signature >> 20 & 0xff) : base;
}

void pmu_emul_caps(const struct pmu_emul_kind *k, struct pmu_caps *out)
{
    switch (k->kind) {
    case PMU_KIND_INTEL_ARCH:
        pmu_model_caps_intel(out, k->version, k->num_gp, k->gp_width, k->num_fixed, k->fixed_width, k->fw_write);
        out->model = 0x55;
        out->stepping = k->signature & 0xf;
        out->pdcm = k->version >= 2;
        if (!out->pdcm)
            out->msrs.perf_capabilities = 0;
        if (k->version >= 6) {
            out->ext_leaf = true;
            out->ext_subleaves = BIT(1) | BIT(3);
        }
        break;
    case PMU_KIND_KNC:
        pmu_model_caps_knc(out);
        break;
    default:
        pmu_model_caps_amd(out, k->kind, k->num_gp);
        out->family = amd_family(k->signature); /* the family's counter constraints apply (pmu/events.c) */
        break;
    }
}
