/* Event tables: the event codes pmuboot counts with, per PMU kind, each with the document it comes from.
 * Portable (pure data and lookups). */
#pragma once
#include "pmu/pmu.h"

struct pmu_event {
    const char *name;
    u16 event;          /* 8 bits on Intel and KNC; up to 12 on AMD family 10h+ */
    u8 umask;
    u8 cmask;           /* non-zero only where the definition needs it */
    u32 min_family;     /* AMD: the event exists from this family on (0: every family with counters) */
    u32 max_family;     /* AMD: ... up to this family (0: no upper bound) */
    const char *source; /* manual / table / Linux symbol the code was taken from */
};

/* Vendor-neutral events: what a check asks for when it wants "instructions" on whatever PMU is there. */
enum pmu_generic_event {
    PMU_EV_CYCLES,       /* unhalted core cycles */
    PMU_EV_INSTRUCTIONS, /* instructions retired (KNC: executed) */
    PMU_EV_BRANCHES,     /* branch instructions retired (KNC: executed) */
    PMU_EV_BRANCH_MISSES,
    PMU_EV_COUNT
};
const char *pmu_generic_event_name(enum pmu_generic_event ev);

/* Intel architectural events, indexed by enum pmu_arch_event (CPUID.0AH.EBX / CPUID.23H.3.EAX bit). */
extern const struct pmu_event pmu_intel_arch_events[PMU_AE_COUNT];
/* The architectural event each Intel fixed counter counts (PMU_AE_COUNT when unknown). */
enum pmu_arch_event pmu_intel_fixed_event(u32 fixed);

extern const struct pmu_event pmu_amd_events[];
extern const size_t pmu_amd_events_len;
extern const struct pmu_event pmu_knc_events[];
extern const size_t pmu_knc_events_len;
extern const struct pmu_event pmu_zhaoxin_events[];

/* The event (and its select fields) for `ev` on this CPU, or NULL with a static reason in *why (e.g. the
 * architectural event is marked unavailable in CPUID). */
const struct pmu_event *pmu_event_generic(const struct pmu_caps *caps, enum pmu_generic_event ev,
                                          const char **why);
/* Look an event up by name in the table of this PMU kind (Intel: architectural events by their
 * pmu_arch_event_name, e.g. "instructions"; AMD and KNC: the table names). NULL if absent. */
const struct pmu_event *pmu_event_find(const struct pmu_caps *caps, const char *name);
/* pmu_event_find(), and NULL with a static reason in *why where the kind says the event is not there on this CPU
 * (Intel: CPUID marks the architectural event unavailable). */
const struct pmu_event *pmu_event_available(const struct pmu_caps *caps, const char *name, const char **why);

/* The GP counters that can count an event. On some families an event is wired to only some counters, and a
 * counter outside the set counts nothing (AMD family 15h, Bulldozer..Excavator: the BKDG for Family 15h lists
 * PERF_CTL[n:m] for every core event; Linux arch/x86/events/amd/core.c amd_get_event_constraints_f15h()). */
struct pmu_gp_constraint {
    u32 counters;       /* bit i: GP counter i can count the event (a subset of caps->gp_mask; 0: none can) */
    const char *source; /* why counters is narrower than caps->gp_mask, with its source; NULL when it is not */
};
/* The constraint of event `event` (12 bits on AMD) with unit mask `umask` on this CPU's family. Families
 * without a table (every Intel and KNC PMU, AMD other than family 15h) get every GP counter. */
struct pmu_gp_constraint pmu_event_gp_constraint(const struct pmu_caps *caps, u16 event, u8 umask);

/* Fill a select from an event (usr/os/intr/enable left as given in `base`). */
void pmu_event_to_evsel(const struct pmu_event *ev, const struct pmu_evsel *base, struct pmu_evsel *out);
