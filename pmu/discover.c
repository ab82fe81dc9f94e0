/* pmu_discover(): dispatch by vendor, keep the evidence that explains the decision. */
#include "pmu/discover_internal.h"

#include <stdarg.h>
#include <string.h>

void pmu_note_quirk(struct pmu_caps *caps, const char *text)
{
    if (caps->num_quirks < PMU_MAX_QUIRKS)
        caps->quirks[caps->num_quirks++] = text;
}

void pmu_evidence(struct pmu_caps *caps, const char *fmt, ...)
{
    size_t len = strlen(caps->evidence);
    if (len && len + 2 < sizeof(caps->evidence)) {
        memcpy(caps->evidence + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(caps->evidence + len, sizeof(caps->evidence) - len, fmt, ap);
    va_end(ap);
}

void pmu_discover(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src)
{
    memset(caps, 0, sizeof(*caps));
    caps->kind = PMU_KIND_NONE;
    caps->vendor = id->vendor;
    caps->family = id->family;
    caps->model = id->model;
    caps->stepping = id->stepping;
    caps->hypervisor = id->hypervisor_bit;
    caps->hybrid = id->hybrid;
    caps->core_type = id->core_type;
    caps->native_model_id = id->native_model_id;

    switch (id->vendor) {
    case VENDOR_INTEL:
        if (pmu_discover_knc(caps, id, src) || pmu_discover_intel(caps, id, src))
            return;
        break;
    case VENDOR_AMD:
    case VENDOR_HYGON: /* Hygon family 18h is Zen: same PMU (Linux amd_pmu_init serves both) */
        if (pmu_discover_amd(caps, id, src))
            return;
        break;
    case VENDOR_OTHER:
        pmu_evidence(caps, "vendor \"%s\" has no PMU pmuboot knows", id->vendor_string);
        break;
    default:
        pmu_evidence(caps, "no CPUID vendor string (leaf 0 missing)");
        break;
    }
    /* Whatever was half-filled while looking is not a PMU. */
    caps->kind = PMU_KIND_NONE;
    caps->num_gp = caps->gp_mask = caps->gp_width = 0;
    caps->num_fixed = caps->fixed_mask = caps->fixed_width = 0;
    memset(&caps->msrs, 0, sizeof(caps->msrs));
}

const char *pmu_kind_name(enum pmu_kind kind)
{
    switch (kind) {
    case PMU_KIND_NONE:
        return "none";
    case PMU_KIND_INTEL_ARCH:
        return "intel_arch";
    case PMU_KIND_AMD_LEGACY:
        return "amd_legacy";
    case PMU_KIND_AMD_CORE_EXT:
        return "amd_core_ext";
    case PMU_KIND_AMD_PERFMON_V2:
        return "amd_perfmon_v2";
    case PMU_KIND_KNC:
        return "knc";
    }
    return "invalid";
}

const char *pmu_arch_event_name(unsigned bit)
{
    static const char *const names[PMU_AE_COUNT] = {
        "core_cycles",      "instructions",     "ref_cycles",         "llc_references", "llc_misses",
        "branches",         "branch_misses",    "topdown_slots",      "topdown_backend", "topdown_bad_spec",
        "topdown_frontend", "topdown_retiring", "lbr_inserts",
    };
    return bit < PMU_AE_COUNT ? names[bit] : "unknown";
}
