/* The events suite's checks that need a PMU (tests/events_pmu.c, tests/events_metrics.c). Each SKIPs with the
 * CPUID evidence without one. */
#pragma once
#include "tests/events_checks.h"

void events_exact_gp_check(struct check *c);
void events_exact_fixed_check(struct check *c);
void events_cycles_check(struct check *c);
void events_ref_cycles_check(struct check *c);
void events_llc_check(struct check *c);
void events_mispredict_check(struct check *c);
void events_cmask_check(struct check *c);
