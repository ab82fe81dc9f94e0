/* pmu_discover(): ask the kinds that claim the vendor (pmu/kinds.c); keep the evidence behind the decision. */
#include "pmu/discover_internal.h"
#include "pmu/kind.h"

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

/* Whether a kind before `k` with the same discover() claims this CPU (and was asked already). */
static bool asked_before(u32 k, const struct cpu_ident *id)
{
    for (u32 j = 0; j < k; j++)
        if (pmu_kinds[j]->discover == pmu_kinds[k]->discover && pmu_kinds[j]->claims && pmu_kinds[j]->claims(id))
            return true;
    return false;
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

    /* Each kind that claims this vendor is asked in table order; kinds of one family share one discover(). */
    bool claimed = false;
    for (u32 k = 0; k < PMU_KIND_COUNT; k++) {
        const struct pmu_kind_desc *d = pmu_kinds[k];
        if (!d->claims || !d->claims(id) || asked_before(k, id))
            continue;
        claimed = true;
        if (d->discover(caps, id, src))
            return;
    }
    if (!claimed && id->vendor == VENDOR_UNKNOWN)
        pmu_evidence(caps, "no CPUID vendor string (leaf 0 missing)");
    else if (!claimed)
        pmu_evidence(caps, "vendor \"%s\" has no PMU pmuboot knows", id->vendor_string);
    /* Whatever was half-filled while looking is not a PMU. */
    caps->kind = PMU_KIND_NONE;
    caps->num_gp = caps->gp_mask = caps->gp_width = 0;
    caps->num_fixed = caps->fixed_mask = caps->fixed_width = 0;
    memset(&caps->msrs, 0, sizeof(caps->msrs));
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
