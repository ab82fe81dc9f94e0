/* smp/features, portable (kernel and host tests): the CPUID feature leaves every thread must share with the other
 * threads of its kind, the bits that legitimately differ per thread masked out, each mask with its source. */
#pragma once
#include "lib/cpuid_source.h"
#include "lib/types.h"

struct features_probe {
    u32 leaf, sub;
    u32 mask[4]; /* eax, ebx, ecx, edx: the bits compared */
    const char *name;
};
extern const struct features_probe features_probes[];
extern const u32 features_probe_count;
#define FEATURES_PROBES_MAX 8

struct features_snapshot {
    struct cpuid_regs r[FEATURES_PROBES_MAX]; /* per probe; all 0 beyond the maximum leaf */
    u32 kind; /* CPUID.1AH:EAX, the whole of it, where the part is hybrid (CPUID.07H:EDX[15]); else 0 */
};
/* Read every probe (leaves beyond CPUID.0 / 80000000H's maximum read as 0) and the thread's kind. */
void features_read(const struct cpuid_source *s, struct features_snapshot *out);

struct features_diff {
    u32 probe, reg;       /* features_probes[probe], register 0..3 = EAX..EDX */
    u32 reference, value; /* masked */
};
/* The masked registers of `obs` that differ from `ref`, up to max of them in diffs; returns how many differ. */
u32 features_compare(const struct features_snapshot *ref, const struct features_snapshot *obs,
                     struct features_diff *diffs, u32 max);
