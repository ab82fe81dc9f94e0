/* The lookups over the kinds' event tables and counter constraints, each reached through its kind's descriptor
 * (pmu_kind_desc.events and gp_constraint: Intel's table in pmu/kind_intel.c, AMD's table and family 15h wiring in
 * pmu/kind_amd.c, KNC's in pmu/kind_knc.c, Zhaoxin's in pmu/kind_zhaoxin.c), and the vendor catalog's events. */
#include "pmu/events.h"

#include "pmu/event_catalog.h"

#include "pmu/kind.h"

#include <string.h>

struct pmu_gp_constraint pmu_event_gp_constraint(const struct pmu_caps *caps, u16 event, u8 umask)
{
    struct pmu_gp_constraint c = {caps->gp_mask, NULL};
    /* Intel: the catalog's Counter field (pmu/event_catalog.h), where it lists fewer counters than the part has
     * (Sapphire Rapids' MEM_INST_RETIRED.ALL_LOADS: 0-3 of 0-7). A list as long as the part's is no constraint:
     * Skylake's files list 0-3 for every event, the counters of one thread of a core with HT on. */
    const struct catalog_part *part = event_catalog_for(caps);
    const struct catalog_event *ce = event_catalog_by_code(part, event, umask);
    if (ce && ce->gp_mask != part->gp_all && (caps->gp_mask & ce->gp_mask) != caps->gp_mask)
        return (struct pmu_gp_constraint){caps->gp_mask & ce->gp_mask, "the counters the vendor's catalog lists for it"};
    /* The kind's wiring by family (pmu_kind_desc.gp_constraint: AMD family 15h). Skipping a counter a host would
     * have backed with an allowed one loses coverage only, never a verdict. */
    const struct pmu_kind_desc *d = pmu_kind_get(caps->kind);
    u32 counters = 0;
    const char *what = d->gp_constraint ? d->gp_constraint(caps, event, umask, &counters) : NULL;
    if (what && (caps->gp_mask & counters) != caps->gp_mask)
        c = (struct pmu_gp_constraint){caps->gp_mask & counters, what};
    return c;
}

const char *pmu_generic_event_name(enum pmu_generic_event ev)
{
    static const char *const names[PMU_EV_COUNT] = {"cycles", "instructions", "branches", "branch_misses"};
    return (unsigned)ev < PMU_EV_COUNT ? names[ev] : "unknown";
}

static bool family_fits(const struct pmu_caps *caps, const struct pmu_event *e)
{
    return (!e->min_family || caps->family >= e->min_family) && (!e->max_family || caps->family <= e->max_family);
}

static bool available(const struct pmu_caps *caps, const struct pmu_event *e, const char **why)
{
    const struct pmu_kind_desc *d = pmu_kind_get(caps->kind);
    const char *reason = NULL;
    if (d->event_available && !d->event_available(caps, e, &reason)) {
        if (why)
            *why = reason;
        return false;
    }
    return true;
}

/* A name may stand in a table more than once, for parts that encode the event differently: the first entry
 * there on this CPU, else the first of the family. */
#define CATALOG_PREFIX "catalog:"

const struct pmu_event *pmu_event_find(const struct pmu_caps *caps, const char *name)
{
    /* "catalog:CLASS": this part's event of that oracle class from the vendor's catalog (Intel and AMD). */
    if (name && !strncmp(name, CATALOG_PREFIX, sizeof(CATALOG_PREFIX) - 1))
        return event_catalog_pmu_event(event_catalog_for(caps), evc_from_name(name + sizeof(CATALOG_PREFIX) - 1));
    const struct pmu_kind_desc *d = pmu_kind_get(caps->kind);
    const struct pmu_event *first = NULL;
    for (size_t i = 0; d->events && name && i < d->events_len; i++) {
        const struct pmu_event *e = &d->events[i];
        if (strcmp(e->name, name) || !family_fits(caps, e))
            continue;
        if (available(caps, e, NULL))
            return e;
        first = first ? first : e;
    }
    return first;
}

const struct pmu_event *pmu_event_available(const struct pmu_caps *caps, const char *name, const char **why)
{
    const struct pmu_event *e = pmu_event_find(caps, name);
    if (why)
        *why = "event missing from the table";
    return e && available(caps, e, why) ? e : NULL;
}

const struct pmu_event *pmu_event_generic(const struct pmu_caps *caps, enum pmu_generic_event ev, const char **why)
{
    const struct pmu_kind_desc *d = pmu_kind_get(caps->kind);
    const char *reason = NULL;
    const struct pmu_event *e = NULL;
    if ((unsigned)ev >= PMU_EV_COUNT)
        reason = "unknown generic event";
    else if (!d->events)
        reason = "no PMU";
    else
        e = pmu_event_available(caps, d->generic[ev], &reason);
    if (why)
        *why = e ? NULL : reason;
    return e;
}

void pmu_event_to_evsel(const struct pmu_event *ev, const struct pmu_evsel *base, struct pmu_evsel *out)
{
    *out = *base;
    out->event = ev->event;
    out->umask = ev->umask;
    out->cmask = ev->cmask;
}
