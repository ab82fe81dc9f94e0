/* How many CPUs run checks at once with run=parallel (harness/runner.c), and why: run_cpus=, or a default for the
 * platform. Its own file: the runner and the checklist's header (tap_report.c) both ask. */
#pragma once
#include "lib/types.h"

/* run_cpus=, or its default for this platform (MAX_CPUS: no limit). */
u32 suites_concurrency(void);
