/* Where a hardware thread sits for suite "uncore": the key of its uncore scope (the package ID on Intel, the ID of the
 * L3 it shares on AMD, a CCX) and the key of its core, from its own CPUID leaves, so that
 * tests/uncore/portable/uncore_scope.c groups the machine's threads into scopes and ranks each package's cores (the
 * routing field's "core n", assumed to be that rank: docs/uncore.md). The package and core come from the decoding
 * smp/topology prints (tests/smp/portable/topology.c: CPUID 1FH/0BH, AMD 8000001EH, or the legacy 01H/04H fields); the
 * L3 from CPUID 8000001DH as Linux groups AMD's L3 PMU (arch/x86/kernel/cpu/cacheinfo.c, the LLC ID: the APIC ID
 * shifted by the order of the L3's sharing count; amd/uncore.c counts per LLC ID). Portable: through a cpuid_source. */
#pragma once
#include "lib/cpuid_source.h"
#include "pmu/uncore_kind.h"

struct uncore_thread_place {
    u32 apic_id;
    u32 scope_key;      /* package ID, or the lowest APIC ID of the threads sharing the L3 */
    u32 core_key;       /* the APIC ID above the SMT bits: one key per core of the machine */
    u32 smt_shift;      /* APIC ID bits of the threads of a core */
    u32 l3_shift;       /* UNCORE_SCOPE_L3: APIC ID bits of the threads sharing the L3 */
    const char *source; /* the topology's source ("CPUID 0x0B", "AMD 0x8000001E", ...) */
};

/* This thread's place for a kind of `scope`; false with *why when the CPUID leaves do not give it. */
bool uncore_thread_place(const struct cpuid_source *src, enum uncore_scope scope, struct uncore_thread_place *p,
                         const char **why);
