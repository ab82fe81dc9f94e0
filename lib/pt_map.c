/* On-demand identity mappings above 4 GiB (see pt_map.h). */
#include "lib/pt_map.h"

#define ADDR_MASK 0x000FFFFFFFFFF000ull /* bits 51:12 of an entry that points to a table */
#define PAGE_2M_MASK 0x000FFFFFFFE00000ull
#define PAGE_1G_MASK 0x000FFFFFC0000000ull

static u32 index_at(u64 va, u32 shift)
{
    return (u32)(va >> shift) & 511;
}

const char *pt_map_refusal(u64 addr, u64 len, u32 maxphyaddr)
{
    if (len == 0 || addr + len < addr)
        return "empty or wrapping range";
    u64 end = addr + len;
    if (maxphyaddr < 64 && end > (1ull << maxphyaddr))
        return "beyond the CPU's physical address width (CPUID 80000008H MAXPHYADDR)";
    if (end > PT_IDENTITY_LIMIT)
        return "at or above 2^47, which a 4-level identity map cannot reach";
    return NULL;
}

/* The table entry e points to, allocating it when e is not present. NULL when no table is left. */
static u64 *next_table(const struct pt_ops *ops, u64 *e)
{
    if (!(*e & PT_P)) {
        u64 t = ops->alloc_table(ops->ctx);
        if (!t)
            return NULL;
        *e = t | PT_P | PT_RW; /* the leaf's bits decide caching and access */
    }
    return ops->table(ops->ctx, *e & ADDR_MASK);
}

/* One 2 MiB page at pa (identity). False when a table could not be allocated. */
static bool map_2m(const struct pt_ops *ops, u64 pml4, u64 pa, u64 flags)
{
    u64 *pdpt = next_table(ops, &ops->table(ops->ctx, pml4)[index_at(pa, 39)]);
    if (!pdpt)
        return false;
    u64 *pdpte = &pdpt[index_at(pa, 30)];
    if ((*pdpte & (PT_P | PT_PS)) == (PT_P | PT_PS)) /* already a 1 GiB page */
        return true;
    u64 *pd = next_table(ops, pdpte);
    if (!pd)
        return false;
    u64 *pde = &pd[index_at(pa, 21)];
    if (!(*pde & PT_P))
        *pde = pa | flags | PT_PS;
    return true;
}

const char *pt_map_identity(const struct pt_ops *ops, u64 pml4, u64 addr, u64 len, u64 flags, u32 maxphyaddr)
{
    const char *why = pt_map_refusal(addr, len, maxphyaddr);
    if (why)
        return why;
    u64 end = addr + len;
    for (u64 pa = addr & ~(PT_PAGE_2M - 1); pa < end; pa += PT_PAGE_2M)
        if (!map_2m(ops, pml4, pa, flags))
            return "no memory left for page tables";
    return NULL;
}

u64 pt_translate(const struct pt_ops *ops, u64 pml4, u64 va, u64 *leaf)
{
    const u64 *t = ops->table(ops->ctx, pml4);
    for (u32 shift = 39;; shift -= 9) {
        u64 e = t[index_at(va, shift)];
        if (!(e & PT_P))
            return ~0ull;
        if (shift == 12 || (shift != 39 && (e & PT_PS))) {
            if (leaf)
                *leaf = e;
            u64 mask = shift == 30 ? PAGE_1G_MASK : shift == 21 ? PAGE_2M_MASK : ADDR_MASK;
            return (e & mask) | (va & ((1ull << shift) - 1));
        }
        t = ops->table(ops->ctx, e & ADDR_MASK);
    }
}
