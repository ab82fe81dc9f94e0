/* Which events the events suite compares with the workloads, per PMU kind, and how each is judged: exactly
 * against a count known by construction, or within a derived bound. Portable (pure data and arithmetic),
 * host-tested in tests/host/test_events_expect.c. */
#pragma once
#include "pmu/pmu_caps.h"
#include "tests/events_expect.h"

enum ew_judge {
    EWJ_EXACT,       /* counter difference of two lengths = construction difference = oracle difference */
    EWJ_CYCLES,      /* core cycles of a run >= the workload's dependency-chain bound */
    EWJ_REF_CYCLES,  /* reference cycles against the TSC over the same window, at the rate the PMU states */
    EWJ_LLC_MISSES,  /* misses of a run >= the CLFLUSHed lines it loads */
    EWJ_MISPREDICTS, /* 1 <= mispredicted branches <= branches of the same run */
};

struct ew_event {
    const char *event; /* name in pmu/events.c's table for this PMU kind */
    enum ew_judge judge;
    u32 fields;        /* EWJ_EXACT: BIT(enum ew_count_field) of the construction fields it sums */
    const char *claim; /* what the manual says it counts: the reason the comparison is exact or bounded */
};

/* The events to compare on this PMU (Intel: architectural events CPUID marks available). Fills out[0..max) and
 * returns how many apply. */
size_t ew_events_for(const struct pmu_caps *caps, const struct ew_event **out, size_t max);

/* The sum of the fields `fields` of c (EWJ_EXACT). */
u64 ew_fields_sum(const struct ew_counts *c, u32 fields);
/* Whether a counter with these privilege filters counts a workload run at cpl (USR: CPL 1-3, OS: CPL 0;
 * SDM Vol.3B 21.2.1.1 Figure 21-1 USR/OS flags). */
bool ew_filter_counts(bool usr, bool os, u8 cpl);
/* Whether workload w is compared for an exact event summing `fields`: every workload for instructions and
 * branches; loads and stores not on REP strings (ew_mem_exact). */
bool ew_workload_for(enum ew_id w, u32 fields);

/* Deviation of a measured ratio a/b from expected num/den, in parts per million (signed); false when b or den
 * is 0 or the products overflow. */
bool ew_ratio_ppm(u64 a, u64 b, u64 num, u64 den, s64 *ppm);
