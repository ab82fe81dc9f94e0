/* On-demand mappings above 4 GiB (see paging.h). */
#include "kernel/paging.h"

#include "kernel/boot_state.h"
#include "kernel/memory.h"
#include "lib/pt_map.h"
#include "kernel/console.h"
#include "kernel/x86.h"

extern u8 boot_pml4[]; /* boot/entry.asm; identity-mapped, so its address is its physical address */

#define RECORDS_MAX 8

struct mapping_record {
    u64 addr, len;    /* the first request that mapped (or could not map) these pages */
    const char *what; /* "mapped write-back", "mapped uncached-minus", or why not */
    bool refused;
};
static struct mapping_record records[RECORDS_MAX];
static u32 record_count;

static u64 alloc_table(void *ctx)
{
    (void)ctx;
    return (u64)(uintptr_t)early_alloc(4096, 4096); /* below 4 GiB: reachable through the boot map */
}

static u64 *table_at(void *ctx, u64 phys)
{
    (void)ctx;
    return (u64 *)(uintptr_t)phys;
}

static const struct pt_ops ops = {NULL, alloc_table, table_at};

/* SDM Vol.3A 4.1.4: CPUID 80000008H EAX[7:0]; without that leaf, 36 on a CPU with PAE (every long-mode CPU).
 * Read once: a table is read in 64-byte pieces, and CPUID exits to the hypervisor in a guest. */
static u32 maxphyaddr(void)
{
    static u32 bits;
    if (!bits) {
        u32 a, b, c, d;
        cpuid_count(0x80000000, 0, &a, &b, &c, &d);
        bits = 36;
        if (a >= 0x80000008) {
            cpuid_count(0x80000008, 0, &a, &b, &c, &d);
            bits = a & 0xFF;
        }
    }
    return bits;
}

/* Once per 2 MiB page: a refused table is asked for again by every reader. */
static void record(u64 addr, u64 len, const char *what, bool refused)
{
    for (u32 i = 0; i < record_count; i++)
        if (records[i].addr / PT_PAGE_2M == addr / PT_PAGE_2M && records[i].refused == refused)
            return;
    if (record_count < RECORDS_MAX)
        records[record_count++] = (struct mapping_record){addr, len, what, refused};
}

/* Every 2 MiB page of [addr, addr+len) is mapped already (the usual case for the second read of a table). */
static bool mapped(u64 addr, u64 len)
{
    for (u64 pa = addr & ~(PT_PAGE_2M - 1); pa < addr + len; pa += PT_PAGE_2M)
        if (pt_translate(&ops, (u64)(uintptr_t)boot_pml4, pa, NULL) != pa)
            return false;
    return true;
}

/* Not-present to present needs no TLB invalidation (SDM Vol.3A 4.10.4.3), so nothing is flushed. */
static const char *map(u64 addr, u64 len, u64 cache_bits, const char *what)
{
    if (!len || addr + len <= PT_LOW_MAPPED)
        return NULL;
    const char *why = pt_map_refusal(addr, len, maxphyaddr());
    if (!why && mapped(addr, len))
        return NULL;
    if (!why)
        why = pt_map_identity(&ops, (u64)(uintptr_t)boot_pml4, addr, len, PT_P | PT_RW | cache_bits, maxphyaddr());
    record(addr, len, why ? why : what, why != NULL);
    return why;
}

/* Write-back (PAT entry 0, SDM Vol.3A 12.12.4) only over RAM: a bogus table pointer into a 64-bit BAR must not
 * become a cached read of device registers. */
static bool reach(u64 addr, u64 len)
{
    if (!len || addr + len <= PT_LOW_MAPPED)
        return true;
    const char *not_ram = bootinfo_ram_refusal(&boot_state()->info, addr, len);
    if (not_ram) {
        record(addr, len, not_ram, true);
        return false;
    }
    return !map(addr, len, 0, "mapped write-back");
}

const struct phys_window phys_all = {0, PT_IDENTITY_LIMIT, (const u8 *)0, reach};

/* PCD alone selects PAT entry 2, UC- after reset (SDM Vol.3A 12.12.3, 12.12.4); UC- over an MTRR WC range is WC,
 * over any other it is UC (SDM Vol.3A 12.5.2.2, effective memory types). */
const char *paging_map_device(u64 addr, u64 len)
{
    return map(addr, len, PT_PCD, "mapped uncached-minus");
}

void paging_report(void)
{
    for (u32 i = 0; i < record_count; i++)
        console_comment("memory: 0x%llx-0x%llx above 4 GiB %s%s", (unsigned long long)records[i].addr,
                        (unsigned long long)(records[i].addr + records[i].len - 1),
                        records[i].refused ? "not mapped, not read: " : "", records[i].what);
}
