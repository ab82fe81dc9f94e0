#include "tests/smp/portable/topology.h"

#include <string.h>

static u32 log2_roundup(u32 n)
{
    u32 s = 0;
    while ((1u << s) < n && s < 31)
        s++;
    return s;
}

/* Leaf 0x1F/0x0B level types (ECX[15:8]): 1 SMT, 2 core, 3 module, 4 tile, 5 die. */
static bool decode_extended(struct topology *t, const struct cpuid_source *src, u32 leaf)
{
    struct cpuid_regs r;
    if (!cpuid_query(src, leaf, 0, &r) || ((r.ecx >> 8) & 0xFF) == 0 || r.ebx == 0)
        return false;
    t->apic_id = r.edx;
    u32 last_shift = 0;
    for (u32 sub = 0; sub < 16; sub++) {
        if (!cpuid_query(src, leaf, sub, &r))
            break;
        u32 type = (r.ecx >> 8) & 0xFF, shift = r.eax & 0x1F;
        if (type == 0)
            break;
        static const enum topo_level map[6] = {TOPO_PACKAGE, TOPO_SMT, TOPO_CORE, TOPO_MODULE, TOPO_TILE, TOPO_DIE};
        if (type < 6) {
            t->present[map[type]] = true;
            t->shift[map[type]] = shift;
        }
        last_shift = shift;
    }
    t->present[TOPO_PACKAGE] = true;
    t->shift[TOPO_PACKAGE] = last_shift;
    t->source = leaf == 0x1F ? "CPUID 0x1F" : "CPUID 0x0B";
    return true;
}

static bool decode_amd(struct topology *t, const struct cpuid_source *src, u32 max_ext)
{
    struct cpuid_regs r, e1;
    if (max_ext < 0x8000001E || !cpuid_query(src, 0x80000001, 0, &e1) || !((e1.ecx >> 22) & 1))
        return false; /* TopologyExtensions (CPUID 0x80000001 ECX[22]) */
    cpuid_query(src, 0x8000001E, 0, &r);
    u32 threads_per_core = ((r.ebx >> 8) & 0xFF) + 1;
    t->apic_id = r.eax;
    struct cpuid_regs s8;
    cpuid_query(src, 0x80000008, 0, &s8);
    u32 core_bits = (s8.ecx >> 12) & 0xF; /* ApicIdCoreIdSize: log2 of the IDs per package */
    if (!core_bits)
        core_bits = log2_roundup((s8.ecx & 0xFF) + 1);
    t->present[TOPO_SMT] = true;
    t->shift[TOPO_SMT] = log2_roundup(threads_per_core);
    t->present[TOPO_CORE] = true;
    t->shift[TOPO_CORE] = core_bits;
    t->present[TOPO_PACKAGE] = true;
    t->shift[TOPO_PACKAGE] = core_bits;
    t->source = "AMD 0x8000001E";
    return true;
}

static void decode_legacy(struct topology *t, const struct cpuid_source *src, u32 max_leaf)
{
    struct cpuid_regs r1, r4;
    cpuid_query(src, 1, 0, &r1);
    t->apic_id = r1.ebx >> 24;
    u32 logical = (r1.edx >> 28) & 1 ? (r1.ebx >> 16) & 0xFF : 1; /* HTT: EBX[23:16] IDs per package */
    u32 cores = 1;
    if (max_leaf >= 4 && cpuid_query(src, 4, 0, &r4) && (r4.eax & 0x1F))
        cores = (r4.eax >> 26) + 1; /* Intel: EAX[31:26] + 1 core IDs per package */
    u32 pkg_bits = log2_roundup(logical ? logical : 1);
    u32 core_bits = log2_roundup(cores);
    u32 smt_bits = pkg_bits > core_bits ? pkg_bits - core_bits : 0;
    t->present[TOPO_SMT] = true;
    t->shift[TOPO_SMT] = smt_bits;
    t->present[TOPO_CORE] = true;
    t->shift[TOPO_CORE] = pkg_bits;
    t->present[TOPO_PACKAGE] = true;
    t->shift[TOPO_PACKAGE] = pkg_bits;
    t->source = "CPUID 0x01/0x04";
}

void topology_decode(struct topology *t, const struct cpuid_source *src)
{
    memset(t, 0, sizeof(*t));
    struct cpuid_regs r;
    cpuid_query(src, 0, 0, &r);
    u32 max_leaf = r.eax;
    cpuid_query(src, 0x80000000, 0, &r);
    u32 max_ext = (r.eax >= 0x80000000 && r.eax < 0x8000FFFF) ? r.eax : 0;
    bool amd = false;
    {
        struct cpuid_regs v;
        cpuid_query(src, 0, 0, &v);
        amd = (v.ebx == 0x68747541 || v.ebx == 0x6f677948); /* "Auth"enticAMD, "Hygo"nGenuine */
    }
    bool done = (max_leaf >= 0x1F && decode_extended(t, src, 0x1F)) ||
                (max_leaf >= 0x0B && decode_extended(t, src, 0x0B)) || (amd && decode_amd(t, src, max_ext));
    if (!done) {
        if (max_leaf >= 1)
            decode_legacy(t, src, max_leaf);
        else
            t->source = "none";
    }
    /* IDs: each level's field lies between the previous present level's shift and its own. */
    u32 below = 0;
    for (int l = TOPO_SMT; l < TOPO_PACKAGE; l++) {
        if (!t->present[l])
            continue;
        u32 width = t->shift[l] > below ? t->shift[l] - below : 0;
        t->id[l] = width ? (t->apic_id >> below) & ((1u << width) - 1) : 0;
        below = t->shift[l] > below ? t->shift[l] : below;
    }
    t->id[TOPO_PACKAGE] = t->shift[TOPO_PACKAGE] < 32 ? t->apic_id >> t->shift[TOPO_PACKAGE] : 0;
    struct cpuid_regs h;
    if (max_leaf >= 7 && cpuid_query(src, 7, 0, &h) && ((h.edx >> 15) & 1) && max_leaf >= 0x1A &&
        cpuid_query(src, 0x1A, 0, &h))
        t->core_type = h.eax >> 24; /* SDM Vol.2A CPUID 1AH: 0x20 Atom, 0x40 Core */
}

void topology_judge(const struct topology *t, const bool *present, u32 n, u32 *dup, u32 *mixed)
{
    *dup = *mixed = 0;
    for (u32 i = 0; i < n; i++) {
        if (present && !present[i])
            continue;
        if (strcmp(t[i].source, t[0].source))
            (*mixed)++;
        for (u32 k = 0; k < i; k++)
            if ((!present || present[k]) && t[k].apic_id == t[i].apic_id)
                (*dup)++;
    }
}
