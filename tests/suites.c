/* Every suite, in run order. */
#include "tests/suites.h"

extern const struct suite suite_boot, suite_harness, suite_smp;
extern const struct suite suite_apic, suite_x2apic;
extern const struct suite suite_pmu_enum, suite_pmu_regs, suite_pmi, suite_init, suite_reset, suite_events;
extern const struct suite suite_timeout, suite_skid, suite_lbr, suite_pebs, suite_uncore;

const struct suite *const all_suites[] = {
    &suite_reset, /* first: its phase 2 reads the PMU before any other suite writes it */
    &suite_boot,
    &suite_harness,
    &suite_smp,
    &suite_apic,
    &suite_x2apic,
    &suite_pmu_enum,
    &suite_pmu_regs,
    &suite_pmi,
    &suite_init,
    &suite_events,
    &suite_skid,
    &suite_lbr,
    &suite_pebs,
    &suite_uncore,
    &suite_timeout,
};
const u32 all_suites_count = ARRAY_SIZE(all_suites);
