/* The kernel's struct hw_access (pmu/access.h): MSRs and RDPMC through the fault-returning accessors of
 * kernel/safe.h, local APIC registers through apic/apic.h (xAPIC or x2APIC, whichever is active).
 * Kernel-only. Each CPU should own its instance: the access counters are plain increments. */
#pragma once
#include "pmu/access.h"

void hw_access_kernel_init(struct hw_access *a);
