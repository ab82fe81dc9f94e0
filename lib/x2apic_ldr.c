#include "lib/x2apic_ldr.h"

u32 x2apic_logical_id(u32 x2apic_id)
{
    return ((x2apic_id >> 4) & 0xFFFF) << 16 | (1u << (x2apic_id & 0xF));
}
