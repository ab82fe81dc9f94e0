#include "kernel/cpuid_hw.h"

#include "kernel/x86.h"

static bool hw_query(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    (void)ctx;
    cpuid_count(leaf, subleaf, &r->eax, &r->ebx, &r->ecx, &r->edx);
    return true;
}

const struct cpuid_source cpuid_hw = {hw_query, NULL};
