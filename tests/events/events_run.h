/* Running an event workload: the oracle pass (single-stepped, every retired instruction classified) and the
 * counting pass (run plainly while a PMU counts). The two are never mixed: each #DB return would itself add
 * to the user-mode counts. */
#pragma once
#include "kernel/singlestep.h"
#include "tests/events/portable/events_expect.h"

typedef u64 (*ew_fn)(u64 n);

struct ew_oracle {
    struct ew_counts counts; /* what the oracle saw, in the same fields as the construction */
    struct step_stats stats;
    u64 wrong_cpl;     /* steps reported at another CPL than asked */
    u64 first_unknown; /* RIP of the first unclassified instruction (0: none) */
};

/* Oracle pass: fn(n) single-stepped at cpl (0 or 3), counted from its instruction classes. */
void ew_oracle_run(u8 cpl, ew_fn fn, u64 n, struct ew_oracle *o);

/* Counting pass: fn(n) at cpl, plainly, with interrupts enabled at CPL 3 (the caller masks the LVT entries
 * that could fire). The one place the suite runs a workload for a counter: under the emulated PMU this becomes
 * workload_run() (harness/workload.h). */
u64 ew_count_run(u8 cpl, ew_fn fn, u64 n);

/* The workload function for an id (NULL for none). */
ew_fn ew_function(enum ew_id w);
