#include "tests/smp/portable/features_compare.h"

#include <string.h>

/* Per-thread fields, masked out (everything else in these leaves describes the core, not the thread):
 *  - 01H:EBX[31:24] initial APIC ID, [23:16] addressable logical processor IDs (SDM Vol.2A, CPUID, Table 3-8);
 *    01H:ECX[27] OSXSAVE mirrors this thread's CR4.OSXSAVE (SDM Vol.2A, Table 3-10): software state.
 *  - 06H:EDX[31:16] this thread's row in the Hardware Feedback Interface / Thread Director table (SDM Vol.3B,
 *    "Hardware Feedback Interface and Intel Thread Director", CPUID leaf 06H; Linux drivers/thermal/intel/
 *    intel_hfi.c reads it per CPU). Alder Lake-P: CPU#0 EDX=0x00000003, CPU#9 0x00030003.
 *  - 07H.0:ECX[4] OSPKE mirrors this thread's CR4.PKE (SDM Vol.2A, Table 3-8): software state.
 * Hybrid parts (CPUID.07H:EDX[15]) compare a thread with the first thread of the same kind: the whole
 * CPUID.1AH:EAX, core type [31:24] and native model ID [23:0] (SDM Vol.2A, CPUID leaf 1AH), as Linux tells the
 * Atom kinds of Meteor Lake and Arrow Lake-H apart (low-power E-cores differ from E-cores in 80000008H:EBX[9]
 * and in leaf 0AH). */
const struct features_probe features_probes[] = {
    {0x1, 0, {~0u, 0x0000FFFFu, 0xF7FFFFFFu, ~0u}, "01H"},
    {0x6, 0, {~0u, ~0u, ~0u, 0x0000FFFFu}, "06H"},
    {0x7, 0, {~0u, ~0u, 0xFFFFFFEFu, ~0u}, "07H.0"},
    {0xA, 0, {~0u, ~0u, ~0u, ~0u}, "0AH"},
    {0x80000001, 0, {~0u, ~0u, ~0u, ~0u}, "80000001H"},
    {0x80000007, 0, {~0u, ~0u, ~0u, ~0u}, "80000007H"},
    {0x80000008, 0, {~0u, ~0u, ~0u, ~0u}, "80000008H"},
};
const u32 features_probe_count = ARRAY_SIZE(features_probes);
_Static_assert(ARRAY_SIZE(features_probes) <= FEATURES_PROBES_MAX, "FEATURES_PROBES_MAX");

void features_read(const struct cpuid_source *s, struct features_snapshot *out)
{
    memset(out, 0, sizeof(*out));
    struct cpuid_regs r0, r8, r7;
    cpuid_query(s, 0, 0, &r0);
    cpuid_query(s, 0x80000000, 0, &r8);
    for (u32 i = 0; i < features_probe_count; i++) {
        u32 leaf = features_probes[i].leaf, max = leaf >= 0x80000000 ? r8.eax : r0.eax;
        if (leaf <= max)
            cpuid_query(s, leaf, features_probes[i].sub, &out->r[i]);
    }
    if (r0.eax >= 0x1A && cpuid_query(s, 7, 0, &r7) && (r7.edx & BIT(15))) {
        struct cpuid_regs h;
        cpuid_query(s, 0x1A, 0, &h);
        out->kind = h.eax;
    }
}

u32 features_compare(const struct features_snapshot *ref, const struct features_snapshot *obs,
                     struct features_diff *diffs, u32 max)
{
    u32 n = 0;
    for (u32 i = 0; i < features_probe_count; i++) {
        const u32 *a = &ref->r[i].eax, *b = &obs->r[i].eax;
        for (u32 k = 0; k < 4; k++) {
            u32 m = features_probes[i].mask[k];
            if ((a[k] & m) == (b[k] & m))
                continue;
            if (n < max)
                diffs[n] = (struct features_diff){i, k, a[k] & m, b[k] & m};
            n++;
        }
    }
    return n;
}
