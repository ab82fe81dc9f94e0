/* CPU topology of one thread from its CPUID leaves: SMT / core / module / tile / die / package IDs.
 * Intel: leaf 0x1F, else 0x0B (SDM Vol.3A 9.9 "Programming considerations for hardware multi-threading
 * capable processors", Vol.2A CPUID 0BH/1FH). AMD: leaf 0x8000001E with 0x80000008 (AMD APM Vol.3 E.4.24,
 * E.4.7). Otherwise the legacy leaf 01H/04H fields (SDM Vol.3A 9.9.4 "Identifying Topological
 * Relationships in a MP System"). Portable: the values come through a cpuid_source. */
#pragma once
#include "lib/cpuid_source.h"
#include "lib/types.h"

enum topo_level { TOPO_SMT, TOPO_CORE, TOPO_MODULE, TOPO_TILE, TOPO_DIE, TOPO_PACKAGE, TOPO_LEVELS };

struct topology {
    const char *source;          /* "CPUID 0x1F", "CPUID 0x0B", "AMD 0x8000001E", "CPUID 0x01/0x04", "none" */
    u32 apic_id;                 /* the ID the decomposition applies to (x2APIC ID where available) */
    u32 shift[TOPO_LEVELS];      /* bits of the APIC ID below the next level; 0 where the level is absent */
    bool present[TOPO_LEVELS];
    u32 id[TOPO_LEVELS];         /* this thread's ID at each level (relative to its parent) */
    u32 core_type;               /* hybrid core type from leaf 0x1A EAX[31:24]; 0 when not hybrid */
};

void topology_decode(struct topology *t, const struct cpuid_source *src);

/* smp/topology's verdict over n threads' decodings (t[0] is the boot CPU's), shared by the kernel check
 * (tests/smp/suite_smp.c) and pmu-decode --checks: *dup = pairs of threads with the same APIC ID, *mixed = threads
 * decoded from another source than t[0]. present[i] false leaves thread i out (present NULL: every thread). */
void topology_judge(const struct topology *t, const bool *present, u32 n, u32 *dup, u32 *mixed);
