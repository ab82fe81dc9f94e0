/* Suite uncore's register list of one scope: every counter, select, fixed, global register of the kind, found from
 * the descriptor (the box counts from the box-count register or the cores where the kind says), saved before a check
 * writes any and put back after, as found (the status by the kind's clear: a bit that was set stays set). The
 * accesses are the safe accessors, so under uncore=emulated they reach the emulated uncore. docs/uncore.md. */
#pragma once
#include "pmu/uncore_verdict.h"

#define UNCORE_REGS_MAX 96

struct uncore_counter_ref {
    const struct uncore_box_desc *box; /* NULL: the fixed counter */
    u32 ctl, ctr, index;
    u8 width;
};

struct uncore_regs {
    const struct uncore_kind_desc *k;
    u32 ncounters;
    struct uncore_counter_ref c[UNCORE_REGS_MAX / 2];
    /* Saved values: every ctl and ctr, the fixed pair, the global control and the status. */
    u32 nsaved;
    u32 msr[UNCORE_REGS_MAX + 4];
    u64 val[UNCORE_REGS_MAX + 4];
    int read_fault[UNCORE_REGS_MAX + 4];
    u64 status;
};

/* The counters of the kind in this scope (general counters, then the fixed one); cores: the scope's cores where a
 * box count is capped by them. */
void uncore_regs_find(struct uncore_regs *r, const struct uncore_kind_desc *k, u32 cores);
/* Save every register (the ones that read); put them back (the global control cleared first and set last). */
void uncore_regs_save(struct uncore_regs *r);
void uncore_regs_restore(struct uncore_regs *r);
u64 uncore_width_mask(u8 width);
