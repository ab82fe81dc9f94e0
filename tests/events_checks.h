/* Shared between the events suite's files (tests/suite_events.c, tests/events_pmu.c). */
#pragma once
#include "tests/events_expect.h"
#include "tests/events_run.h"
#include "tests/framework.h"

struct ew_lengths {
    u64 n1, n2;
};
extern const struct ew_lengths ew_lengths[EW_COUNT];
