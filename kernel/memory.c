#include "kernel/memory.h"

#include <string.h>

#include "kernel/boot_state.h"

#define LOW_LIMIT 0x100000ull       /* nothing below 1 MiB: BIOS data, the AP trampoline page */
#define HIGH_LIMIT (1ull << 32)     /* the identity map */

static const struct boot_info *boot;
static u64 cursor, allocated;

void memory_init(const struct boot_info *bi)
{
    boot = bi;
    cursor = MAX((u64)(uintptr_t)__image_end, LOW_LIMIT);
}

static bool overlaps(u64 a, u64 alen, u64 b, u64 blen)
{
    return a < b + blen && b < a + alen;
}

/* [addr, addr+size) is usable: inside one available region, outside every other region and outside the
 * boot information (which the multiboot2 ACPI tags still point into). */
static bool usable(u64 addr, u64 size)
{
    bool inside = false;
    for (u32 i = 0; i < boot->mmap_count; i++) {
        const struct mem_region *r = &boot->mmap[i];
        if (r->type == MEM_AVAILABLE && addr >= r->base && addr + size <= r->base + r->length)
            inside = true;
        else if (r->type != MEM_AVAILABLE && overlaps(addr, size, r->base, r->length))
            return false;
    }
    return inside && !overlaps(addr, size, boot->info_phys, boot->info_size);
}

/* The address early_alloc would return, or 0 when nothing fits. */
static u64 find_room(u64 size, u64 align)
{
    if (!boot || !size)
        return 0;
    u64 addr = (cursor + align - 1) & ~(align - 1);
    while (addr + size <= HIGH_LIMIT) {
        if (usable(addr, size))
            return addr;
        /* Move to the next available region start (or boot-info end) above addr. */
        u64 next = HIGH_LIMIT;
        for (u32 i = 0; i < boot->mmap_count; i++) {
            const struct mem_region *r = &boot->mmap[i];
            u64 end = r->base + r->length;
            if (r->type == MEM_AVAILABLE && r->base > addr && r->base < next)
                next = r->base;
            if (r->type != MEM_AVAILABLE && end > addr && end < next && r->base <= addr + size)
                next = end;
        }
        u64 info_end = boot->info_phys + boot->info_size;
        if (info_end > addr && info_end < next && boot->info_phys <= addr + size)
            next = info_end;
        if (next <= addr)
            break;
        addr = (next + align - 1) & ~(align - 1);
    }
    return 0;
}

void *early_alloc(u64 size, u64 align)
{
    u64 addr = find_room(size, align);
    if (!addr)
        return NULL;
    cursor = addr + size;
    allocated += size;
    void *p = (void *)(uintptr_t)addr;
    memset(p, 0, size);
    return p;
}

bool early_alloc_fits(u64 size, u64 align)
{
    return find_room(size, align) != 0;
}

u64 memory_allocated(void)
{
    return allocated;
}
