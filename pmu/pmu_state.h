/* The core PMU's register state as a list (every counter, select, the fixed-counter control, the global control
 * and status, KNC's SPFLT control), read through the bound PMU's hw_access so it works unchanged on hardware and
 * on a model. Used at entry on every thread (pmu/kernel/pmu_cpu.c: what firmware left, pmu/entry_state.h), by suite
 * init (the state must survive INIT: KNC PMU 1.4.4; SDM Vol.3A Table 10-1 "Perf. counters and event select: INIT
 * unchanged") and suite reset (it must come back at its documented reset values, pmu/reset_values.h). Portable. */
#pragma once
#include "pmu/pmu.h"

enum pmu_sreg { PMU_SREG_GP_CTR, PMU_SREG_GP_SEL, PMU_SREG_FIXED_CTR, PMU_SREG_FIXED_CTRL, PMU_SREG_GLOBAL_CTRL,
                PMU_SREG_GLOBAL_STATUS, PMU_SREG_SPFLT };

#define PMU_STATE_MAX 48
struct pmu_state_entry {
    u8 reg;    /* enum pmu_sreg */
    u8 index;  /* counter number for counters and selects */
    int rc;    /* 0, or the access error (pmu_strerror) */
    u64 value;
};
struct pmu_state {
    u32 count;
    struct pmu_state_entry e[PMU_STATE_MAX];
};

/* Read every register this PMU has, in a fixed order (the same order for the same caps). */
void pmu_state_read(struct pmu *p, struct pmu_state *s);
/* "gp0", "sel0", "fixed1", "fixed_ctrl", "global_ctrl", "global_status", "spflt". */
void pmu_state_name(const struct pmu_state_entry *e, char *buf, size_t size);

/* A state no reset or firmware would leave: every counter preset to its own non-zero value, every select and
 * FIXED_CTR_CTRL with distinct legal encodings, the global control with a pattern, and (where the PMU can set
 * status: Intel v4 GLOBAL_STATUS_SET, AMD PerfMonV2 STATUS_SET) a pending overflow bit on GP counter 0.
 * Nothing counts afterwards: each counter is stopped either by its select / fixed field (EN clear, no ring) or,
 * with a global control, by its clear global bit, so every one of those registers' survival is itself compared.
 * Returns 0 or the first error (*why names the step). *status_set_bits gets the overflow bits set (0 if none). */
int pmu_state_program_distinct(struct pmu *p, u64 *status_set_bits, const char **why);

/* Entries of a and b (read from the same PMU) that differ, as a bitmask over the entry index (first 64). */
u64 pmu_state_diff(const struct pmu_state *a, const struct pmu_state *b);
/* The same, over the control registers only (selects, FIXED_CTR_CTRL, the global control, KNC's SPFLT): the
 * counters' values and the overflow status are left out (a counter the firmware left enabled moves on; status bits
 * are not writable on most PMUs). */
u64 pmu_state_controls_diff(const struct pmu_state *a, const struct pmu_state *b);

/* Write back a state read by pmu_state_read on this PMU (the firmware's, at the end of the run): everything stopped
 * first (global control, FIXED_CTR_CTRL, each select), then each counter's value, then each select, FIXED_CTR_CTRL,
 * SPFLT and the global control last, so that what the firmware left counting counts again from its own value and
 * nothing counts in between. The overflow status is not written (SDM Vol.3B 21.2.4: only v4's GLOBAL_STATUS_SET
 * could, and its bits mean nothing once the counters moved). Entries that could not be read are skipped. Every step
 * runs even after one fails (the controls are never left stopped); returns 0 or the first error (*why names it). */
int pmu_state_restore(struct pmu *p, const struct pmu_state *s, const char **why);
