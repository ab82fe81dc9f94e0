/* Lookups in the generated event catalog (pmu/event_catalog_data.c). */
#include "pmu/event_catalog.h"

const char *evc_name(enum evc c)
{
    static const char *const names[EVC_COUNT] = {
        "instructions",  "branches",      "conditional",    "conditional taken", "conditional not taken",
        "near taken",    "near call",     "near return",    "far",               "indirect",
        "indirect call", "indirect jump", "relative call",  "relative jump",     "loads",
        "stores",        "load uops",     "store uops",
    };
    return (unsigned)c < EVC_COUNT ? names[c] : "?";
}

const struct catalog_part *event_catalog_find_intel(u32 family, u32 model, u32 stepping, u8 core_type)
{
    const struct catalog_part *any_type = NULL;
    for (u32 i = 0; i < catalog_part_count; i++) {
        const struct catalog_part *p = &catalog_parts[i];
        if (p->family != family || p->model != model || stepping > 15 || !((p->stepping_mask >> stepping) & 1))
            continue;
        if (p->core_type == core_type)
            return p;
        if (!p->core_type && !any_type)
            any_type = p;
    }
    return any_type;
}

const struct catalog_event *event_catalog_event(const struct catalog_part *p, enum evc c, u32 counter)
{
    if (!p || counter > 31)
        return NULL;
    for (u32 i = p->first; i < p->first + p->count && i < catalog_event_count; i++) {
        const struct catalog_event *e = &catalog_events[i];
        if (e->cls == c && ((e->gp_mask >> counter) & 1))
            return e;
    }
    return NULL;
}
