/* What each check of suite "uncore" (tests/uncore/suite_uncore.c) does on this machine, decided from the recognition
 * (pmu/uncore_kind.h) and what the check needs of the kind (pmu/uncore_verdict.h): its SKIP reason with the evidence.
 * On hardware the per-package checks do not run yet, so every check SKIPs there; the reason says which of the three cases
 * it is: no uncore recognised (vendor, family, model, what was probed), a kind without what the check needs, or a
 * kind whose check is not built. docs/uncore.md. */
#pragma once
#include "pmu/uncore_verdict.h"

enum uncore_plan_need {
    UNCORE_PLAN_ANY,     /* the kind itself (enumeration, enable, a bounded event) */
    UNCORE_PLAN_ROUTING, /* the PMI routing protocol */
    UNCORE_PLAN_FREEZE,
    UNCORE_PLAN_STATUS,
    UNCORE_PLAN_FIXED,
};

/* The SKIP reason of a check needing `need` on the machine recognised as `r`, into buf. */
const char *uncore_plan_skip_reason(const struct uncore_recognition *r, enum uncore_plan_need need, char *buf,
                                    size_t size);
