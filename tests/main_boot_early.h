/* kmain's early checks (main_boot_early.c), reported under suite boot: run by kmain as soon as their subject
 * exists, before the runner can run a suite. */
#pragma once
#include "harness/framework.h"

extern const struct suite boot_cmdline_suite, boot_apic_mode_suite;
