/* Where CPUID values come from: the CPUID instruction in the kernel, a parsed dump file on the host.
 * All decoders take a cpuid_source, so the kernel and tools/pmu-decode decode identically. */
#pragma once
#include "lib/types.h"

struct cpuid_regs {
    u32 eax, ebx, ecx, edx;
};

struct cpuid_source {
    /* Fill *r for (leaf, subleaf); return false when the source has no data for that leaf (a dump that
     * lacks it). Hardware sources return true for every leaf, as the instruction does. */
    bool (*query)(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r);
    void *ctx;
};

static inline bool cpuid_query(const struct cpuid_source *s, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    *r = (struct cpuid_regs){0, 0, 0, 0};
    return s->query(s->ctx, leaf, subleaf, r);
}
