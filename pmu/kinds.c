/* The table of PMU kinds: enum pmu_kind -> its descriptor (pmu/kind.h), and kind none's descriptor. */
#include "pmu/kind.h"

/* Defined in the kind files (pmu/kind_*.c). */
extern const struct pmu_kind_desc pmu_kind_intel_arch, pmu_kind_amd_legacy, pmu_kind_amd_core_ext,
    pmu_kind_amd_perfmon_v2, pmu_kind_knc, pmu_kind_zhaoxin;

static const struct pmu_kind_desc pmu_kind_none = {
    .name = "none",
    .title = "no usable PMU",
};

const struct pmu_kind_desc *const pmu_kinds[PMU_KIND_COUNT] = {
    [PMU_KIND_NONE] = &pmu_kind_none,
    [PMU_KIND_INTEL_ARCH] = &pmu_kind_intel_arch,
    [PMU_KIND_AMD_LEGACY] = &pmu_kind_amd_legacy,
    [PMU_KIND_AMD_CORE_EXT] = &pmu_kind_amd_core_ext,
    [PMU_KIND_AMD_PERFMON_V2] = &pmu_kind_amd_perfmon_v2,
    [PMU_KIND_KNC] = &pmu_kind_knc,
    [PMU_KIND_ZHAOXIN] = &pmu_kind_zhaoxin,
};

const struct pmu_kind_desc *pmu_kind_get(enum pmu_kind k)
{
    return (unsigned)k < PMU_KIND_COUNT && pmu_kinds[k] ? pmu_kinds[k] : &pmu_kind_none;
}

const char *pmu_kind_name(enum pmu_kind kind)
{
    return (unsigned)kind < PMU_KIND_COUNT ? pmu_kind_get(kind)->name : "invalid";
}

bool pmu_kind_is_amd(enum pmu_kind k)
{
    return pmu_kind_get(k)->amd_core;
}

bool pmu_kind_present(enum pmu_kind k)
{
    return pmu_kind_get(k) != &pmu_kind_none;
}

bool pmu_freezes_on_pmi(const struct pmu_caps *caps)
{
    u8 v = pmu_kind_get(caps->kind)->freeze_on_pmi_version;
    return v && caps->version >= v;
}

bool pmu_legacy_write_sign_extends(enum pmu_kind k)
{
    return pmu_kind_get(k)->legacy_write_sign_extends;
}

bool pmu_freeze_in_status(const struct pmu_caps *caps)
{
    u8 v = pmu_kind_get(caps->kind)->freeze_in_status_version;
    return v && caps->version >= v;
}
