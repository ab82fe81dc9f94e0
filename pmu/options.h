/* The PMU's command-line options: pmi=, pmi_delivery= (docs/options.md). */
#pragma once
#include "lib/cmdline.h"

extern const struct opt_table pmu_options;
