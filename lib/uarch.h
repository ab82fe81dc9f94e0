/* Microarchitecture names from (vendor, display family, display model). */
#pragma once
#include "lib/cpu_ident.h"

/* The name of the microarchitecture (and platform, where it helps), or "unknown". Never NULL. */
const char *cpu_uarch_name(enum cpu_vendor vendor, u32 family, u32 model);
