/* Physical memory for per-CPU stacks, taken at run time from RAM the loader reports as available, so the
 * image stays small and only CPUs that exist cost memory. Never freed. */
#pragma once
#include "lib/bootinfo.h"
#include "lib/types.h"

void memory_init(const struct boot_info *bi);
/* size bytes aligned to align (a power of two), zeroed, below 4 GiB (identity-mapped); NULL when no
 * available region has room. */
void *early_alloc(u64 size, u64 align);
/* early_alloc(size, align) would succeed; nothing is taken. */
bool early_alloc_fits(u64 size, u64 align);
u64 memory_allocated(void);
