#include "kernel/cpuid_hw.h"

#include "kernel/x86.h"

static bool hw_query(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    (void)ctx;
    cpuid_count(leaf, subleaf, &r->eax, &r->ebx, &r->ecx, &r->edx);
    return true;
}

const struct cpuid_source cpuid_hw = {hw_query, NULL};

bool cpuid_x2apic_id(u32 *id)
{
    u32 a, b, c, d, max;
    cpuid_count(0, 0, &max, &b, &c, &d);
    if (max < 0xB)
        return false;
    cpuid_count(0xB, 0, &a, &b, &c, &d);
    *id = d;
    return ((c >> 8) & 0xFF) != 0 && b != 0;
}
