/* Counts of the event workloads known by construction, as functions of n (derivations in
 * tests/events/events_workloads.asm, next to the code). Portable and host-tested (tests/events/host/test_events_expect.c). */
#pragma once
#include "lib/types.h"

enum ew_id { EW_STRAIGHT, EW_LOOP, EW_BRANCHES, EW_MEM, EW_CLFLUSH, EW_LFSR, EW_CYCLES, EW_REP_STOS, EW_CALLS, EW_COUNT };

/* What the single-step oracle and the exact PMU events count: instructions retired, branches (control
 * transfers, near and far), conditional branches, taken near branches (conditional ones that went to their target
 * plus every unconditional near one), loads and stores (RET's pop is a load, CALL's push a store), CLFLUSHes; the
 * branch kinds: conditional taken and not taken, near calls (of them indirect, relative), near returns, relative
 * and indirect near jumps, far transfers; and the workload's return value. */
struct ew_counts {
    u64 insns, branches, cond, taken, loads, stores, flushes;
    u64 cond_taken, cond_ntaken, calls, ind_calls, rel_calls, rets, rel_jmps, ind_jmps, far;
    u64 ret;           /* fn's return value */
    bool ret_checked;  /* false where it depends on memory other code writes (ew_mem, ew_clflush) */
};

enum ew_count_field {
    EWC_INSNS, EWC_BRANCHES, EWC_COND, EWC_TAKEN, EWC_LOADS, EWC_STORES, EWC_FLUSHES,
    EWC_COND_TAKEN, EWC_COND_NTAKEN, EWC_CALLS, EWC_IND_CALLS, EWC_REL_CALLS, EWC_RETS, EWC_REL_JMPS, EWC_IND_JMPS,
    EWC_FAR, EWC_FIELDS
};
u64 ew_field(const struct ew_counts *c, enum ew_count_field f);
const char *ew_field_name(enum ew_count_field f);

const char *ew_name(enum ew_id w);
/* The largest n the workload takes (it clamps above; the expectation refuses). */
u64 ew_max_n(enum ew_id w);
/* Expected counts for ew_id run with n. False for an unknown id or n > ew_max_n. */
bool ew_expect(enum ew_id w, u64 n, struct ew_counts *out);
/* The number of ones among the first n bits the workload's LFSR shifts out (ew_lfsr's k). */
u64 ew_lfsr_ones(u64 n);
/* Whether a PMU's load/store events count this workload's memory accesses exactly: not REP strings (how many a
 * store event counts for one is model-specific), not ew_calls (whether a load or store event counts the stack
 * accesses of CALL, RET, PUSH and far RET, the catalogs do not say). The difference of two lengths of the others
 * holds explicit accesses only: their implicit ones (the final RET) are the same at every length. */
bool ew_mem_exact(enum ew_id w);
/* The lower bound on core cycles the workload's dependency chain imposes (ew_cycles: 8 per iteration). */
u64 ew_min_cycles(enum ew_id w, u64 n);

/* Counters that never counted (read 0 in every window that should count) when every miss of a check was on
 * them: the mask of those silent counters; 0 when there was no miss, or a miss on a counter that did count (then
 * it counts wrongly, and that is the finding). Under a hypervisor such counters are most often held by the host
 * (tests/events/events_pmu.c, silent_counters_deviation). */
u64 ew_silent_counters(u64 should_count, u64 counted, u64 missed_on);
