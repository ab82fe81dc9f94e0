/* The AMD event constraints and the lookups over the kinds' event tables, each reached through its kind's
 * descriptor (pmu_kind_desc.events: Intel's in pmu/kind_intel.c, AMD's in pmu/kind_amd.c, KNC's in pmu/kind_knc.c,
 * Zhaoxin's in pmu/kind_zhaoxin.c). Each entry has its source; where a code is also in Linux, the Linux symbol is
 * named so that it can be cross-checked. */
#include "pmu/events.h"

#include "pmu/event_catalog.h"

#include "pmu/kind.h"

#include <string.h>

/* Counter constraints, one table per family, first matching row wins. A row matches a 12-bit event code when
 * lo <= (code & mask) <= hi and the unit mask satisfies its rule.
 *
 * AMD family 15h: transcribed from Linux arch/x86/events/amd/core.c, amd_get_event_constraints_f15h() and the
 * "AMD family 15h event code/PMC mappings" comment above it, which follow the BKDG for Family 15h (each core
 * event's PERF_CTL[n:m]). The unit is the code's bits 7:4 (AMD_EVENT_TYPE_MASK 0xF0, bits 11:8 ignored);
 * exceptions name exact 12-bit codes (amd_get_event_code: EventSelect[11:8] from select bits 35:32). Counter
 * sets: PMC0 0x01, PMC20 0x07, PMC3 0x08, PMC30 0x09, PMC50 0x3F, PMC53 0x38. Northbridge events (0xE0-0xFF)
 * count on the NB counters, not on these (Linux: "moved to uncore.c"), and 0xA0-0xBF is unused: no counter.
 * Family 17h+ (Linux amd_get_event_constraints_f17h) only pairs counters for merged large-increment events
 * (0x003), which pmuboot does not program; families 10h, 16h and older have no table (amd_get_event_constraints). */
enum umask_rule {
    UM_ANY,
    UM_ONE_BIT,      /* at most one unit-mask bit set (Linux: hweight_long(umask) <= 1) */
    UM_MULTI_BIT,    /* more than one */
    UM_BOTH_NIBBLES, /* unit-mask bits in both 7:4 and 3:0 (Linux 0x000: config & 0xF000 and config & 0x0F00) */
};

struct gp_constraint_row {
    u16 lo, hi, mask;
    u8 rule;
    u8 counters;
    const char *what;
};

#define EXACT(lo, hi) lo, hi, 0xfff
#define UNIT(lo, hi) lo, hi, 0x0f0
#define F15H(what) "family 15h " what " (Linux amd/core.c amd_get_event_constraints_f15h; BKDG for Family 15h)"
static const struct gp_constraint_row f15h_rows[] = {
    {EXACT(0x000, 0x000), UM_BOTH_NIBBLES, 0x08, F15H("FP event 0x000 with both unit-mask nibbles: PERF_CTL[3]")},
    {EXACT(0x004, 0x004), UM_MULTI_BIT, 0x08, F15H("FP event 0x004 with several unit-mask bits: PERF_CTL[3]")},
    {EXACT(0x003, 0x003), UM_ANY, 0x08, F15H("FP event 0x003: PERF_CTL[3]")},
    {EXACT(0x00b, 0x00b), UM_ANY, 0x08, F15H("FP event 0x00B: PERF_CTL[3]")},
    {EXACT(0x00d, 0x00d), UM_ANY, 0x08, F15H("FP event 0x00D: PERF_CTL[3]")},
    {UNIT(0x000, 0x010), UM_ANY, 0x38, F15H("FP events 0x00-0x1F: PERF_CTL[5:3]")},
    {EXACT(0x023, 0x023), UM_ANY, 0x07, F15H("event 0x023: PERF_CTL[2:0]")},
    {EXACT(0x043, 0x043), UM_ANY, 0x07, F15H("event 0x043: PERF_CTL[2:0]")},
    {EXACT(0x045, 0x046), UM_ANY, 0x07, F15H("events 0x045-0x046: PERF_CTL[2:0]")},
    {EXACT(0x054, 0x055), UM_ANY, 0x07, F15H("events 0x054-0x055: PERF_CTL[2:0]")},
    {EXACT(0x02d, 0x02d), UM_ANY, 0x08, F15H("LS event 0x02D: PERF_CTL[3]")},
    {EXACT(0x02e, 0x02e), UM_ANY, 0x09, F15H("LS event 0x02E: PERF_CTL[3,0]")},
    {EXACT(0x031, 0x031), UM_ONE_BIT, 0x07, F15H("LS event 0x031 with one unit-mask bit: PERF_CTL[2:0]")},
    {EXACT(0x031, 0x031), UM_ANY, 0x00, F15H("LS event 0x031 with several unit-mask bits: no counter")},
    {EXACT(0x1c0, 0x1c0), UM_ANY, 0x38, F15H("EX event 0x1C0: PERF_CTL[5:3]")},
    {UNIT(0x020, 0x050), UM_ANY, 0x3f, F15H("LS and DC events 0x20-0x5F: PERF_CTL[5:0]")},
    {UNIT(0x0c0, 0x0c0), UM_ANY, 0x3f, F15H("EX/LS events 0xC0-0xCF: PERF_CTL[5:0]")},
    {EXACT(0x08f, 0x08f), UM_ANY, 0x01, F15H("IC event 0x08F: PERF_CTL[0]")},
    {EXACT(0x187, 0x188), UM_ANY, 0x01, F15H("DE events 0x187-0x188: PERF_CTL[0]")},
    {EXACT(0x0db, 0x0df), UM_ANY, 0x3f, F15H("events 0x0DB-0x0DF: PERF_CTL[5:0]")},
    {EXACT(0x1d6, 0x1d6), UM_ANY, 0x3f, F15H("EX event 0x1D6: PERF_CTL[5:0]")},
    {EXACT(0x1d8, 0x1d8), UM_ANY, 0x3f, F15H("EX event 0x1D8: PERF_CTL[5:0]")},
    {UNIT(0x060, 0x090), UM_ANY, 0x07, F15H("CU and IC/DE events 0x60-0x9F: PERF_CTL[2:0]")},
    {UNIT(0x0d0, 0x0d0), UM_ANY, 0x07, F15H("DE events 0xD0-0xDF: PERF_CTL[2:0]")},
    {UNIT(0x0a0, 0x0b0), UM_ANY, 0x00, F15H("events 0xA0-0xBF: no counter")},
    {UNIT(0x0e0, 0x0f0), UM_ANY, 0x00, F15H("northbridge events 0xE0-0xFF: NB counters only")},
};

static const struct {
    u32 family;
    const struct gp_constraint_row *rows;
    size_t n;
} amd_constraint_tables[] = {
    {0x15, f15h_rows, ARRAY_SIZE(f15h_rows)},
};

static bool umask_matches(enum umask_rule r, u8 umask)
{
    switch (r) {
    case UM_ONE_BIT:
        return popcount64(umask) <= 1;
    case UM_MULTI_BIT:
        return popcount64(umask) > 1;
    case UM_BOTH_NIBBLES:
        return (umask & 0xf0) && (umask & 0x0f);
    default:
        return true;
    }
}

static const struct gp_constraint_row *constraint_row(u32 family, u16 event, u8 umask)
{
    for (size_t t = 0; t < ARRAY_SIZE(amd_constraint_tables); t++) {
        if (amd_constraint_tables[t].family != family)
            continue;
        for (size_t i = 0; i < amd_constraint_tables[t].n; i++) {
            const struct gp_constraint_row *r = &amd_constraint_tables[t].rows[i];
            u16 code = event & r->mask;
            if (code >= r->lo && code <= r->hi && umask_matches((enum umask_rule)r->rule, umask))
                return r;
        }
    }
    return NULL;
}

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
    /* By family, whatever the kind (a hypervisor may offer a family-15h guest only the legacy range). Skipping a
     * counter a host would have backed with an allowed one loses coverage only, never a verdict. */
    const struct gp_constraint_row *r = pmu_kind_is_amd(caps->kind) ? constraint_row(caps->family, event, umask) : NULL;
    if (r && (caps->gp_mask & r->counters) != caps->gp_mask)
        c = (struct pmu_gp_constraint){caps->gp_mask & r->counters, r->what};
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
