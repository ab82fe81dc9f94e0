/* The CPUID instruction as a cpuid_source. */
#pragma once
#include "lib/cpuid_source.h"

extern const struct cpuid_source cpuid_hw;

/* This CPU's x2APIC ID from CPUID.0BH:EDX; false when leaf 0xB is absent or invalid (SDM Vol.2A CPUID 0BH:
 * level type ECX[15:8] = 0 means invalid; Linux detect_extended_topology also rejects EBX = 0). */
bool cpuid_x2apic_id(u32 *id);
