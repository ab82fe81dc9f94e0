/* Lookups in the generated event catalog (pmu/event_catalog_data.c). */
#include "pmu/event_catalog.h"

#include <string.h>

#include "pmu/events.h"
#include "pmu/kind.h"
#include "pmu/pmu_caps.h"

const char *evc_name(enum evc c)
{
    static const char *const names[EVC_COUNT] = {
        "instructions",  "branches",      "conditional",   "conditional_taken", "conditional_not_taken",
        "near_taken",    "taken",         "near_call",     "near_return",       "far",
        "indirect",      "indirect_call", "indirect_jump", "relative_call",     "relative_jump",
        "loads",         "stores",        "load_uops",     "store_uops",
    };
    return (unsigned)c < EVC_COUNT ? names[c] : "?";
}

u32 evc_classes(const struct insn_class *cls, bool taken)
{
    u32 m = BIT(EVC_INSTRUCTIONS);
    if (cls->load)
        m |= BIT(EVC_LOADS) | BIT(EVC_LOAD_UOPS);
    if (cls->store)
        m |= BIT(EVC_STORES) | BIT(EVC_STORE_UOPS);
    if (!cls->branch)
        return m;
    m |= BIT(EVC_BRANCHES);
    bool went = !cls->cond || taken;
    if (cls->cond)
        m |= BIT(EVC_COND) | (taken ? BIT(EVC_COND_TAKEN) : BIT(EVC_COND_NTAKEN));
    if (went)
        m |= BIT(EVC_TAKEN);
    if (cls->far)
        return m | BIT(EVC_FAR);
    if (went)
        m |= BIT(EVC_NEAR_TAKEN);
    switch (cls->kind) {
    case INSN_CALL:
        return m | BIT(EVC_NEAR_CALL) | BIT(EVC_REL_CALL);
    case INSN_CALL_IND:
        return m | BIT(EVC_NEAR_CALL) | BIT(EVC_INDIRECT_CALL) | BIT(EVC_INDIRECT);
    case INSN_JMP:
        return m | BIT(EVC_REL_JMP);
    case INSN_JMP_IND:
        return m | BIT(EVC_INDIRECT_JMP) | BIT(EVC_INDIRECT);
    case INSN_RET:
        return m | BIT(EVC_NEAR_RETURN);
    default:
        return m;
    }
}

static bool model_in(const struct catalog_part *p, u32 model)
{
    return model < 256 && ((p->models[model >> 6] >> (model & 63)) & 1);
}

const struct catalog_part *event_catalog_find(u32 vendor, u32 family, u32 model, u32 stepping, u8 core_type)
{
    const struct catalog_part *any_type = NULL;
    for (u32 i = 0; i < catalog_part_count; i++) {
        const struct catalog_part *p = &catalog_parts[i];
        if (p->vendor != vendor || p->family != family || !model_in(p, model) || stepping > 15 ||
            !((p->stepping_mask >> stepping) & 1))
            continue;
        if (p->core_type == core_type)
            return p;
        if (!p->core_type && !any_type)
            any_type = p;
    }
    return any_type;
}

const struct catalog_part *event_catalog_part_named(const char *name)
{
    for (u32 i = 0; name && i < catalog_part_count; i++)
        if (!strcmp(catalog_parts[i].name, name))
            return &catalog_parts[i];
    return NULL;
}

bool event_catalog_part_example(const struct catalog_part *p, u32 *model, u32 *stepping)
{
    for (u32 m = 0; p && m < 256; m++)
        for (u32 s = 0; model_in(p, m) && s < 16; s++)
            if ((p->stepping_mask >> s) & 1) {
                *model = m;
                *stepping = s;
                return true;
            }
    return false;
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

const struct catalog_part *event_catalog_for(const struct pmu_caps *caps)
{
    if (!caps || !pmu_kind_get(caps->kind)->vendor_catalog)
        return NULL;
    return event_catalog_find(caps->vendor, caps->family, caps->model, caps->stepping, caps->core_type);
}

enum evc evc_from_name(const char *name)
{
    for (u32 c = 0; name && c < EVC_COUNT; c++)
        if (!strcmp(name, evc_name((enum evc)c)))
            return (enum evc)c;
    return EVC_COUNT;
}

const struct pmu_event *event_catalog_pmu_event(const struct catalog_part *p, enum evc c)
{
    for (u32 i = p ? p->first : 0; p && i < p->first + p->count && i < catalog_event_count; i++)
        if (catalog_events[i].cls == c && catalog_events[i].gp_mask)
            return &catalog_events[i].ev;
    return NULL;
}

bool event_catalog_owns(const struct pmu_event *e)
{
    /* ev is the first member: an event of the table is a catalog_event's address. */
    const struct catalog_event *ce = (const struct catalog_event *)e;
    return ce >= catalog_events && ce < catalog_events + catalog_event_count;
}

const struct catalog_event *event_catalog_by_code(const struct catalog_part *p, u16 code, u8 umask)
{
    for (u32 i = p ? p->first : 0; p && i < p->first + p->count && i < catalog_event_count; i++) {
        const struct catalog_event *e = &catalog_events[i];
        if (e->gp_mask && e->ev.event == code && e->ev.umask == umask)
            return e;
    }
    return NULL;
}
