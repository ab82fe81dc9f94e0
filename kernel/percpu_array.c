/* Per-CPU arrays grown at boot (kernel/percpu_array.h). */
#include "kernel/percpu_array.h"

#include <string.h>

#include "lib/format.h"
#include "kernel/memory.h"
#include "kernel/x86.h"

extern const struct percpu_array __percpu_arrays_start[], __percpu_arrays_end[];

static u32 capacity = 1;

static u64 align_up(u64 v, u64 a)
{
    return (v + a - 1) & ~(a - 1);
}

/* Each array starts on its own cache line, so CPUs writing their elements of different arrays do not share
 * lines at the array boundaries. */
static u64 array_align(const struct percpu_array *a)
{
    return MAX(a->align, 64u);
}

static u64 block_bytes(u32 count)
{
    u64 total = 0;
    for (const struct percpu_array *a = __percpu_arrays_start; a < __percpu_arrays_end; a++)
        total = align_up(total, array_align(a)) + (u64)a->elem_size * count;
    return total;
}

u32 percpu_arrays_grow(u32 count, char *why, u32 why_len)
{
    if (count <= capacity)
        return capacity;
    /* One block for all of them: either every array grows or none does. When count CPUs do not fit, as many
     * as do (a failed early_alloc takes nothing, so the search is free). */
    u32 want = count;
    u8 *block = early_alloc(block_bytes(count), 4096);
    if (!block) {
        k_snprintf(why, why_len, "no available RAM below 4 GiB for %llu bytes of per-CPU state (%u CPUs of %llu bytes)",
                   (unsigned long long)block_bytes(want), want, (unsigned long long)percpu_bytes_per_cpu());
        u32 lo = capacity, hi = count; /* lo fits (nothing to allocate), hi does not */
        while (hi - lo > 1) {
            u32 mid = lo + (hi - lo) / 2;
            if (early_alloc_fits(block_bytes(mid), 4096))
                lo = mid;
            else
                hi = mid;
        }
        if (lo == capacity)
            return capacity;
        count = lo;
        block = early_alloc(block_bytes(count), 4096);
        if (!block)
            return capacity;
    }
    u64 flags = irq_save(); /* nothing may run on the old element while it moves */
    u64 off = 0;
    for (const struct percpu_array *a = __percpu_arrays_start; a < __percpu_arrays_end; a++) {
        off = align_up(off, array_align(a));
        u8 *mem = block + off;
        memcpy(mem, *a->base, (u64)a->elem_size * capacity);
        *a->base = mem;
        off += (u64)a->elem_size * count;
    }
    capacity = count;
    irq_restore(flags);
    return capacity;
}

u32 percpu_capacity(void)
{
    return capacity;
}

u64 percpu_bytes_per_cpu(void)
{
    u64 n = 0;
    for (const struct percpu_array *a = __percpu_arrays_start; a < __percpu_arrays_end; a++)
        n += a->elem_size;
    return n;
}
