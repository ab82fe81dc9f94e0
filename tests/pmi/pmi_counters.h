/* The counters the PMI and skid suites drive: those that can count retired instructions, and how one is programmed
 * for a PMI on overflow at CPL 3. */
#pragma once
#include "harness/framework.h"
#include "pmu/pmu.h"

/* Program counter `bit` to count retired instructions at CPL 3 only, with PMI on overflow (the reason in the YAML
 * when it cannot). */
int instructions_program(struct check *c, struct pmu *p, u32 bit);
/* Counters that can count retired instructions: every GP counter its family's constraint allows, named in the YAML
 * when one does not, and Intel's fixed counter 0. */
u64 instructions_counters(struct check *c, struct pmu *p);
