/* Physical addresses above the boot identity map (0-4 GiB, boot/entry.asm), mapped on demand: virtual ==
 * physical, 2 MiB pages, into the same 4-level tables. Firmware puts ACPI tables and GOP framebuffers there
 * (Above-4G decoding places 64-bit BARs high). Portable: the tables are reached through callbacks, so the host
 * test (tests/host/test_pt_map.c) builds them in ordinary memory; kernel/paging.c is the kernel's side. */
#pragma once
#include "lib/types.h"

#define PT_LOW_MAPPED (1ull << 32) /* mapped by boot/entry.asm */
/* With 4-level paging a linear address is canonical when bits 63:47 equal bit 47 (SDM Vol.3A 4.5), so an
 * identity mapping reaches physical addresses below 2^47 only. */
#define PT_IDENTITY_LIMIT (1ull << 47)
#define PT_PAGE_2M (1ull << 21)

/* Entry bits (SDM Vol.3A 4.5, Tables 4-15 to 4-20). */
#define PT_P (1ull << 0)
#define PT_RW (1ull << 1)
#define PT_PWT (1ull << 3)
#define PT_PCD (1ull << 4)
#define PT_PS (1ull << 7) /* in a PDPT or PD entry: maps a 1 GiB or 2 MiB page */

struct pt_ops {
    void *ctx;
    u64 (*alloc_table)(void *ctx);      /* physical address of a zeroed, 4 KiB-aligned table; 0 when none left */
    u64 *(*table)(void *ctx, u64 phys); /* where the table at phys can be read and written */
};

/* NULL when [addr, addr+len) can be identity-mapped on a CPU with maxphyaddr physical address bits (CPUID
 * 80000008H EAX[7:0]), else why not: an empty or wrapping range, at or past 2^maxphyaddr (the bits above
 * MAXPHYADDR are reserved in an entry, SDM Vol.3A 4.5), or past PT_IDENTITY_LIMIT. */
const char *pt_map_refusal(u64 addr, u64 len, u32 maxphyaddr);

/* Identity-map [addr, addr+len), rounded out to 2 MiB pages, with leaf bits flags (PT_P | PT_RW and the cache
 * bits); pages and 1 GiB pages already present are left as they are. NULL on success, else why not (tables
 * added before the failure stay: they map nothing wrong). */
const char *pt_map_identity(const struct pt_ops *ops, u64 pml4, u64 addr, u64 len, u64 flags, u32 maxphyaddr);

/* The physical address va translates to, or ~0 when not mapped; *leaf gets the leaf entry (may be NULL). */
u64 pt_translate(const struct pt_ops *ops, u64 pml4, u64 va, u64 *leaf);
