/* The events suite's checks that need a PMU (tests/events/events_pmu.c, tests/events/events_metrics.c). Each SKIPs with the
 * CPUID evidence without one. */
#pragma once
#include "pmu/pmu.h"
#include "tests/events/events_checks.h"

/* One counting pass of fn(n) at cpl on counters already programmed: counters zeroed while stopped, the LVT
 * timer and PMC entries masked with interrupts on, one global enable right before the workload and one
 * disable right after, the TSC read fenced around them (tsc) and MSR_SMI_COUNT outside them (smis), then each
 * counter read while stopped. */
struct ew_meas {
    u64 v[64]; /* by counter bit */
    u64 tsc;   /* TSC ticks from before the enable to after the disable */
    u32 smis;  /* SMIs taken in that window (MSR_SMI_COUNT, kernel/smi.h; 0 where they cannot be counted) */
    int rc;    /* first PMU access error */
};
void ew_measure(struct pmu *p, u64 counters, u8 cpl, ew_fn fn, u64 n, struct ew_meas *m);

void events_exact_gp_check(struct check *c);
void events_exact_fixed_check(struct check *c);
void events_cycles_check(struct check *c);
void events_ref_cycles_check(struct check *c);
void events_llc_check(struct check *c);
void events_mispredict_check(struct check *c);
void events_cmask_check(struct check *c);
void events_metrics_check(struct check *c);
void events_stability_check(struct check *c);
