/* The logical x2APIC ID an x2APIC derives from its x2APIC ID and holds, read-only, in its LDR (SDM Vol.3A
 * 11.12.10.2 "Deriving Logical x2APIC ID from the Local x2APIC ID"): the cluster, x2APIC ID[19:4], in bits 31:16
 * and one bit, 1 << x2APIC ID[3:0], in bits 15:0. Suites apic (the cluster-model IPI) and x2apic (the LDR) both
 * expect it. Portable. */
#pragma once
#include "lib/types.h"

u32 x2apic_logical_id(u32 x2apic_id);
