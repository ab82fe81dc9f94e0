/* A guest counter held by its host: the known deviation shared by the events and pmi suites. */
#pragma once
#include "pmu/pmu_caps.h"
#include "harness/framework.h"

/* Under a hypervisor (caps->hypervisor), when every counter that missed (missed_on) never counted at all
 * (should_count & ~counted) while others did, report it as a known deviation naming those counters; otherwise
 * nothing (the misses stay failures). */
void pmu_silent_counters_deviation(struct check *c, const struct pmu_caps *caps, u64 should_count, u64 counted,
                                   u64 missed_on);
