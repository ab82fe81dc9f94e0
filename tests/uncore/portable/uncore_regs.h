/* Suite uncore's register list of one scope: every counter, select, fixed, global register of the kind, found from
 * the descriptor (the box counts from the box-count register or the cores where the kind says), saved before a check
 * writes any and put back after, as found (the status by the kind's clear: a bit that was set stays set); and the
 * probe a check starts with on hardware (do the registers exist and hold a write). Every access goes through a
 * struct hw_access (pmu/access.h): in the kernel the safe accessors (so under uncore=emulated they reach the emulated
 * uncore, and on a recognised part its own registers, a #GP returned as a value), in the host tests the register
 * model (tests/uncore/host/test_uncore_regs.c). Portable. docs/uncore.md. */
#pragma once
#include "pmu/access.h"
#include "pmu/uncore_verdict.h"

#define UNCORE_REGS_MAX 96

struct uncore_counter_ref {
    const struct uncore_box_desc *box; /* NULL: the fixed counter */
    u32 ctl, ctr, index;
    u8 width;
};

struct uncore_regs {
    const struct uncore_kind_desc *k;
    struct hw_access *hw;
    u32 ncounters;
    struct uncore_counter_ref c[UNCORE_REGS_MAX / 2];
    /* Saved values: every ctl and ctr, the fixed pair, the global control and the status. */
    u32 nsaved;
    u32 msr[UNCORE_REGS_MAX + 4];
    u64 val[UNCORE_REGS_MAX + 4];
    int read_fault[UNCORE_REGS_MAX + 4];
    u64 status;
};

/* The counters of the kind in this scope (general counters, then the fixed one), reached through hw; cores: the
 * scope's cores, where a box count is capped by them (and where the box-count register faults). */
void uncore_regs_find(struct uncore_regs *r, struct hw_access *hw, const struct uncore_kind_desc *k, u32 cores);
/* Save every register (the ones that read); put them back (the global control cleared first and set last). */
void uncore_regs_save(struct uncore_regs *r);
void uncore_regs_restore(struct uncore_regs *r);
u64 uncore_width_mask(u8 width);

/* The probe: the kind's first register read (the global control, else box 0's first select), then general counter 0
 * written with a pattern and read back, with the counters stopped, both put back as found. */
#define UNCORE_PROBE_PATTERN 0x5a5a5a5aull /* below every counter's width */
struct uncore_probe {
    u32 msr, ctr;           /* what was probed */
    int fault, ctr_fault;   /* HW_FAULT | vector of the first read, of the counter's accesses; 0: none */
    u64 value, read_back;   /* the first register as found; what the counter read after the pattern's write */
    bool backed;            /* the counter held the write (plus at most 2^24 counted since) */
};
/* true when the registers answered (backed); else p says how they did not. */
bool uncore_regs_probe(struct hw_access *hw, const struct uncore_kind_desc *k, struct uncore_probe *p);
/* One line of evidence for a probe that failed ("MSR 0x391 (the global control) read: #GP (vector 13)"). */
void uncore_probe_describe(const struct uncore_kind_desc *k, const struct uncore_probe *p, struct strbuf *sb);
