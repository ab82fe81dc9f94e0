/* Where a hardware thread sits for suite "uncore" (tests/uncore/portable/uncore_topology.h). */
#include "tests/uncore/portable/uncore_topology.h"

#include <string.h>

#include "tests/smp/portable/topology.h"

static u32 order(u32 n) /* log2, rounded up */
{
    u32 s = 0;
    while ((1u << s) < n && s < 31)
        s++;
    return s;
}

/* The L3's sharing count from CPUID 8000001DH (AMD APM Vol.3 E.4.23: EAX[4:0] cache type, 0 ends the list; EAX[7:5]
 * level; EAX[25:14] NumSharingCache, the threads sharing it minus one). 0 when no L3 is described. */
static u32 l3_sharing(const struct cpuid_source *src)
{
    struct cpuid_regs r;
    if (!cpuid_query(src, 0x80000000, 0, &r) || r.eax < 0x8000001D || r.eax > 0x8000FFFF)
        return 0;
    for (u32 sub = 0; sub < 8; sub++) {
        if (!cpuid_query(src, 0x8000001D, sub, &r) || !(r.eax & 0x1F))
            return 0;
        if (((r.eax >> 5) & 7) == 3)
            return ((r.eax >> 14) & 0xFFF) + 1;
    }
    return 0;
}

bool uncore_thread_place(const struct cpuid_source *src, enum uncore_scope scope, struct uncore_thread_place *p,
                         const char **why)
{
    memset(p, 0, sizeof(*p));
    struct topology t;
    topology_decode(&t, src);
    p->source = t.source;
    if (!strcmp(t.source, "none")) {
        *why = "no CPUID leaf 01H: no APIC ID to place the thread by";
        return false;
    }
    p->apic_id = t.apic_id;
    p->smt_shift = t.present[TOPO_SMT] ? t.shift[TOPO_SMT] : 0;
    p->core_key = p->smt_shift < 32 ? t.apic_id >> p->smt_shift : 0;
    if (scope == UNCORE_SCOPE_PACKAGE) {
        p->scope_key = t.id[TOPO_PACKAGE];
        return true;
    }
    u32 sharing = l3_sharing(src);
    if (!sharing) {
        *why = "no L3 in CPUID 0x8000001D: the threads sharing an L3 PMU are not known";
        return false;
    }
    /* The key is the L3's lowest APIC ID rather than Linux's APIC ID >> shift: on a part whose complexes differ in
     * size (Zen 5 and Zen 5c on one die) the shifted IDs of two complexes could be equal. */
    p->l3_shift = order(sharing);
    p->scope_key = p->l3_shift < 32 ? t.apic_id & ~((1u << p->l3_shift) - 1) : 0;
    return true;
}
