/* Shared between the events suite's files (tests/events/suite_events.c, tests/events/events_pmu.c). */
#pragma once
#include "tests/events/portable/events_expect.h"
#include "tests/events/events_run.h"
#include "harness/framework.h"

struct ew_lengths {
    u64 n1, n2;
};
extern const struct ew_lengths ew_lengths[EW_COUNT];
