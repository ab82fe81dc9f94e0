/* The emulated PMU's command-line options: pmu=, pmu_fault= (docs/options.md). */
#pragma once
#include "lib/cmdline.h"

extern const struct opt_table emul_options;
