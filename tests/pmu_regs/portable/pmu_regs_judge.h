/* Suite "pmu_regs"'s decisions from the values its checks read (tests/pmu_regs/suite_pmu_regs.c), portable so that
 * the host tests hold them against a vendor's rule and a broken one (tests/pmu_regs/host/test_pmu_regs.c). */
#pragma once
#include "lib/types.h"

/* pmu_regs/reserved_bits: each reserved select bit written alone must fault (#GP) or be ignored, as the kind's
 * manual says; where it says nothing (documented false) the first bit sets the expectation for the rest, so every
 * reserved bit must behave alike. */
struct reserved_bits_tally {
    bool faults;     /* what a write must do: #GP (true) or be ignored */
    bool documented; /* whether the manual says which */
    u32 tested, faulted, wrong;
};
void reserved_bits_begin(struct reserved_bits_tally *t, bool faults, bool documented);
/* One reserved bit's write, faulted or not; returns true when it behaved otherwise than expected (counted). */
bool reserved_bits_step(struct reserved_bits_tally *t, bool faulted);

/* pmu_regs/rdpmc_every_counter: one counter given a distinct value while stopped, read back by RDMSR, by RDPMC at
 * CPL 0 and by RDPMC at CPL 3 (CR4.PCE = 1). */
u64 pmu_regs_rdpmc_pattern(u32 bit); /* the distinct value written to counter `bit` */
struct rdpmc_reading {
    int write_rc, msr_rc, cpl0_rc; /* the counter write, its RDMSR, RDPMC at CPL 0: 0 or a fault */
    u64 msr;                       /* the counter read by RDMSR */
    u64 cpl0;                      /* RDPMC at CPL 0 */
    u64 cpl3;                      /* RDPMC at CPL 3: bits 47:0 of the value, or a fault in bits 63:48 */
};
/* Whether the three reads agree on a nonzero value within the counter's width (`mask`; the CPL-3 read carries 48
 * bits): a #GP on a valid index, or another counter's value, is a finding. */
bool pmu_regs_rdpmc_agrees(const struct rdpmc_reading *r, u64 mask);
