/* What each check of suite "uncore" (tests/uncore/suite_uncore.c) does on this machine, decided from the recognition
 * (pmu/uncore_kind.h) and what the check needs of the kind (pmu/uncore_verdict.h): its SKIP reason with the evidence.
 * A check SKIPs on hardware in one of three cases, each with its evidence: no uncore recognised (vendor, family,
 * model, what was probed), a kind without what the check needs, or a recognised kind whose checks are held back
 * (uncore=off, or the core PMU emulated). docs/uncore.md. */
#pragma once
#include "pmu/uncore_verdict.h"

enum uncore_plan_need {
    UNCORE_PLAN_ANY,     /* the kind itself (enumeration, enable, a bounded event) */
    UNCORE_PLAN_ROUTING, /* the PMI routing protocol */
    UNCORE_PLAN_FREEZE,
    UNCORE_PLAN_STATUS,
    UNCORE_PLAN_FIXED,
};

/* Whether kind k has what a check needing `need` needs (UNCORE_PLAN_ANY: always); false with *why saying what it
 * lacks. */
bool uncore_plan_kind_can(const struct uncore_kind_desc *k, enum uncore_plan_need need, const char **why);

/* The SKIP reason of a check needing `need` on the machine recognised as `r`, into buf; held_back: why a recognised
 * kind's checks do not run ("uncore=off ..."). */
const char *uncore_plan_skip_reason(const struct uncore_recognition *r, enum uncore_plan_need need,
                                    const char *held_back, char *buf, size_t size);
