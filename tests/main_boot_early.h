/* Suite boot's early checks (boot_early.c): run by kmain as soon as their subject exists. */
#pragma once
#include "harness/framework.h"

extern const struct suite boot_cmdline_suite, boot_apic_mode_suite;
