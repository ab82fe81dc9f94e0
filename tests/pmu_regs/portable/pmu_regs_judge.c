#include "tests/pmu_regs/portable/pmu_regs_judge.h"

void reserved_bits_begin(struct reserved_bits_tally *t, bool faults, bool documented)
{
    *t = (struct reserved_bits_tally){.faults = faults, .documented = documented};
}

bool reserved_bits_step(struct reserved_bits_tally *t, bool faulted)
{
    if (!t->tested && !t->documented)
        t->faults = faulted; /* undocumented: the first bit sets the expectation for the rest */
    t->faulted += faulted;
    t->tested++;
    bool wrong = faulted != t->faults;
    t->wrong += wrong;
    return wrong;
}

u64 pmu_regs_rdpmc_pattern(u32 bit)
{
    return 0x5A00 + 0x101ull * bit;
}

bool pmu_regs_rdpmc_agrees(const struct rdpmc_reading *r, u64 mask)
{
    mask &= 0xFFFFFFFFFFFFull; /* the CPL-3 read keeps 48 bits */
    return !r->write_rc && !r->msr_rc && r->msr && !r->cpl0_rc && (r->cpl0 & mask) == (r->msr & mask) &&
           r->cpl3 == (r->msr & mask);
}
