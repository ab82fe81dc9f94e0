/* pmu_enum/discover's bounds and pmu_enum/consistent's comparison, portable: the kernel's checks
 * (tests/pmu_enum/suite_pmu_enum.c) and the host's prediction from a CPUID dump (tools/pmu-decode --checks,
 * tests/host/support/checks_predict.c) run this same code, so a prediction cannot drift from the check. */
#pragma once
#include "lib/types.h"
#include "pmu/pmu_caps.h"

/* pmu_enum/discover: the SDM/APM ranges the capabilities must fall in. Each bound becomes one expect_true()
 * (what, ok, expected, "%u" of value). */
struct pmu_caps_bound {
    const char *what;     /* "GP counters", "GP width", "fixed width" */
    const char *expected; /* the range, as printed: "1..64", "32..64 bits" */
    u32 value;
    bool ok;
};
#define PMU_CAPS_BOUNDS 3
/* Fill out[] with the bounds that apply to k (fixed width only with fixed counters); returns how many. */
u32 pmu_caps_bounds(const struct pmu_caps *k, struct pmu_caps_bound out[PMU_CAPS_BOUNDS]);

/* pmu_enum/consistent: the fields a thread's PMU must share with the reference thread of its kind (the first
 * thread with the same CPUID.1AH:EAX, cpu_ident_kind). Each becomes one expect_eq_dec() or expect_eq(). */
struct pmu_caps_field {
    const char *what; /* "kind", "version", "GP counter mask", ... */
    bool hex;         /* printed with expect_eq (hex) rather than expect_eq_dec */
    u64 reference, value;
};
#define PMU_CAPS_COMPARED 9
/* Fill out[] with every compared field of ref and obs, in the order the check reports them; returns how many
 * of them differ. */
u32 pmu_caps_compare(const struct pmu_caps *ref, const struct pmu_caps *obs,
                     struct pmu_caps_field out[PMU_CAPS_COMPARED]);
