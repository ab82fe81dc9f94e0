/* pmu_fault=counters-survive-reset (emul/kernel/pmu_emul.h): the emulated PMU's counters, selects and fixed control
 * must outlive a machine reset, as they did under QEMU before 4c7f05232cd1. The model lives in the kernel's
 * BSS, which the next boot zeroes, so with that fault only each CPU's registers are also kept in a block just
 * under the top of the highest available RAM region below 4 GiB: QEMU keeps RAM across a system reset
 * (observed under QEMU 7.2) and nothing else here allocates from the top (kernel/memory.c allocates upwards from the
 * image). Each CPU's entry has a magic and a checksum; a block that does not verify is ignored (the fault then
 * goes unseen and its row in tools/fault-expect.txt fails, which says so). Without the fault nothing is read or
 * written. */
#include "emul/kernel/pmu_emul_persist.h"

#include <string.h>

#include "kernel/boot_state.h"

#define PERSIST_MAGIC 0x70657273697374ull /* "persist" */
#define PERSIST_CPUS 64
#define PERSIST_BYTES (1u << 20)           /* the block sits this far below the top of RAM */

struct persist_entry {
    u64 magic;
    u64 kind_hash;
    u64 gp_ctr[PMU_MODEL_MAX_GP], gp_sel[PMU_MODEL_MAX_GP], fx_ctr[PMU_MODEL_MAX_FIXED], fixed_ctrl;
    u64 sum;
};

static struct persist_entry *block;

static u64 hash_str(const char *s)
{
    u64 h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (u8)*s) * 1099511628211ull;
    return h;
}

static u64 sum_of(const struct persist_entry *e)
{
    const u64 *w = (const u64 *)e;
    u64 s = 0x5a5a5a5a5a5a5a5aull;
    for (size_t i = 0; i < offsetof(struct persist_entry, sum) / 8; i++)
        s = (s << 7 | s >> 57) ^ w[i];
    return s;
}

void pmu_emul_persist_boot(void)
{
    u64 top = 0;
    for (u32 i = 0; i < boot_state()->info.mmap_count; i++) {
        const struct mem_region *r = &boot_state()->info.mmap[i];
        u64 end = r->base + r->length;
        if (r->type == MEM_AVAILABLE && end <= (1ull << 32) && end > top && r->length > 2 * PERSIST_BYTES)
            top = end;
    }
    block = top ? (struct persist_entry *)(uintptr_t)((top - PERSIST_BYTES) & ~0xfffull) : NULL;
}

bool pmu_emul_persist_restore(u32 cpu, struct pmu_model *m, const char *kind)
{
    if (!block || cpu >= PERSIST_CPUS)
        return false;
    const struct persist_entry *e = &block[cpu];
    if (e->magic != PERSIST_MAGIC || e->kind_hash != hash_str(kind) || e->sum != sum_of(e))
        return false;
    memcpy(m->gp_ctr, e->gp_ctr, sizeof(m->gp_ctr));
    memcpy(m->gp_sel, e->gp_sel, sizeof(m->gp_sel));
    memcpy(m->fx_ctr, e->fx_ctr, sizeof(m->fx_ctr));
    m->fixed_ctrl = e->fixed_ctrl;
    return true;
}

void pmu_emul_persist_save(u32 cpu, const struct pmu_model *m, const char *kind)
{
    if (!block || cpu >= PERSIST_CPUS)
        return;
    struct persist_entry *e = &block[cpu];
    e->magic = 0; /* invalid while it changes */
    e->kind_hash = hash_str(kind);
    memcpy(e->gp_ctr, m->gp_ctr, sizeof(e->gp_ctr));
    memcpy(e->gp_sel, m->gp_sel, sizeof(e->gp_sel));
    memcpy(e->fx_ctr, m->fx_ctr, sizeof(e->fx_ctr));
    e->fixed_ctrl = m->fixed_ctrl;
    e->magic = PERSIST_MAGIC;
    e->sum = sum_of(e);
}
